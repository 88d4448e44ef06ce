import { describe, expect, it } from 'vitest'
import { draftOfPlan, emptyDraft, planOfDraft } from '../../../src/renderer/src/models/wizard-draft'
import type { ComparisonPlanInput } from '../../../src/shared/model/plan'

describe('the wizard draft keeps a preset\'s acceptance criteria', () => {
  it('from the plan into the draft and back, unchanged', () => {
    const plan: ComparisonPlanInput = {
      name: 'release gate',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      tests: [{ pack: 'block-dd', form: 'quick' }],
      acceptance: { inconclusive: 'pass', criteria: [{ name: 'storage within 10 %', scope: { category: 'storage' }, atLeastPct: 90 }, { noSlower: true }] }
    }
    const draft = draftOfPlan(plan)
    expect(draft.acceptance).toEqual(plan.acceptance)
    expect(planOfDraft(draft).acceptance).toEqual(plan.acceptance)
  })

  it('has none in a new draft, and a plan without criteria gets none', () => {
    expect(emptyDraft().acceptance).toBeUndefined()
    expect('acceptance' in planOfDraft({ ...emptyDraft(), baseline: 'host' })).toBe(false)
  })
})

describe("the wizard draft keeps a preset's idle check length", () => {
  it('from the plan into the draft and back, 0 (no idle check) included', () => {
    for (const idleSeconds of [0, 1, 10]) {
      const plan: ComparisonPlanInput = { name: 'quiet', baseline: { target: 'host' }, variants: [{ target: 'guest' }], tests: [{ pack: 'everyday', form: 'quick' }], idleSeconds }
      expect(planOfDraft(draftOfPlan(plan)).idleSeconds).toBe(idleSeconds)
    }
    expect('idleSeconds' in planOfDraft({ ...emptyDraft(), baseline: 'host' })).toBe(false)
  })
})
