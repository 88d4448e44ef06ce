import { describe, expect, it } from 'vitest'
import { precisionAdvice } from '../../../../src/shared/compare/precision'
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
