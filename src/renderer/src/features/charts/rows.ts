import type { Comparison, ComparisonRow, SeriesStats } from '../../../../shared/model/comparison'
import type { Better, MetricCategory, Unit } from '../../../../shared/model/sample'
import { metricName } from '../../lib/metric-name'
import { isSurfaceRow } from '../../../../shared/studies/surface-maps'

/**
 * Shared pieces of the charts' data preparation: how a row is named, and the series of a
 * comparison (the baseline first, then the variants in plan order). Pure functions only.
 */

/** "direction=target->peer, machine=peer"; empty for a row without labels. */
export function labelsText(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')
}

/** A metric in people's words, without its tool's prefix: "fio.read.clat.p99" gives "Read completion latency p99". */
export function shortMetric(metric: string): string {
  return metricName(metric)
}

/** One series of a chart: the baseline (index 0) or a variant (1..n). */
export interface ChartSeries {
  /** The key of its values in the rows given to recharts: s0, s1... */
  key: string
  name: string
  index: number
}

export function seriesOf(comparison: Pick<Comparison, 'baseline' | 'variants'>): ChartSeries[] {
  return [comparison.baseline, ...comparison.variants].map((name, index) => ({ key: `s${index}`, name, index }))
}

/** The statistics of series `index` in a row (0 = the baseline). */
export function statsOf(row: ComparisonRow, index: number): SeriesStats | undefined {
  return index === 0 ? row.baseline : row.cells[index - 1]?.stats
}

/** A row's metric across its label sets: what a chart plots as one figure. */
export interface MetricChoice {
  /** Stable key: test, metric, unit and direction. */
  key: string
  testId: string
  testTitle: string
  metric: string
  unit: Unit
  better: Better
  /** storage, network, cpu or memory, from the run's metric definitions; undefined when not known. */
  category?: MetricCategory
  /** A primary figure of its test (src/shared/run-metrics.ts). */
  headline: boolean
  rows: ComparisonRow[]
  /** "4 KiB random read · Read IOPS" (the id is `metric`) */
  label: string
}

/**
 * The metrics of a comparison that have at least one value, in the comparison's order; not the
 * cells of a surface (iozone's file size x record size: hundreds of rows a metric, whose bars and
 * labels no chart of bars can show), which the study section's heat maps draw.
 */
export function metricChoices(comparison: Comparison): MetricChoice[] {
  const byKey = new Map<string, MetricChoice>()
  for (const row of comparison.rows) {
    if (isSurfaceRow(row)) continue
    const key = [row.testId, row.metric, row.unit, row.better].join('|')
    let choice = byKey.get(key)
    if (!choice) {
      choice = {
        key,
        testId: row.testId,
        testTitle: row.testTitle,
        metric: row.metric,
        unit: row.unit,
        better: row.better,
        ...(row.category ? { category: row.category } : {}),
        headline: false,
        rows: [],
        label: `${row.testTitle} · ${metricName(row.metric)}`
      }
      byKey.set(key, choice)
    }
    // a metric is primary when any of its rows is (its total, whatever order the parts came in)
    choice.headline ||= row.primary
    choice.rows.push(row)
  }
  const hasValue = (row: ComparisonRow): boolean => row.baseline !== undefined || row.cells.some((c) => c.stats !== undefined)
  return [...byKey.values()].filter((c) => c.rows.some(hasValue))
}

/** The first primary metric, else the first metric; undefined without any. */
export function defaultChoice<T extends { headline: boolean; key: string }>(choices: readonly T[]): string | undefined {
  return (choices.find((c) => c.headline) ?? choices[0])?.key
}

/** `key` when it names a choice, else the default one (a selection that vanished falls back). */
export function pick<T extends { headline: boolean; key: string }>(choices: readonly T[], key: string | undefined): T | undefined {
  return choices.find((c) => c.key === key) ?? choices.find((c) => c.key === defaultChoice(choices))
}
/** "the median of its repetitions": how a figure was made, for a chart's reading line. */
export function aggregateWords(aggregate: 'median' | 'mean' | 'best'): string {
  return aggregate === 'best' ? 'the best of its repetitions' : `the ${aggregate} of its repetitions`
}
