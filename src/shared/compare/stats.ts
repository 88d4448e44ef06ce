import type { Better } from '../model/sample'
import type { Aggregate } from '../model/tool-ids'
import type { SeriesStats } from '../model/comparison'

/**
 * Summary statistics of repetitions. Every function answers `undefined` where the figure does
 * not exist (no values, a single value for a spread, a zero mean for a ratio): never NaN.
 */

function finite(x: number): number | undefined {
  return Number.isFinite(x) ? x : undefined
}

function ascending(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b)
}

/**
 * The mean of the first `n` values of `sorted` (ascending). Summing in a fixed order makes the
 * result depend only on which values there are, not on the order they came in; values so large
 * that their sum overflows are divided first.
 */
function meanOfSorted(sorted: ArrayLike<number>, n: number): number | undefined {
  if (n === 0) return undefined
  let sum = 0
  for (let i = 0; i < n; i++) sum += sorted[i] as number
  if (Number.isFinite(sum)) return sum / n
  let scaled = 0
  for (let i = 0; i < n; i++) scaled += (sorted[i] as number) / n
  return finite(scaled)
}

/** The point `fraction` of the way from `low` to `high`, without overflowing in between. */
function between(low: number, high: number, fraction: number): number | undefined {
  const direct = low + (high - low) * fraction
  return Number.isFinite(direct) ? direct : finite(low * (1 - fraction) + high * fraction)
}

export function mean(values: readonly number[]): number | undefined {
  return meanOfSorted(ascending(values), values.length)
}

/** The middle value, or the average of the two middle values for an even count. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined
  return medianOfSorted(ascending(values), values.length)
}

/** Sample standard deviation (divides by n - 1); undefined with fewer than two values. */
export function stddev(values: readonly number[]): number | undefined {
  const sorted = ascending(values)
  return stddevOfSorted(sorted, meanOfSorted(sorted, sorted.length))
}

/** stddev() of values already sorted ascending, given their mean (seriesStats has both at hand). */
function stddevOfSorted(sorted: readonly number[], m: number | undefined): number | undefined {
  if (sorted.length < 2 || m === undefined) return undefined
  // Deviations are scaled by the largest one so that squaring them cannot overflow.
  const deviations = sorted.map((v) => v - m)
  const largest = Math.max(...deviations.map(Math.abs))
  if (largest === 0) return 0
  if (!Number.isFinite(largest)) return undefined
  let squares = 0
  for (const d of deviations) squares += (d / largest) * (d / largest)
  return finite(largest * Math.sqrt(squares / (sorted.length - 1)))
}

/**
 * The p-th percentile (0..100) with linear interpolation between the two nearest ranks (the
 * usual "type 7" definition: percentile 0 is the minimum, 100 the maximum).
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0 || !Number.isFinite(p)) return undefined
  return percentileOfSorted(ascending(values), Math.min(100, Math.max(0, p)))
}

/** percentile() on values already sorted ascending; p within 0..100. */
export function percentileOfSorted(sorted: ArrayLike<number>, p: number): number | undefined {
  const n = sorted.length
  if (n === 0) return undefined
  const rank = (p / 100) * (n - 1)
  const below = Math.floor(rank)
  const above = Math.min(n - 1, below + 1)
  return between(sorted[below] as number, sorted[above] as number, rank - below)
}

function medianOfSorted(sorted: ArrayLike<number>, n: number): number | undefined {
  const middle = n >> 1
  const upper = sorted[middle] as number
  if (n % 2 === 1) return upper
  return between(sorted[middle - 1] as number, upper, 0.5)
}

/**
 * The figure a test compares, from the first `n` values of `sorted` (ascending): the median,
 * the mean, or the best repetition (the largest where higher is better, the smallest where
 * lower is better).
 */
export function aggregateOfSorted(sorted: ArrayLike<number>, n: number, aggregate: Aggregate, better: Better): number | undefined {
  if (n === 0) return undefined
  switch (aggregate) {
    case 'median':
      return medianOfSorted(sorted, n)
    case 'mean':
      return meanOfSorted(sorted, n)
    case 'best':
      return better === 'higher' ? sorted[n - 1] : sorted[0]
  }
}

export function aggregateOf(values: readonly number[], aggregate: Aggregate, better: Better): number | undefined {
  return aggregateOfSorted(ascending(values), values.length, aggregate, better)
}

/** The statistics of one side's repetitions; undefined when there is no value. */
export function seriesStats(values: readonly number[], aggregate: Aggregate, better: Better): SeriesStats | undefined {
  const kept = values.filter(Number.isFinite)
  // sorted once: the aggregate, median, mean and spread all read the same order
  const sorted = ascending(kept)
  const value = aggregateOfSorted(sorted, sorted.length, aggregate, better)
  const med = sorted.length === 0 ? undefined : medianOfSorted(sorted, sorted.length)
  const avg = meanOfSorted(sorted, sorted.length)
  if (value === undefined || med === undefined || avg === undefined) return undefined
  const stats: SeriesStats = {
    values: kept,
    value,
    aggregate,
    n: kept.length,
    median: med,
    mean: avg,
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number
  }
  const sd = stddevOfSorted(sorted, avg)
  if (sd !== undefined) {
    stats.stddev = sd
    const cv = avg === 0 ? undefined : finite((sd / Math.abs(avg)) * 100)
    if (cv !== undefined) stats.cvPct = cv
  }
  return stats
}
