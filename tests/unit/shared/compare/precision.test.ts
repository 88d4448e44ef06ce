import { describe, expect, it } from 'vitest'
import { compare } from '../../../../src/shared/compare/compare'
import { precisionAdvice, testPrecision } from '../../../../src/shared/compare/precision'
import type { CompareInput } from '../../../../src/shared/model/comparison'
import { factsOf, repetitions } from './build-input'
import { decideVerdict } from '../../../../src/shared/compare/verdict'

/** The verdict of an interval of half-width `half` centred at `centre` % under `margin`. */
function verdictOf(centre: number, half: number, margin: number): string {
  return decideVerdict({ comparison: 'ratio', better: 'higher', nBaseline: 5, nVariant: 5, identical: false, interval: [centre - half, centre + half], marginPct: margin })
    .verdict
}

describe('precisionAdvice: whether a precision goal can tell "the same" at the margin', () => {
  it('says nothing while the goal is at most half the margin', () => {
    expect(precisionAdvice(1.5, 3)).toBeUndefined()
    expect(precisionAdvice(1, 3)).toBeUndefined()
    expect(precisionAdvice(2, 5)).toBeUndefined()
  })

  it('explains the room left for the centre above half the margin, and what to ask for', () => {
    expect(precisionAdvice(2, 3)).toBe(
      'Repeating until ± 2 points with a margin of ± 3 points: a result reads "same" only when its interval\'s centre lies within 1 point of 100 %, ' +
        'so equal machines will often read "can\'t tell". Ask for ± 1.5 points or less, or widen the margin.'
    )
    expect(precisionAdvice(3, 3)).toContain('no result can read "same": the interval alone is as wide as the margin')
  })

  it('matches the verdict rule: at ± 2 and a margin of 3 a twin 1.2 points off reads "can\'t tell"; at a margin of 5, "same"', () => {
    // the CI case: a twin at 101.2 % [99.2-103.2] (the precision rule stopped at ± 2)
    expect(verdictOf(101.2, 2, 3)).toBe('inconclusive')
    expect(verdictOf(101.2, 2, 5)).toBe('same')
    // within the room the advice names, "same"
    expect(verdictOf(100.9, 2, 3)).toBe('same')
    expect(verdictOf(101.4, 1.5, 3)).toBe('same')
  })
})

describe('testPrecision: a UDP test with jitter and loss among its primary figures', () => {
  const MARKS = ['iperf3.received.bandwidth', 'iperf3.jitter', 'iperf3.loss']
  /** One UDP test, host and guest, 3 repetitions of bandwidth, jitter and loss each. */
  function udpInput(jitter: { host: number[]; guest: number[] }, loss: { host: number[]; guest: number[] }): CompareInput {
    const side = (s: 'host' | 'guest', bandwidth: number[]): CompareInput['measurements'] => [
      ...repetitions(s, 'udp', 'iperf3.received.bandwidth', bandwidth, 'bit/s', 'higher'),
      ...repetitions(s, 'udp', 'iperf3.jitter', jitter[s], 's', 'lower'),
      ...repetitions(s, 'udp', 'iperf3.loss', loss[s], '%', 'lower')
    ]
    return {
      baseline: 'host',
      variants: ['guest'],
      tests: [{ id: 'udp', title: 'UDP', aggregate: 'median' }],
      measurements: [...side('host', [1.0e9, 1.001e9, 0.999e9]), ...side('guest', [0.99e9, 0.991e9, 0.989e9])],
      factsOf: factsOf({ udp: MARKS })
    }
  }

  it('settles on a loss of 0 % vs 0 % and a jitter of 0 s vs 0 s: both "same", nothing left without an interval', () => {
    const comparison = compare(udpInput({ host: [0, 0, 0], guest: [0, 0, 0] }, { host: [0, 0, 0], guest: [0, 0, 0] }))
    const rows = comparison.rows.filter((r) => r.primary)
    expect(rows.map((r) => r.metric).sort()).toEqual([...MARKS].sort())
    for (const row of rows.filter((r) => r.metric !== 'iperf3.received.bandwidth')) expect(row.cells[0]!.verdict, row.metric).toBe('same')
    const status = testPrecision(comparison, 'udp', 2)
    expect(status).toMatchObject({ precise: true, withoutInterval: 0, nothingToNarrow: false })
    // the bandwidth's interval is the only one: 99 % of the host's, within ± 2 points
    expect(status.widestHalfWidthPct).toBeGreaterThan(0)
    expect(status.widestHalfWidthPct).toBeLessThan(2)
  })

  it('keeps repeating while a jitter varies: its interval is a ratio like the bandwidth\'s', () => {
    const comparison = compare(udpInput({ host: [10e-6, 30e-6, 20e-6], guest: [15e-6, 45e-6, 25e-6] }, { host: [0, 0, 0], guest: [0, 0.1, 0] }))
    const status = testPrecision(comparison, 'udp', 2)
    expect(status.precise).toBe(false)
    expect(status.widestHalfWidthPct).toBeGreaterThan(2)
  })

  it('still asks for another repetition when a jitter of 0 on both sides has only one value a side', () => {
    const input = udpInput({ host: [0, 0, 0], guest: [0, 0, 0] }, { host: [0, 0, 0], guest: [0, 0, 0] })
    input.measurements = input.measurements.filter((m) => m.repetition === 1)
    expect(testPrecision(compare(input), 'udp', 2)).toMatchObject({ precise: false, withoutInterval: 2 })
  })
})
