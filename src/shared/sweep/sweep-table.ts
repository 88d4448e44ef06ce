/**
 * The study's own table of a sweep: one row per combination, one column per primary figure
 * (test · metric), each cell the combination's value and its relative % against the baseline
 * measured in the same step; and, for a two-factor sweep, each figure as a matrix (first factor
 * down, second across). Pure: comparisons in, text out.
 */
import { leadingRows } from '../compare/summary'
import { formatValue } from '../format'
import type { Comparison, ComparisonRow } from '../model/comparison'

export interface SweepTableInput {
  /** The combinations in the sweep's order, with the factor values and their comparison (undefined: not measured). */
  combos: { label: string; values: Record<string, string | number>; comparison?: Comparison }[]
}

interface Column {
  key: string
  title: string
}

function keyOf(row: ComparisonRow): string {
  return `${row.testId}\u0000${row.metric}\u0000${JSON.stringify(row.labels)}`
}

function titleOf(row: ComparisonRow): string {
  const labels = Object.values(row.labels)
  return `${row.testTitle} · ${row.metric}${labels.length > 0 ? ` (${labels.join(', ')})` : ''}`
}

/** "82.1 MiB/s 91 %": the variant's aggregate and relative %; "no result" when the step did not measure it. */
function cellText(row: ComparisonRow | undefined): string {
  const cell = row?.cells[0]
  const value = cell?.stats?.value
  if (!row || !cell || value === undefined) return 'no result'
  const rel = cell.relativePct !== undefined ? ` ${cell.relativePct.toFixed(0)} %` : cell.difference !== undefined ? ` Δ ${formatValue(cell.difference, row.unit)}` : ''
  return `${formatValue(value, row.unit)}${rel}`
}

function columnsOf(input: SweepTableInput): Column[] {
  const columns = new Map<string, Column>()
  for (const combo of input.combos) {
    for (const row of combo.comparison ? leadingRows(combo.comparison) : []) columns.set(keyOf(row), { key: keyOf(row), title: titleOf(row) })
  }
  return [...columns.values()]
}

function rowsByKey(comparison: Comparison | undefined): Map<string, ComparisonRow> {
  return new Map(comparison ? comparison.rows.map((r) => [keyOf(r), r] as const) : [])
}

function grid(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd()
  return [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n')
}

/** Rows: combinations; columns: primary figures; cells: value and relative %. */
export function sweepTable(input: SweepTableInput): string {
  const columns = columnsOf(input)
  if (columns.length === 0) return 'No comparable results: no combination measured a test on the baseline and the guest.\n'
  const body = input.combos.map((combo) => {
    const rows = rowsByKey(combo.comparison)
    return [combo.label, ...columns.map((c) => cellText(rows.get(c.key)))]
  })
  return `${grid(['scenario', ...columns.map((c) => c.title)], body)}\n`
}

/** For a sweep of exactly two factors: each primary figure as a matrix, first factor down, second across. */
export function sweepMatrices(input: SweepTableInput, factors: readonly string[]): string {
  if (factors.length !== 2) return ''
  const [down, across] = factors as [string, string]
  const downValues = [...new Set(input.combos.map((c) => String(c.values[down])))]
  const acrossValues = [...new Set(input.combos.map((c) => String(c.values[across])))]
  return columnsOf(input)
    .map((column) => {
      const body = downValues.map((d) => [
        `${down}=${d}`,
        ...acrossValues.map((a) => {
          const combo = input.combos.find((c) => String(c.values[down]) === d && String(c.values[across]) === a)
          return cellText(rowsByKey(combo?.comparison).get(column.key))
        })
      ])
      return `${column.title}\n${grid(['', ...acrossValues.map((a) => `${across}=${a}`)], body)}\n`
    })
    .join('\n')
}
