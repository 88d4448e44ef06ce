/**
 * A sweep's comparison exports (docs/export.md#a-sweep): every combination's comparison, each
 * against the baseline measured in the same steps, as `sweepCombos` makes them for the sweep's
 * table; not only the latest step's. Pure.
 */
import type { RunDocument } from '../model/run'
import { sweptFactors } from '../sweep/expand'
import { sweepCombos } from '../sweep/sweep-combos'
import type { SweepTableInput } from '../sweep/sweep-table'
import { comparisonExport, overheadCsvRows, OVERHEAD_CSV_COLUMNS, type ComparisonExport } from './comparison-rows'
import { formatCsv, guardCsvText } from './csv'

/** The kind of a sweep's `--comparison` JSON. */
export const SWEEP_COMPARISON_KIND = 'virtbench-sweep-comparison'

export interface SweepComparisonInput {
  /** The swept factors in the sweep's order (`cache`, `io`). */
  factors: readonly string[]
  combos: SweepTableInput['combos']
}

/** A sweep's combinations with their comparisons, from its document (its plan) and its steps' runs. */
export function sweepComparisonInput(run: Pick<RunDocument, 'plan' | 'name'>, steps: readonly { label: string; run?: RunDocument }[]): SweepComparisonInput {
  const sweep = run.plan.sweep
  if (!sweep) throw new Error(`${run.name} is not a sweep: its plan has no sweep`)
  return { factors: sweptFactors(sweep), combos: sweepCombos(sweep, steps) }
}

export interface SweepComparisonExport {
  kind: typeof SWEEP_COMPARISON_KIND
  version: 1
  factors: string[]
  /** Each combination in the sweep's order; `comparison` null when no step measured it. */
  combinations: { combination: string; factors: Record<string, string | number>; comparison: ComparisonExport | null }[]
}

export function sweepComparisonExport(sweep: SweepComparisonInput): SweepComparisonExport {
  return {
    kind: SWEEP_COMPARISON_KIND,
    version: 1,
    factors: [...sweep.factors],
    combinations: sweep.combos.map((c) => ({ combination: c.label, factors: { ...c.values }, comparison: c.comparison ? comparisonExport(c.comparison) : null }))
  }
}

/**
 * The overhead CSV of a sweep: `combination` and one `factor_<name>` per swept factor, then the
 * overhead CSV's own columns, a combination's rows after another's in the sweep's order. A
 * combination no step measured has no rows.
 */
export function sweepOverheadCsv(sweep: SweepComparisonInput): string {
  const rows = sweep.combos.flatMap((c) => {
    if (!c.comparison) return []
    const lead = [c.label, ...sweep.factors.map((f) => (c.values[f] === undefined ? '' : String(c.values[f])))].map(guardCsvText)
    return overheadCsvRows(c.comparison).map((row) => [...lead, ...row])
  })
  return formatCsv([['combination', ...sweep.factors.map((f) => `factor_${f}`), ...OVERHEAD_CSV_COLUMNS], ...rows])
}
