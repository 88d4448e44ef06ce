import type { RunDocument } from '../../../../shared/model/run'
import { runMetrics } from '../../../../shared/run-metrics'
import { aggregateOf } from '../../../../shared/compare'
import type { Aggregate } from '../../../../shared/model/tool-ids'

/**
 * iozone's throughput per file size and record size (samples `iozone.<subtest>` with
 * labels.file_size and labels.record_size in bytes), one grid per test, target and sub-test:
 * the test's aggregate over the repetitions of each cell iozone measured.
 */

export interface IozoneCell {
  value: number
  values: number[]
}

export interface IozoneGrid {
  /** Row headers: file sizes in bytes, ascending. */
  fileSizes: number[]
  /** Column headers: record sizes in bytes, ascending. */
  recordSizes: number[]
  /** cells[file][record]: undefined where iozone measured nothing (a record larger than the file, a skipped cell). */
  cells: (IozoneCell | undefined)[][]
  aggregate: Aggregate
}

export interface IozoneChoices {
  tests: { id: string; title: string }[]
  /** Side labels (baseline, variants) with iozone samples, in the run's target order. */
  sides: string[]
  /** Sub-tests (write, rewrite, read...) in the order iozone reports them. */
  subtests: string[]
}

/** The sub-test of a surface metric: its name after the tool's prefix (`iozone.write` is `write`). */
function subtestOf(metric: string): string {
  return metric.slice(metric.indexOf('.') + 1)
}

/** The succeeded jobs that measured a surface (metrics with the `surface` role: iozone's file size x record size). */
function surfaceJobs(run: RunDocument, testId?: string) {
  const metrics = runMetrics(run)
  return run.jobs.filter(
    (j) => j.kind === 'compare' && j.status === 'succeeded' && (testId === undefined || j.testId === testId) && j.samples.some((s) => metrics.hasRole(s.metric, 'surface'))
  )
}

export function iozoneChoices(run: RunDocument): IozoneChoices {
  const metrics = runMetrics(run)
  const jobs = surfaceJobs(run)
  const testIds = new Set(jobs.map((j) => j.testId))
  const tests = [...testIds].map((id) => ({ id, title: run.tests.find((t) => t.id === id)?.title ?? jobs.find((j) => j.testId === id)!.title }))
  const sidesSeen = new Set(jobs.map((j) => j.side))
  const ordered = run.targets.map((t) => t.label).filter((label) => sidesSeen.has(label))
  const sides = [...ordered, ...[...sidesSeen].filter((s) => !ordered.includes(s))]
  const subtests: string[] = []
  for (const job of jobs) {
    for (const s of job.samples) {
      const id = subtestOf(s.metric)
      if (metrics.hasRole(s.metric, 'surface') && !subtests.includes(id)) subtests.push(id)
    }
  }
  return { tests, sides, subtests }
}

export function iozoneGrid(run: RunDocument, testId: string, side: string, subtest: string): IozoneGrid {
  const aggregate = run.tests.find((t) => t.id === testId)?.aggregate ?? 'median'
  const byCell = new Map<string, number[]>()
  const files = new Set<number>()
  const records = new Set<number>()
  const metrics = runMetrics(run)
  for (const job of surfaceJobs(run, testId)) {
    if (job.side !== side) continue
    for (const s of job.samples) {
      if (!metrics.hasRole(s.metric, 'surface') || subtestOf(s.metric) !== subtest) continue
      const file = Number(s.labels.file_size)
      const record = Number(s.labels.record_size)
      if (!Number.isFinite(file) || !Number.isFinite(record)) continue
      files.add(file)
      records.add(record)
      const id = `${file}/${record}`
      byCell.set(id, [...(byCell.get(id) ?? []), s.value])
    }
  }
  const fileSizes = [...files].sort((a, b) => a - b)
  const recordSizes = [...records].sort((a, b) => a - b)
  const cells = fileSizes.map((file) =>
    recordSizes.map((record) => {
      const values = byCell.get(`${file}/${record}`)
      const value = values ? aggregateOf(values, aggregate, 'higher') : undefined
      return values && value !== undefined ? { value, values } : undefined
    })
  )
  return { fileSizes, recordSizes, cells, aggregate }
}
