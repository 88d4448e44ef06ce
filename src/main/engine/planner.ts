import type { ComparisonPlan } from '../../shared/model/plan'
import { networkMachines, pathCovers, variantLabel, type NetworkMachine } from '../../shared/model/plan'
import type { Job, RunTest } from '../../shared/model/run'
import { SCENARIO_LABELS, type NetworkPath } from '../../shared/model/scenario'
import type { Aggregate } from '../../shared/model/tool-ids'
import { PACKS, packTests } from '../tools/packs'
import { TOOLS } from '../tools/registry'
import { jobId } from './adaptive'
import type { PastSeconds } from './estimate-history'

/**
 * The planner: a comparison plan becomes the run's tests (packs expanded, parameters checked by
 * each tool's own schema) and its jobs (one per test, side and repetition, in run order). Pure.
 */

export class PlanError extends Error {
  override readonly name = 'PlanError'
  constructor(
    message: string,
    readonly problems: string[]
  ) {
    super(message)
  }
}

/** The plan's tests, packs expanded, with repetitions and aggregation settled. */
export function expandTests(plan: ComparisonPlan): RunTest[] {
  const tests: RunTest[] = []
  const problems: string[] = []
  const seen = new Set<string>()
  const add = (test: RunTest, where: string): void => {
    let id = test.id
    for (let n = 2; seen.has(id); n++) id = `${test.id}-${n}`
    seen.add(id)
    const tool = TOOLS[test.tool]
    const checked = tool.params.safeParse(test.params)
    if (!checked.success) {
      const first = checked.error.issues[0]
      problems.push(`${where} (${tool.name}): ${first?.path.length ? `${first.path.join('.')}: ` : ''}${first?.message ?? 'invalid parameters'}`)
      return
    }
    tests.push({ ...test, id })
  }
  for (const [index, choice] of plan.tests.entries()) {
    if ('pack' in choice) {
      const pack = PACKS[choice.pack]
      const chosen = packTests(pack, choice.form)
      const unknown = (choice.only ?? []).filter((id) => !chosen.some((t) => t.id === id))
      if (unknown.length > 0) {
        problems.push(
          `tests[${index}]: pack ${pack.id} has no test ${unknown.join(', ')} (it has ${chosen.map((t) => t.id).join(', ')})`
        )
      }
      for (const t of chosen) {
        if (choice.only && !choice.only.includes(t.id)) continue
        add(
          {
            id: t.id,
            title: t.title,
            tool: t.tool,
            params: t.params,
            repetitions: t.repetitions ?? plan.repetitions,
            aggregate: t.aggregate ?? plan.aggregate
          },
          `tests[${index}] ${pack.id}/${t.id}`
        )
      }
    } else {
      // a raw device comes only from the plan's storage, with its confirmation and its checks
      const deviceKeys = ['device', 'deviceWriteConfirmed'].filter((k) => k in choice.params)
      if (deviceKeys.length > 0) {
        problems.push(
          `tests[${index}] ${choice.id}: ${deviceKeys.join(' and ')} cannot be set in a test's parameters; choose a raw device as the plan's storage (storage.kind "device" with its confirmation) instead`
        )
        continue
      }
      add(
        {
          id: choice.id,
          // a test named after its tool is titled by the tool alone ("ping", not "ping ping")
          title: choice.title ?? (choice.id === choice.tool ? TOOLS[choice.tool].name : `${TOOLS[choice.tool].name} ${choice.id}`),
          tool: choice.tool,
          params: choice.params,
          repetitions: choice.repetitions ?? plan.repetitions,
          aggregate: choice.aggregate ?? plan.aggregate
        },
        `tests[${index}] ${choice.id}`
      )
    }
  }
  if (problems.length > 0) throw new PlanError(`the plan's tests have problems:\n- ${problems.join('\n- ')}`, problems)
  return applyStorage(plan, tests)
}

/** With a raw device as the storage target, storage tests that can use one are pointed at it. */
function applyStorage(plan: ComparisonPlan, tests: RunTest[]): RunTest[] {
  if (plan.storage.kind !== 'device') return tests
  const { path: device, confirm } = plan.storage
  const problems: string[] = []
  const pointed = tests.map((t) => {
    const tool = TOOLS[t.tool]
    if (!tool.rawDevice) return t
    const params = tool.rawDevice.withDevice(t.params, device, confirm === device)
    const checked = tool.params.safeParse(params)
    if (!checked.success) {
      problems.push(`${t.id}: cannot run on ${device}: ${checked.error.issues[0]?.message ?? 'invalid'}`)
      return t
    }
    return { ...t, params }
  })
  if (problems.length > 0) throw new PlanError(`some tests cannot use the device:\n- ${problems.join('\n- ')}`, problems)
  return pointed
}

export interface Side {
  /** Target name. */
  target: string
  /** The label tables use. */
  label: string
  role: 'baseline' | 'variant'
}

export function sidesOf(plan: ComparisonPlan): Side[] {
  return [
    { target: plan.baseline.target, label: plan.baseline.label ?? plan.baseline.target, role: 'baseline' },
    ...plan.variants.map((v) => ({ target: v.target, label: variantLabel(v), role: 'variant' as const }))
  ]
}

/** The machine running the server (or answering the ping) of a network test measured on `side`. */
export function peerOf(plan: ComparisonPlan, side: Side): string {
  if (plan.network.peer) return plan.network.peer
  const first = plan.variants[0]
  return side.role === 'baseline' && first ? first.target : plan.baseline.target
}

/**
 * The jobs of a run, in the order they run: for each test, a warm-up run per side when the plan
 * asks for one, then its repetitions, and within one repetition each side in turn (interleaved,
 * A B A B) or all repetitions of one side first (grouped). Network tests add the matrix of every
 * ordered pair when the plan asks for it.
 */
export function planJobs(plan: ComparisonPlan, tests: readonly RunTest[]): Job[] {
  const sides = sidesOf(plan)
  const jobs: Job[] = []
  const push = (test: RunTest, side: Side, repetition: number, kind: Job['kind'], peer?: string, group?: { id: string; params: Record<string, unknown> }, path?: NetworkPath): void => {
    const tool = TOOLS[test.tool]
    const params = group?.params ?? test.params
    jobs.push({
      id: jobId(jobs.length + 1),
      testId: test.id,
      title: kind === 'warmup' ? `${test.title} (warm-up)` : path ? `${test.title} (${SCENARIO_LABELS.network[path]})` : test.title,
      tool: test.tool,
      params,
      target: side.target,
      side: side.label,
      ...(peer ? { peer } : {}),
      ...(path ? { network: path } : {}),
      kind,
      ...(group ? { group: group.id } : {}),
      repetition,
      status: 'queued',
      attempts: 0,
      estimatedSeconds: tool.estimateSeconds(tool.params.parse(params)),
      steps: [],
      samples: [],
      warnings: []
    })
  }
  for (const test of tests) {
    const network = TOOLS[test.tool].network
    const needsPeer = network !== false
    const peerFor = (side: Side): string | undefined => (needsPeer ? peerOf(plan, side) : undefined)
    // a warm-up run per side first: kept with the run, never compared
    if (plan.warmup) for (const side of sides) push(test, side, 1, 'warmup', peerFor(side))
    if (plan.schedule.order === 'interleaved') {
      for (let r = 1; r <= test.repetitions; r++) for (const side of sides) push(test, side, r, 'compare', peerFor(side))
    } else {
      for (const side of sides) for (let r = 1; r <= test.repetitions; r++) push(test, side, r, 'compare', peerFor(side))
    }
    if (needsPeer && plan.network.matrix) {
      const everyone = [...sides]
      if (plan.network.peer && !everyone.some((s) => s.target.toLowerCase() === plan.network.peer!.toLowerCase())) {
        everyone.push({ target: plan.network.peer, label: plan.network.peer, role: 'variant' })
      }
      // every ordered pair of two machines (two physical hosts, two guests: the study's diagonal too), once per network path
      const machines = networkMachines(plan)
      const machineOf = (side: Side): NetworkMachine => machines.find((m) => m.target.toLowerCase() === side.target.toLowerCase()) ?? { target: side.target, role: 'host' }
      for (const path of plan.network.paths ?? [undefined]) {
        for (const from of everyone) {
          for (const to of everyone) {
            if (from === to || !pathCovers(path, machineOf(from), machineOf(to))) continue
            for (let r = 1; r <= test.repetitions; r++) push(test, from, r, 'matrix', to.target, undefined, path)
          }
        }
      }
    }
    if (needsPeer && plan.network.simultaneous) {
      const peer = plan.network.peer
      if (!peer) {
        throw new PlanError(
          `${test.id}: simultaneous clients need a peer that is not itself measured (as study 000's third host on the same switch): name it in network.peer`,
          [`${test.id}: network.simultaneous needs network.peer`]
        )
      }
      const clients = sides.filter((s) => s.target.toLowerCase() !== peer.toLowerCase())
      for (let r = 1; r <= test.repetitions; r++) {
        clients.forEach((side, index) => {
          const params = network && network.nthClient ? network.nthClient(test.params, index) : test.params
          push(test, side, r, 'simultaneous', peer, { id: `${test.id}/r${r}`, params })
        })
      }
    }
  }
  return jobs
}

/** The aggregation a test uses (for the comparison). */
export function aggregateOf(tests: readonly RunTest[], testId: string): Aggregate {
  return tests.find((t) => t.id === testId)?.aggregate ?? 'median'
}

// ---------------------------------------------------------------------------------------------
// How long a run takes

/**
 * Seconds a run spends before its first job, besides the idle gate: the SSH logins to every target
 * (all at once), the scripts' upload and the checks command per target (preflight and the
 * environment, side by side, also all at once). The idle gate samples while the checks run, so the
 * phase takes this plus what the idle seconds add beyond CHECKS_SECONDS. Measured on loopback sshd
 * (docs/runs.md, "How long a run takes"): 3.3 s with a 1 s idle gate, 3.5 to 5 s at load 10.
 */
export const CONNECT_SECONDS = 1.5
export const CHECKS_SECONDS = 1.5
/** What the engine adds to each job around the tool's own time (bench:engine: 24.5 ms per job), and the end of the run. */
export const PER_JOB_SECONDS = 0.05
export const CLEANUP_SECONDS = 0.5

export interface RunEstimate {
  /** The whole run, checks included, jobs one after the other (or targets side by side when the schedule says so). */
  seconds: number
  /** The jobs alone: each tool's own estimate plus the engine's per-job cost. */
  jobsSeconds: number
  /** Logins, checks and the idle gate before the first job. */
  beforeSeconds: number
  /** With adaptive repetitions: the most the extra rounds may add, on top of `seconds`. */
  maxSeconds?: number
  /** How many of the jobs were timed by an earlier run of the same job (`past`), not by their tool's guess. */
  fromPast: number
}

/**
 * Pure: how long a run of `plan` takes, from its jobs' estimates (each tool's own: start-up, the
 * measured time, a server's start) plus what the run adds around them: logins and checks with the
 * idle gate (`idleSeconds`, the plan's or the engine's default), the engine's cost per job, the
 * cleanup; with `parallelTargets`, the targets' jobs side by side (the longest target's share; a
 * network job counts for both its machines); with adaptive repetitions, `maxSeconds` adds the most
 * the extra rounds may take (within the plan's time budget). `past` gives a job's time in an
 * earlier run of it (estimate-history.ts), used instead of its tool's estimate and the per-job cost.
 */
export function estimateRun(plan: ComparisonPlan, tests: readonly RunTest[], jobs: readonly Job[], idleSeconds: number, past?: PastSeconds): RunEstimate {
  const jobSeconds = (job: Job): number => past?.(job) ?? (job.estimatedSeconds ?? 0) + PER_JOB_SECONDS
  const fromPast = past ? jobs.filter((job) => past(job) !== undefined).length : 0
  let jobsSeconds = jobs.reduce((sum, job) => sum + jobSeconds(job), 0)
  if (plan.schedule.parallelTargets) {
    const perTarget = new Map<string, number>()
    for (const job of jobs) {
      for (const name of job.peer !== undefined ? [job.target, job.peer] : [job.target]) perTarget.set(name, (perTarget.get(name) ?? 0) + jobSeconds(job))
    }
    jobsSeconds = Math.min(jobsSeconds, Math.max(0, ...perTarget.values()))
  }
  const beforeSeconds = CONNECT_SECONDS + Math.max(CHECKS_SECONDS, idleSeconds)
  const seconds = Math.round(beforeSeconds + jobsSeconds + CLEANUP_SECONDS)
  const extra = plan.precision ? extraRoundsSeconds(plan, tests, jobs, jobSeconds) : 0
  return { seconds, jobsSeconds, beforeSeconds, fromPast, ...(plan.precision ? { maxSeconds: Math.round(seconds + extra) } : {}) }
}

/**
 * The most adaptive repetitions may add: for each test, one round (every side once) for each
 * repetition between its planned ones and the plan's maximum, within the time budget.
 */
function extraRoundsSeconds(plan: ComparisonPlan, tests: readonly RunTest[], jobs: readonly Job[], jobSeconds: (job: Job) => number): number {
  const precision = plan.precision
  if (!precision) return 0
  let extra = 0
  for (const test of tests) {
    const round = jobs.filter((j) => j.testId === test.id && j.kind === 'compare' && j.repetition === 1).reduce((sum, j) => sum + jobSeconds(j), 0)
    extra += round * Math.max(0, precision.maxRepetitions - test.repetitions)
  }
  return precision.budgetSeconds !== undefined ? Math.min(extra, precision.budgetSeconds) : extra
}
