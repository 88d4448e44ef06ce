import type { ComparisonPlan } from '../../../../shared/model/plan'
import { expandSweep, sweepSteps } from '../../../../shared/sweep/expand'

/** What a resumed sweep still measures: its steps left and their combinations, in the order they run. */
export interface SweepRemainder {
  steps: number
  combinations: string[]
}

/**
 * The steps of a sweep after its `completed` ones (steps run in order and a sweep stops at the
 * first that does not complete, so the completed ones are the first), each combination named
 * once. Undefined for a plan without a sweep. Pure.
 */
export function sweepRemainder(plan: ComparisonPlan, completed: number): SweepRemainder | undefined {
  if (!plan.sweep) return undefined
  const variants = expandSweep(plan.sweep)
  const rest = sweepSteps(variants.length, plan.repetitions, plan.sweep.order).slice(Math.max(0, completed))
  return { steps: rest.length, combinations: [...new Set(rest.map((step) => variants[step.variant]!.label))] }
}

/** "sweep · 4 combinations": how the history marks a sweep. */
export function sweepBadgeText(combinations: number): string {
  return `sweep · ${combinations} ${combinations === 1 ? 'combination' : 'combinations'}`
}
