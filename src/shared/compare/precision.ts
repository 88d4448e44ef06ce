import type { Comparison, ComparisonRow, VariantCell } from '../model/comparison'
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
 * `halfWidthPct` points. A cell without an interval is not precise (it needs another repetition),
 * unless both its sides measured one identical value (see settledWithoutInterval).
 */
export function testPrecision(comparison: Comparison, testId: string, halfWidthPct: number): TestPrecision {
  const rows = leadingRows(comparison).filter((r) => r.testId === testId && r.comparison === 'ratio')
  const cells = rows.flatMap((r) => r.cells)
  if (cells.length === 0) return { precise: false, withoutInterval: 0, nothingToNarrow: true }
  let widest: number | undefined
  let withoutInterval = 0
  for (const row of rows) {
    for (const cell of row.cells) {
      if (!cell.ci95 && settledWithoutInterval(row, cell)) continue
      if (!cell.ci95) {
        withoutInterval++
        continue
      }
      const half = (cell.ci95[1] - cell.ci95[0]) / 2
      widest = widest === undefined ? half : Math.max(widest, half)
    }
  }
  return {
    precise: withoutInterval === 0 && (widest === undefined || widest <= halfWidthPct),
    ...(widest !== undefined ? { widestHalfWidthPct: widest } : {}),
    withoutInterval,
    nothingToNarrow: false
  }
}

/**
 * A cell whose two sides measured one identical value in at least two repetitions each (a UDP jitter
 * of 0 s on both): it has no ratio interval (a logarithm of 0) and never will, yet its verdict is
 * settled, so it must not keep adaptive repetitions going.
 */
function settledWithoutInterval(row: ComparisonRow, cell: VariantCell): boolean {
  return cell.verdict === 'same' && (cell.stats?.n ?? 0) >= 2 && (row.baseline?.n ?? 0) >= 2
}

/**
 * Whether a precision goal can tell "the same" at the plan's margin, in words when it cannot
 * reliably: a verdict of "same" needs the whole interval within 100 % ± `marginPct`, so with the
 * interval allowed ± `halfWidthPct` its centre must lie within `marginPct - halfWidthPct` of 100 %.
 * Above half the margin, two equal machines often read "can't tell" (a centre 1 point off is
 * ordinary noise); undefined when the goal leaves the centre at least as much room as the interval.
 */
export function precisionAdvice(halfWidthPct: number, marginPct: number): string | undefined {
  if (halfWidthPct <= marginPct / 2) return undefined
  const room = marginPct - halfWidthPct
  const fits =
    room > 0
      ? `a result reads "same" only when its interval's centre lies within ${formatPoints(room)} of 100 %`
      : 'no result can read "same": the interval alone is as wide as the margin'
  return (
    `Repeating until ± ${formatPoints(halfWidthPct)} with a margin of ± ${formatPoints(marginPct)}: ${fits}, so equal machines ` +
    `will often read "can't tell". Ask for ± ${formatPoints(marginPct / 2)} or less, or widen the margin.`
  )
}

function formatPoints(points: number): string {
  return `${Number(points.toFixed(2))} point${points === 1 ? '' : 's'}`
}
