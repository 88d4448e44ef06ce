import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildStudy001Example, EXAMPLE_RUN_ID, renderExampleRun } from '../../../scripts/data/study-001-example'
import { FIO_TESTS, LOCAL_STORAGE, PHYSICAL, PUBLISHED_RELATIVE, studyFigure } from '../../../scripts/data/study-001'
import { dispatch } from '../../../src/main/api/dispatch'
import { createApi, type Api } from '../../../src/main/api/handlers'
import { EXAMPLE_RUN_FILE } from '../../../src/main/api/runs-handlers'
import { compare } from '../../../src/shared/compare'
import type { Envelope } from '../../../src/shared/contract'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'

let dataDir: string
let api: Api
const EXAMPLE = path.resolve(__dirname, '../../../resources', EXAMPLE_RUN_FILE)

beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-runs-extra-'))
  api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node }, homeDir: dataDir })
})
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true })
})

const call = (channel: Parameters<typeof dispatch>[1], payload?: unknown): Promise<Envelope<unknown>> => dispatch(api.handlers, channel, payload)
async function invoke<T>(channel: Parameters<typeof dispatch>[1], payload?: unknown): Promise<T> {
  const result = await call(channel, payload)
  if (!result.ok) throw new Error(`${String(channel)}: ${result.error.message}`)
  return result.value as T
}

describe('the example comparison (study 001, published figures)', () => {
  it('ships as the document scripts/example-run.ts writes, and that document is valid', async () => {
    const text = await fs.readFile(EXAMPLE, 'utf8')
    const shipped = RunDocumentSchema.parse(JSON.parse(text))
    // regenerated with the version that wrote it, the file comes out byte for byte the same
    expect(renderExampleRun(buildStudy001Example(shipped.app.version))).toBe(text)
    expect(shipped.source).toMatchObject({ kind: 'published', note: expect.stringMatching(/^Published figures, not measured here/) })
    expect(shipped.source?.title).toContain('Study 001')
    expect(shipped.jobs.every((j) => j.status === 'succeeded' && j.steps.length === 0 && j.repetition === 1)).toBe(true)
    expect(shipped.environment).toEqual({})
    expect(shipped.targets.map((t) => [t.name, t.role])).toEqual(LOCAL_STORAGE.map((s) => [s.name, s.name === PHYSICAL ? 'baseline' : 'variant']))
    // the figures as the study prints them, in base units under the fio parser's metric names
    const job = shipped.jobs.find((j) => j.testId === 'fio-4k-read' && j.side === 'Linux Virtual Machine (cache=none)')
    expect(job?.samples).toEqual([
      { metric: 'fio.read.iops', value: 9458, unit: 'op/s', better: 'higher', labels: { repetition: '1' } },
      { metric: 'fio.read.bandwidth', value: 36.9 * 1024 * 1024, unit: 'B/s', better: 'higher', labels: { repetition: '1' } }
    ])
    expect(shipped.jobs.find((j) => j.testId === 'fio-4k-read' && j.side === PHYSICAL)?.samples[0]?.value).toBe(22100)
  })

  it('is put in the run list once, with the same id every time, labelled as published', async () => {
    const first = await invoke<{ id: string }>('runs:example')
    expect(first).toEqual({ id: EXAMPLE_RUN_ID })
    expect(await invoke('runs:example')).toEqual(first)
    const list = await invoke<{ runs: { id: string; source?: unknown; status: string; baseline: string; variants: string[] }[] }>('runs:list')
    expect(list.runs).toHaveLength(1)
    expect(list.runs[0]).toMatchObject({
      id: EXAMPLE_RUN_ID,
      status: 'completed',
      baseline: PHYSICAL,
      variants: LOCAL_STORAGE.slice(1).map((s) => s.name),
      source: { kind: 'published', title: expect.stringContaining('Study 001') }
    })
    const run = await invoke<RunDocument>('runs:get', { id: EXAMPLE_RUN_ID })
    expect(run).toEqual(RunDocumentSchema.parse(JSON.parse(await fs.readFile(EXAMPLE, 'utf8'))))

    // removed, it comes back on request
    await invoke('runs:remove', { id: EXAMPLE_RUN_ID })
    expect(await invoke('runs:example')).toEqual(first)
    // a renamed example stays as the user named it
    await invoke('runs:rename', { id: EXAMPLE_RUN_ID, name: 'Study 001 for the team' })
    expect(await invoke('runs:example')).toEqual(first)
    expect((await invoke<RunDocument>('runs:get', { id: EXAMPLE_RUN_ID })).name).toBe('Study 001 for the team')
  })

  it('gives back the study\'s published relative % through compare()', async () => {
    await invoke('runs:example')
    const run = await invoke<RunDocument>('runs:get', { id: EXAMPLE_RUN_ID })
    const comparison = compare(comparisonInputOf(run))
    const relativeOf = (testId: string, metric: string, variant: string): number | undefined =>
      comparison.rows.find((r) => r.testId === testId && r.metric === metric)?.cells.find((c) => c.variant === variant)?.relativePct

    // the two pairs the issue names: 245 vs 195 IOPS is 126 %, 9458 vs 22.1k is 43 %
    expect(Math.round(relativeOf('fio-4k-randread', 'fio.read.iops', 'Linux Virtual Machine (cache=none)') ?? 0)).toBe(126)
    expect(Math.round(relativeOf('fio-4k-read', 'fio.read.iops', 'Linux Virtual Machine (cache=none)') ?? 0)).toBe(43)

    let checked = 0
    for (const [variant, published] of Object.entries(PUBLISHED_RELATIVE)) {
      published.forEach((expected, column) => {
        if (expected === null) return
        const fio = FIO_TESTS[Math.floor(column / 2)]!
        const metric = `fio.${fio.dir}.${column % 2 === 0 ? 'iops' : 'bandwidth'}`
        const relative = relativeOf(fio.id, metric, variant)
        expect(relative, `${variant} ${fio.id} ${metric}`).toBeDefined()
        if (typeof expected === 'number') expect(Math.round(relative ?? 0), `${variant} ${fio.id} ${metric}`).toBe(expected)
        else expect(Number((relative ?? 0).toFixed(1)), `${variant} ${fio.id} ${metric}`).toBe(expected.oneDecimal)
        checked++
      })
    }
    expect(checked).toBe(86)
    // the study's own rounding aside, a figure the study took with 1 MiB = 1000 KiB: 54.5 MiB/s vs 782 KiB/s
    expect(Math.round(relativeOf('fio-4k-randread', 'fio.read.bandwidth', 'Linux Virtual Machine (cache=writeback)') ?? 0)).toBe(
      Math.round((studyFigure('54.5MiB/s') / studyFigure('782KiB/s')) * 100)
    )
    // one number per cell: no interval, nothing missing
    expect(comparison.rows).toHaveLength(12)
    for (const cell of comparison.rows.flatMap((r) => r.cells)) {
      expect(cell.ci95).toBeUndefined()
      expect(cell.flags.filter((f) => f.kind === 'missing')).toEqual([])
    }
  })
})

describe('runs:rename', () => {
  beforeEach(async () => {
    for (const [name, role] of [['here', 'host'], ['also-here', 'guest']] as const) await invoke('targets:add', { target: { kind: 'local', name, role } })
  })

  it('changes the name in run.json atomically and leaves everything else as it was', async () => {
    await invoke('runs:example')
    const before = await invoke<RunDocument>('runs:get', { id: EXAMPLE_RUN_ID })
    const summary = await invoke<{ id: string; name: string }>('runs:rename', { id: EXAMPLE_RUN_ID, name: '  Study 001, renamed  ' })
    expect(summary).toMatchObject({ id: EXAMPLE_RUN_ID, name: 'Study 001, renamed', source: { kind: 'published' } })
    const file = JSON.parse(await fs.readFile(path.join(dataDir, 'runs', EXAMPLE_RUN_ID, 'run.json'), 'utf8')) as RunDocument
    expect(file.name).toBe('Study 001, renamed')
    const { name: _n, updatedAt: _u, ...rest } = file
    const { name: _n2, updatedAt: _u2, ...restBefore } = before
    expect(rest).toEqual(JSON.parse(JSON.stringify(restBefore)))
    expect(file.plan.name).toBe(before.plan.name)
    expect((await fs.readdir(path.join(dataDir, 'runs', EXAMPLE_RUN_ID))).sort()).toEqual(['raw', 'run.json'])
  })

  it('refuses an empty name, an unknown run, and a run that is still going', async () => {
    expect(await call('runs:rename', { id: EXAMPLE_RUN_ID, name: '   ' })).toMatchObject({ ok: false, error: { code: 'invalid-request', issues: [{ path: 'name', message: 'a run needs a name' }] } })
    expect(await call('runs:rename', { id: 'nope', name: 'x' })).toMatchObject({ ok: false, error: { code: 'failed', message: 'There is no run nope (it may have been removed); reload the list of runs.' } })

    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-rename-work-'))
    try {
      const plan = { name: 'long', baseline: { target: 'here' }, variants: [{ target: 'also-here' }], tests: [{ id: 'ping', tool: 'ping', params: { count: 30, intervalSeconds: 0.2 } }], repetitions: 1, storage: { kind: 'directory', path: work } }
      const { id } = await invoke<{ id: string }>('runs:start', { plan })
      expect(await call('runs:rename', { id, name: 'renamed' })).toMatchObject({ ok: false, error: { code: 'failed', message: 'that run is still going; cancel it first, or wait until it ends' } })
      await invoke('runs:cancel', { id })
      for (let i = 0; i < 400; i++) {
        const list = await invoke<{ active: string[] }>('runs:list')
        if (!list.active.includes(id)) break
        await new Promise((r) => setTimeout(r, 50))
      }
      expect(await invoke('runs:rename', { id, name: 'renamed' })).toMatchObject({ id, name: 'renamed', status: 'cancelled' })
    } finally {
      await fs.rm(work, { recursive: true, force: true })
    }
  })
})
