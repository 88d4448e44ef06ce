import type { ReactElement } from 'react'
import { formatValue } from '../../../../shared/format'
import type { LinearAxis } from './axis-ticks'
import { patternFill } from './chart-parts'
import type { GroupedBarsData } from './grouped-bars'
import { AXIS_COLOUR, GRID_COLOUR, MARK_STROKE, TEXT_COLOUR } from './palette'
import { plotFrame } from './plot-frame'

/**
 * One small chart of the grid (grouped-bars-grid.tsx) drawn as plain SVG in one pass: a bar per
 * target in each group, its whisker from the lowest to the highest repetition, on a y axis from 0
 * with nice ticks. A page of them drew with recharts in a few hundred milliseconds each on a busy
 * machine; this is the geometry alone, nothing measured. Each bar says its figure on hover (an
 * SVG title), as recharts' tooltip did.
 */

/** The room around the plot, the axes' sizes and the bars' spacing, as the recharts chart had them. */
export const SMALL_BARS_LAYOUT = { right: 8, bottom: 4, left: 0, yAxisWidth: 76, xAxisHeight: 30, tick: 6, tickGap: 2, whisker: 3, maxBar: 40, barGap: 4, categoryGap: 0.1 } as const

export function SmallBarsPlot({
  data,
  groupLabels,
  axis,
  prefix,
  top,
  width = 320,
  height
}: {
  data: GroupedBarsData
  /** Written under each group (the metric's title for a chart of one group). */
  groupLabels: readonly string[]
  axis: LinearAxis
  /** The card's fill patterns (SeriesPatterns). */
  prefix: string
  /** The room above the plot. */
  top: number
  /** Given by MeasuredPlot on screen, by the print width in print. */
  width?: number
  height?: number
}): ReactElement {
  const L = SMALL_BARS_LAYOUT
  const { h, left, plotWidth, bottom } = plotFrame(L, width, height, 210)
  const y = (v: number): number => bottom - (Math.min(axis.top, Math.max(0, v)) / axis.top) * (bottom - top)
  const band = plotWidth / Math.max(1, data.groups.length)
  const bars = barGeometry(band, data.series.length)
  return (
    <div className="charts-static" style={{ width, height: h }}>
      <svg width={width} height={h} viewBox={`0 0 ${width} ${h}`} className="charts-static-svg">
        <g stroke={GRID_COLOUR} strokeDasharray="3 3">
          {axis.ticks.map((t) => (
            <line key={t} x1={left} x2={left + plotWidth} y1={y(t)} y2={y(t)} />
          ))}
        </g>
        <g stroke={AXIS_COLOUR}>
          <line x1={left} x2={left + plotWidth} y1={bottom} y2={bottom} />
          <line x1={left} x2={left} y1={top} y2={bottom} />
          {axis.ticks.map((t) => (
            <line key={t} x1={left - L.tick} x2={left} y1={y(t)} y2={y(t)} />
          ))}
          {data.groups.map((_, g) => (
            <line key={g} x1={left + band * (g + 0.5)} x2={left + band * (g + 0.5)} y1={bottom} y2={bottom + L.tick} />
          ))}
        </g>
        <g fill={AXIS_COLOUR} fontSize={12}>
          {axis.ticks.map((t) => (
            <text key={t} x={left - L.tick - L.tickGap} y={y(t)} dy="0.355em" textAnchor="end">
              {axis.format(t)}
            </text>
          ))}
          {groupLabels.map((label, g) => (
            <text key={g} x={left + band * (g + 0.5)} y={bottom + L.tick + L.tickGap} dy="0.71em" textAnchor="middle">
              {label}
            </text>
          ))}
        </g>
        {data.groups.map((group, g) =>
          data.series.map((s) => {
            const p = group.points[s.index]
            if (!p) return null
            const x = left + band * g + bars.offset + s.index * (bars.size + bars.gap)
            const mid = x + bars.size / 2
            return (
              <g key={`${g}-${s.key}`}>
                <title>{`${s.name}: ${formatValue(p.value, data.unit)} (repetitions ${formatValue(p.min, data.unit)} to ${formatValue(p.max, data.unit)})`}</title>
                <rect className="charts-bar" x={x} y={y(p.value)} width={bars.size} height={bottom - y(p.value)} fill={patternFill(prefix, s.index)} stroke={MARK_STROKE} />
                <g stroke={TEXT_COLOUR}>
                  <line x1={mid} x2={mid} y1={y(p.min)} y2={y(p.max)} />
                  <line x1={mid - L.whisker} x2={mid + L.whisker} y1={y(p.min)} y2={y(p.min)} />
                  <line x1={mid - L.whisker} x2={mid + L.whisker} y1={y(p.max)} y2={y(p.max)} />
                </g>
              </g>
            )
          })
        )}
      </svg>
    </div>
  )
}

/**
 * Where the bars of a group lie in its band, as recharts lays them out: a tenth of the band free
 * at each side, `count` bars with a small gap between, no wider than maxBar (then centred).
 */
export function barGeometry(band: number, count: number): { offset: number; size: number; gap: number } {
  const L = SMALL_BARS_LAYOUT
  const room = band * (1 - 2 * L.categoryGap)
  const n = Math.max(1, count)
  const gap = Math.min(L.barGap, room / n / 4)
  const size = Math.max(0.5, Math.min(L.maxBar, (room - (n - 1) * gap) / n))
  return { offset: (band - (n * size + (n - 1) * gap)) / 2, size, gap }
}
