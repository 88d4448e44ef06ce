import type { Verdict } from '../model/comparison'
import type { MetricComparison } from '../model/metric-def'
import type { Better } from '../model/sample'
import { CONFIDENCE_LEVEL_PCT } from './interval'
import { pctText } from './message-text'

/** A ratio whose whole interval lies within 100 % ± this many points is "same" (settable per plan). */
export const DEFAULT_MARGIN_PCT = 3

export interface VerdictInput {
  comparison: MetricComparison
  better: Better
  /** Values per side (after failed repetitions are left out). */
  nBaseline: number
  nVariant: number
  /** Every value of both sides is the same number (0 lost packets against 0, the same byte count). */
  identical: boolean
  /** The interval of relative % (ratio) or of variant - baseline (difference); undefined when there is none. */
  interval?: [number, number]
  /** Equivalence margin of a ratio, in points of relative %. */
  marginPct: number
  /** Formats a difference with its unit, for the reason. */
  formatDifference?: (value: number) => string
}

export interface VerdictOutcome {
  verdict: Verdict
  /** Why, in words a reader can check against the figures. */
  reason: string
}

/**
 * The one place a compared cell's verdict is decided; the screens, the CLI table, the PDF and the
 * exports only show it.
 *
 * - `same`: the whole interval lies within the equivalence margin (100 % ± margin for a ratio, 0
 *   for a difference), or both sides measured one identical value.
 * - `slower` / `faster`: the interval lies wholly on the worse / better side of 100 % (of 0);
 *   "slower" means worse than the baseline whatever the unit (more latency, more lost packets).
 * - `inconclusive`: the interval reaches past the margin on a side and does not exclude 100 % (0),
 *   or there is no interval (fewer than two values on a side, a value of zero in a ratio).
 */
export function decideVerdict(input: VerdictInput): VerdictOutcome {
  if (input.nBaseline === 0 || input.nVariant === 0) return { verdict: 'inconclusive', reason: 'a side has no result' }
  if (input.identical) return { verdict: 'same', reason: 'both sides measured exactly the same value' }
  const interval = input.interval
  if (!interval) {
    const few = Math.min(input.nBaseline, input.nVariant) < 2
    return {
      verdict: 'inconclusive',
      reason: few
        ? `no interval with ${input.nBaseline} and ${input.nVariant} values: one value a side cannot tell a difference from noise`
        : 'no interval: a value is zero or below, so no ratio can be formed'
    }
  }
  const [low, high] = interval
  if (input.comparison === 'ratio') {
    const range = `the ${CONFIDENCE_LEVEL_PCT} % interval ${pctText(low)} to ${pctText(high)}`
    const margin = input.marginPct
    if (low >= 100 - margin && high <= 100 + margin) return { verdict: 'same', reason: `${range} lies within 100 % ± ${margin} %` }
    if (high < 100) return { verdict: 'slower', reason: `${range} lies below 100 %` }
    if (low > 100) return { verdict: 'faster', reason: `${range} lies above 100 %` }
    return { verdict: 'inconclusive', reason: `${range} is too wide to tell: it reaches past 100 % ± ${margin} % and includes 100 %` }
  }
  const text = input.formatDifference ?? ((v: number) => String(Number(v.toPrecision(3))))
  const range = `the ${CONFIDENCE_LEVEL_PCT} % interval of the difference, ${text(low)} to ${text(high)},`
  if (low === 0 && high === 0) return { verdict: 'same', reason: `${range} is zero` }
  const worseUp = input.better === 'lower'
  if (low > 0) return { verdict: worseUp ? 'slower' : 'faster', reason: `${range} lies above 0` }
  if (high < 0) return { verdict: worseUp ? 'faster' : 'slower', reason: `${range} lies below 0` }
  return { verdict: 'inconclusive', reason: `${range} includes 0 and is too wide to tell` }
}
