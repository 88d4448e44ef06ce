import { describe, expect, it } from 'vitest'
import { differenceInterval, pairedDifferenceInterval, pairedRatioInterval, ratioInterval } from '../../../../src/shared/compare/interval'
import { incompleteBeta, lnGamma, studentTCdf, studentTQuantile } from '../../../../src/shared/compare/student-t'

describe("Student's t", () => {
  it('gives the table values of the 97.5th and 95th percentiles', () => {
    // from any table of the t distribution (e.g. NIST/SEMATECH e-Handbook, 1.3.6.7.2)
    const table: [number, number, number][] = [
      [0.975, 1, 12.706],
      [0.975, 2, 4.303],
      [0.975, 4, 2.776],
      [0.975, 10, 2.228],
      [0.975, 30, 2.042],
      [0.975, 100, 1.984],
      [0.95, 5, 2.015]
    ]
    for (const [p, df, t] of table) expect(studentTQuantile(p, df), `p=${p} df=${df}`).toBeCloseTo(t, 3)
  })

  it('takes fractional degrees of freedom (Welch) between the whole ones', () => {
    const t = studentTQuantile(0.975, 2.5)
    expect(t).toBeLessThan(studentTQuantile(0.975, 2))
    expect(t).toBeGreaterThan(studentTQuantile(0.975, 3))
  })

  it('has a distribution function that is symmetric and inverts the quantile', () => {
    for (const df of [1, 3.7, 12]) {
      expect(studentTCdf(0, df)).toBeCloseTo(0.5, 12)
      expect(studentTCdf(-1.5, df) + studentTCdf(1.5, df)).toBeCloseTo(1, 12)
      expect(studentTCdf(studentTQuantile(0.99, df), df)).toBeCloseTo(0.99, 9)
    }
  })

  it('rests on ln Γ and the incomplete beta function, checked at exact points', () => {
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12)
    expect(lnGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12)
    // I_x(1, 1) = x; I_x(a, 1) = x^a
    expect(incompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12)
    expect(incompleteBeta(0.3, 3, 1)).toBeCloseTo(0.027, 12)
  })

  it('refuses what has no quantile', () => {
    expect(() => studentTQuantile(0.4, 3)).toThrow(/no t quantile/)
    expect(() => studentTQuantile(0.975, 0)).toThrow(/no t quantile/)
  })
})

describe('the interval of a ratio (Welch on the logarithms)', () => {
  it('is computed by hand: a constant baseline and a variant at 40 % ± 1 % (two values, t = 12.706)', () => {
    const [low, high] = ratioInterval([100, 100], [40 * Math.exp(0.01), 40 * Math.exp(-0.01)], 'higher')!
    // mean log ratio ln 0.4, standard error 0.01, one degree of freedom
    expect(low).toBeCloseTo(40 * Math.exp(-12.7062 * 0.01), 2)
    expect(high).toBeCloseTo(40 * Math.exp(12.7062 * 0.01), 2)
  })

  it('turns around where lower is better (baseline / variant)', () => {
    const up = ratioInterval([1, 1.1, 0.9], [2, 2.2, 1.8], 'higher')!
    const down = ratioInterval([1, 1.1, 0.9], [2, 2.2, 1.8], 'lower')!
    expect(down[0]).toBeCloseTo(10_000 / up[1], 9)
    expect(down[1]).toBeCloseTo(10_000 / up[0], 9)
  })

  it('is the single ratio when neither side varies', () => {
    expect(ratioInterval([5, 5, 5], [4, 4], 'higher')).toEqual([80, 80])
  })

  it('narrows with more repetitions at the same spread', () => {
    const spread = (n: number, level: number) => Array.from({ length: n }, (_, i) => level * (1 + (i % 2 === 0 ? 0.02 : -0.02)))
    const width = (n: number) => {
      const [low, high] = ratioInterval(spread(n, 100), spread(n, 40), 'higher')!
      return high - low
    }
    expect(width(3)).toBeGreaterThan(width(6))
    expect(width(6)).toBeGreaterThan(width(12))
  })

  it('has none with one value on a side, or a value of zero', () => {
    expect(ratioInterval([100], [90, 91], 'higher')).toBeUndefined()
    expect(ratioInterval([0, 10], [9, 10], 'higher')).toBeUndefined()
  })
})

describe('the interval of a difference (Welch)', () => {
  it('is computed by hand: 2 and 4 against 0 and 0 (df 1, t = 12.706)', () => {
    // difference of means 3, standard error sqrt(2 / 2) = 1
    const [low, high] = differenceInterval([0, 0], [2, 4])!
    expect(low).toBeCloseTo(3 - 12.7062, 3)
    expect(high).toBeCloseTo(3 + 12.7062, 3)
  })

  it('is [0, 0] for 0 against 0', () => {
    expect(differenceInterval([0, 0, 0], [0, 0])).toEqual([0, 0])
  })
})

describe('the interval of repetitions that ran side by side (pairs of an interleaved schedule)', () => {
  it('is computed by hand: two pairs at 40 % ± 1 % (one degree of freedom, t = 12.706)', () => {
    const [low, high] = pairedRatioInterval([[100, 40 * Math.exp(0.01)], [100, 40 * Math.exp(-0.01)]], 'higher')!
    // mean log ratio ln 0.4, standard deviation 0.01414, standard error 0.01
    expect(low).toBeCloseTo(40 * Math.exp(-12.7062 * 0.01), 2)
    expect(high).toBeCloseTo(40 * Math.exp(12.7062 * 0.01), 2)
  })

  it('cancels drift that hit both sides of each pair, where the unpaired interval cannot', () => {
    // the machine slowed down and sped up through the run; the variant was always 40 % of the baseline beside it
    const baseline = [100, 200, 300]
    const variant = [40, 80, 120]
    const [pLow, pHigh] = pairedRatioInterval(baseline.map((b, i) => [b, variant[i]!]), 'higher')!
    expect(pLow).toBeCloseTo(40, 9)
    expect(pHigh).toBeCloseTo(40, 9)
    const [low, high] = ratioInterval(baseline, variant, 'higher')!
    expect(high - low).toBeGreaterThan(40)
  })

  it('turns around where lower is better, holds the figure shown, and needs two pairs', () => {
    const pairs: [number, number][] = [[1, 2], [1.1, 2.3], [0.9, 1.7]]
    const down = pairedRatioInterval(pairs, 'lower')!
    expect(down[0]).toBeLessThan(50)
    expect(down[1]).toBeGreaterThan(45)
    const factor = Math.sqrt(down[1] / down[0])
    // a figure inside the t interval: the figure ± the half-width reaches past it on one side only
    const shown = pairedRatioInterval(pairs, 'lower', 95, 50)!
    expect(shown[0]).toBeCloseTo(Math.min(down[0], 50 / factor), 9)
    expect(shown[1]).toBeCloseTo(Math.max(down[1], 50 * factor), 9)
    expect(shown[0]).toBeLessThanOrEqual(down[0])
    expect(shown[1]).toBeGreaterThanOrEqual(down[1])
    expect(pairedRatioInterval([[1, 2]], 'higher')).toBeUndefined()
  })

  it('widens rather than moves when the figure shown sits off the means (a loaded machine against itself)', () => {
    // the median pair is slow on the variant side; the means say "the same": 100 % stays inside
    const pairs: [number, number][] = [[100, 72], [100, 110], [100, 112], [100, 104]]
    const natural = pairedRatioInterval(pairs, 'higher')!
    expect(natural[0]).toBeLessThan(100)
    expect(natural[1]).toBeGreaterThan(100)
    const shown = pairedRatioInterval(pairs, 'higher', 95, 72)!
    expect(shown[0]).toBeLessThan(72)
    expect(shown[1]).toBeCloseTo(natural[1], 9)
  })

  it('of a difference: 3 lost packets more in every pair is exactly +3, and the figure shown ± the half-width is inside', () => {
    expect(pairedDifferenceInterval([[0, 3], [2, 5], [1, 4]])).toEqual([3, 3])
    // differences 2 and 4: mean 3, standard error 1, t = 12.706; the figure 3 is the mean
    const [low, high] = pairedDifferenceInterval([[0, 2], [0, 4]], 95, 3)!
    expect(low).toBeCloseTo(3 - 12.7062, 3)
    expect(high).toBeCloseTo(3 + 12.7062, 3)
    // a figure of 4 (the larger difference) reaches one point further up, and no lower
    const [low4, high4] = pairedDifferenceInterval([[0, 2], [0, 4]], 95, 4)!
    expect(low4).toBeCloseTo(3 - 12.7062, 3)
    expect(high4).toBeCloseTo(4 + 12.7062, 3)
  })
})
