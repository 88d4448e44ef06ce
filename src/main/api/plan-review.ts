import os from 'node:os'
import type { z } from 'zod'
import type { PlanIssue, PlanReview, ReviewJob } from '../../shared/catalog-contract'
import { ComparisonPlanSchema, type ComparisonPlan } from '../../shared/model/plan'
import type { Job, RunTest } from '../../shared/model/run'
import { sameTargetName, type Target } from '../../shared/model/target'
import { peerAddressOf, planOfJob, runDirOf, workRootOf } from '../engine/job-commands'
import { idleSecondsOf } from '../engine/before-jobs'
import type { PastSeconds } from '../engine/estimate-history'
import { estimateRun, expandTests, PlanError, planJobs } from '../engine/planner'
import { describePresetIssues } from '../presets/presets'
import { PACKS, packTests } from '../tools/packs'
import { TOOLS } from '../tools/registry'
import type { PeerFacts, TargetFacts } from '../tools/types'

/**
 * The review of a plan before it runs (plans:review): every problem with the field it concerns,
 * and when there is none, the jobs in run order with each step's command and the machine it runs
 * on, and the estimated time. Nothing is connected: what only a run can know (its id, the home
 * directory of an SSH login) is shown as a placeholder or the usual value, as RUN_ID_PLACEHOLDER
 * and homeOf() say.
 */

/** Stands for the run id in the review's paths (`~/virtbench-work/vb-<run id>-<target>/...`). */
export const RUN_ID_PLACEHOLDER = '<run id>'

export interface ReviewContext {
  inventory: readonly Target[]
  /** Whether a target whose sudo needs a password has one stored (runs:start refuses it otherwise). */
  hasSudoPassword: (target: Target) => boolean
  /** The home directory of this computer's user (default os.homedir()). */
  localHome?: string
  /** A job's time in earlier runs of it on the same target, for the estimate (estimate-history.ts). */
  pastSeconds?: PastSeconds
}

export function reviewPlan(loose: unknown, ctx: ReviewContext): PlanReview {
  const parsed = ComparisonPlanSchema.safeParse(loose)
  if (!parsed.success) return notOk(firstPerPath(issuesOf(parsed.error, loose)))
  const plan = parsed.data
  const issues = [...targetIssues(plan, ctx), ...testIssues(plan)]
  if (issues.length > 0) return notOk(issues)
  let tests: RunTest[]
  let jobs: Job[]
  try {
    tests = expandTests(plan)
    jobs = planJobs(plan, tests)
  } catch (error) {
    if (error instanceof PlanError) return notOk(error.problems.map((problem) => ({ path: pathOfProblem(problem), message: problem })))
    throw error
  }
  const reviewed: ReviewJob[] = []
  const stepIssues: PlanIssue[] = []
  for (const job of jobs) {
    try {
      reviewed.push(reviewJob(job, plan, ctx))
    } catch (error) {
      const path = error instanceof FieldProblem ? error.path : pathOfJob(job, plan, tests)
      stepIssues.push({ path, message: `${job.title} on ${job.target}: ${(error as Error).message}` })
    }
  }
  if (stepIssues.length > 0) return notOk(unique(stepIssues))
  const { seconds, maxSeconds, fromPast } = estimateRun(plan, tests, jobs, idleSecondsOf(plan), ctx.pastSeconds)
  return { ok: true, issues: [], jobs: reviewed, seconds, ...(maxSeconds !== undefined ? { maxSeconds } : {}), ...(fromPast > 0 ? { timedFromPast: fromPast } : {}) }
}

function notOk(issues: PlanIssue[]): PlanReview {
  return { ok: false, issues, jobs: [], seconds: 0 }
}

// ---- the plan's shape ---------------------------------------------------------------------------

/** Zod's issues as `variants.0.target: message`, worded as presets' messages are (describePresetIssues). */
export function issuesOf(error: z.ZodError, doc: unknown, prefix = ''): PlanIssue[] {
  return describePresetIssues(error, doc).map((line) => {
    const split = splitProblem(line)
    const path = split.path === '(the document)' ? '' : dottedPath(split.path)
    return { path: [prefix, path].filter(Boolean).join('.') || '(plan)', message: split.message }
  })
}

/** `where: what` at the first ": " after the path. */
function splitProblem(line: string): { path: string; message: string } {
  const at = line.indexOf(': ')
  return at < 0 ? { path: '', message: line } : { path: line.slice(0, at), message: line.slice(at + 2) }
}

/** `variants[1].scenario["odd key"]` as `variants.1.scenario.odd key`. */
export function dottedPath(path: string): string {
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\["((?:[^"\\]|\\.)*)"\]/g, (_m, key: string) => `.${JSON.parse(`"${key}"`) as string}`)
    .replace(/^\./, '')
}

// ---- targets --------------------------------------------------------------------------------------

function targetIssues(plan: ComparisonPlan, ctx: ReviewContext): PlanIssue[] {
  const named: { path: string; name: string }[] = [
    { path: 'baseline.target', name: plan.baseline.target },
    ...plan.variants.map((v, i) => ({ path: `variants.${i}.target`, name: v.target })),
    ...(plan.network.peer !== undefined ? [{ path: 'network.peer', name: plan.network.peer }] : [])
  ]
  const known = ctx.inventory.map((t) => t.name)
  const issues: PlanIssue[] = []
  for (const { path, name } of named) {
    const target = ctx.inventory.find((t) => sameTargetName(t.name, name))
    if (!target) {
      issues.push({
        path,
        message: `"${name}" is not among the targets (${known.length ? known.join(', ') : 'there are none yet'}): choose one of them, or add it on the Targets screen`
      })
      continue
    }
    if (target.os?.family === 'windows') {
      issues.push({ path, message: `${target.name} runs Windows: runs measure Linux and other POSIX targets for now; choose another target` })
    }
    if (target.sudo === 'password' && !ctx.hasSudoPassword(target)) {
      issues.push({ path, message: `${target.name} needs a sudo password, and none is stored: set it on the Targets screen` })
    }
  }
  return issues
}

// ---- tests ----------------------------------------------------------------------------------------

/** Parameters a test cannot set: a raw device is the plan's storage. */
const DEVICE_PARAMS = ['device', 'deviceWriteConfirmed']

/** Each test's problems at its own field: a pack's unknown test ids, a custom test's parameters. */
function testIssues(plan: ComparisonPlan): PlanIssue[] {
  const issues: PlanIssue[] = []
  plan.tests.forEach((choice, index) => {
    if ('pack' in choice) {
      const chosen = packTests(PACKS[choice.pack], choice.form)
      ;(choice.only ?? []).forEach((id, k) => {
        if (!chosen.some((t) => t.id === id)) {
          issues.push({ path: `tests.${index}.only.${k}`, message: `the ${choice.form} pack ${choice.pack} has no test ${id} (it has ${chosen.map((t) => t.id).join(', ')})` })
        }
      })
      return
    }
    for (const key of DEVICE_PARAMS.filter((k) => k in choice.params)) {
      issues.push({
        path: `tests.${index}.params.${key}`,
        message: 'a raw device is chosen as the plan\'s storage (where it is confirmed and checked), not in a test\'s parameters: remove it here'
      })
    }
    const params = Object.fromEntries(Object.entries(choice.params).filter(([key]) => !DEVICE_PARAMS.includes(key)))
    const checked = TOOLS[choice.tool].params.safeParse(params)
    if (!checked.success) issues.push(...firstPerPath(issuesOf(checked.error, params, `tests.${index}.params`)))
  })
  return issues
}

/** The field a planner problem concerns, from its text (`tests[2] ...`, `network.peer`, a device). */
export function pathOfProblem(problem: string): string {
  const test = /^tests\[(\d+)\]/.exec(problem)
  if (test) return `tests.${test[1]}`
  if (/network\.(peer|simultaneous)/.test(problem)) return 'network.peer'
  if (/cannot run on \/dev\//.test(problem)) return 'storage.path'
  return 'tests'
}

/** The plan field a job's problem belongs to: its test, or the variant whose network path picks the address. */
function pathOfJob(job: Job, plan: ComparisonPlan, tests: readonly RunTest[]): string {
  const index = testChoiceIndexes(plan, tests).get(job.testId)
  return index === undefined ? 'tests' : `tests.${index}`
}

/** Expanded test id to the index of the plan's test choice it came from (expandTests keeps their order). */
function testChoiceIndexes(plan: ComparisonPlan, tests: readonly RunTest[]): Map<string, number> {
  const indexes = new Map<string, number>()
  let next = 0
  plan.tests.forEach((choice, index) => {
    const count = 'pack' in choice ? packTests(PACKS[choice.pack], choice.form).filter((t) => !choice.only || choice.only.includes(t.id)).length : 1
    for (let k = 0; k < count; k++) {
      const test = tests[next++]
      if (test) indexes.set(test.id, index)
    }
  })
  return indexes
}

// ---- jobs -----------------------------------------------------------------------------------------

/**
 * The home directory a review assumes: this computer's own for "This computer"; for an SSH login
 * the usual one (/root, /home/<user>). The run uses the real one, which the target reports.
 */
export function homeOf(target: Target, localHome: string = os.homedir()): string {
  if (target.kind === 'local') return localHome
  return target.user === 'root' ? '/root' : `/home/${target.user}`
}

function factsOf(target: Target, plan: ComparisonPlan, ctx: ReviewContext): TargetFacts {
  const home = homeOf(target, ctx.localHome)
  return { os: 'linux', workDir: runDirOf(workRootOf(plan.storage, home), RUN_ID_PLACEHOLDER, target.name), scriptsDir: `${home}/.cache/virtbench/<scripts>` }
}

function reviewJob(job: Job, plan: ComparisonPlan, ctx: ReviewContext): ReviewJob {
  const find = (name: string): Target => {
    const target = ctx.inventory.find((t) => sameTargetName(t.name, name))
    if (!target) throw new Error(`${name} is not among the targets`)
    return target
  }
  const target = find(job.target)
  const peer = job.peer !== undefined ? find(job.peer) : undefined
  const scenario = plan.variants.find((v) => sameTargetName(v.target, job.target))?.scenario
  let peerFacts: PeerFacts | undefined
  if (peer) {
    try {
      const address = peerAddressOf({ name: peer.name, kind: peer.kind, ...(peer.kind === 'ssh' ? { address: peer.address } : {}), addresses: peer.addresses }, scenario, job.network)
      peerFacts = { ...factsOf(peer, plan, ctx), address }
    } catch (error) {
      const variant = plan.variants.findIndex((v) => sameTargetName(v.target, job.target))
      throw new FieldProblem(job.network ? 'network.paths' : variant >= 0 ? `variants.${variant}.scenario.network` : 'network.peer', (error as Error).message)
    }
  }
  const toolPlan = planOfJob(job, factsOf(target, plan, ctx), peerFacts)
  return {
    id: job.id,
    testId: job.testId,
    title: job.title,
    tool: job.tool,
    repetition: job.repetition,
    target: target.name,
    ...(peer ? { peer: peer.name } : {}),
    steps: toolPlan.steps.map((step) => ({
      on: step.on === 'peer' && peer ? peer.name : target.name,
      command: step.script,
      measured: step.measured === true
    })),
    seconds: job.estimatedSeconds ?? 0
  }
}

/** A problem that knows the plan field it belongs to. */
class FieldProblem extends Error {
  constructor(
    readonly path: string,
    message: string
  ) {
    super(message)
  }
}

/** One problem per field, the first: a missing name is not also "of the wrong form". */
function firstPerPath(issues: PlanIssue[]): PlanIssue[] {
  const seen = new Set<string>()
  return issues.filter((i) => !seen.has(i.path) && seen.add(i.path))
}

function unique(issues: PlanIssue[]): PlanIssue[] {
  const seen = new Set<string>()
  return issues.filter((i) => {
    const key = `${i.path}\n${i.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
