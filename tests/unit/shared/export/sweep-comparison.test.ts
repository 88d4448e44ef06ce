/**
 * A sweep's comparison exports (--comparison, --overhead-csv) from a real sweep folder
 * (tests/fixtures/runs/sweep-cache-io: cache {none, writeback} x io {threads, io_uring}, one step
 * per combination): every combination, each compared with the baseline of its own step, the
 * figures `virtbench run` printed in the sweep's table (tests/fixtures/runs/README.md).
 */
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { readSweep, type SweepFolder } from '../../../../src/main/store/run-store'
import { compare } from '../../../../src/shared/compare'
import { comparisonExport, overheadCsvRows, OVERHEAD_CSV_COLUMNS } from '../../../../src/shared/export/comparison-rows'
import { parseCsv } from '../../../../src/shared/export/csv'
import { sweepComparisonExport, sweepComparisonInput, sweepOverheadCsv } from '../../../../src/shared/export/sweep-comparison'
import { comparisonInputOf } from '../../../../src/shared/run-comparison'

const DIR = path.join(__dirname, '../../../fixtures/runs/sweep-cache-io')
const COMBOS = ['cache=none, io=threads', 'cache=none, io=io_uring', 'cache=writeback, io=threads', 'cache=writeback, io=io_uring']

let sweep: SweepFolder
beforeAll(async () => {
  sweep = await readSweep(DIR)
})

describe("a sweep's comparison JSON", () => {
  it('holds every combination in the sweep order with its factors, each the comparison of its own step', () => {
    const doc = sweepComparisonExport(sweepComparisonInput(sweep.run(), sweep.steps))
    expect(doc.kind).toBe('virtbench-sweep-comparison')
    expect(doc.factors).toEqual(['cache', 'io'])
    expect(doc.combinations.map((c) => [c.combination, c.factors])).toEqual([
      [COMBOS[0], { cache: 'none', io: 'threads' }],
      [COMBOS[1], { cache: 'none', io: 'io_uring' }],
      [COMBOS[2], { cache: 'writeback', io: 'threads' }],
      [COMBOS[3], { cache: 'writeback', io: 'io_uring' }]
    ])
    // each step compared on its own gives the same rows (the sweep's order is grouped: a step per combination)
    for (const c of doc.combinations) {
      const step = sweep.steps.find((s) => s.label === c.combination)!
      expect(c.comparison, c.combination).toEqual(comparisonExport(compare(comparisonInputOf(step.run!))))
    }
    // not only the latest step: the first combination's figures are there
    expect(doc.combinations[0]!.comparison!.rows.length).toBeGreaterThan(0)
  })

  it('says null for a combination no step measured', () => {
    const steps = sweep.steps.map((s, i) => (i === 3 ? { label: s.label } : s))
    const doc = sweepComparisonExport(sweepComparisonInput(sweep.run(), steps))
    expect(doc.combinations.map((c) => c.comparison === null)).toEqual([false, false, false, true])
  })
})

describe("a sweep's overhead CSV", () => {
  it("has the combination and its factors before the overhead columns, and every combination's rows", () => {
    const [header, ...rows] = parseCsv(sweepOverheadCsv(sweepComparisonInput(sweep.run(), sweep.steps)))
    expect(header).toEqual(['combination', 'factor_cache', 'factor_io', ...OVERHEAD_CSV_COLUMNS])
    const perStep = sweep.steps.map((s) => overheadCsvRows(compare(comparisonInputOf(s.run!))))
    expect(rows.length).toBe(perStep.reduce((n, r) => n + r.length, 0))
    expect(rows.map((r) => r[0])).toEqual(sweep.steps.flatMap((s, i) => perStep[i]!.map(() => s.label)))
    // the primary fio figure of each combination: the sweep table's 85 %, 167 % faster, 141 % and 88 %
    const col = (name: string): number => header!.indexOf(name)
    const fio = rows.filter((r) => r[col('metric')] === 'fio.read.iops')
    expect(fio.map((r) => [r[col('combination')], r[col('factor_cache')], r[col('factor_io')], Math.round(Number(r[col('relative_pct')])), r[col('verdict')]])).toEqual([
      [COMBOS[0], 'none', 'threads', 85, 'inconclusive'],
      [COMBOS[1], 'none', 'io_uring', 167, 'faster'],
      [COMBOS[2], 'writeback', 'threads', 141, 'inconclusive'],
      [COMBOS[3], 'writeback', 'io_uring', 88, 'inconclusive']
    ])
  })

  it('leaves out a combination no step measured', () => {
    const steps = sweep.steps.map((s, i) => (i === 0 ? { label: s.label } : s))
    const rows = parseCsv(sweepOverheadCsv(sweepComparisonInput(sweep.run(), steps))).slice(1)
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(COMBOS.slice(1)))
  })
})
