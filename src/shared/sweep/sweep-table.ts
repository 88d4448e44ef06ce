/**
 * The study's own table of a sweep: one row per combination, one column per primary figure
 * (test · metric), each cell the combination's value and its relative % against the baseline
 * measured in the same step; and, for a two-factor sweep, each figure as a matrix (first factor
 * down, second across). Pure: comparisons in, text out.
 */
import { leadingRows, VERDICT_WORDS } from '../compare/summary'
import { formatValue } from '../format'
import type { Comparison, ComparisonRow, Verdict } from '../model/comparison'

export interface SweepTableInput {
  /** The combinations in the sweep's order, with the factor values and their comparison (undefined: not measured). */
  combos: { label: string; values: Record<string, string | number>; comparison?: Comparison }[]
}

function keyOf(row: ComparisonRow): string {
  return `${row.testId}\u0000${row.metric}\u0000${JSON.stringify(row.labels)}`
}

function titleOf(row: ComparisonRow): string {
  const labels = Object.values(row.labels)
  return `${row.testTitle} · ${row.metric}${labels.length > 0 ? ` (${labels.join(', ')})` : ''}`
}

/** One cell of the sweep's table: the guest's value under the combination and its relative % (or difference); `text` as the CLI prints it. */
export interface SweepCell {
  /** "82.1 MiB/s 91 %"; "no result" when the step did not measure it. */
  text: string
  /** The value with its unit, for people ("82.1 MiB/s"). */
  value?: string
  relativePct?: number
  /** For a count compared as a difference: "Δ 3". */
  difference?: string
  /** The step's verdict on it: a relative % is a finding only when slower or faster, never when the data cannot tell. */
  verdict?: Verdict
}

function cellOf(row: ComparisonRow | undefined): SweepCell {
  const cell = row?.cells[0]
  const value = cell?.stats?.value
  if (!row || !cell || value === undefined) return { text: 'no result' }
  const shown = formatValue(value, row.unit)
  const difference = cell.relativePct === undefined && cell.difference !== undefined ? `Δ ${formatValue(cell.difference, row.unit)}` : undefined
  const rel = cell.relativePct !== undefined ? ` ${cell.relativePct.toFixed(0)} %` : difference ? ` ${difference}` : ''
  // the verdict beside the %: one repetition per step gives "can't tell", however far from 100 % the figure is
  const said = rel && cell.verdict ? ` (${VERDICT_WORDS[cell.verdict]})` : ''
  return {
    text: `${shown}${rel}${said}`,
    value: shown,
    ...(cell.relativePct !== undefined ? { relativePct: cell.relativePct } : {}),
    ...(difference ? { difference } : {}),
    ...(rel && cell.verdict ? { verdict: cell.verdict } : {})
  }
}

export interface SweepColumn {
  key: string
  /** "dd write · dd.bandwidth". */
  title: string
}

function columnsOf(input: SweepTableInput): SweepColumn[] {
  const columns = new Map<string, SweepColumn>()
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

/** The sweep's table: rows, one per combination in the sweep's order; columns, the primary figures; cells, value and relative %. */
export interface SweepGrid {
  columns: SweepColumn[]
  rows: { label: string; cells: SweepCell[] }[]
}

export function sweepGrid(input: SweepTableInput): SweepGrid {
  const columns = columnsOf(input)
  return {
    columns,
    rows: input.combos.map((combo) => {
      const rows = rowsByKey(combo.comparison)
      return { label: combo.label, cells: columns.map((c) => cellOf(rows.get(c.key))) }
    })
  }
}

/** One figure of a two-factor sweep as a matrix: the first factor's values down, the second's across. */
export interface SweepMatrix {
  title: string
  down: string
  across: string
  acrossValues: string[]
  rows: { value: string; cells: SweepCell[] }[]
}

/** For a sweep of exactly two factors, one matrix per primary figure; none otherwise. */
export function sweepMatrixGrids(input: SweepTableInput, factors: readonly string[]): SweepMatrix[] {
  if (factors.length !== 2) return []
  const [down, across] = factors as [string, string]
  const downValues = [...new Set(input.combos.map((c) => String(c.values[down])))]
  const acrossValues = [...new Set(input.combos.map((c) => String(c.values[across])))]
  return columnsOf(input).map((column) => ({
    title: column.title,
    down,
    across,
    acrossValues,
    rows: downValues.map((d) => ({
      value: d,
      cells: acrossValues.map((a) => {
        const combo = input.combos.find((c) => String(c.values[down]) === d && String(c.values[across]) === a)
        return cellOf(rowsByKey(combo?.comparison).get(column.key))
      })
    }))
  }))
}

/** Rows: combinations; columns: primary figures; cells: value and relative %. */
export function sweepTable(input: SweepTableInput): string {
  const table = sweepGrid(input)
  if (table.columns.length === 0) return `${NO_RESULTS}\n`
  return `${grid(['scenario', ...table.columns.map((c) => c.title)], table.rows.map((r) => [r.label, ...r.cells.map((c) => c.text)]))}\n`
}

/** What the table says when no combination has a figure. */
export const NO_RESULTS = 'No comparable results: no combination measured a test on the baseline and the guest.'

/** For a sweep of exactly two factors: each primary figure as a matrix, first factor down, second across. */
export function sweepMatrices(input: SweepTableInput, factors: readonly string[]): string {
  return sweepMatrixGrids(input, factors)
    .map((m) => `${m.title}\n${grid(['', ...m.acrossValues.map((a) => `${m.across}=${a}`)], m.rows.map((r) => [`${m.down}=${r.value}`, ...r.cells.map((c) => c.text)]))}\n`)
    .join('\n')
}
