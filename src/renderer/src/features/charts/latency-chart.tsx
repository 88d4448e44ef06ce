import { useMemo, type ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import { formatValue } from '../../../../shared/format'
import { absent, ChartCard, ChartFigure, figureCell, type DataTableProps } from './chart-parts'
import { linearAxis, logAxis, logTickFormat } from './axis-ticks'
import { latencyData, type LatencyData } from './latency'
import { LatencyLegend, LatencyPlot, type LatencyAxis, type LatencySeries } from './latency-plot'

/** The plot's height: a band per latency, room for a few targets' markers side by side (more overlap). */
export function latencyHeight(groups: number, series: number): number {
  return Math.max(180, groups * Math.min(64, Math.max(28, series * 10)) + 80)
}

/**
 * Points per latency row, one marker shape per target, so close figures stay apart: a row's band
 * on the y axis, each target offset within it. A log axis when the latencies span a wide range.
 */
export function latencyPoints(data: LatencyData): LatencySeries[] {
  const count = data.series.length
  return data.series.map((s) => ({
    key: s.key,
    name: s.name,
    index: s.index,
    points: data.groups.flatMap((g, gi) => {
      const p = g.points[s.index]
      if (!p) return []
      const offset = count > 1 ? (s.index - (count - 1) / 2) * (0.6 / (count - 1)) : 0
      return [{ y: gi + offset, value: p.value, range: [p.value - p.min, p.max - p.value] as [number, number], group: g.label }]
    })
  }))
}

export function LatencyChart({ comparison }: { comparison: Comparison }): ReactElement | null {
  const data = useMemo(() => latencyData(comparison), [comparison])
  if (data.groups.length === 0) return null
  const series = latencyPoints(data)
  const height = latencyHeight(data.groups.length, data.series.length)
  const ends = data.groups.flatMap((g) => g.points.flatMap((p) => (p ? [p.min, p.max, p.value] : [])))
  const axis: LatencyAxis =
    data.scale === 'log'
      ? { ...logAxis(Math.min(...ends), Math.max(...ends)), format: logTickFormat('s') }
      : (() => {
          const linear = linearAxis('s', Math.max(...ends))
          return { ticks: linear.ticks, domain: [0, linear.top] as const, format: linear.format }
        })()
  return (
    <ChartCard
      // many targets or figures need the whole row: the markers, the ticks and the legend
      wide={data.series.length > 4 || data.groups.length > 10}
      title="Latency"
      howToRead={`Lower is better. One marker per target; the line through it spans the lowest to highest repetition.${data.scale === 'log' ? ' The axis is logarithmic: the latencies span a wide range.' : ''}`}
    >
      <LatencyLegend series={series} />
      <ChartFigure name="Latency per target" height={height} summary={latencySummary(data)} table={latencyTable(data)}>
        <LatencyPlot data={data} series={series} axis={axis} />
      </ChartFigure>
    </ChartCard>
  )
}

/** "Lowest latency per figure: …" names the target with the lowest figure in each row. */
export function latencySummary(data: LatencyData): string {
  const parts = data.groups.map((g) => {
    const measured = data.series.flatMap((s) => {
      const p = g.points[s.index]
      return p ? [{ name: s.name, value: p.value }] : []
    })
    const best = measured.reduce((a, b) => (b.value < a.value ? b : a))
    return `${g.label}: lowest on ${best.name} (${formatValue(best.value, 's')})`
  })
  return `Latencies of ${data.groups.length} figure${data.groups.length === 1 ? '' : 's'}. ${parts.join('; ')}.`
}

function latencyTable(data: LatencyData): DataTableProps {
  return {
    caption: 'Latency per target (lower is better)',
    corner: 'Figure',
    columns: data.series.map((s) => s.name),
    rows: data.groups.map((g) => ({
      header: g.label,
      cells: data.series.map((s) => {
        const p = g.points[s.index]
        return p ? figureCell(p.value, 's', p.values) : absent(`not measured: no successful repetition on ${s.name}`)
      })
    }))
  }
}
