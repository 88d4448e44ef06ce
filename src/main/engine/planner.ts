import type { ComparisonPlan } from '../../shared/model/plan'
import { variantLabel } from '../../shared/model/plan'
import type { Job, RunTest } from '../../shared/model/run'
import type { Aggregate } from '../../shared/model/tool-ids'
import { PACKS, packTests } from '../tools/packs'
import { TOOLS } from '../tools/registry'
import { jobId } from './adaptive'

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
  const push = (test: RunTest, side: Side, repetition: number, kind: Job['kind'], peer?: string, group?: { id: string; params: Record<string, unknown> }): void => {
    const tool = TOOLS[test.tool]
    const params = group?.params ?? test.params
    jobs.push({
      id: jobId(jobs.length + 1),
      testId: test.id,
      title: kind === 'warmup' ? `${test.title} (warm-up)` : test.title,
      tool: test.tool,
      params,
      target: side.target,
      side: side.label,
      ...(peer ? { peer } : {}),
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
      for (const from of everyone) {
        for (const to of everyone) {
          if (from === to) continue
          for (let r = 1; r <= test.repetitions; r++) push(test, from, r, 'matrix', to.target)
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
