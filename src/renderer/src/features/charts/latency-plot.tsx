import type { ReactElement } from 'react'
import { Symbols } from 'recharts'
import { formatValue } from '../../../../shared/format'
import type { LatencyData } from './latency'
import { AXIS_COLOUR, colourOf, GRID_COLOUR, markerOf, MARK_STROKE, TEXT_COLOUR } from './palette'
import { labelledTicks, RowLabels } from './relative-plot'
import { plotFrame } from './plot-frame'

/**
 * The latency chart drawn as plain SVG in one pass, on screen and in the image export: a row band
 * per latency, a marker per target (its own shape and colour) with a whisker from the lowest to
 * the highest repetition, on a linear or log axis. recharts drew the same with a scatter series
 * per target, hundreds of milliseconds for a run of twenty targets; this is the geometry alone,
 * nothing measured. The figures' names are HTML beside the plot (the browser wraps them), as in
 * relative-plot.tsx, and each marker says its figure on hover (an SVG title).
 */

export const LATENCY_LAYOUT = { top: 8, right: 24, bottom: 4, left: 8, yAxisWidth: 240, xAxisHeight: 30, tick: 6, tickGap: 2, whisker: 4, marker: 64 } as const

/** The x axis: its ticks and domain (base units, seconds) and how a tick is written. */
export interface LatencyAxis {
  ticks: readonly number[]
  domain: readonly [number, number]
  format: (value: number) => string
}

/** One target's markers: a point per latency row it measured, `y` its place in the rows (offset within the row's band). */
export interface LatencySeries {
  key: string
  name: string
  index: number
  points: { y: number; value: number; range: [number, number]; group: string }[]
}

export function LatencyPlot({
  data,
  series,
  axis,
  width = 640,
  height
}: {
  data: LatencyData
  series: readonly LatencySeries[]
  axis: LatencyAxis
  /** Given by ChartFigure: the container's width on screen. */
  width?: number
  height?: number
}): ReactElement {
  const L = LATENCY_LAYOUT
  const { h, left, plotWidth, bottom } = plotFrame(L, width, height, 180)
  const rows = Math.max(1, data.groups.length)
  const band = (bottom - L.top) / rows
  const [low, high] = axis.domain
  const log = data.scale === 'log'
  const position = (v: number): number => (log ? (Math.log10(v) - Math.log10(low)) / (Math.log10(high) - Math.log10(low)) : (v - low) / (high - low))
  const x = (v: number): number => left + Math.min(1, Math.max(0, position(v))) * plotWidth
  const y = (v: number): number => L.top + (v + 0.5) * band
  const labelled = labelledTicks(axis.ticks, plotWidth, (t) => axis.format(t).length * 7 + 8)
  return (
    <div className="charts-static" style={{ width, height: h }}>
      <svg width={width} height={h} viewBox={`0 0 ${width} ${h}`} className="charts-static-svg">
        <g stroke={GRID_COLOUR} strokeDasharray="3 3">
          {axis.ticks.map((t) => (
            <line key={`x${t}`} x1={x(t)} x2={x(t)} y1={L.top} y2={bottom} />
          ))}
          {data.groups.map((_, i) => (
            <line key={`y${i}`} x1={left} x2={left + plotWidth} y1={y(i)} y2={y(i)} />
          ))}
        </g>
        <g stroke={AXIS_COLOUR}>
          <line x1={left} x2={left + plotWidth} y1={bottom} y2={bottom} />
          <line x1={left} x2={left} y1={L.top} y2={bottom} />
          {labelled.map((t) => (
            <line key={t} x1={x(t)} x2={x(t)} y1={bottom} y2={bottom + L.tick} />
          ))}
          {data.groups.map((_, i) => (
            <line key={i} x1={left - L.tick} x2={left} y1={y(i)} y2={y(i)} />
          ))}
        </g>
        <g fill={AXIS_COLOUR} fontSize={12} textAnchor="middle">
          {labelled.map((t) => (
            <text key={t} x={x(t)} y={bottom + L.tick + L.tickGap} dy="0.71em">
              {axis.format(t)}
            </text>
          ))}
        </g>
        {series.map((s) => (
          <g key={s.key} className="charts-latency-series">
            {s.points.map((p) => {
              const at = { x: x(p.value), y: y(p.y) }
              const from = x(p.value - p.range[0])
              const to = x(p.value + p.range[1])
              return (
                <g key={p.y}>
                  <title>{`${s.name}, ${p.group}: ${formatValue(p.value, 's')} (repetitions ${formatValue(p.value - p.range[0], 's')} to ${formatValue(p.value + p.range[1], 's')})`}</title>
                  <g stroke={TEXT_COLOUR}>
                    <line x1={from} x2={to} y1={at.y} y2={at.y} />
                    <line x1={from} x2={from} y1={at.y - L.whisker} y2={at.y + L.whisker} />
                    <line x1={to} x2={to} y1={at.y - L.whisker} y2={at.y + L.whisker} />
                  </g>
                  <Symbols className="charts-latency-marker" type={markerOf(s.index)} size={L.marker} cx={at.x} cy={at.y} fill={colourOf(s.index)} stroke={MARK_STROKE} />
                </g>
              )
            })}
          </g>
        ))}
      </svg>
      <RowLabels labels={data.groups.map((g) => g.label)} layout={L} centre={y} band={band} />
    </div>
  )
}

/** The targets' markers, named: the chart's legend (above the plot, as the small multiples have theirs). */
export function LatencyLegend({ series }: { series: readonly Pick<LatencySeries, 'key' | 'name' | 'index'>[] }): ReactElement {
  return (
    <ul className="charts-multiples-legend charts-static-legend" aria-label="Targets">
      {series.map((s) => (
        <li key={s.key}>
          <svg width={14} height={14} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <Symbols type={markerOf(s.index)} size={256} cx={16} cy={16} fill={colourOf(s.index)} stroke={MARK_STROKE} />
          </svg>
          <span className="charts-legend-text">{s.name}</span>
        </li>
      ))}
    </ul>
  )
}
