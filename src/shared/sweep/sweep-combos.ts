/**
 * A sweep's combinations with their comparisons, from its steps' runs: each combination's steps
 * (several when it ran interleaved) merged, each compared with the baseline measured in the same
 * steps (docs/scenarios.md#sweeps). What the CLI prints and the results page shows. Pure.
 */
import { compare } from '../compare/compare'
import type { Sweep } from '../model/plan'
import type { RunDocument } from '../model/run'
import { comparisonInputOf } from '../run-comparison'
import { expandSweep, mergeStepInputs } from './expand'
import type { SweepTableInput } from './sweep-table'

export function sweepCombos(sweep: Sweep, steps: readonly { label: string; run?: RunDocument }[]): SweepTableInput['combos'] {
  return expandSweep(sweep).map((variant) => {
    const input = mergeStepInputs(steps.flatMap((s) => (s.label === variant.label && s.run ? [comparisonInputOf(s.run)] : [])))
    return { label: variant.label, values: variant.values, ...(input ? { comparison: compare(input) } : {}) }
  })
}
