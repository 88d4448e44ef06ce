import type { ComparisonRow, SeriesStats, VariantCell } from '../../../../shared/model/comparison'
import type { Unit } from '../../../../shared/model/sample'
import { formatPct, formatValue } from '../../../../shared/format'

/**
 * The words of the overhead table's cells, kept apart from the markup so each reads in one place:
 * every number comes from the comparison, formatted by src/shared/format.ts, and every absent
 * number comes with the reason it is absent.
 */

/** formatPct without a "-0 %" for a value that rounds to zero. */
export function pctText(value: number): string {
  const text = formatPct(value)
  return text === '-0 %' ? '0 %' : text
}

/** "fio.read.iops" and, when the row has labels, "direction=target->peer". */
export function labelsText(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ')
}

/** A stable key for a row, for React and for ids. */
export function rowKey(row: ComparisonRow): string {
  return [row.testId, row.metric, labelsText(row.labels), row.unit, row.better].join('|')
}

/** What the relative % (or the difference) of a metric means, said once per row. */
export function directionNote(row: Pick<ComparisonRow, 'better' | 'comparison'>): string {
  const way = row.better === 'higher' ? 'higher is better' : 'lower is better'
  return row.comparison === 'difference' ? `${way} · Δ` : way
}

export function directionDetail(row: Pick<ComparisonRow, 'better' | 'comparison'>): string {
  if (row.comparison === 'difference') {
    return `${row.better === 'higher' ? 'higher' : 'lower'} is better; a count or share, compared as variant minus baseline (0 against 0 is the same)`
  }
  return row.better === 'higher'
    ? 'higher is better: relative % = variant / baseline'
    : 'lower is better: relative % = baseline / variant, so more than 100 % still means better'
}

/** "+3", "−1.2 %", "±0": a difference with its sign and unit. */
export function differenceText(value: number, unit: Unit): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${formatValue(Math.abs(value), unit)}`
}

export type Direction = 'better' | 'worse' | 'same'

/** Which way a relative % points, as its rounded text shows it. */
export function directionOf(relativePct: number): Direction {
  const rounded = Math.round(relativePct)
  return rounded > 100 ? 'better' : rounded < 100 ? 'worse' : 'same'
}

export const DIRECTION_ARROW: Record<Direction, string> = { better: '▲', worse: '▼', same: '=' }
export const DIRECTION_WORDS: Record<Direction, string> = {
  better: 'better than the baseline',
  worse: 'worse than the baseline',
  same: 'same as the baseline'
}

/** "overhead 3 %", "overhead -26 %" (negative: faster than the baseline). */
export function overheadText(overheadPct: number): string {
  return `overhead ${pctText(overheadPct)}`
}

/** "97 % – 104 %". */
export function ciText(ci: [number, number]): string {
  return `${pctText(ci[0])} – ${pctText(ci[1])}`
}

/** Why a cell has no relative %, when it has none. */
export function noRelativeReason(row: ComparisonRow, cell: VariantCell, baselineLabel: string): string {
  if (!row.baseline) return `No value on ${baselineLabel}, the baseline: nothing to compare with.`
  if (!cell.stats) return `No value on ${cell.variant}: no successful repetition measured it.`
  return row.better === 'higher'
    ? `No ratio: ${baselineLabel} measured 0, and nothing can be divided by it.`
    : `No ratio: ${cell.variant} measured 0 where lower is better, and nothing can be divided by it.`
}

/** Why a cell has no confidence interval, when it has a relative % but no interval. */
export function noIntervalReason(baseline: SeriesStats | undefined, cell: VariantCell): string {
  const fewest = Math.min(baseline?.n ?? 0, cell.stats?.n ?? 0)
  if (fewest < 2) return 'No interval: it needs at least two repetitions on both sides, so no difference can be told from noise.'
  return 'No interval: a value is zero, so no ratio interval can be formed.'
}

/** Why a side has no value. */
export function noValueReason(side: string, row: ComparisonRow): string {
  return `Not measured: no successful repetition of ${row.testTitle} on ${side} gave this metric.`
}
