import type { Better } from '../model/sample'
import type { Aggregate } from '../model/tool-ids'
import { seededRandom, hashText } from './random'
import { relativePct } from './relative'
import { aggregateOfSorted, percentileOfSorted } from './stats'

export const BOOTSTRAP_RESAMPLES = 2000
export const CONFIDENCE_PCT = 95

export interface BootstrapInput {
  baseline: readonly number[]
  variant: readonly number[]
  aggregate: Aggregate
  better: Better
  /** What the interval is of (row and variant); the random source is seeded from its hash. */
  seedKey: string
  resamples?: number
}

/**
 * Draws `source.length` values from `source` with replacement into `into`, kept in ascending
 * order as they come (insertion: repetitions are few, and this runs thousands of times a cell).
 */
function resampleSorted(source: readonly number[], into: Float64Array, random: () => number): Float64Array {
  const n = source.length
  for (let i = 0; i < n; i++) {
    const drawn = source[Math.floor(random() * n)] as number
    let j = i
    for (; j > 0 && (into[j - 1] as number) > drawn; j--) into[j] = into[j - 1] as number
    into[j] = drawn
  }
  return into
}

/**
 * The 95 % percentile-bootstrap interval of the relative %: each side's repetitions are
 * resampled with replacement, independently, `resamples` times; each time the two aggregates
 * give one relative %; the interval runs from the 2.5th to the 97.5th percentile of those.
 * Undefined when a side has fewer than two values, or when some resample has no ratio (a zero
 * aggregate): an interval that silently left those out would look narrower than it is.
 */
export function bootstrapRelativeInterval(input: BootstrapInput): [number, number] | undefined {
  const { baseline, variant, aggregate, better } = input
  const resamples = input.resamples ?? BOOTSTRAP_RESAMPLES
  if (baseline.length < 2 || variant.length < 2 || resamples < 1) return undefined
  if (![...baseline, ...variant].every(Number.isFinite)) return undefined
  const random = seededRandom(hashText(input.seedKey))
  const baselineDraw = new Float64Array(baseline.length)
  const variantDraw = new Float64Array(variant.length)
  const ratios = new Float64Array(resamples)
  for (let r = 0; r < resamples; r++) {
    const b = aggregateOfSorted(resampleSorted(baseline, baselineDraw, random), baseline.length, aggregate, better)
    const v = aggregateOfSorted(resampleSorted(variant, variantDraw, random), variant.length, aggregate, better)
    const ratio = b === undefined || v === undefined ? undefined : relativePct(v, b, better)
    if (ratio === undefined) return undefined
    ratios[r] = ratio
  }
  ratios.sort()
  const tail = (100 - CONFIDENCE_PCT) / 2
  const low = percentileOfSorted(ratios, tail)
  const high = percentileOfSorted(ratios, 100 - tail)
  return low === undefined || high === undefined ? undefined : [low, high]
}
