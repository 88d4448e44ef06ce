import type { Better } from '../model/sample'

/**
 * The variant as a percentage of the baseline, oriented so that 100 % is "as good as the
 * baseline" and more is better: variant / baseline where higher is better (throughput),
 * baseline / variant where lower is better (latency). Undefined when the ratio does not exist
 * (a zero or negative divisor, a non-finite value): never NaN or Infinity.
 */
export function relativePct(variant: number, baseline: number, better: Better): number | undefined {
  const [numerator, divisor] = better === 'higher' ? [variant, baseline] : [baseline, variant]
  if (!Number.isFinite(numerator) || !Number.isFinite(divisor) || numerator < 0 || divisor <= 0) return undefined
  if (numerator === divisor) return 100
  // Multiplying first keeps whole-number ratios exact (110 / 100 gives 110, not 110.00000000000001).
  const multipliedFirst = (numerator * 100) / divisor
  const pct = Number.isFinite(multipliedFirst) ? multipliedFirst : (numerator / divisor) * 100
  return Number.isFinite(pct) ? pct : undefined
}

/** 100 % - relative %: how much of the baseline the variant loses (negative when it gains). */
export function overheadPct(relative: number): number {
  return 100 - relative
}
