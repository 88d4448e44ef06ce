import { existsSync, promises as fs, readdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dispatch } from '../../../src/main/api/dispatch'
import { createApi, type Api } from '../../../src/main/api/handlers'
import type { RunDocument, RunEvent } from '../../../src/shared/model/run'

let dataDir: string
let workDir: string
let api: Api
const events: RunEvent[] = []

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-runs-api-'))
  workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-runs-work-'))
  api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })
  events.length = 0
  api.hub.subscribe((event, payload) => {
    if (event === 'runs:event') events.push(payload as RunEvent)
  })
  // two "targets" on this computer play host and guest
  for (const [name, role] of [['here', 'host'], ['also-here', 'guest']] as const) {
    const added = await dispatch(api.handlers, 'targets:add', { target: { kind: 'local', name, role } })
    expect(added.ok).toBe(true)
  }
})

afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true })
  await fs.rm(workDir, { recursive: true, force: true })
})

const plan = (tests: unknown[]) => ({
  name: 'api run',
  baseline: { target: 'here' },
  variants: [{ target: 'also-here' }],
  tests,
  repetitions: 1,
  storage: { kind: 'directory', path: workDir }
})

async function finished(id: string): Promise<RunDocument> {
  for (let i = 0; i < 600; i++) {
    const list = await dispatch(api.handlers, 'runs:list', undefined)
    if (list.ok && !(list.value as { active: string[] }).active.includes(id)) break
    await new Promise((r) => setTimeout(r, 50))
  }
  const got = await dispatch(api.handlers, 'runs:get', { id })
  expect(got.ok).toBe(true)
  return (got as { value: RunDocument }).value
}

describe('the runs API', () => {
  it('starts a run, streams its events, lists and reads it with its raw output, retries a job, removes it', async () => {
    const started = await dispatch(api.handlers, 'runs:start', { plan: plan([{ id: 'dd', tool: 'dd', params: { blockSize: '1M', count: '4', direct: false } }]) })
    expect(started.ok).toBe(true)
    const id = (started as { value: { id: string } }).value.id
    const run = await finished(id)
    expect(run.status).toBe('completed')
    expect(run.jobs.map((j) => j.status)).toEqual(['succeeded', 'succeeded'])
    expect(events.filter((e) => e.runId === id).map((e) => e.type)).toContain('job-finished')
    expect(existsSync(path.join(dataDir, 'runs', id, 'run.json'))).toBe(true)

    const list = await dispatch(api.handlers, 'runs:list', undefined)
    expect(list).toMatchObject({ ok: true, value: { runs: [{ id, name: 'api run', status: 'completed', baseline: 'here', variants: ['also-here'], jobs: { total: 2, succeeded: 2, failed: 0 } }] } })

    const file = run.jobs[0]!.steps.find((s) => s.measured)!.stderrFile!
    const raw = await dispatch(api.handlers, 'runs:raw', { id, file })
    expect(raw).toMatchObject({ ok: true, value: { truncated: false } })
    expect((raw as { value: { text: string } }).value.text).toMatch(/4194304 bytes/)
    // a path outside the run's raw folder is refused before any file is touched
    const escape = await dispatch(api.handlers, 'runs:raw', { id, file: 'raw/../../../targets.json' })
    expect(escape).toMatchObject({ ok: false, error: { code: 'invalid-request' } })

    const retried = await dispatch(api.handlers, 'runs:retry', { id, jobIds: [run.jobs[1]!.id] })
    expect(retried.ok).toBe(true)
    const again = await finished(id)
    expect(again.jobs.map((j) => j.attempts)).toEqual([1, 2])
    expect(again.status).toBe('completed')

    // one file holds the run and its raw outputs; importing it back gives the same run
    const archive = path.join(workDir, 'run.vbrun.json')
    const rawFiles = readdirSync(path.join(dataDir, 'runs', id, 'raw')).length
    expect(rawFiles).toBeGreaterThanOrEqual(6)
    expect(await dispatch(api.handlers, 'runs:export', { id, file: archive })).toMatchObject({ ok: true, value: { file: archive, rawFiles } })
    expect(await dispatch(api.handlers, 'runs:import', { file: archive })).toMatchObject({ ok: false, error: { message: expect.stringContaining('is already here') } })
    expect(await dispatch(api.handlers, 'runs:remove', { id })).toMatchObject({ ok: true })
    expect(existsSync(path.join(dataDir, 'runs', id))).toBe(false)
    expect(await dispatch(api.handlers, 'runs:import', { file: archive })).toMatchObject({ ok: true, value: { id, name: 'api run' } })
    const imported = await dispatch(api.handlers, 'runs:get', { id })
    expect((imported as { value: RunDocument }).value).toEqual(again)
    const rawAgain = await dispatch(api.handlers, 'runs:raw', { id, file })
    expect(rawAgain).toEqual(raw)
    const notArchive = await dispatch(api.handlers, 'runs:import', { file: path.join(dataDir, 'targets.json') })
    expect(notArchive).toMatchObject({ ok: false, error: { message: expect.stringContaining('is not a VirtBench run archive') } })
  })

  it('refuses a plan naming an unknown target, or with bad tool parameters, saying what and where', async () => {
    const unknown = await dispatch(api.handlers, 'runs:start', { plan: { ...plan([{ pack: 'block-dd', form: 'quick' }]), variants: [{ target: 'nowhere' }] } })
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid-request' } })
    expect((unknown as { error: { message: string } }).error.message).toContain('"nowhere"')
    const bad = await dispatch(api.handlers, 'runs:start', { plan: plan([{ id: 'dd', tool: 'dd', params: { blockSize: '12Q' } }]) })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-request' } })
    expect((bad as { error: { message: string } }).error.message).toMatch(/tests\[0\] dd \(dd\): blockSize: blockSize must be a whole number/)
  })
})
