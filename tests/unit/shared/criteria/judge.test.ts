import { describe, expect, it } from 'vitest'
import { compare } from '../../../../src/shared/compare'
import { judgeAcceptance, judgeCriterion, criterionName } from '../../../../src/shared/criteria'
import { AcceptanceSchema, CriterionSchema, type AcceptanceInput, type CriterionInput } from '../../../../src/shared/model/criteria'
import { ComparisonPlanSchema } from '../../../../src/shared/model/plan'
import type { Comparison } from '../../../../src/shared/model/comparison'
import { factsOf, repetitions } from '../compare/build-input'

/**
 * A run of three tests on a host and two guests, with figures as a run gives them (three
 * interleaved repetitions, compared as samples since no start times pair them):
 *
 * - disk, fio 4 KiB read IOPS (storage): host 1000 ± 10, guest-a 87 % of it, guest-b 95 %;
 * - ping, round-trip time (network, lower is better): host 0.100 ms, guest-a 0.108 ms (relative %
 *   92.6), guest-b 0.150 ms (66.7 %);
 * - cpu, sysbench events/s (cpu): guest-a 97-103 % of the host, too noisy to tell; guest-b 100 %.
 */
function comparison(): Comparison {
  return compare({
    baseline: 'host',
    variants: ['guest-a', 'guest-b'],
    tests: [
      { id: 'disk', title: 'fio 4k read', aggregate: 'median' },
      { id: 'ping', title: 'ping', aggregate: 'median' },
      { id: 'cpu', title: 'sysbench cpu', aggregate: 'median' }
    ],
    measurements: [
      ...repetitions('host', 'disk', 'fio.read.iops', [1000, 1010, 990], 'op/s', 'higher'),
      ...repetitions('guest-a', 'disk', 'fio.read.iops', [870, 872, 868], 'op/s', 'higher'),
      ...repetitions('guest-b', 'disk', 'fio.read.iops', [950, 960, 940], 'op/s', 'higher'),
      ...repetitions('host', 'ping', 'ping.rtt.avg', [1.0e-4, 1.01e-4, 0.99e-4], 's', 'lower'),
      ...repetitions('guest-a', 'ping', 'ping.rtt.avg', [1.08e-4, 1.09e-4, 1.07e-4], 's', 'lower'),
      ...repetitions('guest-b', 'ping', 'ping.rtt.avg', [1.5e-4, 1.51e-4, 1.49e-4], 's', 'lower'),
      ...repetitions('host', 'cpu', 'sysbench.cpu.events', [500, 520, 480], 'op/s', 'higher'),
      ...repetitions('guest-a', 'cpu', 'sysbench.cpu.events', [470, 540, 500], 'op/s', 'higher'),
      ...repetitions('guest-b', 'cpu', 'sysbench.cpu.events', [500, 500, 500], 'op/s', 'higher')
    ],
    factsOf: factsOf({ disk: ['fio.read.iops'], ping: ['ping.rtt.avg'], cpu: ['sysbench.cpu.events'] })
  })
}

const criterion = (input: CriterionInput) => CriterionSchema.parse(input)
const acceptance = (input: AcceptanceInput) => AcceptanceSchema.parse(input)

describe('the figures the tests stand on', () => {
  it('are what compare() says', () => {
    const c = comparison()
    const cell = (test: string, variant: string) => c.rows.find((r) => r.testId === test)!.cells.find((x) => x.variant === variant)!
    expect(cell('disk', 'guest-a').relativePct).toBeCloseTo(87, 6)
    expect(cell('disk', 'guest-a').ci95![1]).toBeLessThan(90)
    expect(cell('disk', 'guest-b').relativePct).toBeCloseTo(95, 6)
    expect(cell('disk', 'guest-b').ci95![0]).toBeGreaterThan(90)
    expect(cell('ping', 'guest-a').relativePct).toBeCloseTo(92.6, 1) // 0.100 / 0.108
    expect(cell('ping', 'guest-b').relativePct).toBeCloseTo(66.7, 1)
    expect(cell('cpu', 'guest-a').verdict).toBe('inconclusive')
    expect(cell('cpu', 'guest-a').ci95![0]).toBeLessThan(90) // 500 vs 500 median, wide: can't decide 90 %
    expect(cell('cpu', 'guest-b').verdict).toBe('inconclusive')
  })
})

describe('a bound on relative %', () => {
  it('passes a figure whose whole interval is at or above "at least", fails one wholly below', () => {
    const r = judgeCriterion(criterion({ scope: { category: 'storage' }, atLeastPct: 90 }), 0, comparison())
    expect(r.status).toBe('failed')
    expect(r.cells.map((c) => [c.variant, c.judgement, c.counts])).toEqual([
      ['guest-a', 'missed', 'fail'],
      ['guest-b', 'met', 'pass']
    ])
    expect(r.summary).toBe('1 of 2 figures failed')
    expect(r.cells[0]!.text).toBe('guest-a, fio 4k read fio.read.iops: 87 % [95 % interval 85 % to 89.1 %], slower: below 90 %')
  })

  it('reads latency as relative % too: baseline / variant, so "at least 90 %" is a round trip at most 1.11 times the host\'s', () => {
    const r = judgeCriterion(criterion({ scope: { category: 'network', metric: 'ping.rtt.avg' }, atLeastPct: 90 }), 0, comparison())
    expect(r.cells.map((c) => [c.variant, c.judgement])).toEqual([
      ['guest-a', 'met'], // 0.108 ms against 0.100 ms: 92.6 %
      ['guest-b', 'missed'] // 0.150 ms: 66.7 %
    ])
  })

  it('"at most" catches a guest suspiciously faster than its host', () => {
    const r = judgeCriterion(criterion({ scope: { test: 'disk' }, atMostPct: 92 }), 0, comparison())
    expect(r.cells.map((c) => [c.variant, c.judgement])).toEqual([
      ['guest-a', 'met'],
      ['guest-b', 'missed']
    ])
    expect(r.cells[1]!.text).toMatch(/above 92 %/)
  })

  it('counts an interval that reaches both sides of the bound as a failure, unless the criterion or the acceptance says pass', () => {
    const c = comparison()
    const strict = judgeCriterion(criterion({ scope: { test: 'cpu', variant: 'guest-a' }, atLeastPct: 90 }), 0, c)
    expect(strict.status).toBe('failed')
    expect(strict.cells[0]).toMatchObject({ judgement: 'undecided', counts: 'fail' })
    expect(strict.cells[0]!.text).toMatch(/the interval reaches below 90 % \(undecided, counted as failed\)$/)
    expect(strict.summary).toBe('1 of 1 figure failed (1 undecided, counted as failed)')
    const lenient = judgeCriterion(criterion({ scope: { test: 'cpu', variant: 'guest-a' }, atLeastPct: 90, inconclusive: 'pass' }), 0, c)
    expect(lenient.status).toBe('passed')
    const byPlan = judgeAcceptance(acceptance({ inconclusive: 'pass', criteria: [{ scope: { test: 'cpu', variant: 'guest-a' }, atLeastPct: 90 }] }), c)
    expect(byPlan.passed).toBe(true)
    // the criterion's own word wins over the acceptance's
    const overridden = judgeAcceptance(acceptance({ inconclusive: 'pass', criteria: [{ scope: { test: 'cpu', variant: 'guest-a' }, atLeastPct: 90, inconclusive: 'fail' }] }), c)
    expect(overridden.passed).toBe(false)
  })

  it('decides a bound by the interval, not the verdict: 100 % ± 3 "inconclusive" can still be "at least 80 %"', () => {
    const r = judgeCriterion(criterion({ scope: { test: 'cpu', variant: 'guest-a' }, atLeastPct: 80 }), 0, comparison())
    expect(r.cells[0]).toMatchObject({ verdict: 'inconclusive', judgement: 'met' })
  })

  it('takes identical values on both sides as the exact ratio', () => {
    const c = compare({
      baseline: 'host',
      variants: ['guest'],
      tests: [{ id: 'cpu', title: 'cpu', aggregate: 'median' }],
      measurements: [...repetitions('host', 'cpu', 'sysbench.cpu.events', [500, 500], 'op/s', 'higher'), ...repetitions('guest', 'cpu', 'sysbench.cpu.events', [500, 500], 'op/s', 'higher')],
      factsOf: factsOf({ cpu: ['sysbench.cpu.events'] })
    })
    expect(judgeCriterion(criterion({ atLeastPct: 100, atMostPct: 100 }), 0, c).status).toBe('passed')
  })

  it('has no interval with one value a side: undecided', () => {
    const c = compare({
      baseline: 'host',
      variants: ['guest'],
      tests: [{ id: 'cpu', title: 'cpu', aggregate: 'median' }],
      measurements: [...repetitions('host', 'cpu', 'sysbench.cpu.events', [500], 'op/s', 'higher'), ...repetitions('guest', 'cpu', 'sysbench.cpu.events', [490], 'op/s', 'higher')],
      factsOf: factsOf({ cpu: ['sysbench.cpu.events'] })
    })
    const r = judgeCriterion(criterion({ atLeastPct: 90 }), 0, c)
    expect(r.cells[0]).toMatchObject({ relativePct: 98, judgement: 'undecided', counts: 'fail' })
    expect(r.cells[0]!.text).toMatch(/no interval/)
  })

  it('leaves out figures compared as a difference, and is an error when nothing is left', () => {
    const c = compare({
      baseline: 'host',
      variants: ['guest'],
      tests: [{ id: 'net', title: 'iperf3', aggregate: 'median' }],
      measurements: [...repetitions('host', 'net', 'iperf3.retransmits', [0, 1, 0], 'count', 'lower'), ...repetitions('guest', 'net', 'iperf3.retransmits', [3, 5, 4], 'count', 'lower')],
      factsOf: factsOf({ net: ['iperf3.retransmits'] })
    })
    const bound = judgeCriterion(criterion({ atLeastPct: 90 }), 0, c)
    expect(bound.status).toBe('error')
    expect(bound.summary).toMatch(/compared as a difference/)
    // noSlower judges it by its verdict
    const slower = judgeCriterion(criterion({ noSlower: true }), 0, c)
    expect(slower.status).toBe('failed')
    expect(slower.cells[0]!.text).toMatch(/^guest, iperf3 iperf3\.retransmits: \+4 .*, slower: the 95 % interval/)
  })
})

describe('noInconclusive and noSlower', () => {
  it('fail on any figure in scope with that verdict', () => {
    const c = comparison()
    const none = judgeCriterion(criterion({ noInconclusive: true }), 0, c)
    expect(none.status).toBe('failed')
    expect(none.cells.filter((x) => x.counts === 'fail').map((x) => `${x.testId} ${x.variant}`)).toEqual(['cpu guest-a', 'cpu guest-b'])
    expect(judgeCriterion(criterion({ scope: { test: 'disk' }, noInconclusive: true }), 0, c).status).toBe('passed')
    const slower = judgeCriterion(criterion({ scope: { variant: 'GUEST-A' }, noSlower: true }), 0, c)
    expect(slower.cells.filter((x) => x.counts === 'fail').map((x) => x.testId)).toEqual(['disk', 'ping'])
  })
})

describe('the acceptance', () => {
  it('passes only when every criterion passes, and names the ones that did not', () => {
    const result = judgeAcceptance(
      acceptance({
        criteria: [
          { scope: { category: 'storage', variant: 'guest-b' }, atLeastPct: 90 },
          { name: 'network latency within 10 %', scope: { category: 'network' }, atLeastPct: 90 },
          { scope: { test: 'nosuchtest' }, atLeastPct: 90 }
        ]
      }),
      comparison()
    )
    expect(result.passed).toBe(false)
    expect(result.counts).toEqual({ passed: 1, failed: 1, error: 1 })
    expect(result.results.map((r) => r.status)).toEqual(['passed', 'failed', 'error'])
    expect(result.results[2]!.summary).toMatch(/no compared figure matches its scope/)
    expect(result.summary).toBe('1 of 3 criteria passed; not passed: network latency within 10 %; primary figures (test nosuchtest) at least 90 % of the baseline')
  })

  it('passes when every criterion does', () => {
    const result = judgeAcceptance(acceptance({ criteria: [{ scope: { variant: 'guest-b', test: 'disk' }, atLeastPct: 90 }, { scope: { test: 'disk' }, noInconclusive: true }] }), comparison())
    expect(result).toMatchObject({ passed: true, counts: { passed: 2, failed: 0, error: 0 } })
  })
})

describe('names and the format', () => {
  it('writes a name from the fields when none is given', () => {
    expect(criterionName(criterion({ scope: { category: 'storage' }, atLeastPct: 90 }))).toBe('storage primary figures at least 90 % of the baseline')
    expect(criterionName(criterion({ scope: { category: 'network', allMetrics: true }, atLeastPct: 90, atMostPct: 110 }))).toBe('network figures at least 90 % and at most 110 % of the baseline')
    expect(criterionName(criterion({ noInconclusive: true }))).toBe('primary figures: none inconclusive')
    expect(criterionName(criterion({ name: 'mine', noSlower: true }))).toBe('mine')
  })

  it('refuses a criterion that is none or two of the kinds, a bound that cannot be met, and an unknown field', () => {
    expect(CriterionSchema.safeParse({ scope: { category: 'storage' } }).success).toBe(false)
    expect(CriterionSchema.safeParse({ atLeastPct: 90, noInconclusive: true }).success).toBe(false)
    const crossed = CriterionSchema.safeParse({ atLeastPct: 110, atMostPct: 90 })
    expect(crossed.success).toBe(false)
    expect(crossed.error!.issues[0]!.message).toMatch(/below atLeastPct/)
    expect(CriterionSchema.safeParse({ noInconclusive: true, inconclusive: 'pass' }).success).toBe(false)
    expect(CriterionSchema.safeParse({ atLeastPct: 90, scope: { categroy: 'storage' } }).success).toBe(false)
    expect(AcceptanceSchema.safeParse({ criteria: [] }).success).toBe(false)
  })

  it('is an optional field of the plan, kept when the plan is read', () => {
    const plan = ComparisonPlanSchema.parse({
      name: 'release gate',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      tests: [{ pack: 'block-dd', form: 'quick' }],
      acceptance: { criteria: [{ scope: { category: 'storage' }, atLeastPct: 90 }] }
    })
    expect(plan.acceptance).toEqual({ inconclusive: 'fail', criteria: [{ scope: { category: 'storage', allMetrics: false }, atLeastPct: 90 }] })
    expect(ComparisonPlanSchema.parse({ ...plan, acceptance: undefined }).acceptance).toBeUndefined()
  })
})
