import type { Comparison, ComparisonRow, VariantCell, Verdict } from '../model/comparison'
import { formatValue } from '../format'
import { CONFIDENCE_LEVEL_PCT, estimateInterval, type Estimate } from './interval'
import { pctText } from './message-text'
import { DEFAULT_MARGIN_PCT, decideVerdict } from './verdict'

/**
 * A release comparison: two runs of one preset (the older one, say the last release, and the
 * newer one), and for each variant and metric how its relative % moved from the older run to the
 * newer, with a 95 % interval for the change and one verdict.
 *
 * The change of a ratio is a ratio of ratios: newer relative % / older relative % x 100, so 100 %
 * is "unchanged" and more is better, as everywhere. Its interval is computed on logarithms: each
 * run's cell carries the estimate its own interval stands on (the mean log ratio, its standard
 * error and degrees of freedom, src/shared/compare/interval.ts); the runs are independent, so
 * the difference of the means has the two variances added and Welch-Satterthwaite's degrees of
 * freedom. As a cell's interval does, it is widened to hold the change of the figures shown ± the
 * same half-width. A count compared as a difference (retransmits) changes by newer difference -
 * older difference, the same way without logarithms.
 *
 * The verdict is decideVerdict()'s, read for a change: `unchanged` when the whole interval lies
 * within 100 % ± the plan's equivalence margin, `regressed` / `improved` when it lies wholly
 * below / above 100 %, `inconclusive` otherwise, and when either run has no interval for the cell.
 */

export const RELEASE_VERDICTS = ['regressed', 'improved', 'unchanged', 'inconclusive'] as const
export type ReleaseVerdict = (typeof RELEASE_VERDICTS)[number]

const FROM_CELL: Record<Verdict, ReleaseVerdict> = { slower: 'regressed', faster: 'improved', same: 'unchanged', inconclusive: 'inconclusive' }

/** One side of a change: a run's cell as its own comparison shows it. */
export interface ReleaseSide {
  relativePct?: number
  difference?: number
  ci95?: [number, number]
  verdict: Verdict
  n?: number
}

export interface ReleaseCell {
  variant: string
  older?: ReleaseSide
  newer?: ReleaseSide
  /** Ratio rows: newer relative % / older relative % x 100 (100 = unchanged, more is better). */
  changePct?: number
  /** Ratio rows: newer - older relative %, in points (what a reader sees move in the tables). */
  changePoints?: number
  /** Difference rows: newer difference - older difference, in the row's unit. */
  changeDifference?: number
  /** The 95 % interval of changePct (ratio rows) or of changeDifference (difference rows). */
  ci95?: [number, number]
  verdict: ReleaseVerdict
  /** Why, in words: the interval and the margin, or what is missing. */
  reason: string
}

/** A row of the release comparison: the figure as the runs' comparison rows name it, and a cell per variant. */
export interface ReleaseRow extends Pick<ComparisonRow, 'testId' | 'testTitle' | 'metric' | 'labels' | 'unit' | 'better' | 'category' | 'primary' | 'comparison'> {
  cells: ReleaseCell[]
}

export interface ReleaseComparison {
  /** The baselines' labels in the older and the newer run (normally one name). */
  baseline: { older: string; newer: string }
  /** The variants of the newer run, then any only the older run had. */
  variants: string[]
  rows: ReleaseRow[]
  marginPct: number
  method: string
}

export const RELEASE_METHOD =
  "The change of a relative % from the older run to the newer is the ratio of the two (newer / older x 100: 100 % is unchanged, more is better). " +
  `Its ${CONFIDENCE_LEVEL_PCT} % interval is Student's t interval on logarithms: each run's own estimate of its log ratio (pair by pair or Welch's, as its table's interval), ` +
  'the two variances added since the runs are independent, with Welch-Satterthwaite degrees of freedom, widened to hold the change of the figures shown. ' +
  'A count compared as a difference changes by newer minus older difference. Unchanged: the whole interval lies within 100 % ± the equivalence margin (a difference: within 0); ' +
  'regressed or improved: it lies wholly below or above 100 % (on the worse or better side of 0); inconclusive otherwise, or when a run has no interval for the figure.'

function rowKey(r: Pick<ComparisonRow, 'testId' | 'metric' | 'labels'>): string {
  const labels = Object.keys(r.labels)
    .sort()
    .map((k) => `${k}=${r.labels[k]}`)
    .join('\u0001')
  return `${r.testId}\u0000${r.metric}\u0000${labels}`
}

function sideOf(cell: VariantCell | undefined): ReleaseSide | undefined {
  if (!cell) return undefined
  return {
    ...(cell.relativePct !== undefined ? { relativePct: cell.relativePct } : {}),
    ...(cell.difference !== undefined ? { difference: cell.difference } : {}),
    ...(cell.ci95 ? { ci95: cell.ci95 } : {}),
    verdict: cell.verdict,
    ...(cell.stats ? { n: cell.stats.n } : {})
  }
}

/** Two independent estimates' difference (newer - older): variances added, Welch-Satterthwaite df. */
export function differenceOfEstimates(newer: Estimate, older: Estimate): Estimate {
  const vn = newer.se * newer.se
  const vo = older.se * older.se
  const se = Math.sqrt(vn + vo)
  const df = se === 0 ? newer.df + older.df : (vn + vo) ** 2 / ((vn * vn) / newer.df + (vo * vo) / older.df)
  return { mean: newer.mean - older.mean, se, df }
}

function missing(variant: string, older: VariantCell | undefined, newer: VariantCell | undefined): string | undefined {
  if (!older && !newer) return `neither run compared ${variant} on this figure`
  if (!older) return 'the older run has no such figure'
  if (!newer) return 'the newer run has no such figure'
  return undefined
}

function changeCell(row: ComparisonRow, variant: string, older: VariantCell | undefined, newer: VariantCell | undefined, marginPct: number): ReleaseCell {
  const base: ReleaseCell = {
    variant,
    ...(older ? { older: sideOf(older)! } : {}),
    ...(newer ? { newer: sideOf(newer)! } : {}),
    verdict: 'inconclusive',
    reason: ''
  }
  const absent = missing(variant, older, newer)
  if (absent) return { ...base, reason: absent }
  const ratio = row.comparison === 'ratio'
  const oldFigure = ratio ? older!.relativePct : older!.difference
  const newFigure = ratio ? newer!.relativePct : newer!.difference
  if (oldFigure === undefined || newFigure === undefined || (ratio && (oldFigure <= 0 || newFigure <= 0))) {
    return { ...base, reason: `no ${ratio ? 'relative %' : 'difference'} in the ${oldFigure === undefined ? 'older' : 'newer'} run` }
  }
  const figures: Partial<ReleaseCell> = ratio
    ? { changePct: (newFigure / oldFigure) * 100, changePoints: newFigure - oldFigure }
    : { changeDifference: newFigure - oldFigure }
  if (!older!.estimate || !newer!.estimate) {
    const which = !older!.estimate ? 'older' : 'newer'
    return { ...base, ...figures, reason: `no interval in the ${which} run (${(which === 'older' ? older : newer)!.verdictReason})` }
  }
  const change = differenceOfEstimates(newer!.estimate, older!.estimate)
  const natural = estimateInterval(change)
  const half = (natural[1] - natural[0]) / 2
  const center = ratio ? Math.log(newFigure) - Math.log(oldFigure) : newFigure - oldFigure
  const hull: [number, number] = [Math.min(natural[0], center - half), Math.max(natural[1], center + half)]
  const interval: [number, number] = ratio ? [100 * Math.exp(hull[0]), 100 * Math.exp(hull[1])] : hull
  if (!Number.isFinite(interval[0]) || !Number.isFinite(interval[1])) return { ...base, ...figures, reason: 'the interval of the change overflows' }
  const outcome = decideVerdict({
    comparison: ratio ? 'ratio' : 'difference',
    // a ratio of relative % is "more is better" already; a difference keeps the metric's direction
    better: ratio ? 'higher' : row.better,
    nBaseline: older!.stats?.n ?? 0,
    nVariant: newer!.stats?.n ?? 0,
    identical: false,
    interval,
    marginPct,
    formatDifference: (v) => formatValue(v, row.unit)
  })
  const from = ratio ? `${pctText(oldFigure)} → ${pctText(newFigure)}` : `${formatValue(oldFigure, row.unit)} → ${formatValue(newFigure, row.unit)}`
  return { ...base, ...figures, ci95: interval, verdict: FROM_CELL[outcome.verdict], reason: `${from}: ${outcome.reason.replace(/^the /, 'the change\'s ')}` }
}

/**
 * Compares two comparisons of one preset's runs, row by row (a test, metric and labels) and
 * variant by variant (by label). Rows follow the newer run, then rows only the older one has.
 */
export function compareReleases(older: Comparison, newer: Comparison, marginPct: number = newer.marginPct ?? DEFAULT_MARGIN_PCT): ReleaseComparison {
  const variants = [...newer.variants, ...older.variants.filter((v) => !newer.variants.includes(v))]
  const olderRows = new Map(older.rows.map((r) => [rowKey(r), r]))
  const newerKeys = new Set(newer.rows.map(rowKey))
  const pairs: [ComparisonRow, ComparisonRow | undefined, ComparisonRow | undefined][] = [
    ...newer.rows.map((r): [ComparisonRow, ComparisonRow | undefined, ComparisonRow | undefined] => [r, olderRows.get(rowKey(r)), r]),
    ...older.rows.filter((r) => !newerKeys.has(rowKey(r))).map((r): [ComparisonRow, ComparisonRow | undefined, ComparisonRow | undefined] => [r, r, undefined])
  ]
  const rows = pairs.map(([shape, o, n]): ReleaseRow => ({
    testId: shape.testId,
    testTitle: shape.testTitle,
    metric: shape.metric,
    labels: shape.labels,
    unit: shape.unit,
    better: shape.better,
    ...(shape.category ? { category: shape.category } : {}),
    primary: (n ?? o)!.primary,
    comparison: shape.comparison,
    cells: variants.map((v) => changeCell(shape, v, o?.cells.find((c) => c.variant === v), n?.cells.find((c) => c.variant === v), marginPct))
  }))
  return { baseline: { older: older.baseline, newer: newer.baseline }, variants, rows, marginPct, method: RELEASE_METHOD }
}

/** How many cells of `rows` got each release verdict, for one variant. */
export function releaseCounts(rows: readonly ReleaseRow[], variant: string): Record<ReleaseVerdict, number> {
  const counts: Record<ReleaseVerdict, number> = { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 }
  for (const row of rows) {
    const cell = row.cells.find((c) => c.variant === variant)
    if (cell) counts[cell.verdict]++
  }
  return counts
}
