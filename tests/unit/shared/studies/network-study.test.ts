import { describe, expect, it } from 'vitest'
import { expandTests, planJobs } from '../../../../src/main/engine/planner'
import { networkStudyText } from '../../../../src/main/report/text-table'
import { ComparisonPlanSchema, type ComparisonPlanInput } from '../../../../src/shared/model/plan'
import type { Job, RunDocument } from '../../../../src/shared/model/run'
import { describeRun } from '../../../../src/main/tools/describe-run'
import { networkMatrices } from '../../../../src/shared/network-tables'
import { GOODPUT_CAP_WINDOW, nearbyCapBits } from '../../../../src/shared/compare/bandwidth-cap'
import { networkStudies, studyCellText, studyNotes } from '../../../../src/shared/studies/network-study'

const G = 1e9

/** Study 001's machines: two physical hosts (pm1 the baseline, pm2 the peer) and two guests. */
function planOf(network: ComparisonPlanInput['network'], repetitions = 2, params: Record<string, unknown> = { seconds: 2 }): ReturnType<typeof ComparisonPlanSchema.parse> {
  return ComparisonPlanSchema.parse({
    name: 'study 001 network',
    baseline: { target: 'pm1' },
    variants: [{ target: 'vm1' }, { target: 'vm2' }],
    network,
    repetitions,
    aggregate: 'best',
    tests: [{ id: 'iperf3', tool: 'iperf3', params }]
  })
}

/** A run of `plan` with the planner's jobs, each matrix job given `figure(job)` (bit/s received), or failed where it gives undefined. */
function runOf(plan: ReturnType<typeof planOf>, figure: (job: Job) => number | undefined): RunDocument {
  const tests = expandTests(plan)
  const jobs = planJobs(plan, tests).map((job): Job => {
    const value = figure(job)
    if (value === undefined) return { ...job, status: 'failed', error: 'connection refused' }
    const sample = { metric: 'iperf3.received.bandwidth', value, unit: 'bit/s' as const, better: 'higher' as const, labels: { direction: 'target->peer' } }
    return { ...job, status: 'succeeded', samples: [sample] }
  })
  const now = new Date(0).toISOString()
  const target = (name: string, role: 'baseline' | 'variant' | 'peer') => ({ name, role, label: name, kind: 'ssh' as const })
  const targets = [target('pm1', 'baseline'), target('vm1', 'variant'), target('vm2', 'variant'), ...(plan.network.peer ? [target(plan.network.peer, 'peer')] : [])]
  const doc = { kind: 'virtbench-run', version: 1, id: 'r-study', name: plan.name, status: 'completed', createdAt: now, updatedAt: now, app: { version: 'test' } }
  return describeRun({ ...doc, plan, tests, targets, environment: {}, preflight: [], jobs } as RunDocument)
}

const physical = new Set(['pm1', 'pm2'])
const kindOf = (name: string): string => (physical.has(name) ? 'pm' : 'vm')

/** Study 001's VPC figures (Gbit/s): physical 9.19, VM 8.96 (97 %), EIP 5.83 (63 %); the second repetition 0.01 lower. */
function vpcFigure(job: Job): number | undefined {
  if (job.kind !== 'matrix') return 1 * G
  const pair = `${kindOf(job.target)}-${kindOf(job.peer!)}`
  const base = job.network === 'eip' ? 5.83 : { 'pm-pm': 9.19, 'pm-vm': 9.1, 'vm-pm': 9.05, 'vm-vm': 8.96 }[pair]!
  return (base - (job.repetition - 1) * 0.01) * G
}

describe('the planner: a matrix per network path, the diagonal included', () => {
  it('measures every ordered pair over the private path and the guests over the EIP path, each job labelled with its path', () => {
    const plan = planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] })
    const matrix = planJobs(plan, expandTests(plan)).filter((j) => j.kind === 'matrix')
    const pairs = (path: string) => matrix.filter((j) => j.network === path && j.repetition === 1).map((j) => `${j.target}>${j.peer}`)
    // four machines: 12 ordered pairs, the two physical hosts and the two guests among them
    expect(pairs('private')).toEqual(['pm1>vm1', 'pm1>vm2', 'pm1>pm2', 'vm1>pm1', 'vm1>vm2', 'vm1>pm2', 'vm2>pm1', 'vm2>vm1', 'vm2>pm2', 'pm2>pm1', 'pm2>vm1', 'pm2>vm2'])
    expect(pairs('eip')).toEqual(['vm1>vm2', 'vm2>vm1'])
    expect(matrix).toHaveLength((12 + 2) * 2)
    expect(new Set(matrix.map((j) => j.title))).toEqual(new Set(['iperf3 (private/VPC)', 'iperf3 (public EIP)']))
  })

  it('plans one matrix without a path when the plan names none', () => {
    const plan = planOf({ peer: 'pm2', matrix: true })
    const matrix = planJobs(plan, expandTests(plan)).filter((j) => j.kind === 'matrix')
    expect(matrix).toHaveLength(12 * 2)
    expect(matrix.every((j) => j.network === undefined && j.title === 'iperf3')).toBe(true)
  })

  it('refuses paths without the matrix, a path twice, and the EIP path with fewer than two guests', () => {
    const problems = (network: ComparisonPlanInput['network'], variants = [{ target: 'vm1' }, { target: 'vm2' }]) => {
      const parsed = ComparisonPlanSchema.safeParse({ name: 'n', baseline: { target: 'pm1' }, variants, network, tests: [{ id: 'i', tool: 'iperf3' }] })
      return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    }
    expect(problems({ paths: ['private'] })).toEqual(['network.paths: network paths are measured as the matrix: set network.matrix to true, or remove network.paths'])
    expect(problems({ matrix: true, paths: ['private', 'private'] })).toEqual(['network.paths: a network path appears twice'])
    expect(problems({ matrix: true, paths: ['eip'] }, [{ target: 'vm1' }])).toEqual([
      'network.paths: the eip path is measured from a guest\'s EIP to another guest\'s (study 001\'s "EIP to EIP"): the plan needs two guests (two variants, or a variant and a peer with peerRole "guest")'
    ])
    // a peer that is a guest is the second guest
    expect(problems({ matrix: true, paths: ['eip'], peer: 'vm2', peerRole: 'guest' }, [{ target: 'vm1' }])).toEqual([])
  })
})

describe('networkStudies: study 001\'s grid and path table', () => {
  const run = runOf(planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] }), vpcFigure)

  it('keeps each path a matrix of its own', () => {
    expect(networkMatrices(run).map((m) => [m.path, m.testTitle, m.cells.length])).toEqual([
      ['private', 'iperf3 (private/VPC)', 12],
      ['eip', 'iperf3 (public EIP)', 2]
    ])
  })

  it('gives the Source x Destination grid by kind, its diagonal between two machines of a kind, with % of physical → physical', () => {
    const [study] = networkStudies(run)
    expect(study!.reference).toEqual({ value: 9.19 * G, path: 'private' })
    const [privateGrid, eipGrid] = study!.grids
    // the best of every pair's repetitions (aggregate best), as the study takes the best of three
    expect(privateGrid!.cells.map((c) => [c.label, c.value, c.pct === undefined ? undefined : Number(c.pct.toFixed(2)), c.pairs.length])).toEqual([
      ['Physical → physical (private/VPC)', 9.19 * G, 100, 2],
      ['Physical → VM (private/VPC)', 9.1 * G, 99.02, 4],
      ['VM → physical (private/VPC)', 9.05 * G, 98.48, 4],
      ['VM → VM (private/VPC)', 8.96 * G, 97.5, 2]
    ])
    expect(eipGrid!.cells.map((c) => c.note ?? studyCellText(c, 'bit/s'))).toEqual([
      'not measured: the EIP path is measured between guests only',
      'not measured: the EIP path is measured between guests only',
      'not measured: the EIP path is measured between guests only',
      '5.83 Gbit/s (63.4 %)'
    ])
  })

  it("gives the path table: physical 100 %, VM 97.5 %, EIP 63.4 %, as study 001's VPC row", () => {
    const [study] = networkStudies(run)
    expect(study!.paths.map((row) => [row.label, studyCellText(row, 'bit/s')])).toEqual([
      ['Physical → physical (private/VPC)', '9.19 Gbit/s (100 %)'],
      ['VM → VM (private/VPC)', '8.96 Gbit/s (97.5 %)'],
      ['VM EIP → VM EIP', '5.83 Gbit/s (63.4 %)']
    ])
    expect(study!.caps).toEqual([])
  })

  it('names an EIP held just below 30 Mbit/s as a cap to lift', () => {
    const capped = runOf(planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] }), (job) => (job.network === 'eip' ? 28.7e6 : vpcFigure(job)))
    const [study] = networkStudies(capped)
    const eip = study!.paths[2]!
    expect(eip.capBits).toBe(30e6)
    expect(study!.paths.filter((r) => r.capBits !== undefined)).toHaveLength(1)
    expect(study!.caps).toEqual([
      "VM EIP → VM EIP: 28.7 Mbit/s, just below 30 Mbit/s: the path is probably rate-limited rather than saturated (its 4 figures all read 28.7 Mbit/s, as steady as a limit holds them; study 001's EIPs were limited to 30 Mbit/s by default). Lift the limit (set the guest's or the EIP's bandwidth to unlimited on the cloud platform), then measure again."
    ])
    expect(study!.unconfirmedCaps).toEqual([])
  })

  it('names no cap on a UDP test, whose sender sets the pace: its steady figure is the rate asked for', () => {
    const plan = planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] }, 2, { seconds: 2, protocol: 'udp', bitrate: 30000000 })
    const [study] = networkStudies(runOf(plan, (job) => (job.network === 'eip' ? 29.99e6 : vpcFigure(job))))
    expect(study!.paths[2]!.value).toBe(29.99e6)
    expect(study!.paths.filter((r) => r.capBits !== undefined)).toEqual([])
    expect(study!.caps).toEqual([])
    expect(study!.unconfirmedCaps).toEqual([])
  })

  it('names no cap on a free path whose best figure sits just below 2.5 Gbit/s but whose figures wander', () => {
    // VM → VM over the private path: 2.41 and 2.47 Gbit/s one way, 2.38 and 2.44 the other (1.6 %)
    const wandering: Record<string, number[]> = { 'vm1>vm2': [2.41, 2.47], 'vm2>vm1': [2.38, 2.44] }
    const free = runOf(planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] }), (job) => {
      const figures = job.network === 'private' ? wandering[`${job.target}>${job.peer}`] : undefined
      return figures ? figures[job.repetition - 1]! * G : vpcFigure(job)
    })
    const [study] = networkStudies(free)
    const vm = study!.paths[1]!
    expect([vm.label, studyCellText(vm, 'bit/s')]).toEqual(['VM → VM (private/VPC)', '2.47 Gbit/s (26.9 %)'])
    // its best figure lies in the window just below 2.5 Gbit/s, which alone once named it
    expect(nearbyCapBits(vm.value!, 'bit/s', GOODPUT_CAP_WINDOW)).toBe(2.5 * G)
    expect(vm.capBits).toBeUndefined()
    expect(vm.singleNearCapBits).toBeUndefined()
    expect([...study!.caps, ...study!.unconfirmedCaps]).toEqual([])
  })

  it('names no cap from a single figure, and says that one repetition cannot tell', () => {
    // one repetition, and only vm1 → vm2 of the EIP path succeeded: one figure, 29.9 Mbit/s
    const once = runOf(planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] }, 1), (job) =>
      job.network === 'eip' ? (job.target === 'vm1' ? 29.9e6 : undefined) : vpcFigure(job)
    )
    const [study] = networkStudies(once)
    const eip = study!.paths[2]!
    expect([eip.values, eip.capBits, eip.singleNearCapBits]).toEqual([[29.9e6], undefined, 30e6])
    expect(study!.caps).toEqual([])
    expect(study!.unconfirmedCaps).toEqual([
      'VM EIP → VM EIP: 29.9 Mbit/s sits just under 30 Mbit/s, but it is a single figure, and one repetition cannot tell a rate limit from a coincidence: no cap is named. Run 2 or more repetitions to tell.'
    ])
    expect(studyNotes(study!)).toContain(study!.unconfirmedCaps[0])
    // two repetitions of that one pair, both 29.9 Mbit/s, are evidence enough
    const twice = runOf(planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] }), (job) =>
      job.network === 'eip' ? (job.target === 'vm1' ? 29.9e6 : undefined) : vpcFigure(job)
    )
    expect(networkStudies(twice)[0]!.paths[2]!.capBits).toBe(30e6)
  })

  it('shows no % where physical → physical was not measured, and says why', () => {
    // no peer: one physical machine, so no physical → physical pair
    const alone = runOf(planOf({ matrix: true, paths: ['private', 'eip'] }), vpcFigure)
    const [study] = networkStudies(alone)
    expect(study!.reference).toBeUndefined()
    expect(study!.noReference).toBe('no %: physical → physical has no figure (not measured: it needs a second physical machine (name one as network.peer))')
    expect(study!.paths.map((row) => [row.label, studyCellText(row, 'bit/s'), row.pct])).toEqual([
      ['Physical → physical (private/VPC)', 'not measured', undefined],
      ['VM → VM (private/VPC)', '8.96 Gbit/s', undefined],
      ['VM EIP → VM EIP', '5.83 Gbit/s', undefined]
    ])
  })

  it('leaves out a plain matrix of one physical host and its guests: no % to give, no path named, no cap', () => {
    const plain = runOf(planOf({ matrix: true }), vpcFigure)
    expect(networkMatrices(plain).length).toBeGreaterThan(0)
    expect(networkStudies(plain)).toEqual([])
    // the same with a second physical machine gives its %
    expect(networkStudies(runOf(planOf({ peer: 'pm2', matrix: true }), vpcFigure))[0]?.reference).toBeDefined()
  })

  it('says when the reference was planned but every job of it failed', () => {
    const failed = runOf(planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] }), (job) =>
      job.kind === 'matrix' && job.network === 'private' && physical.has(job.target) && physical.has(job.peer!) ? undefined : vpcFigure(job)
    )
    const [study] = networkStudies(failed)
    expect(study!.noReference).toBe("no %: physical → physical has no figure (not measured: none of its 4 matrix jobs succeeded (see the jobs' errors))")
  })

  it('prints the grids, the path table and the notes for the terminal', () => {
    const capped = runOf(planOf({ peer: 'pm2', matrix: true, paths: ['private', 'eip'] }), (job) => (job.network === 'eip' ? 28.7e6 : vpcFigure(job)))
    const text = networkStudyText(networkStudies(capped))
    expect(text).toContain('iperf3 · iperf3.received.bandwidth (target->peer) (% of physical → physical, private/VPC)')
    expect(text).toMatch(/^private\/VPC: from ↓ to → +Physical +VM$/m)
    expect(text).toMatch(/^Physical +9\.19 Gbit\/s \(100 %\) +9\.10 Gbit\/s \(99 %\)$/m)
    expect(text).toMatch(/^VM +9\.05 Gbit\/s \(98\.5 %\) +8\.96 Gbit\/s \(97\.5 %\)$/m)
    expect(text).toMatch(/^VM EIP → VM EIP +28\.7 Mbit\/s \(0\.3 %\)$/m)
    expect(text).toContain('- Physical EIP → physical EIP, Physical EIP → VM EIP, VM EIP → physical EIP: not measured: the EIP path is measured between guests only\n')
    expect(text).toContain('- VM EIP → VM EIP: 28.7 Mbit/s, just below 30 Mbit/s')
  })
})
