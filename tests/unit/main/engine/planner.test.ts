import { describe, expect, it } from 'vitest'
import { CHECKS_SECONDS, CLEANUP_SECONDS, CONNECT_SECONDS, estimateRun, expandTests, PER_JOB_SECONDS, planJobs, PlanError } from '../../../../src/main/engine/planner'
import { localAddressesIn } from '../../../../src/main/engine/runner'
import { ComparisonPlanSchema, type ComparisonPlanInput } from '../../../../src/shared/model/plan'

const planOf = (input: Partial<ComparisonPlanInput>) =>
  ComparisonPlanSchema.parse({
    name: 'p',
    baseline: { target: 'phys' },
    variants: [{ target: 'vm-file' }, { target: 'vm-lvm' }],
    repetitions: 2,
    tests: [{ id: 'iperf', tool: 'iperf', params: { seconds: 10, tradeoff: true } }],
    ...input
  })

describe('planJobs: simultaneous clients (study 000: iperf against two machines at once)', () => {
  it('adds one group per repetition with every measured side as a client of the peer, each on a port of its own', () => {
    const plan = planOf({ network: { peer: 'itb4', simultaneous: true } })
    const jobs = planJobs(plan, expandTests(plan)).filter((j) => j.kind === 'simultaneous')
    expect(jobs.map((j) => [j.group, j.side, j.peer, j.params.port])).toEqual([
      ['iperf/r1', 'phys', 'itb4', undefined],
      ['iperf/r1', 'vm-file', 'itb4', 5002],
      ['iperf/r1', 'vm-lvm', 'itb4', 5003],
      ['iperf/r2', 'phys', 'itb4', undefined],
      ['iperf/r2', 'vm-file', 'itb4', 5002],
      ['iperf/r2', 'vm-lvm', 'itb4', 5003]
    ])
    // the ordinary baseline-vs-variant jobs are still there, on the default port
    expect(planJobs(plan, expandTests(plan)).filter((j) => j.kind === 'compare').map((j) => j.params.port)).toEqual(Array(6).fill(undefined))
  })

  it("counts ports from the test's own port (study 000's 12000)", () => {
    const plan = planOf({ network: { peer: 'itb4', simultaneous: true }, repetitions: 1, tests: [{ id: 'iperf', tool: 'iperf3', params: { seconds: 3, port: 12000 } }] })
    const jobs = planJobs(plan, expandTests(plan)).filter((j) => j.kind === 'simultaneous')
    expect(jobs.map((j) => j.params.port)).toEqual([12000, 12001, 12002])
  })

  it('refuses simultaneous clients without a peer of their own, and says what to set', () => {
    const plan = planOf({ network: { simultaneous: true } })
    expect(() => planJobs(plan, expandTests(plan))).toThrow(PlanError)
    expect(() => planJobs(plan, expandTests(plan))).toThrow(/simultaneous clients need a peer .* network\.peer/)
  })

  it('plans nothing simultaneous for tests that are not network tests', () => {
    const plan = planOf({ network: { peer: 'itb4', simultaneous: true }, tests: [{ id: 'dd', tool: 'dd', params: {} }] })
    expect(planJobs(plan, expandTests(plan)).every((j) => j.kind === 'compare')).toBe(true)
  })
})

describe('localAddressesIn', () => {
  it('reads the addresses of `ip -o addr show` and `hostname -I`', () => {
    const text = [
      '1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever',
      '1: lo    inet6 ::1/128 scope host noprefixroute \\       valid_lft forever preferred_lft forever',
      '2: eth0    inet 10.127.100.3/24 brd 10.127.100.255 scope global eth0\\       valid_lft forever',
      '2: eth0    inet6 fe80::5054:ff:fe12:3456/64 scope link \\       valid_lft forever preferred_lft forever',
      '',
      '10.127.100.3 192.168.7.2 '
    ].join('\n')
    expect([...localAddressesIn(text)].sort()).toEqual(['10.127.100.3', '127.0.0.1', '192.168.7.2', '::1', 'fe80::5054:ff:fe12:3456'])
  })

  it('gives nothing for a machine with neither command', () => {
    expect(localAddressesIn('\n').size).toBe(0)
  })
})

describe('estimateRun: how long a run takes', () => {
  const quick = ComparisonPlanSchema.parse({
    name: 'q',
    baseline: { target: 'phys' },
    variants: [{ target: 'vm' }],
    tests: [{ pack: 'everyday', form: 'quick' }]
  })
  const tests = expandTests(quick)
  const jobs = planJobs(quick, tests)
  const tools = jobs.reduce((sum, j) => sum + (j.estimatedSeconds ?? 0), 0)

  it('adds the logins, the checks with the idle gate, the engine’s cost per job and the cleanup to the tools’ own time', () => {
    expect(jobs).toHaveLength(42)
    const estimate = estimateRun(quick, tests, jobs, 1)
    expect(estimate.beforeSeconds).toBe(CONNECT_SECONDS + CHECKS_SECONDS)
    expect(estimate.jobsSeconds).toBeCloseTo(tools + 42 * PER_JOB_SECONDS, 9)
    expect(estimate.seconds).toBe(Math.round(tools + 42 * PER_JOB_SECONDS + CONNECT_SECONDS + CHECKS_SECONDS + CLEANUP_SECONDS))
    // a longer idle gate than the checks adds its difference
    expect(estimateRun(quick, tests, jobs, 10).beforeSeconds).toBe(CONNECT_SECONDS + 10)
    expect(estimate.maxSeconds).toBeUndefined()
  })

  it('counts the longest target’s share when targets run side by side, a network job on both its machines', () => {
    const parallel = { ...quick, schedule: { ...quick.schedule, parallelTargets: true } }
    const estimate = estimateRun(parallel, tests, jobs, 1)
    const share = (name: string) => jobs.filter((j) => j.target === name || j.peer === name).reduce((sum, j) => sum + (j.estimatedSeconds ?? 0) + PER_JOB_SECONDS, 0)
    expect(estimate.jobsSeconds).toBeCloseTo(Math.max(share('phys'), share('vm')), 9)
    expect(estimate.jobsSeconds).toBeLessThan(estimateRun(quick, tests, jobs, 1).jobsSeconds)
  })

  it('gives the most adaptive repetitions may add, within the time budget', () => {
    const adaptive = ComparisonPlanSchema.parse({ ...quick, precision: { halfWidthPct: 2, maxRepetitions: 5 } })
    const base = estimateRun(adaptive, tests, jobs, 1)
    const round = jobs.filter((j) => j.repetition === 1).reduce((sum, j) => sum + (j.estimatedSeconds ?? 0) + PER_JOB_SECONDS, 0)
    expect(base.maxSeconds).toBe(Math.round(base.seconds + 2 * round))
    const budgeted = ComparisonPlanSchema.parse({ ...quick, precision: { halfWidthPct: 2, maxRepetitions: 5, budgetSeconds: 30 } })
    expect(estimateRun(budgeted, tests, jobs, 1).maxSeconds).toBe(base.seconds + 30)
  })
})
