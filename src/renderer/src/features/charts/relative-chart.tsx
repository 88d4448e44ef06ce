import { verdictCountsText, VERDICT_WORDS, type VerdictCounts } from '../../../../shared/compare/summary'
import { useMemo, useState, type ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import { formatPct } from '../../../../shared/format'
import { absent, ChartCard, ChartFigure, ChartSelect, type DataTableProps } from './chart-parts'
import { relativeColour } from './palette'
import { RelativePlot } from './relative-plot'
import { RELATIVE_AXIS_CAP, relativeData, relativeDomainMax, relativeRows, relativeViews, type RelativeData, type RelativeItem } from './relative'

const ROW_HEIGHT = 36

/** The plot's height for `items` bars: fixed per bar, so a view always takes the same room. */
export function relativeHeight(items: number): number {
  return Math.max(160, items * ROW_HEIGHT + 64)
}

/** The bar's label: figure, sign and verdict; an arrow when the bar runs off the axis. */
export function relativeLabel(item: Pick<RelativeItem, 'pct' | 'verdict'>, max: number = RELATIVE_AXIS_CAP): string {
  const tone = relativeColour(item.pct, item.verdict)
  const over = item.pct > max ? '▶ ' : ''
  return `${over}${formatPct(item.pct)} ${tone?.symbol ?? ''} ${VERDICT_WORDS[item.verdict]}`.replace(/ +/g, ' ').trim()
}

/**
 * Relative % (100 % = the baseline, more is always better) with the 95 % confidence interval as
 * error bars: every primary metric of one variant, or one metric for every variant.
 */
export function RelativeChart({ comparison, view: initial }: { comparison: Comparison; /** The view shown first (a RelativeView key). */ view?: string }): ReactElement | null {
  const views = useMemo(() => relativeViews(comparison), [comparison])
  const [selected, setSelected] = useState<string | undefined>(initial)
  const view = views.find((v) => v.key === selected) ?? views[0]
  if (!view) return null
  const data = relativeData(comparison, view)
  const max = relativeDomainMax(data.items)
  const rows = relativeRows(data.items, max).map((row, i) => ({ ...row, text: relativeLabel(data.items[i]!, max) }))
  return (
    <ChartCard
      wide
      title="Relative to the baseline"
      shown={view.label}
      howToRead={`100 % means as good as ${comparison.baseline}; more is always better (latencies are inverted). Whiskers are the 95 % confidence interval. Only a slower or faster verdict is coloured: a bar whose interval lies within 100 % ± ${comparison.marginPct} % is the same, one whose interval is too wide to tell is grey (≈).`}
      controls={
        <ChartSelect
          label="Show"
          value={view.key}
          onChange={setSelected}
          groups={[
            { label: 'One variant, every primary metric', options: views.filter((v) => v.kind === 'variant').map((v) => ({ value: v.key, label: v.label })) },
            { label: 'One metric, every variant', options: views.filter((v) => v.kind === 'metric').map((v) => ({ value: v.key, label: v.label })) }
          ]}
        />
      }
    >
      <ChartFigure name={`${data.title}, relative %`} height={relativeHeight(data.items.length)} summary={relativeSummary(data)} table={relativeTable(data)}>
        <RelativePlot items={data.items} rows={rows} max={max} />
      </ChartFigure>
    </ChartCard>
  )
}

/** "vm1 relative to host: 3 slower, 1 same, 6 inconclusive." (the verdicts, never the bare figures) */
export function relativeSummary(data: RelativeData): string {
  const counts: VerdictCounts = { slower: 0, faster: 0, same: 0, inconclusive: 0 }
  for (const item of data.items) counts[item.verdict]++
  const parts = [`${data.title}: ${verdictCountsText(counts)} of ${data.items.length}.`]
  if (data.missing.length > 0) parts.push(`${data.missing.length} without a relative figure.`)
  return parts.join(' ')
}

function relativeTable(data: RelativeData): DataTableProps {
  return {
    caption: `${data.title}: relative % and 95 % confidence interval`,
    corner: 'Figure',
    columns: ['Relative %', '95 % interval', 'Verdict', 'Flags'],
    rows: [
      ...data.items.map((item) => ({
        header: item.label,
        cells: [
          { text: formatPct(item.pct, 1) },
          item.ci95 ? { text: `${formatPct(item.ci95[0], 1)} to ${formatPct(item.ci95[1], 1)}` } : absent('no interval: a side has fewer than two repetitions'),
          { text: VERDICT_WORDS[item.verdict] },
          { text: item.flags.length > 0 ? item.flags.map((f) => f.replace(/-/g, ' ')).join(', ') : 'none' }
        ]
      })),
      ...data.missing.map((label) => ({
        header: label,
        cells: [absent('no relative %: a side has no value, or the ratio does not exist (a zero baseline)'), absent('no interval'), { text: 'not compared' }, { text: '' }]
      }))
    ]
  }
}
