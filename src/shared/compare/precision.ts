import type { Comparison } from '../model/comparison'
import { leadingRows } from './summary'

/** How precise a test's primary ratios are, as adaptive repetitions judge it. */
export interface TestPrecision {
  /** Every primary ratio of every variant has an interval within ± the target. */
  precise: boolean
  /** The widest half-width (points of relative %) among those that have an interval. */
  widestHalfWidthPct?: number
  /** Cells that have no interval yet (fewer than two values on a side, a value of zero). */
  withoutInterval: number
  /** The test has no primary ratio at all (its primary figures are counts): nothing to narrow. */
  nothingToNarrow: boolean
}

/**
 * The stopping rule of adaptive repetitions, in one place: a test is precise enough once the 95 %
 * interval of each of its primary figures' relative %, for every variant, is within ±
 * `halfWidthPct` points. A cell without an interval is not precise (it needs another repetition).
 */
export function testPrecision(comparison: Comparison, testId: string, halfWidthPct: number): TestPrecision {
  const rows = leadingRows(comparison).filter((r) => r.testId === testId && r.comparison === 'ratio')
  const cells = rows.flatMap((r) => r.cells)
  if (cells.length === 0) return { precise: false, withoutInterval: 0, nothingToNarrow: true }
  let widest: number | undefined
  let withoutInterval = 0
  for (const cell of cells) {
    if (!cell.ci95) {
      withoutInterval++
      continue
    }
    const half = (cell.ci95[1] - cell.ci95[0]) / 2
    widest = widest === undefined ? half : Math.max(widest, half)
  }
  return {
    precise: withoutInterval === 0 && widest !== undefined && widest <= halfWidthPct,
    ...(widest !== undefined ? { widestHalfWidthPct: widest } : {}),
    withoutInterval,
    nothingToNarrow: false
  }
}
