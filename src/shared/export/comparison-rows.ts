import type { Comparison, Verdict } from '../model/comparison'
import type { MetricComparison } from '../model/metric-def'
import type { Unit } from '../model/sample'
import { csvNumber, formatCsv, formatCsvLabels, guardCsvText } from './csv'

/**
 * The comparison as data for pipelines and spreadsheets (docs/export.md): one row per variant
 * and metric with the baseline's figure, the variant's, the relative % (or, for a count, the
 * difference), its 95 % interval, the repetitions, the verdict and the flags. Pure: the CLI's
 * `report --comparison/--overhead-csv` and the app write the same rows.
 */
export interface ComparisonExportRow {
  variant: string
  test: string
  testTitle: string
  metric: string
  /** Labels that tell the row apart within its metric (`direction=target->peer`). */
  labels: Record<string, string>
  unit: Unit
  better: 'higher' | 'lower'
  /** ratio: relativePct and its interval; difference: difference and its interval. */
  comparison: MetricComparison
  primary: boolean
  derived: boolean
  /** The baseline's aggregate, in the unit; absent when it has no value. */
  baseline?: number
  /** The variant's aggregate, in the unit; absent when it has no value. */
  value?: number
  relativePct?: number
  /** 100 % - relative %. */
  overheadPct?: number
  difference?: number
  ciLow?: number
  ciHigh?: number
  /** The variant's repetitions (values), and the baseline's. */
  n: number
  baselineN: number
  verdict: Verdict
  verdictReason: string
  /** Flag kinds on the cell (faster-than-baseline, noisy, ...). */
  flags: string[]
}

export interface ComparisonExport {
  kind: 'virtbench-comparison'
  version: 1
  baseline: string
  variants: string[]
  /** The equivalence margin of ratios, in points of relative %. */
  marginPct: number
  method: string
  /** Flags about the baseline itself and about whole variants. */
  baselineFlags: { kind: string; message: string }[]
  variantFlags: Record<string, { kind: string; message: string }[]>
  rows: ComparisonExportRow[]
}

export function comparisonRows(comparison: Comparison): ComparisonExportRow[] {
  return comparison.rows.flatMap((row) =>
    row.cells.map((cell) => ({
      variant: cell.variant,
      test: row.testId,
      testTitle: row.testTitle,
      metric: row.metric,
      labels: row.labels,
      unit: row.unit,
      better: row.better,
      comparison: row.comparison,
      primary: row.primary,
      derived: row.source === 'derived',
      ...(row.baseline ? { baseline: row.baseline.value } : {}),
      ...(cell.stats ? { value: cell.stats.value } : {}),
      ...(cell.relativePct !== undefined ? { relativePct: cell.relativePct } : {}),
      ...(cell.overheadPct !== undefined ? { overheadPct: cell.overheadPct } : {}),
      ...(cell.difference !== undefined ? { difference: cell.difference } : {}),
      ...(cell.ci95 ? { ciLow: cell.ci95[0], ciHigh: cell.ci95[1] } : {}),
      n: cell.stats?.n ?? 0,
      baselineN: row.baseline?.n ?? 0,
      verdict: cell.verdict,
      verdictReason: cell.verdictReason,
      flags: cell.flags.map((f) => f.kind)
    }))
  )
}

/** The JSON document `virtbench report --comparison FILE` writes. */
export function comparisonExport(comparison: Comparison): ComparisonExport {
  const flagText = (f: { kind: string; message: string }) => ({ kind: f.kind, message: f.message })
  return {
    kind: 'virtbench-comparison',
    version: 1,
    baseline: comparison.baseline,
    variants: [...comparison.variants],
    marginPct: comparison.marginPct,
    method: comparison.method,
    baselineFlags: comparison.baselineFlags.map(flagText),
    variantFlags: Object.fromEntries(Object.entries(comparison.variantFlags).map(([v, flags]) => [v, flags.map(flagText)])),
    rows: comparisonRows(comparison)
  }
}

export const OVERHEAD_CSV_COLUMNS = [
  'variant',
  'test',
  'test_title',
  'metric',
  'labels',
  'unit',
  'better',
  'comparison',
  'primary',
  'derived',
  'baseline',
  'value',
  'relative_pct',
  'overhead_pct',
  'difference',
  'ci_low',
  'ci_high',
  'n',
  'baseline_n',
  'verdict',
  'flags'
] as const

/**
 * The overhead table a spreadsheet user wants (beside the tidy samples CSV): one row per variant
 * and metric, numbers exact, empty where a figure does not exist, text with the formula guard.
 */
export function overheadCsv(comparison: Comparison): string {
  return formatCsv([[...OVERHEAD_CSV_COLUMNS], ...overheadCsvRows(comparison)])
}

/** The overhead CSV's rows without its header: the cells of OVERHEAD_CSV_COLUMNS, one row per variant and metric. */
export function overheadCsvRows(comparison: Comparison): string[][] {
  const num = (v: number | undefined): string => (v === undefined ? '' : csvNumber(v))
  return comparisonRows(comparison).map((r) => [
    ...[r.variant, r.test, r.testTitle, r.metric, formatCsvLabels(r.labels), r.unit, r.better, r.comparison].map(guardCsvText),
    r.primary ? 'yes' : 'no',
    r.derived ? 'yes' : 'no',
    num(r.baseline),
    num(r.value),
    num(r.relativePct),
    num(r.overheadPct),
    num(r.difference),
    num(r.ciLow),
    num(r.ciHigh),
    String(r.n),
    String(r.baselineN),
    r.verdict,
    guardCsvText(r.flags.join(' '))
  ])
}
