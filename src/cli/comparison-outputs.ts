/**
 * What `--comparison`, `--overhead-csv` and `--junit` write (`virtbench run`, `virtbench report`),
 * from a run's comparison or from a sweep's: for a sweep every combination, each compared with the
 * baseline measured in its own steps as the sweep's table compares it (docs/export.md#a-sweep),
 * not only the latest step.
 */
import { compare } from '../shared/compare'
import { acceptanceText, judgeAcceptance, junitSuitesXml } from '../shared/criteria'
import { comparisonExport, overheadCsv } from '../shared/export/comparison-rows'
import { sweepComparisonExport, sweepOverheadCsv, type SweepComparisonInput } from '../shared/export/sweep-comparison'
import type { Comparison } from '../shared/model/comparison'
import type { RunDocument } from '../shared/model/run'
import { comparisonInputOf } from '../shared/run-comparison'
import { judgeRun, junitInputOf, runVerdict, type Verdict } from './acceptance'

export interface ComparisonOutputs {
  /** The `--comparison` JSON. */
  comparisonJson(): string
  /** The `--overhead-csv` CSV. */
  overheadCsv(): string
  /** The acceptance verdict, or undefined when the plan has no criteria. */
  verdict(): Verdict | undefined
}

/** A run's outputs, from its comparison (computed once, here or by the caller). */
export function runOutputs(run: RunDocument, comparison: Comparison = compare(comparisonInputOf(run))): ComparisonOutputs {
  return {
    comparisonJson: () => `${JSON.stringify(comparisonExport(comparison), null, 2)}\n`,
    overheadCsv: () => overheadCsv(comparison),
    verdict: () => {
      const result = judgeRun(run, comparison)
      return result ? runVerdict(run, result) : undefined
    }
  }
}

/**
 * A sweep's outputs: `run` is its document (plan, name, id, times), `input` its combinations with
 * their comparisons (`sweepComparisonInput`, or the sweep table's own).
 */
export function sweepOutputs(run: RunDocument, input: SweepComparisonInput): ComparisonOutputs {
  return {
    comparisonJson: () => `${JSON.stringify(sweepComparisonExport(input), null, 2)}\n`,
    overheadCsv: () => sweepOverheadCsv(input),
    verdict: () => sweepVerdict(run, input)
  }
}

/**
 * A sweep's verdict, each combination's criteria judged on its own comparison; passed when every
 * combination was measured and passed:
 *
 *   Acceptance of the sweep: FAILED (1 of 4 combinations passed; 1 not measured)
 *
 *   cache=none, io=threads: Acceptance: PASSED (2 of 2 criteria passed)
 *   PASS  1. ...
 *
 * Its JUnit document has a suite per combination, named `<plan> · <combination>`.
 */
function sweepVerdict(run: RunDocument, input: SweepComparisonInput): Verdict | undefined {
  const acceptance = run.plan.acceptance
  if (!acceptance) return undefined
  const combos = input.combos.map((c) => ({ label: c.label, ...(c.comparison ? { result: judgeAcceptance(acceptance, c.comparison) } : {}) }))
  const passedCount = combos.filter((c) => c.result?.passed).length
  const unmeasured = combos.filter((c) => !c.result).length
  const passed = passedCount === combos.length
  const head = `Acceptance of the sweep: ${passed ? 'PASSED' : 'FAILED'} (${passedCount} of ${combos.length} combination${combos.length === 1 ? '' : 's'} passed${unmeasured > 0 ? `; ${unmeasured} not measured` : ''})\n`
  const parts = combos.map((c) => (c.result ? `${c.label}: ${acceptanceText(c.result)}` : `${c.label}: not measured (no step of the sweep measured this combination)\n`))
  const junit = (runDir?: string): string => {
    const base = junitInputOf(run, runDir)
    return junitSuitesXml(
      combos.map((c) => ({
        input: { ...base, suite: `${base.suite} · ${c.label}`, seconds: 0, properties: { ...base.properties, 'virtbench.sweep.combination': c.label } },
        ...(c.result ? { result: c.result } : { notJudged: `${c.label} was not measured: the sweep ended before any step of it completed` })
      })),
      base.seconds
    )
  }
  return { passed, text: [head, ...parts].join('\n'), junit }
}
