import { VERDICT_WORDS } from '../compare/summary'
import { formatPct, formatValue } from '../format'
import type { Comparison, ComparisonRow, VariantCell, Verdict } from '../model/comparison'
import type { RunDocument } from '../model/run'
import type { MetricCategory, Unit } from '../model/sample'

/**
 * Study 001's own CPU, memory and local-disk tables, from a run's comparison:
 *
 * - the overhead tables, "Metric | Physical Machine | Virtual Machine | Virtualization Overhead
 *   (Physical-Virtual)/Physical": UnixBench's Dhrystone, Double-Precision Whetstone and File Copy
 *   (its CPU test), mbw's MEMCPY AVG (its memory test), each figure in the tool's own unit (lps,
 *   MWIPS, KBps, MiB/s) and each guest's overhead with the comparison's interval and verdict, so an
 *   overhead the data cannot tell from 0 reads as such;
 * - the fio scenario table: one row per machine compared (the baseline, then each guest), one
 *   column group per fio job (IOPS and throughput), each guest's figure with its % of the baseline's.
 *
 * Every figure is the comparison's own (the test's aggregate of its repetitions); a cell no run
 * produced says so. The tables show for runs of study 001's pack (cloud-acceptance) only.
 */

export const STUDY001_PACK = 'cloud-acceptance'

/** Whether a run is study 001's: its plan chose the cloud-acceptance pack (all of it or some tests). */
export function isStudy001Run(run: Pick<RunDocument, 'plan'>): boolean {
  return run.plan.tests.some((t) => 'pack' in t && t.pack === STUDY001_PACK)
}

/** How the tool printed a figure: VirtBench keeps base units, the study's table the tool's own. */
interface ToolUnit {
  unit: string
  /** Base units per one of the tool's. */
  per: number
  digits: number
}

/** The study's figures, in its tables' order, with the unit the tool printed them in. */
export const STUDY001_FIGURES = [
  // UnixBench prints "lps" and "MWIPS" with one decimal, and File Copy in KBps (K = 1024 B, which the parser multiplied out)
  { table: 'cpu', metric: 'unixbench.dhry2reg', name: 'Dhrystone', tool: { unit: 'lps', per: 1, digits: 1 } },
  { table: 'cpu', metric: 'unixbench.whetstone-double', name: 'Double-Precision Whetstone', tool: { unit: 'MWIPS', per: 1, digits: 1 } },
  { table: 'cpu', metric: 'unixbench.fsdisk', name: 'File Copy', tool: { unit: 'KBps', per: 1024, digits: 1 } },
  // mbw prints MiB/s with three decimals
  { table: 'memory', metric: 'mbw.memcpy.bandwidth', name: 'MEMCPY AVG', tool: { unit: 'MiB/s', per: 1048576, digits: 3 } }
] as const satisfies readonly { table: string; metric: string; name: string; tool: ToolUnit }[]

export type OverheadTableId = (typeof STUDY001_FIGURES)[number]['table']

const TABLE_TITLES: Record<OverheadTableId, string> = { cpu: 'CPU (UnixBench)', memory: 'Memory (mbw)' }

/** One guest's side of a figure. */
export interface OverheadCell {
  variant: string
  /** The figure in base units; absent when no run produced it. */
  value?: number
  /** (baseline − guest) / baseline in % (the comparison's 100 % − relative %). */
  overheadPct?: number
  /** The 95 % interval of the overhead, low to high. */
  ci95?: [number, number]
  verdict?: Verdict
}

export interface OverheadRow {
  testId: string
  metric: string
  /** "Dhrystone", "File Copy (2 copies)". */
  name: string
  unit: Unit
  tool: ToolUnit
  baseline?: number
  cells: OverheadCell[]
}

export interface OverheadTable {
  id: OverheadTableId
  title: string
  /** The report part it belongs to: the CPU's when any of its figures is a CPU figure (File Copy is storage to VirtBench). */
  category: MetricCategory
  baseline: string
  variants: string[]
  rows: OverheadRow[]
  /** What the reader must know to read a figure (an mbw that labels its results the wrong way round). */
  notes: string[]
}

/** The fio figures of a job that the study's table shows. */
export const FIO_FIGURES = [
  { id: 'iops', words: 'IOPS' },
  { id: 'bandwidth', words: 'Throughput' }
] as const

export type FioFigureId = (typeof FIO_FIGURES)[number]['id']

/** One figure of one machine in the fio table. */
export interface FioCell {
  value?: number
  unit: Unit
  /** A guest's figure as a % of the baseline's (the comparison's relative %), and its verdict. */
  relativePct?: number
  verdict?: Verdict
}

/** One column group: a fio job (a test) in one direction. */
export interface FioColumn {
  testId: string
  /** The test's title, with the direction when the job did both: "4 KiB random read". */
  title: string
  direction: string
}

export interface FioScenarioRow {
  machine: string
  role: 'baseline' | 'variant'
  /** Per column, its IOPS then its throughput (FIO_FIGURES' order). */
  cells: FioCell[][]
}

export interface FioScenarioTable {
  baseline: string
  columns: FioColumn[]
  rows: FioScenarioRow[]
}

export interface Study001Tables {
  overhead: OverheadTable[]
  fio?: FioScenarioTable
}

/** A row of the comparison for the whole test (a job total, not one of its iterations or jobs); copies kept. */
function figureRows(comparison: Comparison, metric: string): ComparisonRow[] {
  return comparison.rows.filter((r) => r.metric === metric && Object.keys(r.labels).every((k) => k === 'copies'))
}

function overheadCell(variant: string, cell: VariantCell | undefined): OverheadCell {
  if (!cell?.stats) return { variant }
  const ci = cell.ci95 ? ([100 - cell.ci95[1], 100 - cell.ci95[0]] as [number, number]) : undefined
  return {
    variant,
    value: cell.stats.value,
    ...(cell.overheadPct !== undefined ? { overheadPct: cell.overheadPct, verdict: cell.verdict } : {}),
    ...(ci ? { ci95: ci } : {})
  }
}

/** The parser's warning for an mbw before 1.4 (src/main/tools/mbw/parse.ts), whose MEMCPY lines time the plain loop. */
const SWAPPED_MBW = /^this mbw is older than 1\.4, which labels its results the wrong way round/

/** Which machines ran an mbw that labels its results the wrong way round: its MEMCPY AVG is not memcpy(). */
function mbwNotes(run: RunDocument, rows: readonly OverheadRow[]): string[] {
  const tests = new Set(rows.filter((r) => r.metric.startsWith('mbw.')).map((r) => r.testId))
  const sides = [...new Set(run.jobs.filter((j) => tests.has(j.testId) && j.warnings.some((w) => SWAPPED_MBW.test(w))).map((j) => j.side))]
  if (sides.length === 0) return []
  return [
    `${sides.join(', ')}: this mbw is older than 1.4 and labels its results the wrong way round: the figure it labels MEMCPY, shown here as mbw printed it, ` +
      'times the b[i] = a[i] loop, not memcpy(). Install mbw 1.4 or later to compare memcpy() itself.'
  ]
}

function overheadTables(run: RunDocument, comparison: Comparison): OverheadTable[] {
  const tables = (['cpu', 'memory'] as const).map((id): OverheadTable => {
    const rows = STUDY001_FIGURES.filter((f) => f.table === id).flatMap((figure) =>
      figureRows(comparison, figure.metric).map(
        (row): OverheadRow => ({
          testId: row.testId,
          metric: row.metric,
          name: row.labels['copies'] && row.labels['copies'] !== '1' ? `${figure.name} (${row.labels['copies']} copies)` : figure.name,
          unit: row.unit,
          tool: figure.tool,
          ...(row.baseline ? { baseline: row.baseline.value } : {}),
          cells: comparison.variants.map((v, i) => overheadCell(v, row.cells[i]))
        })
      )
    )
    const categories = rows.map((r) => comparison.rows.find((c) => c.testId === r.testId && c.metric === r.metric)?.category)
    const category: MetricCategory = categories.includes('cpu') ? 'cpu' : (categories[0] ?? (id === 'cpu' ? 'cpu' : 'memory'))
    return { id, title: TABLE_TITLES[id], category, baseline: comparison.baseline, variants: comparison.variants, rows, notes: mbwNotes(run, rows) }
  })
  return tables.filter((t) => t.rows.length > 0)
}

const DIRECTION_ORDER = ['read', 'write', 'trim', 'mixed']
const FIO_ROW = /^fio\.(read|write|trim|mixed)\.(iops|bandwidth)$/

function fioTable(run: RunDocument, comparison: Comparison): FioScenarioTable | undefined {
  const total = comparison.rows.filter((r) => FIO_ROW.test(r.metric) && Object.keys(r.labels).length === 0)
  const columns = run.tests.flatMap((test): FioColumn[] => {
    if (test.tool !== 'fio') return []
    const directions = [...new Set(total.filter((r) => r.testId === test.id).map((r) => FIO_ROW.exec(r.metric)![1]!))]
    directions.sort((a, b) => DIRECTION_ORDER.indexOf(a) - DIRECTION_ORDER.indexOf(b))
    return directions.map((direction) => ({ testId: test.id, title: directions.length > 1 ? `${test.title} (${direction})` : test.title, direction }))
  })
  if (columns.length === 0) return undefined
  const sides = [comparison.baseline, ...comparison.variants]
  const rows = sides.map(
    (machine, side): FioScenarioRow => ({
      machine,
      role: side === 0 ? 'baseline' : 'variant',
      cells: columns.map((column) =>
        FIO_FIGURES.map(({ id }): FioCell => {
          const row = total.find((r) => r.testId === column.testId && r.metric === `fio.${column.direction}.${id}`)
          const unit: Unit = id === 'iops' ? 'op/s' : 'B/s'
          const stats = side === 0 ? row?.baseline : row?.cells[side - 1]?.stats
          if (!stats) return { unit }
          const cell = side === 0 ? undefined : row?.cells[side - 1]
          return { value: stats.value, unit, ...(cell?.relativePct !== undefined ? { relativePct: cell.relativePct, verdict: cell.verdict } : {}) }
        })
      )
    })
  )
  return { baseline: comparison.baseline, columns, rows }
}

/** Study 001's tables of a run, or none when the run is not study 001's or measured none of their figures. */
export function study001Tables(run: RunDocument, comparison: Comparison): Study001Tables {
  if (!isStudy001Run(run)) return { overhead: [] }
  const fio = fioTable(run, comparison)
  return { overhead: overheadTables(run, comparison), ...(fio ? { fio } : {}) }
}

/** Whether there is anything to show. */
export function hasStudy001Tables(tables: Study001Tables): boolean {
  return tables.overhead.length > 0 || tables.fio !== undefined
}

/** A figure in the tool's own unit, as the study prints it: "34839728.4 lps", "1825548.4 KBps", "7578.348 MiB/s". */
export function toolValueText(value: number | undefined, tool: ToolUnit): string {
  return value === undefined ? 'not measured' : `${(value / tool.per).toFixed(tool.digits)} ${tool.unit}`
}

/** "2.5", "−3.1" (the guest was faster): one decimal, as the study prints its overheads. */
function signedTenths(pct: number): string {
  const text = Math.abs(pct).toFixed(1)
  return `${pct < 0 && text !== '0.0' ? '−' : ''}${text}`
}

/**
 * A guest's overhead with its interval and verdict: "2.5 % [1.9 to 3.1] (slower)"; a figure the data
 * cannot tell from the baseline's reads "2.5 % (can't tell)", never as a finding alone.
 */
export function overheadText(cell: OverheadCell): string {
  if (cell.value === undefined) return 'not measured'
  if (cell.overheadPct === undefined) return 'no baseline'
  const ci = cell.ci95 ? ` [${signedTenths(cell.ci95[0])} to ${signedTenths(cell.ci95[1])}]` : ''
  return `${signedTenths(cell.overheadPct)} %${ci} (${VERDICT_WORDS[cell.verdict ?? 'inconclusive']})`
}

export const OVERHEAD_FORMULA = 'Virtualization overhead = (Physical − Virtual) / Physical'

/** The caption: the study's formula, and what the interval and the verdict mean. */
export function overheadCaption(table: OverheadTable): string {
  return `${table.title}: ${OVERHEAD_FORMULA} (${table.baseline} as Physical); each figure the test's aggregate of its repetitions, in the tool's own unit; the overhead with its 95 % interval and verdict`
}

/** The columns in one line: the metric, the baseline, then each guest and its overhead. */
export function overheadHeader(table: OverheadTable): string[] {
  return ['Metric', table.baseline, ...table.variants.flatMap((v) => [v, `overhead of ${v}`])]
}

export function overheadRowCells(row: OverheadRow): string[] {
  return [row.name, toolValueText(row.baseline, row.tool), ...row.cells.flatMap((c) => [toolValueText(c.value, row.tool), overheadText(c)])]
}

/** A fio figure: "22.1k op/s", "86.3 MiB/s", or why there is none. */
export function fioValueText(cell: FioCell): string {
  return cell.value === undefined ? 'not measured' : formatValue(cell.value, cell.unit)
}

/** The figure's % of the baseline's, as the study prints it under the figure: "(126 %)", "(100 %)" for the baseline, with a verdict that is not a finding. */
export function fioPctText(cell: FioCell, role: FioScenarioRow['role']): string {
  if (cell.value === undefined) return ''
  if (role === 'baseline') return '(100 %)'
  if (cell.relativePct === undefined) return '(no baseline)'
  const pct = formatPct(cell.relativePct)
  return cell.verdict === 'inconclusive' || cell.verdict === 'same' ? `(${pct}, ${VERDICT_WORDS[cell.verdict]})` : `(${pct})`
}

export function fioCaption(table: FioScenarioTable): string {
  return `fio per scenario: each figure the test's aggregate of its repetitions; under it, its % of ${table.baseline} (100 % is as fast)`
}

/** Columns aligned under one or more header lines (the first column to the left, the others to the right). */
function textGrid(headers: string[][], body: string[][]): string {
  const widths = headers[0]!.map((_, i) => Math.max(...[...headers, ...body].map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()
  return [...headers.map(line), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n')
}

/**
 * The tables for a terminal (`virtbench run`): each overhead table under its caption, then the fio
 * table with each machine's figures on one line and their % of the baseline on the next, as the
 * study lays it out.
 */
export function study001Text(tables: Study001Tables): string {
  const parts = tables.overhead.map((t) => `${overheadCaption(t)}\n${[textGrid([overheadHeader(t)], t.rows.map(overheadRowCells)), ...t.notes.map((n) => `- ${n}`)].join('\n')}\n`)
  const fio = tables.fio
  if (fio) {
    // the job over its IOPS column, as the study heads its groups; the figures under it
    const jobs = ['', ...fio.columns.flatMap((c) => FIO_FIGURES.map((_, i) => (i === 0 ? c.title : '')))]
    const figures = ['Scenario', ...fio.columns.flatMap(() => FIO_FIGURES.map((f) => f.words))]
    const body = fio.rows.flatMap((row) => [
      [row.machine, ...row.cells.flat().map(fioValueText)],
      ['', ...row.cells.flat().map((c) => fioPctText(c, row.role))]
    ])
    parts.push(`${fioCaption(fio)}\n${textGrid([jobs, figures], body)}\n`)
  }
  return parts.join('\n')
}
