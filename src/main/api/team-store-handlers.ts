import path from 'node:path'
import type { Notice } from '../../shared/contract'
import { TeamSettingsSchema, type TeamSettings, type TeamSettingsView } from '../../shared/team-store-contract'
import type { SecretStore } from '../secrets/secrets'
import { JsonDocument } from '../store/json-document'
import { RunStore } from '../store/run-store'
import { parseTeamStoreUrl, TEAM_STORE_SECRET, TeamStoreError, type PasswordSources } from '../team-store/connection'
import { getTeamRawOutput, getTeamRun, listTeamRuns } from '../team-store/history'
import { withTeamStore, type PublishOptions } from '../team-store/publish'
import { PublishQueue, publishOrQueue, retryQueue, type PublishOutcome } from '../team-store/queue'
import { ApiError } from './api-error'
import type { Handlers } from './dispatch'
import type { EventHub } from './event-hub'

export type TeamStoreHandlerNames = 'team:settings' | 'team:configure' | 'team:publish' | 'team:list' | 'team:get' | 'team:raw'

export interface TeamStoreServices {
  dataDir: string
  /** The keychain: the store's password is saved here, never in a file of ours. */
  secrets: SecretStore
  appVersion: string
  notify: (level: Notice['level'], message: string) => void
  /** PGPASSWORD and PGPASSFILE are read from here (default process.env). */
  env?: NodeJS.ProcessEnv
  homeDir?: string
}

const RAW_READ_LIMIT = 2 * 1024 * 1024
/** How often the queue is tried again while the app runs (it is also tried after each publish). */
const QUEUE_RETRY_MS = 10 * 60_000

/**
 * The team store through the API (docs/team-store.md): its settings (`<data>/team-store/settings.json`,
 * the password in the keychain), publishing a run (queued when the store cannot be reached), an
 * automatic publish of each run that ends when the user chose it, and the team's runs read back.
 */
export function createTeamStoreHandlers(svc: TeamStoreServices, hub: EventHub): Pick<Handlers, TeamStoreHandlerNames> {
  const settingsDoc = new JsonDocument<TeamSettings>({
    file: path.join(svc.dataDir, 'team-store', 'settings.json'),
    kind: 'virtbench.team-store',
    version: 1,
    schema: TeamSettingsSchema,
    defaults: () => ({ autoPublish: false, raw: 'pointer' })
  })
  const runs = new RunStore(path.join(svc.dataDir, 'runs'))
  const queue = PublishQueue.inDataDir(svc.dataDir)
  const sources: PasswordSources = { env: svc.env ?? process.env, secrets: svc.secrets, ...(svc.homeDir !== undefined ? { homeDir: svc.homeDir } : {}) }

  const settings = async (): Promise<TeamSettings> => {
    const { data, problem } = await settingsDoc.load()
    if (problem) svc.notify('warning', problem)
    return data
  }

  const view = async (): Promise<TeamSettingsView> => {
    const current = await settings()
    const { entries } = await queue.list()
    return {
      ...current,
      passwordSaved: (await svc.secrets.get(TEAM_STORE_SECRET).catch(() => undefined)) !== undefined,
      queued: entries.map((e) => ({ runId: e.runId, url: e.url, attempts: e.attempts, lastError: e.lastError, lastAttemptAt: e.lastAttemptAt }))
    }
  }

  const urlOf = async (): Promise<string> => {
    const { url } = await settings()
    if (!url) throw new ApiError('unavailable', "No team store is set: give its postgres:// URL in Settings (Team store) first.")
    return url
  }

  const readBack = async <T>(work: Parameters<typeof withTeamStore<T>>[2]): Promise<T> => {
    try {
      return await withTeamStore(await urlOf(), sources, work)
    } catch (error) {
      if (error instanceof TeamStoreError) throw new ApiError('failed', error.message)
      throw error
    }
  }

  const publish = async (id: string): Promise<PublishOutcome> => {
    const current = await settings()
    const url = await urlOf()
    const run = await runs.get(id)
    const options: PublishOptions = { raw: current.raw, appVersion: svc.appVersion, ...(current.author ? { author: current.author } : {}) }
    let outcome: PublishOutcome
    try {
      outcome = await publishOrQueue({ url, run, runDir: runs.dirOf(id), options }, queue, sources)
    } catch (error) {
      throw new ApiError('invalid-request', (error as Error).message)
    }
    if (outcome.status !== 'queued') await retryQueue(queue, sources, svc.appVersion, url).catch(() => [])
    return outcome
  }

  const messageOf = (id: string, outcome: PublishOutcome): string => {
    if (outcome.status === 'queued') return `Run ${id} could not be published and waits in the queue (tried again later): ${outcome.error}`
    return outcome.status === 'published' ? `Run ${id} is published to the team store.` : `Run ${id} was already in the team store; nothing changed.`
  }

  // each run that ends is published when the user chose so; a failure waits in the queue
  hub.subscribe((event, payload) => {
    const e = payload as { type?: string; runId?: string }
    if (event !== 'runs:event' || e.type !== 'run-finished' || !e.runId) return
    const runId = e.runId
    void (async () => {
      const current = await settings()
      if (!current.autoPublish || !current.url) return
      const outcome = await publish(runId)
      svc.notify(outcome.status === 'queued' ? 'warning' : 'info', messageOf(runId, outcome))
    })().catch((error: unknown) => svc.notify('warning', `Publishing run ${runId} to the team store failed: ${(error as Error).message}`))
  })
  const retryTimer = setInterval(() => {
    void retryQueue(queue, sources, svc.appVersion).catch(() => [])
  }, QUEUE_RETRY_MS)
  retryTimer.unref()

  return {
    'team:settings': () => view(),
    'team:configure': async (patch) => {
      if (patch.url) {
        try {
          parseTeamStoreUrl(patch.url)
        } catch (error) {
          throw new ApiError('invalid-request', (error as Error).message, [{ path: 'url', message: (error as Error).message }])
        }
      }
      const current = await settings()
      const next: TeamSettings = { autoPublish: patch.autoPublish ?? current.autoPublish, raw: patch.raw ?? current.raw }
      const url = patch.url === undefined ? current.url : (patch.url ?? undefined)
      const author = patch.author === undefined ? current.author : (patch.author ?? undefined)
      if (url) next.url = url
      if (author) next.author = author
      if (patch.password === null) await svc.secrets.delete(TEAM_STORE_SECRET)
      else if (patch.password !== undefined) await svc.secrets.set(TEAM_STORE_SECRET, patch.password)
      await settingsDoc.save(next)
      return view()
    },
    'team:publish': async ({ id }) => {
      const outcome = await publish(id)
      return { status: outcome.status, message: messageOf(id, outcome) }
    },
    'team:list': async (filter) => ({ runs: await readBack((client, address) => listTeamRuns(client, address.display, filter)), url: await urlOf() }),
    'team:get': ({ id }) => readBack((client, address) => getTeamRun(client, address.display, id)),
    'team:raw': ({ id, file }) => readBack((client, address) => getTeamRawOutput(client, address.display, id, file, RAW_READ_LIMIT))
  }
}
