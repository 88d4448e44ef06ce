import type { Comparison, SeriesStats } from '../../../../shared/model/comparison'
import type { Aggregate } from '../../../../shared/model/tool-ids'
import type { Better, Unit } from '../../../../shared/model/sample'
import { labelsText, seriesOf, shortMetric, statsOf, type ChartSeries, type MetricChoice } from './rows'

/** One bar: the figure compared (the test's aggregate) and the range of the repetitions. */
export interface BarPoint {
  value: number
  min: number
  max: number
  n: number
  /** The repetitions, in run order. */
  values: number[]
}

/** A bar from a side's statistics; undefined without any. */
export function pointOf(stats: SeriesStats | undefined): BarPoint | undefined {
  return stats ? { value: stats.value, min: stats.min, max: stats.max, n: stats.n, values: stats.values } : undefined
}

/** One group of bars: a label set of the metric (one group when the metric has no labels). */
export interface BarGroup {
  label: string
  /** By series index: undefined where that target has no value. */
  points: (BarPoint | undefined)[]
}

export interface GroupedBarsData {
  title: string
  unit: Unit
  better: Better
  /** How the repetitions were summarized into each figure. */
  aggregate: Aggregate
  series: ChartSeries[]
  groups: BarGroup[]
}

/** The bars of one metric: for each of its label sets, the baseline's and each variant's figure. */
export function groupedBarsData(comparison: Comparison, choice: MetricChoice): GroupedBarsData {
  const series = seriesOf(comparison)
  const groups = choice.rows.map((row) => {
    const text = labelsText(row.labels)
    return {
      label: text || (choice.rows.length > 1 ? 'overall' : shortMetric(choice.metric)),
      points: series.map((s) => pointOf(statsOf(row, s.index)))
    }
  })
  const aggregate = choice.rows.flatMap((r) => [r.baseline, ...r.cells.map((c) => c.stats)]).find((st) => st !== undefined)?.aggregate ?? 'median'
  return { title: choice.label, unit: choice.unit, better: choice.better, aggregate, series, groups }
}

/**
 * The rows recharts draws: per group `s<i>` (the figure) and `s<i>range` (the distances from the
 * figure down to the smallest and up to the largest repetition, for the error bar).
 */
export function barRows(data: Pick<GroupedBarsData, 'series' | 'groups'>): Record<string, unknown>[] {
  return data.groups.map((group) => {
    const row: Record<string, unknown> = { group: group.label }
    for (const s of data.series) {
      const point = group.points[s.index]
      if (!point) continue
      row[s.key] = point.value
      row[`${s.key}range`] = [point.value - point.min, point.max - point.value]
    }
    return row
  })
}
