import type { SweepEstimate } from '../../shared/scenario-contract'
import { ComparisonPlanSchema, type ComparisonPlan } from '../../shared/model/plan'
import type { DomainSetup } from '../../shared/model/scenario'
import { expandSweep, sweepSteps, sweptFactors } from '../../shared/sweep/expand'
import { idleSecondsOf } from '../engine/before-jobs'
import { estimateRun, expandTests, PlanError, planJobs } from '../engine/planner'
import { editStep, liveDifference } from '../scenario/domain-edit'
import { stepPlan } from '../scenario/sweep-run'
import { issuesOf, pathOfProblem } from './plan-review'

/**
 * The time of a sweep (docs/scenarios.md#sweeps), pure: each step's run as estimateRun counts
 * a run, plus RESTART_SECONDS for every restart of the guest. Which steps restart is told from
 * the domain's XML when it was read (a change of vCPUs or memory that libvirt applies live needs
 * none, nor a step the domain already has), else every step and the restore count one.
 */

/**
 * What one restart of the guest is counted in a sweep's estimate: define, shutdown, start and
 * the boot until SSH answers, as measured in the lab (docs/scenarios.md#timings-in-the-lab-2-cores-tcg:
 * 10 to 15 s for the restart, 64 to 101 s for the boot under TCG). A KVM guest boots faster.
 */
export const RESTART_SECONDS = 90

type Estimate = Extract<SweepEstimate, { ok: true }>
type ChangeKind = Estimate['restore']

/** The domain as its host has it now (`virsh dumpxml --inactive` and whether it runs), or why it was not read. */
export type DomainNow = { domain: string; xml: string; running: boolean } | { note: string }

/** How the guest takes each step's change, and then the restore, when the sweep applies `setups` in this order. */
export interface DomainChanges {
  steps: { change: ChangeKind; live?: string[] }[]
  restore: ChangeKind
}

/**
 * Each step as the sweep applies it (editStep: the original plus the step's setup, from the XML
 * the step before left), and the restore (liveDifference to the original): live when the guest
 * runs and only its current vCPUs and memory change, none when nothing changes, else a restart.
 * Undefined when the domain cannot take a setup (the review and the run name why).
 */
export function domainChanges(domain: string, original: string, running: boolean, setups: readonly DomainSetup[]): DomainChanges | undefined {
  let current = original
  let up = running
  const steps: DomainChanges['steps'] = []
  for (const setup of setups) {
    const edit = editStep(domain, original, current, setup)
    if (!edit.ok) return undefined
    if (edit.changes.length === 0) steps.push({ change: 'none' })
    else if (edit.live && up) steps.push({ change: 'live', live: edit.restarts })
    else {
      steps.push({ change: 'restart' })
      up = true
    }
    current = edit.xml
  }
  const restore: ChangeKind = current === original ? (up ? 'none' : 'restart') : up && liveDifference(current, original) ? 'live' : 'restart'
  return { steps, restore }
}

/** The domain whose XML tells the restarts apart: a valid plan whose sweep has a factor libvirt may apply live (vCPUs, memory). */
export function domainToRead(loose: unknown): { guest: string; baseline: string; domain: string } | undefined {
  const parsed = ComparisonPlanSchema.safeParse(loose)
  const sweep = parsed.success ? parsed.data.sweep : undefined
  if (!parsed.success || !sweep || !sweptFactors(sweep).some((f) => f === 'vcpus' || f === 'memoryMiB')) return undefined
  return { guest: sweep.target, baseline: parsed.data.baseline.target, domain: sweep.domain }
}

/** The time of the plan's sweep: each step as estimateRun counts a run, and RESTART_SECONDS per restart. */
export function estimateSweep(loose: unknown, now?: DomainNow): SweepEstimate {
  const parsed = ComparisonPlanSchema.safeParse(loose)
  if (!parsed.success) return { ok: false, issues: issuesOf(parsed.error, loose) }
  const plan: ComparisonPlan = parsed.data
  if (!plan.sweep) return { ok: false, issues: [{ path: 'sweep', message: 'the plan has no sweep' }] }
  const variants = expandSweep(plan.sweep)
  try {
    const order = sweepSteps(variants.length, plan.repetitions, plan.sweep.order)
    const runs = order.map((step) => {
      const variant = variants[step.variant]!
      const one = stepPlan(plan, variant, step)
      const tests = expandTests(one)
      const jobs = planJobs(one, tests)
      return { label: variant.label, seconds: estimateRun(one, tests, jobs, idleSecondsOf(one)).seconds, jobs: jobs.length }
    })
    const told = now && 'xml' in now ? domainChanges(now.domain, now.xml, now.running, order.map((s) => variants[s.variant]!.setup)) : undefined
    // not told from the domain: a change before every step (the first too, unless the domain has it already), and the restore
    const changes: DomainChanges = told ?? { steps: runs.map(() => ({ change: 'restart' })), restore: 'restart' }
    const steps = runs.map((run, i) => ({ ...run, ...changes.steps[i]! }))
    const restarts = [...changes.steps.map((s) => s.change), changes.restore].filter((c) => c === 'restart').length
    const note = now && 'note' in now ? now.note : now && !told ? `${now.domain} cannot take every combination (the review's domain changes say which)` : undefined
    return {
      ok: true,
      steps,
      restore: changes.restore,
      restarts,
      restartSeconds: RESTART_SECONDS,
      restartsFrom: told ? 'domain' : 'plan',
      ...(note ? { domainNote: note } : {}),
      seconds: steps.reduce((sum, s) => sum + s.seconds, 0) + restarts * RESTART_SECONDS
    }
  } catch (error) {
    if (error instanceof PlanError) return { ok: false, issues: error.problems.map((problem) => ({ path: pathOfProblem(problem), message: problem })) }
    throw error
  }
}
