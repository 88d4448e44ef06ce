import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compare, median, percentile, relativePct } from '../../../../src/shared/compare'
import type { Aggregate } from '../../../../src/shared/model/tool-ids'
import { pairInput } from './build-input'

const aggregate = fc.constantFrom<Aggregate>('median', 'mean', 'best')
const better = fc.constantFrom('higher' as const, 'lower' as const)
/** A figure as tools report them: from a few units to many billions, with decimals. */
const figure = fc.double({ min: 1, max: 1e11, noNaN: true, noDefaultInfinity: true })

/** Repetitions of a typical measurement: a level and a spread of up to 30 % around it. */
const typicalSeries = fc
  .tuple(figure, fc.array(fc.double({ min: -0.3, max: 0.3, noNaN: true }), { minLength: 2, maxLength: 10 }))
  .map(([level, spreads]) => spreads.map((s) => level * (1 + s)))

function allNumbersFinite(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value)
  if (Array.isArray(value)) return value.every(allNumbersFinite)
  if (value && typeof value === 'object') return Object.values(value).every(allNumbersFinite)
  return true
}

const RUNS = { numRuns: 60 }

describe('compare: properties', () => {
  it('gives 100 % with the interval [100, 100] for the same steady value on both sides', () => {
    fc.assert(
      fc.property(figure, fc.integer({ min: 2, max: 8 }), aggregate, better, (value, n, agg, dir) => {
        const series = Array.from({ length: n }, () => value)
        const cell = compare(pairInput(series, series, { aggregate: agg, better: dir })).rows[0]?.cells[0]
        expect(cell?.relativePct).toBe(100)
        expect(cell?.overheadPct).toBe(0)
        expect(cell?.ci95).toEqual([100, 100])
        expect(cell?.verdict).toBe('same')
      }),
      RUNS
    )
  })

  it('never finds a difference between a varying series and itself: same or inconclusive, and 100 % inside the interval', () => {
    fc.assert(
      fc.property(typicalSeries, aggregate, better, (series, agg, dir) => {
        const cell = compare(pairInput(series, series, { aggregate: agg, better: dir })).rows[0]?.cells[0]
        expect(cell?.relativePct).toBe(100)
        expect(['same', 'inconclusive']).toContain(cell?.verdict)
        const [low, high] = cell?.ci95 ?? [Number.NaN, Number.NaN]
        expect(low).toBeLessThanOrEqual(100 + 1e-9)
        expect(high).toBeGreaterThanOrEqual(100 - 1e-9)
      }),
      RUNS
    )
  })

  it('decides the verdict from the interval alone, for typical data', () => {
    fc.assert(
      fc.property(typicalSeries, typicalSeries, better, (baseline, variant, dir) => {
        const comparison = compare(pairInput(baseline, variant, { aggregate: 'mean', better: dir }))
        const cell = comparison.rows[0]?.cells[0]
        const [low, high] = cell?.ci95 ?? [Number.NaN, Number.NaN]
        expect(low).toBeLessThanOrEqual(high)
        const margin = comparison.marginPct
        const expected = low >= 100 - margin && high <= 100 + margin ? 'same' : high < 100 ? 'slower' : low > 100 ? 'faster' : 'inconclusive'
        expect(cell?.verdict).toBe(expected)
      }),
      RUNS
    )
  })

  it('puts the figure shown inside its own interval, whatever the aggregate, so a verdict never contradicts it', () => {
    fc.assert(
      fc.property(typicalSeries, typicalSeries, aggregate, better, (baseline, variant, agg, dir) => {
        const cell = compare(pairInput(baseline, variant, { aggregate: agg, better: dir })).rows[0]?.cells[0]
        const point = cell?.relativePct ?? Number.NaN
        const [low, high] = cell?.ci95 ?? [Number.NaN, Number.NaN]
        expect(low).toBeLessThanOrEqual(point * (1 + 1e-9))
        expect(high).toBeGreaterThanOrEqual(point * (1 - 1e-9))
        if (cell?.verdict === 'slower') expect(point).toBeLessThan(100)
        if (cell?.verdict === 'faster') expect(point).toBeGreaterThan(100)
      }),
      RUNS
    )
  })

  it('is deterministic: the same input gives the same comparison, interval included', () => {
    fc.assert(
      fc.property(typicalSeries, typicalSeries, aggregate, better, (baseline, variant, agg, dir) => {
        const first = compare(pairInput(baseline, variant, { aggregate: agg, better: dir }))
        const second = compare(pairInput([...baseline], [...variant], { aggregate: agg, better: dir }))
        expect(second).toEqual(first)
      }),
      { numRuns: 30 }
    )
  })

  it('never gives NaN or Infinity, with zeros, tiny and huge values', () => {
    const anyValue = fc.oneof(
      fc.constant(0),
      fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: 0, max: 1e-300, noNaN: true }),
      figure
    )
    const series = fc.array(anyValue, { minLength: 0, maxLength: 5 })
    fc.assert(
      fc.property(series, series, aggregate, better, (baseline, variant, agg, dir) => {
        const comparison = compare(pairInput(baseline, variant, { aggregate: agg, better: dir }))
        expect(allNumbersFinite(comparison)).toBe(true)
        for (const cell of comparison.rows.flatMap((r) => r.cells)) {
          if (cell.relativePct !== undefined) expect(cell.relativePct).toBeGreaterThanOrEqual(0)
          for (const flag of cell.flags) expect(flag.message).not.toMatch(/NaN|Infinity|undefined/)
        }
      }),
      { numRuns: 150 }
    )
  })
})

describe('helpers: properties', () => {
  it('relativePct of a value against itself is 100, and the two directions are inverses', () => {
    fc.assert(
      fc.property(figure, figure, (a, b) => {
        expect(relativePct(a, a, 'higher')).toBe(100)
        expect(relativePct(a, a, 'lower')).toBe(100)
        const up = relativePct(a, b, 'higher') ?? Number.NaN
        const down = relativePct(a, b, 'lower') ?? Number.NaN
        expect((up * down) / 10000).toBeCloseTo(1, 9)
      })
    )
  })

  it('the median is the 50th percentile and lies between the smallest and largest value', () => {
    fc.assert(
      fc.property(fc.array(figure, { minLength: 1, maxLength: 20 }), (values) => {
        const m = median(values) ?? Number.NaN
        expect(m).toBeCloseTo(percentile(values, 50) ?? Number.NaN, 6)
        expect(m).toBeGreaterThanOrEqual(Math.min(...values))
        expect(m).toBeLessThanOrEqual(Math.max(...values))
      })
    )
  })
})
