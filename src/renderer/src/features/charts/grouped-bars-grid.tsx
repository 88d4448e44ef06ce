import { useMemo, useState, type ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import type { MetricCategory } from '../../../../shared/model/sample'
import { formatValue } from '../../../../shared/format'
import { linearAxis } from './axis-ticks'
import { absent, ChartCard, ChartSelect, DataTable, figureCell, MeasuredPlot, patternFill, SeriesPatterns, useChartPrint, useSvgId, type DataTableProps } from './chart-parts'
import { groupedBarsData, type GroupedBarsData } from './grouped-bars'
import { MARK_STROKE } from './palette'
import { SmallBarsPlot } from './small-bars-plot'
import { aggregateWords, metricChoices, seriesOf, type MetricChoice } from './rows'
import { useStaged } from './staged'

/** Small charts drawn at first; the rest on request (each is a chart of its own to draw). */
export const MULTIPLES_SHOWN = 12

/** The plot height of one small chart (its title is in the plot, as the x axis' label). */
export const SMALL_MULTIPLE_HEIGHT = 210

const CATEGORY_WORDS: Record<MetricCategory, string> = { storage: 'Storage', network: 'Network', cpu: 'CPU', memory: 'Memory' }

/** The categories with at least one metric, in the model's order; 'other' for metrics without one. */
export function multiplesCategories(choices: readonly MetricChoice[]): { key: string; label: string; count: number }[] {
  const keys = [...new Set(choices.map((c) => c.category ?? 'other'))]
  const order = ['storage', 'network', 'cpu', 'memory', 'other']
  return keys
    .sort((a, b) => order.indexOf(a) - order.indexOf(b))
    .map((key) => ({ key, label: key === 'other' ? 'Other' : CATEGORY_WORDS[key as MetricCategory], count: choices.filter((c) => (c.category ?? 'other') === key).length }))
}

/** The metrics one page of small multiples shows: a category's primary metrics, or all of them. */
export function multiplesChoices(choices: readonly MetricChoice[], category: string, all: boolean): MetricChoice[] {
  return choices.filter((c) => (c.category ?? 'other') === category && (all || c.headline))
}

/**
 * Every metric of a category at once, as small bar charts in a grid (small multiples): the
 * baseline's and each variant's figure, each chart on its own axis with nice ticks, one legend for
 * all. The category and "all metrics" are the only choices; the numbers behind every chart are
 * in one table.
 */
export function GroupedBarsGrid({ comparison, category: initialCategory }: { comparison: Comparison; category?: string }): ReactElement | null {
  const choices = useMemo(() => metricChoices(comparison), [comparison])
  const categories = useMemo(() => multiplesCategories(choices), [choices])
  const [category, setCategory] = useState<string | undefined>(initialCategory)
  const [all, setAll] = useState(false)
  /** The page (category and "all") whose every chart was asked for. */
  const [expanded, setExpanded] = useState<string | undefined>(undefined)
  const prefix = useSvgId()
  const print = useChartPrint()
  const chosen = categories.find((c) => c.key === category) ?? categories.find((c) => choices.some((m) => (m.category ?? 'other') === c.key && m.headline)) ?? categories[0]
  if (!chosen) return null
  const primaryOnly = multiplesChoices(choices, chosen.key, false)
  const shown = all || primaryOnly.length === 0 ? multiplesChoices(choices, chosen.key, true) : primaryOnly
  const series = seriesOf(comparison)
  const pageKey = `${chosen.key}|${all}`
  const limit = print || expanded === pageKey ? shown.length : MULTIPLES_SHOWN
  const drawn = shown.slice(0, limit)
  const datas = drawn.map((choice) => groupedBarsData(comparison, choice))
  const what = `${chosen.label}: ${shown.length === primaryOnly.length && !all ? 'primary metrics' : 'all metrics'}`
  return (
    <ChartCard
      wide
      title="Baseline and variants side by side"
      shown={what}
      howToRead={`Every ${all ? '' : 'primary '}metric of a category at once, each on its own axis: one bar per target (${aggregateWords(datas[0]?.aggregate ?? 'median')}); the thin line spans its lowest to highest repetition. The arrow after each title says whether higher or lower is better.`}
      controls={
        <>
          <ChartSelect label="Category" value={chosen.key} onChange={setCategory} options={categories.map((c) => ({ value: c.key, label: `${c.label} (${c.count})` }))} />
          <label className="charts-check">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
            All metrics
          </label>
        </>
      }
    >
      <SeriesPatterns prefix={prefix} count={series.length} />
      <ul className="charts-multiples-legend" aria-label="Targets">
        {series.map((s) => (
          <li key={s.key}>
            <svg width={14} height={14} aria-hidden="true" focusable="false">
              <rect width={14} height={14} fill={patternFill(prefix, s.index)} stroke={MARK_STROKE} />
            </svg>
            {s.name}
          </li>
        ))}
      </ul>
      <Multiples datas={datas} choices={drawn} page={pageKey} prefix={prefix} width={print ? Math.floor(print.width / 2) - 8 : undefined} />
      {shown.length > drawn.length ? (
        <button type="button" className="button button-small charts-more" onClick={() => setExpanded(pageKey)}>
          Show {shown.length - drawn.length} more {shown.length - drawn.length === 1 ? 'chart' : 'charts'}
        </button>
      ) : null}
      <p className="charts-summary">{multiplesSummary(datas, chosen.label, shown.length)}</p>
      {print ? null : <DataTable {...multiplesTable(datas, series.map((s) => s.name), what)} />}
    </ChartCard>
  )
}

/** The small charts, arriving one at a time in the results (staged.ts), their room kept meanwhile. */
function Multiples({ datas, choices, page, prefix, width }: { datas: GroupedBarsData[]; choices: MetricChoice[]; page: string; prefix: string; width: number | undefined }): ReactElement {
  const arrived = useStaged(datas.length, page)
  // the same elements from one arrival to the next, so React leaves the charts already drawn alone
  const charts = useMemo(
    () => datas.map((data, i) => <SmallBars key={choices[i]!.key} data={data} metric={choices[i]!.metric} prefix={prefix} width={width} />),
    [datas, choices, prefix, width]
  )
  return (
    <div className="charts-multiples" aria-hidden="true">
      {charts.map((chart, i) => (i < arrived ? chart : <div key={choices[i]!.key} className="charts-multiple-pending" style={{ height: SMALL_MULTIPLE_HEIGHT }} />))}
    </div>
  )
}

/** One small chart: its metric as the title on the x axis, nice ticks on its own y axis (plain SVG, small-bars-plot.tsx). */
function SmallBars({ data, metric, prefix, width }: { data: GroupedBarsData; metric: string; prefix: string; width: number | undefined }): ReactElement {
  const grouped = data.groups.length > 1
  const title = `${data.title} ${data.better === 'higher' ? '↑' : '↓'}`
  const top = Math.max(0, ...data.groups.flatMap((g) => g.points.map((p) => (p ? Math.max(p.value, p.max) : 0))))
  const plot = (
    <SmallBarsPlot
      data={data}
      groupLabels={grouped ? data.groups.map((g) => g.label) : [title]}
      axis={linearAxis(data.unit, top, 4)}
      prefix={prefix}
      top={grouped ? 22 : 8}
      {...(width ? { width, height: SMALL_MULTIPLE_HEIGHT } : {})}
    />
  )
  return (
    // the full title (an axis may cut it) and the metric's id, on hover
    <figure className="charts-multiple" title={`${data.title} (${metric})`}>
      {grouped ? <figcaption className="charts-multiple-title">{title}</figcaption> : null}
      <div className="charts-plot" style={{ height: SMALL_MULTIPLE_HEIGHT }}>
        {width ? plot : <MeasuredPlot height={SMALL_MULTIPLE_HEIGHT}>{plot}</MeasuredPlot>}
      </div>
    </figure>
  )
}

/** "Storage, 7 metrics: …" with each metric's best target, in words. */
export function multiplesSummary(datas: readonly GroupedBarsData[], category: string, total = datas.length): string {
  const parts = datas.map((d) => {
    const measured = d.groups.length === 1 ? d.series.flatMap((s) => (d.groups[0]!.points[s.index] ? [{ name: s.name, value: d.groups[0]!.points[s.index]!.value }] : [])) : []
    if (measured.length === 0) return d.title
    const best = measured.reduce((a, b) => ((d.better === 'higher' ? b.value > a.value : b.value < a.value) ? b : a))
    return `${d.title}: best on ${best.name} (${formatValue(best.value, d.unit)})`
  })
  const count = total > datas.length ? `${datas.length} of ${total} metrics` : `${datas.length} metric${datas.length === 1 ? '' : 's'}`
  return `${category}, ${count}. ${parts.join('; ')}.`
}

function multiplesTable(datas: readonly GroupedBarsData[], columns: string[], caption: string): DataTableProps {
  return {
    caption: `${caption}: each target's figure`,
    corner: 'Metric',
    columns,
    rows: datas.flatMap((d) =>
      d.groups.map((g) => ({
        header: d.groups.length > 1 ? `${d.title} (${g.label})` : d.title,
        cells: d.series.map((s) => {
          const p = g.points[s.index]
          return p ? figureCell(p.value, d.unit, p.values) : absent(`not measured: no successful repetition on ${s.name}`)
        })
      }))
    )
  }
}
