import { useMemo, type ReactElement } from 'react'
import { VERDICT_WORDS } from '../../../../shared/compare/summary'
import { formatPct, formatValue } from '../../../../shared/format'
import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import { study002AxisLabel, study002BarLabel, study002Charts, type Study002Bar, type Study002Chart } from '../../../../shared/studies/study002'
import { absent, ChartCard, ChartFigure, type DataTableProps } from '../charts/chart-parts'
import { relativeHeight } from '../charts/relative-chart'
import { RelativePlot } from '../charts/relative-plot'
import { relativeDomainMax, relativeRows, type RelativeItem } from '../charts/relative'
import './studies.css'

/**
 * Study 002's two bar charts for a run of its pack (block-dd): relative throughput and relative
 * latency, each with every machine as a bar side by side, the baseline at 100 %, each bar's % and
 * 95 % interval written beside it, and the figure itself (in its unit) beside the machine's name.
 * The same in the app and on paper.
 */
export function Study002Bars({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement | null {
  const charts = useMemo(() => study002Charts(run, comparison), [run, comparison])
  if (charts.length === 0) return null
  return (
    <ChartCard
      wide
      title="Block device throughput and latency per machine (study 002)"
      shown={`${charts.length} chart${charts.length === 1 ? '' : 's'}, ${charts[0]!.bars.length} machines`}
      howToRead={`Every machine's bar as a % of ${comparison.baseline}'s (100 %); more is better, so a latency is read as ${comparison.baseline}'s / the machine's. Whiskers and brackets are the 95 % confidence interval; a bar is coloured only when its verdict is slower or faster. The figure each % stands on is beside the machine's name.`}
    >
      <div className="studies-002">
        {charts.map((chart) => (
          <Study002Chart key={chart.id} chart={chart} baseline={comparison.baseline} />
        ))}
      </div>
    </ChartCard>
  )
}

function Study002Chart({ chart, baseline }: { chart: Study002Chart; baseline: string }): ReactElement {
  const drawn = chart.bars.filter((b) => b.relativePct !== undefined)
  const items = drawn.map((bar, i) => itemOf(bar, chart, i))
  const max = relativeDomainMax(items)
  const rows = relativeRows(items, max).map((row, i) => ({ ...row, text: study002BarLabel(drawn[i]!) }))
  const missing = chart.bars.filter((b) => b.relativePct === undefined)
  return (
    <div className="studies-002-chart" data-chart={chart.id}>
      <h4>
        {chart.title}: {chart.testTitle}
      </h4>
      <p className="charts-note studies-002-axis">{study002AxisLabel(chart, baseline)}</p>
      <ChartFigure name={`${chart.title}, % of ${baseline}`} height={relativeHeight(items.length)} summary={summaryOf(chart)} table={tableOf(chart)}>
        <RelativePlot items={items} rows={rows} max={max} />
      </ChartFigure>
      {missing.length > 0 ? <p className="muted">No result on {missing.map((b) => b.side).join(', ')}: no bar to draw.</p> : null}
    </div>
  )
}

/** A bar as the relative plot draws it; the baseline is as good as itself ("same"). */
function itemOf(bar: Study002Bar, chart: Study002Chart, i: number): RelativeItem {
  const figure = bar.value === undefined ? '' : ` · ${formatValue(bar.value, chart.unit)}`
  return {
    label: `${bar.side}${bar.baseline ? ' (baseline)' : ''}${figure}`,
    short: `${bar.side}${figure}`,
    pct: bar.relativePct!,
    ...(bar.ci95 ? { ci95: bar.ci95 } : {}),
    verdict: bar.verdict ?? 'same',
    seriesIndex: i,
    flags: []
  }
}

function summaryOf(chart: Study002Chart): string {
  const parts = chart.bars
    .filter((b) => !b.baseline)
    .map((b) => `${b.side} ${b.relativePct === undefined ? 'no result' : `${formatPct(b.relativePct)}${b.verdict ? ` (${VERDICT_WORDS[b.verdict]})` : ''}`}`)
  return `${chart.title} against ${chart.bars[0]!.side}: ${parts.join(', ')}.`
}

function tableOf(chart: Study002Chart): DataTableProps {
  return {
    caption: `${chart.title}: ${chart.testTitle} (${chart.metric}), each machine's figure and its % of the baseline with the 95 % interval`,
    corner: 'Machine',
    columns: ['Figure', 'Relative %', '95 % interval', 'Verdict'],
    rows: chart.bars.map((bar) => ({
      header: bar.side,
      cells: [
        bar.value === undefined ? absent('no repetition succeeded') : { text: formatValue(bar.value, chart.unit) },
        bar.relativePct === undefined ? absent('no relative %: a side has no value') : { text: formatPct(bar.relativePct, 1) },
        bar.ci95 ? { text: `${formatPct(bar.ci95[0], 1)} to ${formatPct(bar.ci95[1], 1)}` } : absent(bar.baseline ? 'the baseline' : 'no interval: a side has fewer than two repetitions'),
        { text: bar.baseline ? 'baseline' : bar.verdict ? VERDICT_WORDS[bar.verdict] : 'not compared' }
      ]
    }))
  }
}
