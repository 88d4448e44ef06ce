import type { Comparison, ComparisonRow, Verdict } from '../model/comparison'
import { leadingRows } from './summary'

/**
 * The history of a preset: how each variant's primary figures moved over its runs, oldest first,
 * for a trend chart (one line per variant and figure, with its 95 % interval as a band). Pure:
 * each run's comparison gives its point, nothing is recomputed.
 */

export interface TrendRun {
  id: string
  /** When the run started (ISO). */
  createdAt: string
  comparison: Comparison
}

export interface TrendPoint {
  runId: string
  createdAt: string
  /** Ratio rows: relative %; difference rows: variant - baseline. Absent when the run has no figure. */
  value?: number
  ci95?: [number, number]
  verdict?: Verdict
}

export interface TrendSeries extends Pick<ComparisonRow, 'testId' | 'testTitle' | 'metric' | 'labels' | 'unit' | 'comparison'> {
  variant: string
  /** One point per run, in run order (a run without the figure has a point without a value). */
  points: TrendPoint[]
}

/** The trend of every primary figure (every figure with `allMetrics`) over `runs`, sorted oldest first. */
export function presetTrend(runs: readonly TrendRun[], options: { allMetrics?: boolean } = {}): TrendSeries[] {
  const ordered = [...runs].sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  const series = new Map<string, TrendSeries>()
  for (const run of ordered) {
    const rows = options.allMetrics ? run.comparison.rows : leadingRows(run.comparison)
    for (const row of rows) {
      for (const cell of row.cells) {
        const key = JSON.stringify([cell.variant, row.testId, row.metric, Object.entries(row.labels).sort()])
        let s = series.get(key)
        if (!s) {
          s = { variant: cell.variant, testId: row.testId, testTitle: row.testTitle, metric: row.metric, labels: row.labels, unit: row.unit, comparison: row.comparison, points: [] }
          series.set(key, s)
        }
        const value = row.comparison === 'ratio' ? cell.relativePct : cell.difference
        s.points.push({ runId: run.id, createdAt: run.createdAt, ...(value !== undefined ? { value } : {}), ...(cell.ci95 ? { ci95: cell.ci95 } : {}), verdict: cell.verdict })
      }
    }
  }
  // a run that lacks a figure still has its place on the time axis
  return [...series.values()].map((s) => ({
    ...s,
    points: ordered.map((run) => s.points.find((p) => p.runId === run.id) ?? { runId: run.id, createdAt: run.createdAt })
  }))
}
