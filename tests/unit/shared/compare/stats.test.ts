import { describe, expect, it } from 'vitest'
import { aggregateOf, mean, median, percentile, relativePct, seriesStats, stddev } from '../../../../src/shared/compare'

describe('summary statistics', () => {
  it('gives the median of odd and even counts, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([7])).toBe(7)
  })

  it('gives the mean and the sample standard deviation (n - 1)', () => {
    expect(mean([2, 4, 4, 4, 5, 5, 7, 9])).toBe(5)
    // squares of deviations sum to 32; 32 / 7
    expect(stddev([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 12)
    expect(stddev([1, 3])).toBeCloseTo(Math.SQRT2, 12)
  })

  it('interpolates percentiles between ranks, 0 being the minimum and 100 the maximum', () => {
    const values = [10, 20, 30, 40, 50]
    expect(percentile(values, 0)).toBe(10)
    expect(percentile(values, 100)).toBe(50)
    expect(percentile(values, 50)).toBe(30)
    expect(percentile(values, 25)).toBe(20)
    expect(percentile(values, 10)).toBe(14)
    expect(percentile([1, 2], 97.5)).toBeCloseTo(1.975, 12)
  })

  it('answers undefined where a figure does not exist, never NaN', () => {
    expect(median([])).toBeUndefined()
    expect(mean([])).toBeUndefined()
    expect(stddev([5])).toBeUndefined()
    expect(stddev([])).toBeUndefined()
    expect(percentile([], 50)).toBeUndefined()
    expect(percentile([1], Number.NaN)).toBeUndefined()
  })

  it('does not overflow on values near the largest double', () => {
    const big = Number.MAX_VALUE
    expect(mean([big, big])).toBe(big)
    expect(median([big, big / 2])).toBe(big * 0.75)
    expect(stddev([big, big])).toBe(0)
    expect((stddev([big, big / 2]) ?? 0) / (big / 2)).toBeCloseTo(Math.SQRT1_2, 12)
    expect((percentile([big / 2, big], 90) ?? 0) / big).toBeCloseTo(0.95, 12)
    expect(seriesStats([big, big], 'mean', 'higher')).toMatchObject({ value: big, n: 2, stddev: 0, cvPct: 0 })
  })

  it('takes the best repetition in the direction that is better', () => {
    expect(aggregateOf([8.3, 8.35, 8.2], 'best', 'higher')).toBe(8.35)
    expect(aggregateOf([0.4, 0.2, 0.3], 'best', 'lower')).toBe(0.2)
    expect(aggregateOf([1, 2, 9], 'mean', 'higher')).toBe(4)
    expect(aggregateOf([1, 2, 9], 'median', 'lower')).toBe(2)
  })

  it('summarizes a series with its coefficient of variation', () => {
    const stats = seriesStats([100, 110, 90], 'median', 'higher')
    expect(stats).toMatchObject({ values: [100, 110, 90], value: 100, aggregate: 'median', n: 3, median: 100, mean: 100, min: 90, max: 110 })
    expect(stats?.stddev).toBeCloseTo(10, 12)
    expect(stats?.cvPct).toBeCloseTo(10, 12)
  })

  it('leaves the spread out for one value and the cv out for a zero mean', () => {
    const one = seriesStats([42], 'median', 'higher')
    expect(one).toMatchObject({ n: 1, value: 42 })
    expect(one).not.toHaveProperty('stddev')
    expect(one).not.toHaveProperty('cvPct')
    const zeros = seriesStats([0, 0, 0], 'mean', 'lower')
    expect(zeros).toMatchObject({ value: 0, stddev: 0 })
    expect(zeros).not.toHaveProperty('cvPct')
    expect(seriesStats([], 'median', 'higher')).toBeUndefined()
  })
})

describe('relativePct', () => {
  it('divides the variant by the baseline where higher is better', () => {
    expect(relativePct(245, 195, 'higher')).toBeCloseTo(125.641, 3)
  })

  it('divides the baseline by the variant where lower is better', () => {
    // a guest latency of 2 ms against the host's 1 ms is half as good
    expect(relativePct(0.002, 0.001, 'lower')).toBeCloseTo(50, 12)
  })

  it('keeps whole-number ratios exact and large values finite', () => {
    expect(relativePct(110, 100, 'higher')).toBe(110)
    expect(relativePct(7, 7, 'lower')).toBe(100)
    expect(relativePct(1e307, 1e10, 'higher')).toBeCloseTo(1e299, -290)
  })

  it('gives no ratio instead of Infinity or NaN', () => {
    expect(relativePct(5, 0, 'higher')).toBeUndefined()
    expect(relativePct(0, 0, 'higher')).toBeUndefined()
    expect(relativePct(0, 5, 'lower')).toBeUndefined()
    expect(relativePct(Number.NaN, 5, 'higher')).toBeUndefined()
    expect(relativePct(1e307, 1e-10, 'higher')).toBeUndefined()
    expect(relativePct(0, 5, 'higher')).toBe(0)
  })
})
