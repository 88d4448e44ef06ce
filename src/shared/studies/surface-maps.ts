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

function mapOf(comparison: Comparison, rows: ComparisonRow[], variantIndex: number): SurfaceMap {
  const first = rows[0]!
  const size = (row: ComparisonRow, label: string): number => Number(row.labels[label])
  const fileSizes = ascending(rows.map((r) => size(r, SURFACE_LABELS.rows)))
  const recordSizes = ascending(rows.map((r) => size(r, SURFACE_LABELS.columns)))
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
    testId: first.testId,
    testTitle: first.testTitle,
    metric: first.metric,
    subtest: subtestOf(first.metric),
    unit: first.unit,
    variant: comparison.variants[variantIndex]!,
    baseline: comparison.baseline,
    fileSizes,
    recordSizes,
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
