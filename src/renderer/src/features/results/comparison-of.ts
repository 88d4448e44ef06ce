import { compare } from '../../../../shared/compare'
import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import { comparisonInputOf } from '../../../../shared/run-comparison'

const computed = new WeakMap<RunDocument, Comparison>()

/**
 * The comparison of a run document, computed once per document object: compare() runs a
 * bootstrap per cell (2000 resamples), which for 20 variants x 30 metrics takes longer than a
 * frame, so reopening the same run, or drawing it in two places, must not pay for it again.
 */
export function comparisonOf(run: RunDocument): Comparison {
  let comparison = computed.get(run)
  if (!comparison) {
    comparison = compare(comparisonInputOf(run))
    computed.set(run, comparison)
  }
  return comparison
}
