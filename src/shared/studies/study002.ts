import { leadingRows, VERDICT_WORDS } from '../compare/summary'
import { formatPct, formatValue } from '../format'
import type { Comparison, ComparisonRow, Verdict } from '../model/comparison'
import type { RunDocument } from '../model/run'
import type { Better, Unit } from '../model/sample'

/**
 * Study 002's two charts, from a run's comparison: relative block-device throughput and relative
 * latency, each one chart with a bar per machine (the baseline at 100 %, then every variant side by
 * side), each bar its relative % with the 95 % interval, as the study compares its hypervisors
 * against the chroot baseline. Relative % is oriented as everywhere in VirtBench: 100 % is as good
 * as the baseline, more is better (for latency, baseline / variant). Every figure is the
 * comparison's own; a bar no run produced has no value and says so.
 */

export const STUDY002_PACK = 'block-dd'

/** The pack's two tests, in the study's order, with the figure each exists to measure. */
export const STUDY002_CHARTS = [
  { id: 'throughput', testId: 'dd-throughput', metric: 'dd.bandwidth', title: 'Relative throughput' },
  { id: 'latency', testId: 'dd-latency', metric: 'dd.lat.mean', title: 'Relative latency' }
] as const

export type Study002ChartId = (typeof STUDY002_CHARTS)[number]['id']

/** One machine's bar. */
export interface Study002Bar {
  side: string
  baseline: boolean
  /** The figure (the test's aggregate) in base units; absent when no run produced it. */
  value?: number
  /** % of the baseline, 100 % = as good, more = better; the baseline's is 100. */
  relativePct?: number
  /** The 95 % interval of relativePct (variants with 2+ values on both sides). */
  ci95?: [number, number]
  verdict?: Verdict
}

export interface Study002Chart {
  id: Study002ChartId
  title: string
  testTitle: string
  metric: string
  unit: Unit
  better: Better
  bars: Study002Bar[]
}

/** Whether a run is study 002's: its plan chose the block-dd pack. */
export function isStudy002Run(run: Pick<RunDocument, 'plan'>): boolean {
  return run.plan.tests.some((t) => 'pack' in t && t.pack === STUDY002_PACK)
}

/**
 * The run's study 002 charts (those of its tests that ran), or none when it is not study 002's, or
 * when it has one guest: its relative chart then shows that guest alone in one chart already, and
 * the study's bars (every machine side by side) would only repeat it.
 */
export function study002Charts(run: Pick<RunDocument, 'plan'>, comparison: Comparison): Study002Chart[] {
  if (!isStudy002Run(run) || comparison.variants.length < 2) return []
  const rows = leadingRows(comparison)
  return STUDY002_CHARTS.flatMap((chart) => {
    const row = rows.find((r) => r.testId === chart.testId && r.metric === chart.metric && r.comparison === 'ratio')
    return row ? [chartOf(chart, row, comparison)] : []
  })
}

function chartOf(chart: (typeof STUDY002_CHARTS)[number], row: ComparisonRow, comparison: Comparison): Study002Chart {
  const baseline: Study002Bar = {
    side: comparison.baseline,
    baseline: true,
    ...(row.baseline ? { value: row.baseline.value, relativePct: 100 } : {})
  }
  const variants = row.cells.map(
    (cell): Study002Bar => ({
      side: cell.variant,
      baseline: false,
      ...(cell.stats ? { value: cell.stats.value } : {}),
      ...(cell.relativePct !== undefined ? { relativePct: cell.relativePct } : {}),
      ...(cell.ci95 ? { ci95: cell.ci95 } : {}),
      ...(cell.stats ? { verdict: cell.verdict } : {})
    })
  )
  return { id: chart.id, title: chart.title, testTitle: row.testTitle, metric: row.metric, unit: row.unit, better: row.better, bars: [baseline, ...variants] }
}

/** A bar's label: "87 % [84–90]" (the baseline's "100 % (baseline)"), or "no result". */
export function study002BarLabel(bar: Study002Bar): string {
  if (bar.relativePct === undefined) return 'no result'
  if (bar.baseline) return `${formatPct(bar.relativePct)} (baseline)`
  const ci = bar.ci95 ? ` [${bar.ci95[0].toFixed(0)}–${bar.ci95[1].toFixed(0)}]` : ''
  return `${formatPct(bar.relativePct)}${ci}`
}

/** What a chart's axis says: "% of chroot's throughput (dd.bandwidth, more is better)". */
export function study002AxisLabel(chart: Study002Chart, baseline: string): string {
  const what = chart.id === 'throughput' ? 'throughput' : 'latency, as baseline / variant'
  return `% of ${baseline}'s ${what} (${chart.metric}, more is better)`
}

/** The charts as text for `virtbench run`: per chart, one line per machine with its figure, a bar to scale (the chart's largest % fills it) and its %. */
export function study002Text(charts: readonly Study002Chart[], baseline: string): string {
  const width = 40
  return charts
    .map((chart) => {
      const top = Math.max(100, ...chart.bars.map((b) => b.relativePct ?? 0))
      const name = Math.max(...chart.bars.map((b) => b.side.length))
      const value = Math.max(...chart.bars.map((b) => (b.value === undefined ? 2 : formatValue(b.value, chart.unit).length)))
      const lines = chart.bars.map((bar) => {
        const filled = bar.relativePct === undefined ? 0 : Math.round((bar.relativePct / top) * width)
        const verdict = bar.verdict ? ` (${VERDICT_WORDS[bar.verdict]})` : ''
        const figure = bar.value === undefined ? '–' : formatValue(bar.value, chart.unit)
        return `${bar.side.padEnd(name)}  ${figure.padStart(value)}  ${'█'.repeat(filled).padEnd(width)}  ${study002BarLabel(bar)}${verdict}`
      })
      return [`${chart.title}: ${chart.testTitle} · ${study002AxisLabel(chart, baseline)}`, ...lines].join('\n')
    })
    .join('\n\n')
}
