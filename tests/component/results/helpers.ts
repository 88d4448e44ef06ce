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
