import { within } from '@testing-library/react'
import type { RunDocument } from '../../../src/shared/model/run'

/**
 * Figures read straight from a run's jobs, independently of compare() and of the table's code:
 * the values one side measured for a metric (no labels but the repetition), in run order.
 */
export function valuesOf(run: RunDocument, side: string, testId: string, metric: string): number[] {
  return run.jobs
    .filter((j) => j.kind === 'compare' && j.status === 'succeeded' && j.side === side && j.testId === testId)
    .flatMap((j) => j.samples.filter((s) => s.metric === metric && Object.keys(s.labels).every((k) => k === 'repetition')).map((s) => s.value))
}

export function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** The table row of a metric within a test's group (tbody[data-test]): without labels, or with `labels` ("iteration=1"). */
export function metricRow(table: HTMLElement, testId: string, metric: string, labels?: string): HTMLTableRowElement {
  const group = table.querySelector(`tbody[data-test="${testId}"]`)
  if (!group) throw new Error(`no group for ${testId}`)
  const row = [...group.querySelectorAll<HTMLTableRowElement>('tr[data-metric]')].find(
    (r) => r.dataset.metric === metric && r.dataset.labels === labels
  )
  if (!row) throw new Error(`no row for ${metric}${labels ? ` (${labels})` : ''} in ${testId}`)
  return row
}

/** The cells of a metric row: the row header, the baseline's cell, then one per variant. */
export function cellsOf(row: HTMLTableRowElement): { header: HTMLElement; baseline: HTMLElement; variants: HTMLElement[] } {
  const header = within(row).getByRole('rowheader')
  const cells = within(row).getAllByRole('cell')
  return { header, baseline: cells[0]!, variants: cells.slice(1) }
}

export function metricRowCount(table: HTMLElement): number {
  return table.querySelectorAll('tr[data-metric]').length
}

/**
 * Student's t, 97.5th percentile, 2 degrees of freedom (three pairs of repetitions), in closed form: with 2 degrees of
 * freedom P(T <= t) = 1/2 + t / (2 sqrt(2 + t²)), so t = 0.95 sqrt(2 / (1 - 0.95²)) = 4.3027 (any t table).
 */
const T_975_DF2 = 0.95 * Math.sqrt(2 / (1 - 0.95 ** 2))

/**
 * The interval compare() must give three repetitions that ran side by side, computed here from the
 * values alone: Student's t interval (2 degrees of freedom) of the mean of the pairs' log ratios
 * (variant / baseline where higher is better), widened to hold the figure shown times and divided
 * by the same factor.
 */
export function pairedRatioHull(baseline: readonly number[], variant: readonly number[], figurePct: number): [number, number] {
  if (baseline.length !== 3 || variant.length !== 3) throw new Error('three pairs expected')
  const logs = baseline.map((b, i) => Math.log(variant[i]! / b))
  const { mean, half } = tHalf(logs)
  return [Math.min(100 * Math.exp(mean - half), figurePct * Math.exp(-half)), Math.max(100 * Math.exp(mean + half), figurePct * Math.exp(half))]
}

/** The same for a difference (variant - baseline, pair by pair), widened to hold the figure shown ± the half-width. */
export function pairedDifferenceHull(baseline: readonly number[], variant: readonly number[], figure: number): [number, number] {
  if (baseline.length !== 3 || variant.length !== 3) throw new Error('three pairs expected')
  const { mean, half } = tHalf(baseline.map((b, i) => variant[i]! - b))
  return [Math.min(mean - half, figure - half), Math.max(mean + half, figure + half)]
}

function tHalf(values: readonly number[]): { mean: number; half: number } {
  const mean = values.reduce((s, v) => s + v, 0) / values.length
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1)
  return { mean, half: T_975_DF2 * Math.sqrt(variance / values.length) }
}
