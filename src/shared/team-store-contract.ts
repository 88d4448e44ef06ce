import { z } from 'zod'
import { RunDocumentSchema } from './model/run'
import { RunSummarySchema } from './runs-contract'

/**
 * The team store part of the API contract (docs/team-store.md): where the team's PostgreSQL is,
 * publishing a run to it (queued when it cannot be reached), and reading the team's runs back
 * beside the local ones. The password is saved in the keychain; it never comes back.
 */

const RunId = z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, 'not a run id')
const IsoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'give a date as YYYY-MM-DD or an ISO 8601 time')

export const TEAM_RAW_MODES = ['pointer', 'copy'] as const

export const TeamSettingsSchema = z.object({
  /** postgres://USER@HOST[:PORT]/DB[?sslmode=...], never with a password; absent until set. */
  url: z.string().optional(),
  /** Publish each run of this app when it ends. */
  autoPublish: z.boolean(),
  /** Raw outputs: `pointer` (stay here, the store names where) or `copy` (their bytes go to the store). */
  raw: z.enum(TEAM_RAW_MODES),
  /** Who publishes (default user@host of this computer). */
  author: z.string().optional()
})
export type TeamSettings = z.infer<typeof TeamSettingsSchema>

export const TeamSettingsViewSchema = TeamSettingsSchema.extend({
  /** A password is saved in the keychain (its value never leaves main). */
  passwordSaved: z.boolean(),
  /** Runs waiting in the local queue to be published. */
  queued: z.array(z.object({ runId: z.string(), url: z.string(), attempts: z.number(), lastError: z.string(), lastAttemptAt: z.string() }))
})
export type TeamSettingsView = z.infer<typeof TeamSettingsViewSchema>

export const TeamRunFilterSchema = z.strictObject({
  preset: z.string().min(1).max(200).optional(),
  /** A target's name or label (baseline or variant). */
  target: z.string().min(1).max(200).optional(),
  /** Runs created at or after this time. */
  from: IsoDate.optional(),
  /** Runs created before this time. */
  to: IsoDate.optional(),
  author: z.string().min(1).max(200).optional()
})
export type TeamRunFilter = z.infer<typeof TeamRunFilterSchema>

export const TeamRunSummarySchema = RunSummarySchema.extend({
  author: z.string(),
  release: z.string(),
  publishedAt: z.string(),
  /** The raw outputs were copied into the store (else only where they are is known). */
  rawCopied: z.boolean()
})
export type TeamRunSummary = z.infer<typeof TeamRunSummarySchema>

export const teamStoreInvokeContract = {
  'team:settings': { request: z.undefined(), response: TeamSettingsViewSchema },
  'team:configure': {
    request: z.strictObject({
      url: z.string().max(2048).nullable().optional(),
      autoPublish: z.boolean().optional(),
      raw: z.enum(TEAM_RAW_MODES).optional(),
      author: z.string().min(1).max(200).nullable().optional(),
      /** Saved in the keychain; null forgets it. */
      password: z.string().min(1).max(4096).nullable().optional()
    }),
    response: TeamSettingsViewSchema
  },
  /** Publishes a local run to the configured store; `queued` when it cannot be reached now (retried later). */
  'team:publish': {
    request: z.strictObject({ id: RunId }),
    response: z.object({ status: z.enum(['published', 'already-published', 'queued']), message: z.string() })
  },
  'team:list': { request: TeamRunFilterSchema, response: z.object({ runs: z.array(TeamRunSummarySchema), url: z.string() }) },
  /** A run of the team store, as its document (no raw output). */
  'team:get': { request: z.strictObject({ id: RunId }), response: RunDocumentSchema },
  'team:raw': {
    request: z.strictObject({ id: RunId, file: z.string().regex(/^raw\/[A-Za-z0-9._-]{1,200}$/, 'not a raw output file of the run') }),
    response: z.object({ text: z.string(), bytes: z.number(), truncated: z.boolean() })
  }
} as const
