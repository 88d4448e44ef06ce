import { describe, expect, it } from 'vitest'
import { expandTests, planJobs, PlanError } from '../../../../src/main/engine/planner'
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
