/**
 * Run documents of study 001's network tables without a network: the matrix jobs of two physical
 * hosts (pm1 the baseline, pm2 the peer) and two guests (vm1, vm2), laid out as the planner lays
 * them out (tests/unit/shared/studies/network-study.test.ts builds its runs with the planner
 * itself; the component project cannot import the engine), each given the figure a function says.
 */
import { describeRun } from '../../../src/main/tools/describe-run'
import { ComparisonPlanSchema, networkMachines, pathCovers, type ComparisonPlan, type ComparisonPlanInput } from '../../../src/shared/model/plan'
import type { Job, RunDocument, RunTest } from '../../../src/shared/model/run'
import { SCENARIO_LABELS } from '../../../src/shared/model/scenario'

export const G = 1e9

/** Study 001's machines: two physical hosts (the baseline and the peer) and two guests. */
export function planOf(network: ComparisonPlanInput['network']): ReturnType<typeof ComparisonPlanSchema.parse> {
  return ComparisonPlanSchema.parse({
    name: 'study 001 network',
    baseline: { target: 'pm1' },
    variants: [{ target: 'vm1' }, { target: 'vm2' }],
    network,
    repetitions: 2,
    aggregate: 'best',
    tests: [{ id: 'iperf3', tool: 'iperf3', params: { seconds: 2 } }]
  })
}

/**
 * A run of `plan` whose matrix jobs measured `figure(path, from, to, repetition)` (bit/s received),
 * or failed where it gives undefined.
 */
export function runOf(plan: ReturnType<typeof planOf>, figure: (job: Job) => number | undefined): RunDocument {
  const tests: RunTest[] = [{ id: 'iperf3', title: 'iperf3', tool: 'iperf3', params: { seconds: 2 }, repetitions: plan.repetitions, aggregate: plan.aggregate }]
  const jobs = matrixJobsOf(plan).map((job): Job => {
    const value = figure(job)
    if (value === undefined) return { ...job, status: 'failed', error: 'connection refused' }
    const sample = { metric: 'iperf3.received.bandwidth', value, unit: 'bit/s' as const, better: 'higher' as const, labels: { direction: 'target->peer', repetition: String(job.repetition) } }
    return { ...job, status: 'succeeded', samples: [sample] }
  })
  const now = new Date(0).toISOString()
  const target = (name: string, role: 'baseline' | 'variant' | 'peer') => ({ name, role, label: name, kind: 'ssh' as const })
  return describeRun({
    kind: 'virtbench-run',
    version: 1,
    id: 'r-study',
    name: plan.name,
    status: 'completed',
    createdAt: now,
    updatedAt: now,
    app: { version: 'test' },
    plan,
    tests,
    targets: [target('pm1', 'baseline'), target('vm1', 'variant'), target('vm2', 'variant'), ...(plan.network.peer ? [target(plan.network.peer, 'peer')] : [])],
    environment: {},
    preflight: [],
    jobs
  } as RunDocument)
}

export const physical = new Set(['pm1', 'pm2'])
const kindOf = (name: string): string => (physical.has(name) ? 'pm' : 'vm')

/** Study 001's VPC figures (Gbit/s): physical 9.19, VM 8.96 (97 %), EIP 5.83 (63 %); the second repetition 0.01 lower. */
export function vpcFigure(job: Job): number | undefined {
  if (job.kind !== 'matrix') return 1 * G
  const pair = `${kindOf(job.target)}-${kindOf(job.peer!)}`
  const base = job.network === 'eip' ? 5.83 : { 'pm-pm': 9.19, 'pm-vm': 9.1, 'vm-pm': 9.05, 'vm-vm': 8.96 }[pair]!
  return (base - (job.repetition - 1) * 0.01) * G
}


/** The matrix jobs of the plan's one test (iperf3): every ordered pair per path, the EIP path between guests. */
export function matrixJobsOf(plan: ComparisonPlan): Job[] {
  const machines = networkMachines(plan)
  const jobs: Job[] = []
  for (const path of plan.network.paths ?? [undefined]) {
    for (const from of machines) {
      for (const to of machines) {
        if (from === to || !pathCovers(path, from, to)) continue
        for (let repetition = 1; repetition <= plan.repetitions; repetition++) {
          jobs.push({
            id: `j${String(jobs.length + 1).padStart(4, '0')}`,
            testId: 'iperf3',
            title: path ? `iperf3 (${SCENARIO_LABELS.network[path]})` : 'iperf3',
            tool: 'iperf3',
            params: { seconds: 2 },
            target: from.target,
            side: from.target,
            peer: to.target,
            ...(path ? { network: path } : {}),
            kind: 'matrix',
            repetition,
            status: 'queued',
            attempts: 0,
            steps: [],
            samples: [],
            warnings: []
          })
        }
      }
    }
  }
  return jobs
}
