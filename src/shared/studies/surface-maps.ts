import { median, percentile } from '../compare/stats'
import { verdictCounts, type VerdictCounts } from '../compare/summary'
import type { Comparison, ComparisonRow, Verdict } from '../model/comparison'
import { formatValue } from '../format'

/**
 * Study 000's iozone surfaces, compared: for each test, sub-test (`iozone.write`, `iozone.read`,
 * …) and variant, one grid of file size (rows) x record size (columns) whose cells are the
 * comparison's own cells (relative % of the variant against the baseline, its interval and
 * verdict), and a summary of the grid in one line. Built from the comparison rows whose metric has
 * the `surface` role, so nothing here is computed that the comparison did not compute, except the
 * median and quartiles of the cells' relative %.
 */

/** The two labels of a surface metric: rows, then columns (the iozone tool declares them so). */
export const SURFACE_LABELS = { rows: 'file_size', columns: 'record_size' } as const

export interface SurfaceCell {
  /** Row and column label values, in bytes. */
  fileSize: number
  recordSize: number
  /** The baseline's and the variant's figures (the test's aggregate of their repetitions). */
  baseline: number
  value: number
  relativePct: number
  ci95?: [number, number]
  verdict: Verdict
}

/** Where a cell is: "4 MiB file, 4 KiB records". */
export interface SurfacePlace {
  fileSize: number
  recordSize: number
  relativePct: number
}

export interface SurfaceSummary {
  /** Cells with a relative % (both sides measured them). */
  compared: number
  /** Cells only one side measured. */
  oneSided: number
  medianPct?: number
  /** The middle half of the cells' relative % (25th and 75th percentiles). */
  middleHalfPct?: [number, number]
  lowest?: SurfacePlace
  highest?: SurfacePlace
  counts: VerdictCounts
}

export interface SurfaceMap {
  testId: string
  testTitle: string
  metric: string
  /** The metric after its tool's prefix: `write`, `random_read`. */
  subtest: string
  unit: ComparisonRow['unit']
  variant: string
  baseline: string
  /** Ascending, in bytes: every size either side measured. */
  fileSizes: number[]
  recordSizes: number[]
  /** cells[file][record]: undefined where the comparison has no relative % (not measured on both sides). */
  cells: (SurfaceCell | undefined)[][]
  summary: SurfaceSummary
}

/** Whether a comparison row is one cell of a surface (iozone's file size x record size). */
export function isSurfaceRow(row: Pick<ComparisonRow, 'roles' | 'labels'>): boolean {
  return (row.roles?.includes('surface') ?? false) && row.labels[SURFACE_LABELS.rows] !== undefined && row.labels[SURFACE_LABELS.columns] !== undefined
}

/** Whether the comparison has surface rows (then its overhead table leaves them to the maps). */
export function hasSurfaces(comparison: Pick<Comparison, 'rows'>): boolean {
  return comparison.rows.some(isSurfaceRow)
}

function subtestOf(metric: string): string {
  return metric.slice(metric.indexOf('.') + 1)
}

/** The surface rows grouped by test and metric, in the comparison's order (iozone's sub-test order). */
function groups(comparison: Comparison): ComparisonRow[][] {
  const byKey = new Map<string, ComparisonRow[]>()
  for (const row of comparison.rows) {
    if (!isSurfaceRow(row)) continue
    const key = `${row.testId}\u0000${row.metric}`
    byKey.set(key, [...(byKey.get(key) ?? []), row])
  }
  return [...byKey.values()]
}

const ascending = (values: Iterable<number>): number[] => [...new Set(values)].sort((a, b) => a - b)

const size = (row: ComparisonRow, label: string): number => Number(row.labels[label])

/** What a sub-test's maps share: its test, figure and unit, and the grid's file and record sizes. */
function gridOf(rows: readonly ComparisonRow[]): Pick<SurfaceMap, 'testId' | 'testTitle' | 'metric' | 'subtest' | 'unit' | 'fileSizes' | 'recordSizes'> {
  const first = rows[0]!
  return {
    testId: first.testId,
    testTitle: first.testTitle,
    metric: first.metric,
    subtest: subtestOf(first.metric),
    unit: first.unit,
    fileSizes: ascending(rows.map((r) => size(r, SURFACE_LABELS.rows))),
    recordSizes: ascending(rows.map((r) => size(r, SURFACE_LABELS.columns)))
  }
}

function mapOf(comparison: Comparison, rows: ComparisonRow[], variantIndex: number): SurfaceMap {
  const grid = gridOf(rows)
  const { fileSizes, recordSizes } = grid
  const cells: (SurfaceCell | undefined)[][] = fileSizes.map(() => recordSizes.map(() => undefined))
  const compared: SurfaceCell[] = []
  let oneSided = 0
  for (const row of rows) {
    const cell = row.cells[variantIndex]
    if (!cell) continue
    if (!row.baseline || !cell.stats || cell.relativePct === undefined) {
      if (row.baseline || cell.stats) oneSided++
      continue
    }
    const fileSize = size(row, SURFACE_LABELS.rows)
    const recordSize = size(row, SURFACE_LABELS.columns)
    const surfaceCell: SurfaceCell = {
      fileSize,
      recordSize,
      baseline: row.baseline.value,
      value: cell.stats.value,
      relativePct: cell.relativePct,
      ...(cell.ci95 ? { ci95: cell.ci95 } : {}),
      verdict: cell.verdict
    }
    cells[fileSizes.indexOf(fileSize)]![recordSizes.indexOf(recordSize)] = surfaceCell
    compared.push(surfaceCell)
  }
  return {
    ...grid,
    variant: comparison.variants[variantIndex]!,
    baseline: comparison.baseline,
    cells,
    summary: summaryOf(compared, oneSided, rows, variantIndex)
  }
}

function summaryOf(compared: SurfaceCell[], oneSided: number, rows: ComparisonRow[], variantIndex: number): SurfaceSummary {
  const pcts = compared.map((c) => c.relativePct)
  const place = (c: SurfaceCell): SurfacePlace => ({ fileSize: c.fileSize, recordSize: c.recordSize, relativePct: c.relativePct })
  const summary: SurfaceSummary = { compared: compared.length, oneSided, counts: verdictCounts(rows, variantIndex) }
  if (compared.length === 0) return summary
  const low = compared.reduce((a, b) => (b.relativePct < a.relativePct ? b : a))
  const high = compared.reduce((a, b) => (b.relativePct > a.relativePct ? b : a))
  return {
    ...summary,
    medianPct: median(pcts)!,
    middleHalfPct: [percentile(pcts, 25)!, percentile(pcts, 75)!],
    lowest: place(low),
    highest: place(high)
  }
}

/**
 * Every surface of a comparison, compared: per test, then sub-test in the order the tool reported
 * them, then variant.
 */
export function surfaceMaps(comparison: Comparison): SurfaceMap[] {
  return groups(comparison).flatMap((rows) => comparison.variants.map((_, v) => mapOf(comparison, rows, v)))
}

/** One machine's figure in one cell: the test's aggregate of its repetitions, and how many there were. */
export interface AbsoluteCell {
  value: number
  n: number
}

/** Where a machine's figure is: "5.29 GiB/s at 2 MiB file, 1 MiB records". */
export interface AbsolutePlace {
  fileSize: number
  recordSize: number
  value: number
}

/** One machine's grid of one sub-test, in the metric's unit (iozone: B/s). */
export interface AbsoluteSurface {
  /** The target's label. */
  side: string
  role: 'baseline' | 'variant'
  /** cells[file][record]: undefined where the run has no figure of this machine. */
  cells: (AbsoluteCell | undefined)[][]
  /** Cells with a figure. */
  measured: number
  lowest?: AbsolutePlace
  highest?: AbsolutePlace
}

/**
 * One sub-test of a test on every machine, as iozone's own surface charts show it (study 000): the
 * baseline's grid, then each variant's, over the same file sizes and record sizes as the sub-test's
 * relative maps, and the top of their shared colour scale (the scale starts at zero).
 */
export interface AbsoluteSurfaceSet {
  testId: string
  testTitle: string
  metric: string
  subtest: string
  unit: ComparisonRow['unit']
  fileSizes: number[]
  recordSizes: number[]
  machines: AbsoluteSurface[]
  /** The largest figure of any machine; undefined when none has one. */
  scaleMax?: number
}

function absoluteOf(rows: ComparisonRow[], fileSizes: number[], recordSizes: number[], side: string, role: AbsoluteSurface['role'], stats: (row: ComparisonRow) => ComparisonRow['baseline']): AbsoluteSurface {
  const cells: (AbsoluteCell | undefined)[][] = fileSizes.map(() => recordSizes.map(() => undefined))
  const places: AbsolutePlace[] = []
  for (const row of rows) {
    const figure = stats(row)
    if (!figure) continue
    const fileSize = Number(row.labels[SURFACE_LABELS.rows])
    const recordSize = Number(row.labels[SURFACE_LABELS.columns])
    cells[fileSizes.indexOf(fileSize)]![recordSizes.indexOf(recordSize)] = { value: figure.value, n: figure.n }
    places.push({ fileSize, recordSize, value: figure.value })
  }
  const surface: AbsoluteSurface = { side, role, cells, measured: places.length }
  if (places.length === 0) return surface
  return {
    ...surface,
    lowest: places.reduce((a, b) => (b.value < a.value ? b : a)),
    highest: places.reduce((a, b) => (b.value > a.value ? b : a))
  }
}

function absoluteSetOf(comparison: Comparison, rows: ComparisonRow[]): AbsoluteSurfaceSet {
  const grid = gridOf(rows)
  const { fileSizes, recordSizes } = grid
  const machines = [
    absoluteOf(rows, fileSizes, recordSizes, comparison.baseline, 'baseline', (row) => row.baseline),
    ...comparison.variants.map((variant, v) => absoluteOf(rows, fileSizes, recordSizes, variant, 'variant', (row) => row.cells[v]?.stats))
  ]
  const highs = machines.flatMap((m) => (m.highest ? [m.highest.value] : []))
  return {
    ...grid,
    machines,
    ...(highs.length > 0 ? { scaleMax: Math.max(...highs) } : {})
  }
}

/**
 * Every surface of a comparison as the machines measured it: per test, then sub-test in the order
 * the tool reported them, each machine's figures (the same figures the relative maps compare).
 */
export function absoluteSurfaces(comparison: Comparison): AbsoluteSurfaceSet[] {
  return groups(comparison).map((rows) => absoluteSetOf(comparison, rows))
}

/** Why a cell of a machine's grid has no figure. */
export function absoluteEmptyReason(fileSize: number, recordSize: number, side: string): string {
  return recordSize > fileSize ? 'not measured: the record is larger than the file' : `no figure from ${side}: iozone skipped this cell (files over 16 MiB without -z) or the run has none`
}

/** Why a cell of a relative map has no relative %. */
export function relativeEmptyReason(fileSize: number, recordSize: number): string {
  return recordSize > fileSize ? 'not measured: the record is larger than the file' : 'not compared: measured on one side only, or skipped (files over 16 MiB without -z)'
}

/** "4 KiB", "1 MiB", "16 MiB": iozone's sizes are whole binary units; anything else as formatValue gives it. */
export function sizeText(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = bytes
  let i = 0
  while (v >= 1024 && v % 1024 === 0 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return Number.isInteger(v) ? `${v} ${units[i]}` : formatValue(bytes, 'B')
}

/** "4 MiB file, 4 KiB records". */
export function placeText(place: Pick<SurfacePlace, 'fileSize' | 'recordSize'>): string {
  return `${sizeText(place.fileSize)} file, ${sizeText(place.recordSize)} records`
}

/** The sub-test as people read it: `random_read` is "random read". */
export function subtestWords(subtest: string): string {
  return subtest.replace(/_/g, ' ')
}
