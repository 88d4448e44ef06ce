import type { Comparison } from '../../../../shared/model/comparison'
import { labelsText, seriesOf, shortMetric, statsOf, type ChartSeries } from './rows'
import { pointOf, type BarGroup } from './grouped-bars'

/** A log axis once the largest latency is this many times the smallest. */
export const LOG_SCALE_RATIO = 20

export interface LatencyData {
  series: ChartSeries[]
  /** One group per latency row: "4 KiB random read · read clat p50". */
  groups: BarGroup[]
  scale: 'linear' | 'log'
}

/**
 * The latency rows of a comparison (in seconds, lower is better) with each target's figure: the
 * metrics whose definition gives them the `latency` role (fio's median and tail completion latency
 * and mean, ping's round trip, dd's time per block).
 */
export function latencyData(comparison: Comparison): LatencyData {
  const series = seriesOf(comparison)
  const groups: BarGroup[] = []
  for (const row of comparison.rows) {
    if (!row.roles?.includes('latency') || row.unit !== 's' || row.better !== 'lower') continue
    const points = series.map((s) => pointOf(statsOf(row, s.index)))
    if (points.every((p) => p === undefined)) continue
    const labels = labelsText(row.labels)
    groups.push({ label: `${row.testTitle} · ${shortMetric(row.metric)}${labels ? ` (${labels})` : ''}`, points })
  }
  const values = groups.flatMap((g) => g.points.flatMap((p) => (p ? [p.min, p.max] : [])))
  const low = Math.min(...values)
  const high = Math.max(...values)
  const scale = values.length > 0 && low > 0 && high / low >= LOG_SCALE_RATIO ? 'log' : 'linear'
  return { series, groups, scale }
}
