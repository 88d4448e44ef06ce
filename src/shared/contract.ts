import { z } from 'zod'
import { stringOfAtMostBytes } from './byte-limit'
import type { EventChannel, InvokeChannel } from './channels'
import { catalogInvokeContract } from './catalog-contract'
import { presetsEventContract, presetsInvokeContract } from './presets-contract'
import { runsEventContract, runsInvokeContract } from './runs-contract'
import { scenarioInvokeContract } from './scenario-contract'
import { targetsEventContract, targetsInvokeContract } from './targets-contract'
import { teamStoreInvokeContract } from './team-store-contract'
import { toolArchiveInvokeContract } from './tool-archive-contract'

/**
 * The one API contract between the renderer and main. Every invoke channel has a request and a
 * response schema, every event channel a payload schema. Main validates each request before a
 * handler sees it and each response before it leaves; the renderer gets types derived from here.
 * Payloads are plain JSON: no classes, dates as ISO strings.
 */

export const Theme = z.enum(['system', 'light', 'dark'])
export type Theme = z.infer<typeof Theme>

export const Settings = z.object({
  theme: Theme
})
export type Settings = z.infer<typeof Settings>

export const SettingsPatch = Settings.partial().strict()
export type SettingsPatch = z.infer<typeof SettingsPatch>

export const Transport = z.enum(['ipc', 'bridge'])
export type Transport = z.infer<typeof Transport>

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  platform: z.string(),
  arch: z.string(),
  versions: z.object({
    node: z.string(),
    electron: z.string().optional(),
    chrome: z.string().optional()
  }),
  /** How this renderer reaches main: the Electron preload (`ipc`) or `virtbench serve` (`bridge`). */
  transport: Transport,
  /** Where runs, presets, targets and settings are kept. */
  dataDir: z.string()
})
export type AppInfo = z.infer<typeof AppInfo>

export const NoticeLevel = z.enum(['info', 'warning', 'error'])
export const Notice = z.object({
  level: NoticeLevel,
  message: z.string().min(1),
  /** ISO 8601 */
  at: z.string()
})
export type Notice = z.infer<typeof Notice>

/** Only web pages and mail; never file:, javascript:, custom schemes or credentials in the URL. */
export const EXTERNAL_URL_LIMIT_BYTES = 2048
export const ExternalUrl = stringOfAtMostBytes(EXTERNAL_URL_LIMIT_BYTES, 'a link')
  .refine((value) => isSafeExternalUrl(value), {
    message: 'only https:// and mailto: links without credentials can be opened'
  })

export function isSafeExternalUrl(value: string): boolean {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  if (url.protocol === 'mailto:') return true
  return url.protocol === 'https:' && url.username === '' && url.password === '' && url.hostname !== ''
}

const NoPayload = z.undefined()

export const invokeContract = {
  'app:info': { request: NoPayload, response: AppInfo },
  'settings:get': { request: NoPayload, response: Settings },
  'settings:update': { request: SettingsPatch, response: Settings },
  'shell:openExternal': {
    request: z.object({ url: ExternalUrl }).strict(),
    response: z.object({ opened: z.boolean() })
  },
  ...targetsInvokeContract,
  ...runsInvokeContract,
  ...catalogInvokeContract,
  ...toolArchiveInvokeContract,
  ...scenarioInvokeContract,
  ...presetsInvokeContract,
  ...teamStoreInvokeContract
} satisfies Record<InvokeChannel, { request: z.ZodType; response: z.ZodType }>

export const eventContract = {
  'settings:changed': Settings,
  'app:notice': Notice,
  ...targetsEventContract,
  ...runsEventContract,
  ...presetsEventContract
} satisfies Record<EventChannel, z.ZodType>

export type InvokeRequest<C extends InvokeChannel> = z.input<(typeof invokeContract)[C]['request']>
export type InvokeResponse<C extends InvokeChannel> = z.output<(typeof invokeContract)[C]['response']>
export type EventPayload<E extends EventChannel> = z.output<(typeof eventContract)[E]>

/** Channels without a request payload are called with the channel name alone. */
export type InvokeArgs<C extends InvokeChannel> = undefined extends InvokeRequest<C>
  ? [payload?: InvokeRequest<C>]
  : [payload: InvokeRequest<C>]

/** Error codes a caller can act on. */
export const ApiErrorCode = z.enum([
  'unknown-channel',
  'invalid-request',
  'invalid-response',
  'forbidden',
  'unavailable',
  'failed'
])
export type ApiErrorCode = z.infer<typeof ApiErrorCode>

export const ApiErrorBody = z.object({
  code: ApiErrorCode,
  message: z.string(),
  /** Field-level problems for `invalid-request`: which field, and what is wrong with it. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional()
})
export type ApiErrorBody = z.infer<typeof ApiErrorBody>

/** Every invoke answers with an envelope, over IPC and over the bridge alike. */
export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ApiErrorBody }

/** What the renderer sees as `window.virtbench`, and what the bridge client implements too. */
export interface VirtbenchApi {
  invoke<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<InvokeResponse<C>>
  on<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void): () => void
}

/** What the preload exposes: the raw envelope form, which the renderer unwraps. */
export interface VirtbenchPreloadApi {
  invoke(channel: InvokeChannel, payload: unknown): Promise<Envelope<unknown>>
  on(event: EventChannel, listener: (payload: unknown) => void): () => void
}

/** Thrown in the renderer when an invoke answers with an error envelope. */
export class ApiCallError extends Error {
  readonly code: ApiErrorCode
  readonly issues: ApiErrorBody['issues']
  constructor(channel: InvokeChannel, body: ApiErrorBody) {
    super(`${channel}: ${body.message}`)
    this.name = 'ApiCallError'
    this.code = body.code
    this.issues = body.issues
  }
}

export function unwrap<T>(channel: InvokeChannel, envelope: Envelope<T>): T {
  if (envelope.ok) return envelope.value
  throw new ApiCallError(channel, envelope.error)
}

/** Readable `path: message` lines from a zod error, for people and for `issues`. */
export function describeZodError(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : '(payload)',
    message: issue.message
  }))
}
