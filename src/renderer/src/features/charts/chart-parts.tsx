import { cloneElement, createContext, useContext, useEffect, useId, useLayoutEffect, useRef, useState, type ReactElement, type ReactNode } from 'react'
import type { Unit } from '../../../../shared/model/sample'
import { formatValue } from '../../../../shared/format'
import { ChartImageMenu } from './chart-image-menu'
import { watchMeasurementSpan } from './measurement-span'
import { AXIS_COLOUR, colourOf, GRID_COLOUR, patternOf, TEXT_COLOUR, type SeriesPattern } from './palette'
import './charts.css'

/**
 * How charts are drawn for print (the PDF report, docs/export.md): a fixed width instead of the
 * container's, no controls (what they would choose is given as a prop, and named in the card),
 * no hidden table (the report prints its own tables). Recharts animation is off everywhere.
 */
export interface ChartPrintMode {
  /** The plot's width in CSS pixels. */
  width: number
}

export const ChartPrintContext = createContext<ChartPrintMode | undefined>(undefined)

export function useChartPrint(): ChartPrintMode | undefined {
  return useContext(ChartPrintContext)
}

/** The start of saved chart images' file names (the run's name and id); set by the page showing the charts. */
export const ChartFileStemContext = createContext('virtbench')

/**
 * The line saved chart images carry under their title, so a picture pasted into a slide still
 * says where it came from: "Loopback quick comparison · 21 Nov 2026 · host vs guest (cache=none)".
 * Set by the page showing the charts (chartSourceLine); empty where no run is known.
 */
export const ChartSourceContext = createContext('')

/** "<run name> · <date> · <baseline> vs <variants>" for a run's chart images. */
export function chartSourceLine(run: { name: string; createdAt: string; baseline: string; variants: readonly string[] }): string {
  const date = new Date(run.createdAt)
  const day = Number.isNaN(date.getTime()) ? run.createdAt.slice(0, 10) : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
  // a few targets by name; more are counted (the image's legend names them)
  const hosts =
    run.variants.length === 0 ? run.baseline : run.variants.length <= 3 ? `${run.baseline} vs ${run.variants.join(', ')}` : `${run.baseline} vs ${run.variants.length} variants`
  return [run.name, day, hosts].filter(Boolean).join(' · ')
}

/** A chart's card: its title, one line on how to read it, the controls and the chart. */
export function ChartCard({
  title,
  howToRead,
  controls,
  shown,
  wide,
  children
}: {
  title: string
  howToRead: ReactNode
  controls?: ReactNode
  /** What the controls have chosen, in words: printed in place of the controls. */
  shown?: string
  /** Across the whole row of the grid (long labels, wide tables). */
  wide?: boolean
  children: ReactNode
}): ReactElement {
  const id = useId()
  const print = useChartPrint()
  const ref = useRef<HTMLElement>(null)
  const fileStem = useContext(ChartFileStemContext)
  const source = useContext(ChartSourceContext)
  const classes = ['card', 'charts-card', wide ? 'charts-card-wide' : '', print ? 'charts-card-print' : ''].filter(Boolean).join(' ')
  return (
    <section ref={ref} className={classes} aria-labelledby={`${id}-title`}>
      <div className="charts-card-head">
        <h3 id={`${id}-title`}>{title}</h3>
        {print ? null : <ChartImageMenu cardRef={ref} title={title} fileStem={fileStem} source={source} {...(shown !== undefined ? { shown } : {})} />}
      </div>
      {print && shown ? <p className="charts-shown">{shown}</p> : null}
      <p className="charts-how">{howToRead}</p>
      {controls && !print ? <div className="charts-controls">{controls}</div> : null}
      {children}
    </section>
  )
}

/**
 * The drawing (hidden from screen readers: the table says the same), a sentence summing it up,
 * and the numbers as a table that screen readers always reach and anyone can show.
 */
export function ChartFigure({
  name,
  height,
  summary,
  table,
  children
}: {
  /** The figure's accessible name. */
  name: string
  /** Fixed, so the page does not jump while results arrive. */
  height: number
  summary: ReactNode
  table: DataTableProps
  /**
   * The chart: a recharts chart or a plain SVG plot (latency-plot.tsx), given its box's width on
   * screen (MeasuredPlot), the print width in print.
   */
  children: ReactElement<{ width?: number; height?: number }>
}): ReactElement {
  const id = useId()
  const print = useChartPrint()
  useEffect(() => watchMeasurementSpan(), [])
  return (
    <figure className="charts-figure" aria-label={name} aria-describedby={`${id}-summary`}>
      <div className="charts-plot" style={print ? { height, width: print.width } : { height }} aria-hidden="true">
        {print ? cloneElement(children, { width: print.width, height }) : <MeasuredPlot height={height}>{children}</MeasuredPlot>}
      </div>
      <figcaption id={`${id}-summary`} className="charts-summary">
        {summary}
      </figcaption>
      {print ? null : <DataTable {...table} />}
    </figure>
  )
}

/**
 * A chart given the width of its box: drawn once the box's first size is known (a ResizeObserver,
 * which reads the layout the browser makes anyway rather than forcing one), and again when the
 * box changes width; the box keeps the chart's height meanwhile. In place of recharts'
 * ResponsiveContainer, which drew a recharts chart a second time once it had measured.
 */
export function MeasuredPlot({ height, children }: { height: number; children: ReactElement<{ width?: number; height?: number }> }): ReactElement {
  const ref = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState<number | undefined>(undefined)
  useLayoutEffect(() => {
    const box = ref.current
    if (!box) return
    const observer = new ResizeObserver((entries) => {
      const measured = Math.floor(entries[0]?.contentRect.width ?? 0)
      if (measured > 0) setWidth(measured)
    })
    observer.observe(box)
    return () => observer.disconnect()
  }, [])
  return (
    <div ref={ref} className="charts-measured" style={{ height }}>
      {width !== undefined ? cloneElement(children, { width, height }) : null}
    </div>
  )
}

export interface TableCell {
  text: string
  /** Why a cell is empty, or the repetitions behind a figure. */
  title?: string
}

export interface DataTableProps {
  caption: string
  /** Header of the first column (what the rows are). */
  corner: string
  columns: string[]
  rows: { header: string; cells: TableCell[] }[]
}

/** The numbers behind a chart. Visually hidden until shown (screen readers read it either way). */
export function DataTable({ caption, corner, columns, rows }: DataTableProps): ReactElement {
  const [shown, setShown] = useState(false)
  const id = useId()
  return (
    <div className="charts-table-wrap">
      <button type="button" className="charts-link" aria-expanded={shown} aria-controls={id} onClick={() => setShown((s) => !s)}>
        {shown ? 'Hide the numbers' : 'Show the numbers'}
      </button>
      {/* hidden by a wrapper: a table never gets narrower than its content, a div clips it */}
      <div id={id} className={shown ? 'charts-table-box' : 'charts-table-box visually-hidden'}>
        <table className="charts-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{corner}</th>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, r) => (
              <tr key={`${r}-${row.header}`}>
                <th scope="row">{row.header}</th>
                {row.cells.map((cell, c) => (
                  <td key={c} title={cell.title}>
                    {cell.text}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}

export interface SelectOption {
  value: string
  label: string
}

/** A labelled select for a chart's controls; options may come in groups. */
export function ChartSelect({
  label,
  value,
  onChange,
  options,
  groups
}: {
  label: string
  value: string
  onChange: (value: string) => void
  options?: SelectOption[]
  groups?: { label: string; options: SelectOption[] }[]
}): ReactElement {
  const id = useId()
  const render = (list: SelectOption[]) =>
    list.map((o) => (
      <option key={o.value} value={o.value}>
        {o.label}
      </option>
    ))
  return (
    <div className="charts-control">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {options ? render(options) : null}
        {(groups ?? [])
          .filter((g) => g.options.length > 0)
          .map((g) => (
            <optgroup key={g.label} label={g.label}>
              {render(g.options)}
            </optgroup>
          ))}
      </select>
    </div>
  )
}

/** "—" with the reason in its title: the way every chart table shows a figure no run produced. */
export function absent(reason: string): TableCell {
  return { text: '—', title: reason }
}

/** A figure with its unit, and its repetitions in the title. */
export function figureCell(value: number, unit: Unit, values?: readonly number[]): TableCell {
  const title = values && values.length > 0 ? `${values.length} repetition${values.length === 1 ? '' : 's'}: ${values.map((v) => formatValue(v, unit)).join(', ')}` : undefined
  return title ? { text: formatValue(value, unit), title } : { text: formatValue(value, unit) }
}

// ---------------------------------------------------------------------------------------------
// recharts styling in theme variables

export const AXIS_PROPS = {
  stroke: AXIS_COLOUR,
  tick: { fill: AXIS_COLOUR, fontSize: 12 },
  tickLine: { stroke: AXIS_COLOUR }
} as const

export const GRID_PROPS = { stroke: GRID_COLOUR, strokeDasharray: '3 3' } as const

export const TOOLTIP_PROPS = {
  contentStyle: {
    background: 'var(--panel)',
    border: '1px solid var(--border)',
    borderRadius: 8,
    color: 'var(--text)',
    fontSize: 13,
    fontVariantNumeric: 'tabular-nums'
  },
  labelStyle: { color: 'var(--text)', fontWeight: 600 },
  itemStyle: { color: 'var(--text)' },
  cursor: { fill: 'var(--accent-soft)', opacity: 0.5 },
  isAnimationActive: false
} as const

/** Legend in plan order (recharts sorts by name unless told not to), its text in the text colour. */
export const LEGEND_PROPS = {
  itemSorter: null,
  wrapperStyle: { color: TEXT_COLOUR, fontSize: 13 },
  formatter: (value: unknown) => <span className="charts-legend-text">{String(value)}</span>
} as const

/** The tick formatter of an axis in `unit`. */
export function tickOf(unit: Unit): (value: number) => string {
  return (value) => formatValue(value, unit)
}

// ---------------------------------------------------------------------------------------------
// Fill patterns: bars told apart without colour

/** The fill of series `index`: its colour, hatched per its pattern (the baseline solid). */
export function patternFill(prefix: string, index: number): string {
  return patternOf(index) === 'solid' ? colourOf(index) : `url(#${prefix}-p${index})`
}

function hatch(pattern: SeriesPattern): ReactNode {
  const line = { stroke: 'var(--panel)', strokeWidth: 1.6, strokeOpacity: 0.75 }
  switch (pattern) {
    case 'diagonal':
      return <path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4" {...line} />
    case 'antidiagonal':
      return <path d="M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4" {...line} />
    case 'crosshatch':
      return <path d="M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4 M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4" {...line} strokeWidth={1.1} />
    case 'horizontal':
      return <path d="M0,4 h8" {...line} />
    case 'vertical':
      return <path d="M4,0 v8" {...line} />
    case 'dots':
      return <circle cx={4} cy={4} r={1.6} fill="var(--panel)" fillOpacity={0.8} />
    default:
      return null
  }
}

/** The patterns of `count` series, ids `<prefix>-p<i>`, in a zero-size SVG next to the chart. */
export function SeriesPatterns({ prefix, count }: { prefix: string; count: number }): ReactElement {
  return (
    <svg className="charts-defs" width={0} height={0} aria-hidden="true" focusable="false">
      <defs>
        {Array.from({ length: count }, (_, i) =>
          patternOf(i) === 'solid' ? null : (
            <pattern key={i} id={`${prefix}-p${i}`} width={8} height={8} patternUnits="userSpaceOnUse">
              <rect width={8} height={8} fill={colourOf(i)} />
              {hatch(patternOf(i))}
            </pattern>
          )
        )}
      </defs>
    </svg>
  )
}

/** SVG-safe id prefix from React's useId (which contains colons). */
export function useSvgId(): string {
  return `vbc${useId().replace(/[^A-Za-z0-9_-]/g, '')}`
}
