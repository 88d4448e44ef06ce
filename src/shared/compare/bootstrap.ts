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
  if (input.resamples === undefined) {
    const exact = exactInterval(baseline, variant, aggregate, better)
    if (exact !== 'too-many') return exact
  }
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

/** Sides of at most this many values are enumerated (462 resamples of six values). */
const EXACT_MAX_VALUES = 6
/** Pairs of distinct aggregates the exact interval may weigh; beyond, the random bootstrap is cheaper. */
const EXACT_MAX_PAIRS = 20_000

/**
 * Every resample a side can give, as the distinct aggregates and their probabilities: each
 * multiset of n draws from n values has probability n! / (c1! ... cn!) / n^n. Undefined when the
 * side has too many values to enumerate.
 */
function exactAggregates(values: readonly number[], aggregate: Aggregate, better: Better): Map<number, number> | undefined {
  const n = values.length
  if (n > EXACT_MAX_VALUES) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const factorial = [1]
  for (let i = 1; i <= n; i++) factorial[i] = factorial[i - 1]! * i
  const total = n ** n
  const counts = new Array<number>(n).fill(0)
  const draw = new Float64Array(n)
  const out = new Map<number, number>()
  const visit = (index: number, left: number): void => {
    if (index === n - 1) {
      counts[index] = left
      let k = 0
      let ways = factorial[n]!
      for (let i = 0; i < n; i++) {
        ways /= factorial[counts[i]!]!
        for (let c = 0; c < counts[i]!; c++) draw[k++] = sorted[i]!
      }
      const value = aggregateOfSorted(draw, n, aggregate, better)
      if (value !== undefined) out.set(value, (out.get(value) ?? 0) + ways / total)
      return
    }
    for (let c = left; c >= 0; c--) {
      counts[index] = c
      visit(index + 1, left - c)
    }
  }
  visit(0, n)
  return out
}

/**
 * The bootstrap interval without drawing: the exact distribution of the relative % over every
 * pair of resamples (what 2000 random draws approximate), and its 2.5th and 97.5th percentiles
 * (the smallest ratios whose cumulative probability reaches 2.5 % and 97.5 %). 'too-many' when the
 * sides are too large to enumerate cheaply.
 */
function exactInterval(baseline: readonly number[], variant: readonly number[], aggregate: Aggregate, better: Better): [number, number] | undefined | 'too-many' {
  const b = exactAggregates(baseline, aggregate, better)
  const v = exactAggregates(variant, aggregate, better)
  if (!b || !v || b.size * v.size > EXACT_MAX_PAIRS) return 'too-many'
  const pairs: { ratio: number; p: number }[] = []
  for (const [bValue, bP] of b) {
    for (const [vValue, vP] of v) {
      const ratio = relativePct(vValue, bValue, better)
      if (ratio === undefined) return undefined
      pairs.push({ ratio, p: bP * vP })
    }
  }
  pairs.sort((x, y) => x.ratio - y.ratio)
  const tail = (100 - CONFIDENCE_PCT) / 200
  const quantile = (q: number): number => {
    let cumulative = 0
    for (const pair of pairs) {
      cumulative += pair.p
      if (cumulative >= q - 1e-12) return pair.ratio
    }
    return pairs[pairs.length - 1]!.ratio
  }
  return [quantile(tail), quantile(1 - tail)]
}
