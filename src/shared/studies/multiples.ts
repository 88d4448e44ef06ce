import { leadingRows } from '../compare/summary'
import { formatMultiple } from '../format'
import type { Comparison, ComparisonRow } from '../model/comparison'
import { runJobFiles } from '../fio-job-file/of-run'
import type { RunDocument } from '../model/run'

/**
 * Study 003's reading of a comparison: a slower or faster figure as a multiple of the baseline's
 * ("the test runs 11 times faster on the SSD", "NFS makes this test run 3 times slower"), with
 * its interval. Only findings: a figure the data cannot tell apart from the baseline's is no
 * multiple, and a count compared as a difference has none.
 */
export interface MultipleReading {
  row: ComparisonRow
  variant: string
  /** "11.2x faster than ssd [10.8–11.6]" (formatMultiple). */
  text: string
}

export function multipleReadings(comparison: Comparison, rows: readonly ComparisonRow[] = leadingRows(comparison)): MultipleReading[] {
  return rows.flatMap((row) =>
    row.comparison === 'difference'
      ? []
      : row.cells.flatMap((cell, v) => {
          const text = cell.relativePct === undefined ? undefined : formatMultiple(cell.relativePct, cell.ci95, cell.verdict, comparison.baseline)
          return text ? [{ row, variant: comparison.variants[v]!, text }] : []
        })
  )
}

/** Whether a run is study 003's: its pack (cluster-fio), or an fio job file of the admin's own. */
export function isStudy003Run(run: Pick<RunDocument, 'plan' | 'tests'>): boolean {
  return run.plan.tests.some((t) => 'pack' in t && t.pack === 'cluster-fio') || runJobFiles(run.tests).length > 0
}
