/**
 * The CSV and JSON of a sweep, from a real sweep folder (tests/fixtures/runs/sweep-cache-io: cache
 * {none, writeback} x io {threads, io_uring}, dd and fio on the host and the guest, 3 repetitions
 * per step), read as the run store and `virtbench report` read it.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { readSweep, type SweepFolder } from '../../../../src/main/store/run-store'
import { CSV_COLUMNS, parseCsv, runCsv, runCsvRows, sweepCsv, SWEEP_CSV_COLUMNS, unguardCsvText } from '../../../../src/shared/export/csv'
import { findUnredacted } from '../../../../src/shared/export/redact'
import { sweepJson } from '../../../../src/shared/export/sweep-json'
import { formatValue } from '../../../../src/shared/format'
import type { RunDocument } from '../../../../src/shared/model/run'

const DIR = path.join(__dirname, '../../../fixtures/runs/sweep-cache-io')
const STEPS = ['01-cache=none_io=threads', '02-cache=none_io=io_uring', '03-cache=writeback_io=threads', '04-cache=writeback_io=io_uring']

let sweep: SweepFolder
let run: RunDocument
beforeAll(async () => {
  sweep = await readSweep(DIR)
  run = sweep.run()
})

const column = (name: string): number => [...SWEEP_CSV_COLUMNS, 'factor_cache', 'factor_io', ...CSV_COLUMNS].indexOf(name as never)

describe('the CSV of a sweep', () => {
  it('has the sweep, step, combination and factor columns, then the run CSV’s own columns unchanged', () => {
    const [header] = parseCsv(sweepCsv({ run, steps: sweep.steps }))
    expect(header).toEqual(['sweep_id', 'sweep_name', 'step', 'combination', 'factor_cache', 'factor_io', ...CSV_COLUMNS])
    // a plain run's CSV keeps its columns
    expect(parseCsv(runCsv(sweep.steps[0]!.run!))[0]).toEqual([...CSV_COLUMNS])
  })

  it('gives every step’s rows, in step order, each with its combination’s factor values and the step’s own run CSV row after them', () => {
    const records = parseCsv(sweepCsv({ run, steps: sweep.steps })).slice(1)
    const expected = sweep.steps.flatMap((s) => runCsvRows(s.run!).map((row) => ({ dir: s.dir, label: s.label, row })))
    // 4 steps x (dd 3 + fio 3 repetitions) x 2 sides, each job's samples
    expect(records.length).toBe(expected.length)
    expect(new Set(records.map((r) => r[column('step')]))).toEqual(new Set(STEPS))
    records.forEach((record, i) => {
      const want = expected[i]!
      expect(record.slice(0, 4)).toEqual([path.basename(DIR), 'cache x io sweep', want.dir, want.label])
      const [cache, io] = /^\d+-cache=(\w+)_io=(\w+)$/.exec(want.dir)!.slice(1)
      expect([record[column('factor_cache')], record[column('factor_io')]]).toEqual([cache, io])
      expect(record.slice(6)).toEqual(want.row)
    })
  })

  it('holds the exact values each step measured: the guest’s median dd bandwidth per step is the sweep table’s figure', () => {
    const records = parseCsv(sweepCsv({ run, steps: sweep.steps })).slice(1)
    const guestDd = (step: string): number[] =>
      records.filter((r) => r[column('step')] === step && r[column('role')] === 'variant' && r[column('metric')] === 'dd.bandwidth').map((r) => Number(r[column('value')]))
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[1]!
    // what `virtbench run` printed at the end of this sweep (tests/fixtures/runs/README.md)
    expect(STEPS.map((s) => guestDd(s).length)).toEqual([3, 3, 3, 3])
    expect(STEPS.map((s) => formatValue(median(guestDd(s)), 'B/s'))).toEqual(['2.29 GiB/s', '2.58 GiB/s', '2.96 GiB/s', '1.30 GiB/s'])
    // the values read back as the doubles the step's run.json holds
    const stored = JSON.parse(readFileSync(path.join(DIR, STEPS[0]!, 'run.json'), 'utf8')) as RunDocument
    const first = stored.jobs.find((j) => j.target === 'vm1' && j.testId === 'dd' && j.status === 'succeeded')!
    expect(guestDd(STEPS[0]!)).toContain(first.samples.find((s) => s.metric === 'dd.bandwidth')!.value)
  })

  it('a step that never started has no rows; redacted, no host name of any step is left', () => {
    const twoSteps = sweepCsv({ run, steps: [sweep.steps[0]!, { label: sweep.steps[1]!.label, dir: sweep.steps[1]!.dir }] })
    expect(new Set(parseCsv(twoSteps).slice(1).map((r) => r[column('step')]))).toEqual(new Set([STEPS[0]]))
    const redacted = sweepCsv({ run, steps: sweep.steps }, { redact: true })
    // the combination ("cache=none, io=threads", also the variant's label) is the scenario, not a machine: it stays
    for (const step of sweep.steps) expect(findUnredacted(redacted, step.run!).filter((left) => left !== step.label)).toEqual([])
    const records = parseCsv(redacted).slice(1)
    expect(records.length).toBe(parseCsv(sweepCsv({ run, steps: sweep.steps })).length - 1)
    expect(new Set(records.map((r) => unguardCsvText(r[column('target')]!)))).toEqual(new Set(['host A', 'guest 1']))
  })

  it('is refused for a run that is not a sweep', () => {
    const plain = { ...run, plan: { ...run.plan, sweep: undefined } }
    expect(() => sweepCsv({ run: plain, steps: [] })).toThrow('cache x io sweep is not a sweep: its plan has no sweep')
  })
})

describe('the JSON of a sweep', () => {
  it('holds sweep.json’s record as stored and every step with its run', () => {
    const doc = JSON.parse(sweepJson({ run, record: sweep.record, total: sweep.total, steps: sweep.steps })) as Record<string, unknown> & { steps: { dir: string; run: RunDocument }[] }
    expect(doc).toMatchObject({ kind: 'virtbench-sweep', version: 1, id: path.basename(DIR), name: 'cache x io sweep', total: 4 })
    expect(doc.record).toEqual(JSON.parse(readFileSync(path.join(DIR, 'sweep.json'), 'utf8')))
    expect(doc.steps.map((s) => s.dir)).toEqual(STEPS)
    expect(doc.steps[2]!.run.jobs.length).toBe(sweep.steps[2]!.run!.jobs.length)
  })

  it('redacted: the record’s plan is the redacted one, and no host name is left', () => {
    const text = sweepJson({ run, record: sweep.record, total: sweep.total, steps: sweep.steps }, { redact: true })
    for (const step of sweep.steps) expect(findUnredacted(text, step.run!).filter((left) => !sweep.record.variants.some((v) => v.label === left))).toEqual([])
    const doc = JSON.parse(text) as { record: { plan: { baseline: { target: string } }; variants: unknown[] } }
    expect(doc.record.variants).toEqual(sweep.record.variants)
    expect(doc.record.plan.baseline.target).not.toBe('kvm-host')
  })
})
