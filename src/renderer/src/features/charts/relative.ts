import { leadingRows } from '../../../../shared/compare/summary'
import type { Comparison, FlagKind, Verdict } from '../../../../shared/model/comparison'
import { labelsText, metricChoices, shortMetric } from './rows'

/** What the relative % chart shows: every primary metric of one variant, or one metric for every variant. */
export interface RelativeView {
  key: string
  kind: 'variant' | 'metric'
  label: string
}

export interface RelativeItem {
  label: string
  /** The same, shorter, for the chart's axis: "4 KiB random read · read iops". */
  short: string
  /** Relative % (more is always better, 100 % = as good as the baseline). */
  pct: number
  ci95?: [number, number]
  verdict: Verdict
  /** The variant's series index (1..n), for its colour and marker. */
  seriesIndex: number
  flags: FlagKind[]
}

export interface RelativeData {
  title: string
  items: RelativeItem[]
  /** Labels of the figures that have no relative % (a missing side, a zero baseline). */
  missing: string[]
}

/** The views that have at least one relative %: variants first, then metrics. */
export function relativeViews(comparison: Comparison): RelativeView[] {
  const leading = leadingRows(comparison)
  const variants = comparison.variants
    .filter((variant, i) => leading.some((r) => r.cells[i]?.relativePct !== undefined))
    .map((variant) => ({ key: `variant:${variant}`, kind: 'variant' as const, label: `${variant}: every primary metric` }))
  const metrics = metricChoices(comparison)
    .filter((c) => c.rows.some((r) => r.cells.some((cell) => cell.relativePct !== undefined)))
    .map((c) => ({ key: `metric:${c.key}`, kind: 'metric' as const, label: `${c.label}: every variant` }))
  return [...variants, ...metrics]
}

/** The bars of one view, in the comparison's order. */
export function relativeData(comparison: Comparison, view: RelativeView): RelativeData {
  const items: RelativeItem[] = []
  const missing: string[] = []
  if (view.kind === 'variant') {
    const variant = view.key.slice('variant:'.length)
    const index = comparison.variants.indexOf(variant)
    for (const row of leadingRows(comparison)) {
      const labels = labelsText(row.labels)
      const label = `${row.testTitle} · ${shortMetric(row.metric)}${labels ? ` (${labels})` : ''}`
      const short = `${row.testTitle} · ${shortMetric(row.metric)}${labels ? ` (${labels})` : ''}`
      const cell = row.cells[index]
      if (cell?.relativePct === undefined) {
        missing.push(label)
        continue
      }
      items.push(itemOf(label, short, cell, index + 1))
    }
    return { title: `${variant} relative to ${comparison.baseline}`, items, missing }
  }
  const key = view.key.slice('metric:'.length)
  const choice = metricChoices(comparison).find((c) => c.key === key)
  for (const row of choice?.rows ?? []) {
    const labels = labelsText(row.labels)
    row.cells.forEach((cell, i) => {
      const label = labels && choice!.rows.length > 1 ? `${cell.variant} (${labels})` : cell.variant
      if (cell.relativePct === undefined) missing.push(label)
      else items.push(itemOf(label, label, cell, i + 1))
    })
  }
  return { title: `${choice?.label ?? key} relative to ${comparison.baseline}`, items, missing }
}

function itemOf(
  label: string,
  short: string,
  cell: { relativePct?: number; ci95?: [number, number]; verdict: Verdict; flags: { kind: FlagKind }[] },
  seriesIndex: number
): RelativeItem {
  return {
    label,
    short,
    pct: cell.relativePct!,
    ...(cell.ci95 ? { ci95: cell.ci95 } : {}),
    verdict: cell.verdict,
    seriesIndex,
    flags: cell.flags.map((f) => f.kind)
  }
}

/**
 * Rows for recharts: `pct` and `ci` (distances from the figure to the interval's ends, so the
 * error bar's ends sit exactly on the interval); no `ci` without an interval. Bars and whiskers
 * stop at the axis end `max` (recharts does not clip error bars: one past the end would run
 * through the figures written right of the plot); `value` keeps the true figure for the tooltip,
 * and the labels and the table say it in full.
 */
export interface RelativeRow {
  label: string
  /** The bar: the figure clamped to the axis. */
  pct: number
  /** The true figure. */
  value: number
  /** Distances from `pct` to the interval's ends, clamped to the axis. */
  ci?: [number, number]
}

export function relativeRows(items: readonly RelativeItem[], max: number = RELATIVE_AXIS_CAP): RelativeRow[] {
  const clamp = (v: number): number => Math.min(max, Math.max(0, v))
  return items.map((item) => {
    const drawn = clamp(item.pct)
    return {
      label: item.short,
      pct: drawn,
      value: item.pct,
      ...(item.ci95 ? { ci: [drawn - clamp(item.ci95[0]), clamp(item.ci95[1]) - drawn] as [number, number] } : {})
    }
  })
}

/** Beyond this the axis stops (a 1500 % interval would flatten every other bar); labels keep the true figure. */
export const RELATIVE_AXIS_CAP = 400

/**
 * The axis range: 0 up to past the largest figure or interval end, in steps of 20 %, never below
 * 120 % (so 100 % has room) nor above RELATIVE_AXIS_CAP.
 */
export function relativeDomainMax(items: readonly RelativeItem[]): number {
  const top = Math.max(120, ...items.map((i) => Math.max(i.pct, i.ci95?.[1] ?? 0)))
  return Math.min(RELATIVE_AXIS_CAP, Math.ceil(top / 20) * 20)
}

/** Axis ticks from 0 to `max`, always through 100 %. */
export function relativeTicks(max: number): number[] {
  const step = max <= 160 ? 20 : 50
  const ticks: number[] = []
  for (let t = 0; t <= max; t += step) ticks.push(t)
  return ticks
}
