import type { Better } from '../model/sample'
import { relativePct } from './relative'
import { studentTQuantile } from './student-t'

/**
 * The intervals a verdict stands on, from few repetitions: Welch's t interval, which does not
 * assume both sides vary alike and widens honestly when there are few values (two values a side
 * give t = 4.3, not the 1.96 of a large sample).
 *
 * - Ratios (bandwidth, IOPS, latency): on the logarithms of the values, so the interval is one of
 *   the ratio of the two sides' geometric means, and noise that scales with the value (a few %
 *   either way) is treated alike on a slow and a fast machine. Oriented as relative % is: variant
 *   / baseline where higher is better, baseline / variant where lower is better.
 * - Differences (counts, shares in %): on the values, variant - baseline.
 *
 * Given the figure the table shows (the ratio or difference of the tests' aggregates: median,
 * mean or best), the interval is the smallest one holding both the t interval and that figure ±
 * the t half-width, so the figure always lies inside its own interval, the verdict never
 * contradicts it, and a verdict needs the figure and the means to agree: a median that sits off
 * the means (one slow repetition) widens the interval rather than moving it past 100 %.
 */

export const CONFIDENCE_LEVEL_PCT = 95

interface Moments {
  n: number
  mean: number
  variance: number
}

function moments(values: readonly number[]): Moments {
  const n = values.length
  const mean = values.reduce((s, v) => s + v, 0) / n
  const variance = values.reduce((s, v) => s + (v - mean) * (v - mean), 0) / (n - 1)
  return { n, mean, variance }
}

/**
 * What an interval stands on: a mean (of log ratios oriented as relative %, or of differences,
 * variant - baseline), its standard error and degrees of freedom. Two runs' estimates combine
 * (a release comparison: their standard errors add in quadrature, Welch-Satterthwaite for df).
 */
export interface Estimate {
  mean: number
  se: number
  df: number
}

/** Welch's estimate of mean(b) - mean(a); undefined with fewer than two values on a side. */
function welchEstimate(a: readonly number[], b: readonly number[]): Estimate | undefined {
  if (a.length < 2 || b.length < 2) return undefined
  const x = moments(a)
  const y = moments(b)
  const vx = x.variance / x.n
  const vy = y.variance / y.n
  const se = Math.sqrt(vx + vy)
  if (!Number.isFinite(se)) return undefined
  const df = se === 0 ? x.n + y.n - 2 : (vx + vy) ** 2 / ((vx * vx) / (x.n - 1) + (vy * vy) / (y.n - 1))
  return { mean: y.mean - x.mean, se, df }
}

/** Student's t estimate of the mean of `d` (paired differences); undefined with fewer than two. */
function pairedEstimate(d: readonly number[]): Estimate | undefined {
  if (d.length < 2) return undefined
  const m = moments(d)
  const se = Math.sqrt(m.variance / m.n)
  return Number.isFinite(se) ? { mean: m.mean, se, df: m.n - 1 } : undefined
}

/** The two-sided t interval of an estimate. */
export function estimateInterval(e: Estimate, confidencePct = CONFIDENCE_LEVEL_PCT): [number, number] {
  if (e.se === 0) return [e.mean, e.mean]
  const t = studentTQuantile(1 - (1 - confidencePct / 100) / 2, e.df)
  return [e.mean - t * e.se, e.mean + t * e.se]
}

/** Welch's interval of mean(b) - mean(a); undefined with fewer than two values on a side. */
function welch(a: readonly number[], b: readonly number[], confidencePct: number): [number, number] | undefined {
  const e = welchEstimate(a, b)
  return e && estimateInterval(e, confidencePct)
}

/** Student's t interval of the mean of `d` (paired differences); undefined with fewer than two. */
function pairedT(d: readonly number[], confidencePct: number): [number, number] | undefined {
  const e = pairedEstimate(d)
  return e && estimateInterval(e, confidencePct)
}

function logRatios(pairs: readonly [number, number][], better: Better): number[] {
  return pairs.map(([b, v]) => (better === 'higher' ? Math.log(v) - Math.log(b) : Math.log(b) - Math.log(v)))
}

/**
 * The estimate a ratio's interval stands on, on the log scale and oriented as relative % (a mean
 * of 0 is 100 %): pair by pair when `pairs` are given, else Welch's of the sides' log means.
 * Undefined where ratioInterval / pairedRatioInterval give no interval.
 */
export function ratioEstimate(baseline: readonly number[], variant: readonly number[], better: Better, pairs?: readonly [number, number][]): Estimate | undefined {
  if (pairs) {
    if (pairs.length < 2 || !pairs.flat().every((v) => Number.isFinite(v) && v > 0)) return undefined
    return pairedEstimate(logRatios(pairs, better))
  }
  if (![...baseline, ...variant].every((v) => Number.isFinite(v) && v > 0)) return undefined
  const e = welchEstimate(baseline.map(Math.log), variant.map(Math.log))
  return e && (better === 'higher' ? e : { ...e, mean: -e.mean })
}

/** The estimate a difference's interval stands on (variant - baseline, in the unit): pair by pair when `pairs` are given. */
export function differenceEstimate(baseline: readonly number[], variant: readonly number[], pairs?: readonly [number, number][]): Estimate | undefined {
  if (pairs) return pairs.flat().every(Number.isFinite) ? pairedEstimate(pairs.map(([b, v]) => v - b)) : undefined
  return [...baseline, ...variant].every(Number.isFinite) ? welchEstimate(baseline, variant) : undefined
}

/**
 * The interval of relative % from repetitions that ran side by side (`[baseline, variant]` pairs
 * of an interleaved schedule): Student's t interval of the mean log ratio of each pair, so slow
 * drift that hit both sides of a pair (other load, a warming disk) cancels out. Widened to hold
 * `center` (the table's figure) ± the half-width when given, like ratioInterval.
 */
export function pairedRatioInterval(pairs: readonly [number, number][], better: Better, confidencePct = CONFIDENCE_LEVEL_PCT, center?: number): [number, number] | undefined {
  if (pairs.length < 2 || !pairs.flat().every((v) => Number.isFinite(v) && v > 0)) return undefined
  const logs = pairedT(logRatios(pairs, better), confidencePct)
  if (!logs) return undefined
  const natural: [number, number] = [100 * Math.exp(logs[0]), 100 * Math.exp(logs[1])]
  if (center !== undefined && center > 0) {
    const half = (logs[1] - logs[0]) / 2
    return finiteInterval(hull(natural, [center * Math.exp(-half), center * Math.exp(half)]))
  }
  return finiteInterval(natural)
}

/** The interval of variant - baseline from pairs that ran side by side, widened to hold `center` ± the half-width when given. */
export function pairedDifferenceInterval(pairs: readonly [number, number][], confidencePct = CONFIDENCE_LEVEL_PCT, center?: number): [number, number] | undefined {
  if (!pairs.flat().every(Number.isFinite)) return undefined
  const interval = pairedT(pairs.map(([b, v]) => v - b), confidencePct)
  if (interval && center !== undefined) {
    const half = (interval[1] - interval[0]) / 2
    return finiteInterval(hull(interval, [center - half, center + half]))
  }
  return finiteInterval(interval)
}

/**
 * The interval of relative % (100 = as good as the baseline, more is better); undefined when a
 * side has fewer than two values or a value that is not above zero (no logarithm).
 */
export function ratioInterval(
  baseline: readonly number[],
  variant: readonly number[],
  better: Better,
  confidencePct = CONFIDENCE_LEVEL_PCT,
  /** The table's figure: the interval also holds it ± the half-width. */
  center?: number
): [number, number] | undefined {
  if (baseline.length < 2 || variant.length < 2) return undefined
  if (![...baseline, ...variant].every((v) => Number.isFinite(v) && v > 0)) return undefined
  if (constant(baseline) && constant(variant)) {
    // no spread on either side: the interval is the one ratio, computed exactly
    const ratio = relativePct(variant[0]!, baseline[0]!, better)
    return ratio === undefined ? undefined : [ratio, ratio]
  }
  const logs = welch(baseline.map(Math.log), variant.map(Math.log), confidencePct)
  if (!logs) return undefined
  const [low, high] = better === 'higher' ? logs : [-logs[1], -logs[0]]
  const natural: [number, number] = [100 * Math.exp(low), 100 * Math.exp(high)]
  if (center !== undefined && center > 0) {
    const half = (high - low) / 2
    return finiteInterval(hull(natural, [center * Math.exp(-half), center * Math.exp(half)]))
  }
  return finiteInterval(natural)
}

function constant(values: readonly number[]): boolean {
  return values.every((v) => v === values[0])
}

/** The smallest interval holding both. */
function hull(a: [number, number], b: [number, number]): [number, number] {
  return [Math.min(a[0], b[0]), Math.max(a[1], b[1])]
}

/** Values so large or small that the interval overflows have none. */
function finiteInterval(interval: [number, number] | undefined): [number, number] | undefined {
  return interval && Number.isFinite(interval[0]) && Number.isFinite(interval[1]) ? interval : undefined
}

/** The interval of variant - baseline, in the metric's unit; undefined with fewer than two values on a side. */
export function differenceInterval(
  baseline: readonly number[],
  variant: readonly number[],
  confidencePct = CONFIDENCE_LEVEL_PCT,
  /** The table's figure: the interval also holds it ± the half-width. */
  center?: number
): [number, number] | undefined {
  if (![...baseline, ...variant].every(Number.isFinite)) return undefined
  const interval = welch(baseline, variant, confidencePct)
  if (interval && center !== undefined) {
    const half = (interval[1] - interval[0]) / 2
    return finiteInterval(hull(interval, [center - half, center + half]))
  }
  return finiteInterval(interval)
}
