import type { ReactElement } from 'react'
import { isFinding } from '../../../../shared/compare/summary'
import { formatPct } from '../../../../shared/format'
import { AXIS_COLOUR, GRID_COLOUR, MARK_STROKE, REFERENCE_COLOUR, relativeColour, TEXT_COLOUR } from './palette'
import { relativeTicks, type RelativeItem, type RelativeRow } from './relative'
import { plotFrame } from './plot-frame'

/**
 * The relative chart (relative-chart.tsx), on screen and for print (the PDF report): the geometry
 * recharts drew, written out as plain SVG in one pass. Nothing is measured: the figures' names
 * are HTML beside the plot, so the browser wraps them as it lays out the page, and the page has
 * nothing to wait for before it prints. Each bar says its figure and interval on hover (an SVG
 * title), as recharts' tooltip did.
 */

/** The room around the plot and the axes' sizes, as the recharts chart has them. */
export const RELATIVE_LAYOUT = { top: 22, right: 150, bottom: 4, left: 8, yAxisWidth: 280, xAxisHeight: 30, barSize: 18, tick: 6, tickGap: 2, whisker: 6, labelGap: 12 } as const

/** A bar (relativeRows) with the figure, sign and verdict written right of the plot. */
export type RelativePlotRow = RelativeRow & { text: string }

export function RelativePlot({
  items,
  rows,
  max,
  width = 640,
  height
}: {
  items: readonly RelativeItem[]
  rows: readonly RelativePlotRow[]
  max: number
  /** Given by ChartFigure in print. */
  width?: number
  height?: number
}): ReactElement {
  const L = RELATIVE_LAYOUT
  const { h, left, plotWidth, bottom } = plotFrame(L, width, height, 160)
  const band = (bottom - L.top) / Math.max(1, rows.length)
  const x = (pct: number): number => left + (Math.min(max, Math.max(0, pct)) / max) * plotWidth
  const mid = (i: number): number => L.top + band * (i + 0.5)
  const ticks = relativeTicks(max)
  const labelled = labelledTicks(ticks, plotWidth)
  return (
    <div className="charts-static" style={{ width, height: h }}>
      <svg width={width} height={h} viewBox={`0 0 ${width} ${h}`} className="charts-static-svg">
        <g stroke={GRID_COLOUR} strokeDasharray="3 3">
          {ticks.map((t) => (
            <line key={t} x1={x(t)} x2={x(t)} y1={L.top} y2={bottom} />
          ))}
        </g>
        <g stroke={AXIS_COLOUR}>
          <line x1={left} x2={left + plotWidth} y1={bottom} y2={bottom} />
          <line x1={left} x2={left} y1={L.top} y2={bottom} />
          {labelled.map((t) => (
            <line key={t} x1={x(t)} x2={x(t)} y1={bottom} y2={bottom + L.tick} />
          ))}
          {rows.map((_, i) => (
            <line key={i} x1={left - L.tick} x2={left} y1={mid(i)} y2={mid(i)} />
          ))}
        </g>
        <g fill={AXIS_COLOUR} fontSize={12} textAnchor="middle">
          {labelled.map((t) => (
            <text key={t} x={x(t)} y={bottom + L.tick + L.tickGap} dy="0.71em">
              {formatPct(t)}
            </text>
          ))}
        </g>
        {rows.map((row, i) => {
          const item = items[i]!
          const y = mid(i)
          return (
            <g key={i}>
              <title>{`${row.label}: ${formatPct(item.pct, 1)}${item.ci95 ? ` (95 % interval ${formatPct(item.ci95[0], 1)} to ${formatPct(item.ci95[1], 1)})` : ''}`}</title>
              <rect
                className="charts-relative-bar"
                x={left}
                y={y - L.barSize / 2}
                width={x(row.pct) - left}
                height={L.barSize}
                fill={relativeColour(item.pct, item.verdict)?.colour}
                fillOpacity={isFinding(item) ? 1 : 0.45}
                stroke={MARK_STROKE}
              />
              {row.ci ? <Whisker from={x(row.pct - row.ci[0])} to={x(row.pct + row.ci[1])} y={y} /> : null}
              <text x={left + plotWidth + L.labelGap} y={y} dominantBaseline="central" fill={TEXT_COLOUR} fontSize={12}>
                {row.text}
              </text>
            </g>
          )
        })}
        <line className="charts-reference-line" x1={x(100)} x2={x(100)} y1={L.top} y2={bottom} stroke={REFERENCE_COLOUR} strokeWidth={1.5} strokeDasharray="4 3" />
        <text x={x(100)} y={L.top - 5} textAnchor="middle" fill={TEXT_COLOUR} fontSize={12}>
          100 %
        </text>
      </svg>
      <RowLabels labels={rows.map((row) => row.label)} layout={L} centre={mid} band={band} />
    </div>
  )
}

/**
 * The figures' names beside a plot's row bands, as HTML (the browser wraps them), each centred on
 * its band: the relative and latency plots' y axis.
 */
export function RowLabels({
  labels,
  layout,
  centre,
  band
}: {
  labels: readonly string[]
  layout: { left: number; yAxisWidth: number; tick: number; tickGap: number }
  centre: (row: number) => number
  band: number
}): ReactElement {
  return (
    <>
      {labels.map((label, i) => (
        <div key={i} className="charts-static-label" style={{ left: layout.left, top: centre(i) - band / 2, width: layout.yAxisWidth - layout.tick - layout.tickGap, height: band }}>
          {label}
        </div>
      ))}
    </>
  )
}

/** Room a tick's label takes at 12 px (a digit or a space about 7 px, and a gap), reckoned rather than measured. */
const tickLabelWidth = (t: number): number => formatPct(t).length * 7 + 8

/**
 * The ticks that get a label: every one when they have room, else every second (third…) counted
 * back from the axis end, so the end keeps its label, as recharts thins them on screen. Evenly
 * spaced ticks (a linear axis, or a log axis' decades); `labelWidth` is a label's room.
 */
export function labelledTicks(ticks: readonly number[], plotWidth: number, labelWidth: (tick: number) => number = tickLabelWidth): number[] {
  if (ticks.length < 2) return [...ticks]
  const spacing = plotWidth / (ticks.length - 1)
  const widest = Math.max(...ticks.map(labelWidth))
  const every = Math.max(1, Math.ceil(widest / spacing))
  return ticks.filter((_, i) => (ticks.length - 1 - i) % every === 0)
}

/** An interval's whisker: a line with a cap at each end. */
function Whisker({ from, to, y }: { from: number; to: number; y: number }): ReactElement {
  const L = RELATIVE_LAYOUT
  return (
    <g className="charts-whisker" stroke={TEXT_COLOUR}>
      <line x1={from} x2={to} y1={y} y2={y} />
      <line x1={from} x2={from} y1={y - L.whisker} y2={y + L.whisker} />
      <line x1={to} x2={to} y1={y - L.whisker} y2={y + L.whisker} />
    </g>
  )
}
