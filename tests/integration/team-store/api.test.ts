import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { createApi, type Api } from '../../../src/main/api/handlers'
import { MemorySecretStore } from '../../../src/main/secrets/secrets'
import { TEAM_STORE_SECRET } from '../../../src/main/team-store/connection'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import type { Envelope } from '../../../src/shared/contract'
import type { RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import type { TeamRunSummary, TeamSettingsView } from '../../../src/shared/team-store-contract'
import { PG_SUPERUSER, startPostgres, type PostgresServer } from '../../harness/postgres'
import { startLab, type Lab } from '../engine/run-harness'
import { DD_TESTS, makeRun, PING_TESTS } from './team-store-fixture'

/**
 * The team store through the API, as the app and `virtbench serve` use it: settings with the
 * password in the keychain, publishing local runs (by hand and when a run ends), and the team's
 * history read back, filtered, and opened without raw outputs.
 */

let pg: PostgresServer
let lab: Lab
let dataDir: string
let api: Api
let secrets: MemorySecretStore
let dd: { run: RunDocument; dir: string }
let ping: { run: RunDocument; dir: string }

beforeAll(async () => {
  ;[pg, lab] = await Promise.all([startPostgres(), startLab()])
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'vb-team-api-'))
  dd = await makeRun(lab, path.join(dataDir, 'runs'), 'api-dd', 'storage-check', DD_TESTS)
  ping = await makeRun(lab, path.join(dataDir, 'runs'), 'api-ping', 'net-check', PING_TESTS)
  pg.psql('CREATE DATABASE team_api')
  secrets = new MemorySecretStore()
  api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir, secrets })
}, 180_000)

afterAll(async () => {
  await Promise.all([pg?.stop(), lab?.stop()])
  rmSync(dataDir, { recursive: true, force: true })
})

const call = (channel: Parameters<typeof dispatch>[1], payload?: unknown): Promise<Envelope<unknown>> => dispatch(api.handlers, channel, payload)
async function invoke<T>(channel: Parameters<typeof dispatch>[1], payload?: unknown): Promise<T> {
  const result = await call(channel, payload)
  if (!result.ok) throw new Error(`${String(channel)}: ${result.error.message}`)
  return result.value as T
}

function comparisonOf(run: RunDocument): unknown {
  return compare(comparisonInputOf(describeRun(run))).rows
}

describe('the team store through the API', () => {
  it('refuses a URL with a password, and keeps the password it is given in the keychain only', async () => {
    const refused = await call('team:configure', { url: `postgres://${PG_SUPERUSER}:hunter2@127.0.0.1:${pg.port}/team_api` })
    expect(refused.ok).toBe(false)
    expect(!refused.ok && refused.error).toMatchObject({ code: 'invalid-request', issues: [{ path: 'url', message: expect.stringContaining('holds a password') }] })

    const view = await invoke<TeamSettingsView>('team:configure', { url: pg.url(PG_SUPERUSER, 'team_api'), password: pg.password, author: 'qa@desk' })
    expect(view).toMatchObject({ url: pg.url(PG_SUPERUSER, 'team_api'), passwordSaved: true, autoPublish: false, raw: 'pointer', queued: [] })
    expect(await secrets.get(TEAM_STORE_SECRET)).toBe(pg.password)
    expect(readFileSync(path.join(dataDir, 'team-store', 'settings.json'), 'utf8')).not.toContain(pg.password)
  })

  it('publishes a local run once, then lists and opens it with the same comparison', async () => {
    expect(await invoke('team:publish', { id: 'api-dd' })).toMatchObject({ status: 'published' })
    expect(await invoke('team:publish', { id: 'api-dd' })).toMatchObject({ status: 'already-published', message: expect.stringContaining('nothing changed') })

    const { runs } = await invoke<{ runs: TeamRunSummary[] }>('team:list', {})
    expect(runs.map((r) => [r.id, r.plan, r.author, r.rawCopied])).toEqual([['api-dd', 'storage-check', 'qa@desk', false]])
    expect(runs[0]).toMatchObject({ baseline: 'host', variants: ['guest (cache=none)'], status: 'completed', jobs: { total: dd.run.jobs.length } })

    const opened = await invoke<RunDocument>('team:get', { id: 'api-dd' })
    expect(opened.id).toBe('api-dd')
    expect(opened.jobs.map((j) => j.samples)).toEqual(dd.run.jobs.map((j) => j.samples))
    expect(comparisonOf(opened)).toEqual(comparisonOf(dd.run))
    // the raw outputs stayed here: the store says where they are
    const file = dd.run.jobs[0]!.steps.find((s) => s.stdoutFile)!.stdoutFile!
    const raw = await call('team:raw', { id: 'api-dd', file })
    expect(!raw.ok && raw.error.message).toContain(`published without its raw outputs; they are in ${os.hostname()}:${dd.dir}`)
  })

  it('publishes each run that ends when asked to, copies raw outputs, and filters the history', async () => {
    await invoke('team:configure', { autoPublish: true, raw: 'copy', author: 'ci@runner' })
    const notice = new Promise<{ level: string; message: string }>((resolve) => {
      const off = api.hub.subscribe((event, payload) => {
        if (event === 'app:notice') {
          off()
          resolve(payload as { level: string; message: string })
        }
      })
    })
    // the event the engine sends when a run ends
    api.hub.emit('runs:event', { type: 'run-finished', runId: 'api-ping', status: 'completed' })
    expect(await notice).toEqual(expect.objectContaining({ level: 'info', message: 'Run api-ping is published to the team store.' }))

    const all = await invoke<{ runs: TeamRunSummary[] }>('team:list', {})
    expect(all.runs.map((r) => r.id).sort()).toEqual(['api-dd', 'api-ping'])
    const ids = async (filter: object): Promise<string[]> => (await invoke<{ runs: TeamRunSummary[] }>('team:list', filter)).runs.map((r) => r.id)
    expect(await ids({ preset: 'net-check' })).toEqual(['api-ping'])
    expect(await ids({ author: 'qa@desk' })).toEqual(['api-dd'])
    expect((await ids({ target: 'guest (cache=none)' })).sort()).toEqual(['api-dd', 'api-ping'])
    expect(await ids({ target: 'another-guest' })).toEqual([])
    expect(await ids({ from: '2999-01-01' })).toEqual([])
    expect((await ids({ from: dd.run.createdAt, to: '2999-01-01' })).sort()).toEqual(['api-dd', 'api-ping'])

    const file = ping.run.jobs[0]!.steps.find((s) => s.stdoutFile)!.stdoutFile!
    const raw = await invoke<{ text: string; bytes: number; truncated: boolean }>('team:raw', { id: 'api-ping', file })
    expect(raw).toEqual({ text: readFileSync(path.join(ping.dir, file), 'utf8'), bytes: readFileSync(path.join(ping.dir, file)).length, truncated: false })
  })

  it('says when no store is set, and lists queued publishes while the store is down', async () => {
    const bare = createApi({ transport: 'bridge', dataDir: mkdtempSync(path.join(dataDir, 'bare-')), versions: { node: process.versions.node }, secrets: new MemorySecretStore() })
    const unset = await dispatch(bare.handlers, 'team:list', {})
    expect(!unset.ok && unset.error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('No team store is set') })

    pg.psql("DELETE FROM virtbench.runs WHERE id = 'api-dd'", 'team_api')
    await pg.crash()
    try {
      expect(await invoke('team:publish', { id: 'api-dd' })).toMatchObject({ status: 'queued', message: expect.stringContaining('cannot reach PostgreSQL') })
      const view = await invoke<TeamSettingsView>('team:settings')
      expect(view.queued.map((q) => [q.runId, q.attempts])).toEqual([['api-dd', 1]])
      const down = await call('team:list', {})
      expect(!down.ok && down.error.message).toContain('cannot reach PostgreSQL')
    } finally {
      await pg.start()
    }
    // the store is back: the next publish takes the queue with it
    expect(await invoke('team:publish', { id: 'api-ping' })).toMatchObject({ status: 'already-published' })
    expect((await invoke<TeamSettingsView>('team:settings')).queued).toEqual([])
    expect((await invoke<{ runs: TeamRunSummary[] }>('team:list', {})).runs.map((r) => r.id).sort()).toEqual(['api-dd', 'api-ping'])
  })
})
