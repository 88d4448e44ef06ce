/**
 * Running a sweep: one run per step of the sweep (sweepSteps), each a plan with the baseline and
 * the guest under one combination, in `<sweep folder>/NN-<combination>/`. The guest's domain is
 * changed before each step's jobs; the original XML is kept in `<sweep folder>/domains` from
 * before the first change and put back after the last step, or as soon as a step does not
 * complete (a failure, a cancel), which also ends the sweep; a sweep that ends between two steps
 * (stopped, an error) puts it back itself. `sweep.json` records the steps as they end, and when
 * the user stopped the sweep (`stoppedAt`: its status then reads cancelled, not interrupted).
 */
import { existsSync } from 'node:fs'
import { mkdir, readdir } from 'node:fs/promises'
import path from 'node:path'
import type { ComparisonPlan } from '../../shared/model/plan'
import type { RunDocument } from '../../shared/model/run'
import { quoteSh } from '../../shared/shell-quote'
import { expandSweep, sweepSteps, type SweepStep, type SweepVariant } from '../../shared/sweep/expand'
import { continueRun, restoreRunDomains, startRun, type RunServices, type StartedRun } from '../engine/start-run'
import { lockSweep, readRun, readSweepRecord, RUN_FILE, SWEEP_FILE, writeSweepRecord, type SweepStepResult } from '../store/run-store'
import { savedOriginals } from './apply'
import { DOMAINS_DIR } from './run-domains'

export { readSweepRecord, SWEEP_FILE, type SweepRecord, type SweepStepResult } from '../store/run-store'

export interface SweepHooks {
  /** A step is about to start. */
  onStep?: (index: number, total: number, variant: SweepVariant) => void
  /** A step's run started (to cancel it, show its progress). */
  onStarted?: (started: StartedRun) => void
  /** The user stopped the sweep: the running step is cancelled by the caller, no step starts after it. */
  stopped?: () => boolean
}

function slug(label: string): string {
  return label.replace(/[^A-Za-z0-9=.-]+/g, '_').slice(0, 60)
}

/** The plan of one step: the sweep's plan with the guest under one combination as its only variant. */
export function stepPlan(plan: ComparisonPlan, variant: SweepVariant, step: SweepStep): ComparisonPlan {
  const { sweep, ...rest } = plan
  if (!sweep) throw new Error('stepPlan needs a plan with a sweep')
  return { ...rest, repetitions: step.repetitions, variants: [{ target: sweep.target, label: variant.label, scenario: variant.scenario }] }
}

/**
 * The plan that plans:review and plans:preflight check for a sweep: the baseline and the swept
 * guest with the sweep's shared labels (no combination's: preflight compares declared labels with
 * the domain as it is now, before any change), so the guest's commands and checks are there too.
 */
export function sweepCheckPlan(plan: ComparisonPlan): ComparisonPlan {
  const { sweep, ...rest } = plan
  if (!sweep) return plan
  const repetitions = sweepSteps(1, plan.repetitions, sweep.order)[0]!.repetitions
  return { ...rest, repetitions, variants: [{ target: sweep.target, label: sweep.target, scenario: { ...sweep.scenario, domain: sweep.domain } }] }
}

/** The sweep folder of `dir`: `dir` itself when it holds sweep.json, its parent when `dir` is one of its steps; else undefined. */
export function sweepFolderOf(dir: string): string | undefined {
  if (existsSync(path.join(dir, SWEEP_FILE))) return dir
  const parent = path.dirname(dir)
  return existsSync(path.join(parent, SWEEP_FILE)) ? parent : undefined
}

/** The sweep's step folders that have a run document, in step order. */
async function stepFolders(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => /^\d+-/.test(name) && existsSync(path.join(dir, name, RUN_FILE))).sort()
}

/** The run document of the sweep's first step that has one (the targets as the sweep saw them); undefined before any. */
export async function firstStepRun(dir: string): Promise<RunDocument | undefined> {
  const first = (await stepFolders(dir))[0]
  return first ? readRun(path.join(dir, first)) : undefined
}

export interface SweepOptions {
  /** Continue the sweep in `dir` (after a crash, a Ctrl+C, a failed step): its completed steps are kept, the next one resumed. */
  resume?: boolean
}

/** The step to start from when resuming: after the completed steps; the last one again when the domain still waits for its restore. */
function resumeFrom(kept: SweepStepResult[], total: number, domainsDir: string): number {
  if (kept.length < total) return kept.length
  return savedOriginals(domainsDir).length > 0 ? total - 1 : total
}

/**
 * Runs every step of the plan's sweep in `dir`; returns each step's result (the steps not run are
 * missing). Resuming keeps the steps that completed, continues the step that was under way (its
 * run resumed: jobs that succeeded are not run again) and runs the steps after it.
 */
export async function runSweep(plan: ComparisonPlan, dir: string, services: RunServices, hooks: SweepHooks = {}, opts: SweepOptions = {}): Promise<SweepStepResult[]> {
  if (!plan.sweep) throw new Error('runSweep needs a plan with a sweep')
  const variants = expandSweep(plan.sweep)
  const steps = sweepSteps(variants.length, plan.repetitions, plan.sweep.order)
  const results: SweepStepResult[] = []
  let name: string | undefined
  if (opts.resume) {
    const before = await readSweepRecord(dir)
    name = before.name
    const completed = before.steps.findIndex((r) => r.status !== 'completed')
    results.push(...before.steps.slice(0, completed < 0 ? before.steps.length : completed))
    results.splice(resumeFrom(results, steps.length, path.join(dir, DOMAINS_DIR)))
  }
  let stoppedAt: string | undefined
  const record = (): Promise<void> =>
    writeSweepRecord(dir, {
      kind: 'virtbench.sweep',
      version: 1,
      plan,
      ...(name ? { name } : {}),
      variants: variants.map((v) => ({ label: v.label, values: v.values })),
      steps: results,
      ...(stoppedAt ? { stoppedAt } : {})
    })
  await mkdir(dir, { recursive: true })
  // the sweep is running while this process holds its lock (the run store shows it so between steps too)
  const lock = await lockSweep(dir)
  // the domain waits for a restore that no step's run will do: a step kept it changed for the next (or a crash did)
  const domain = { kept: savedOriginals(path.join(dir, DOMAINS_DIR)).length > 0 }
  try {
    // written first: a step's run folder finds the sweep's originals through it (a resume after a crash)
    await record()
    await runSteps(plan, dir, services, hooks, { variants, steps, results, record, domain })
  } finally {
    try {
      // the domain first: whatever follows may fail, the put back must not wait on it
      if (domain.kept) await putBack(dir, services)
      // the user stopped it: the runs list, the CLI and the report say cancelled, not interrupted
      if (hooks.stopped?.() === true) {
        stoppedAt = new Date().toISOString()
        await record()
      }
    } finally {
      await lock.release()
    }
  }
  return results
}

/**
 * Puts back the domain a sweep that ended between two steps left changed (stopped after a step
 * completed, or an error before the next step's run began), through the latest step's run: the
 * same restore and record as at a run's end. A failure is told, not thrown (the sweep's own
 * error, if any, goes on).
 */
async function putBack(dir: string, services: RunServices): Promise<void> {
  if (savedOriginals(path.join(dir, DOMAINS_DIR)).length === 0) return
  const latest = (await stepFolders(dir).catch(() => [])).at(-1)
  const said = (message: string): void => services.onEvent?.({ type: 'stage', runId: path.basename(dir), message })
  if (!latest) {
    said(`the libvirt domains this sweep changed could not be put back: no step of ${dir} has a run document. Their original XML is in ${path.join(dir, DOMAINS_DIR)}: virsh define it on the physical host.`)
    return
  }
  await restoreRunDomains(path.join(dir, latest), services).catch((error: unknown) =>
    said(`the libvirt domains this sweep changed could not be put back: ${(error as Error).message}. Resume the sweep (virtbench run --resume ${quoteSh(dir)}) to put them back, or virsh define the original XML in ${path.join(dir, DOMAINS_DIR)} on the physical host.`)
  )
}

async function runSteps(
  plan: ComparisonPlan,
  dir: string,
  services: RunServices,
  hooks: SweepHooks,
  {
    variants,
    steps,
    results,
    record,
    domain
  }: { variants: SweepVariant[]; steps: SweepStep[]; results: SweepStepResult[]; record: () => Promise<void>; domain: { kept: boolean } }
): Promise<void> {
  for (const [index, step] of steps.entries()) {
    if (index < results.length) continue
    if (hooks.stopped?.()) break
    const variant = variants[step.variant]!
    const stepDir = `${String(index + 1).padStart(2, '0')}-${slug(variant.label)}`
    const last = index === steps.length - 1
    hooks.onStep?.(index, steps.length, variant)
    // each step's run finds the sweep's originals through sweep.json (domainsDirOf)
    const stepServices: RunServices = {
      ...services,
      restoreDomains: (status) => {
        domain.kept = !(last || status !== 'completed' || hooks.stopped?.() === true)
        return !domain.kept
      }
    }
    const runDir = path.join(dir, stepDir)
    // once started, this step's run puts the domain back however it ends, unless it keeps it for the next step
    const keptBefore = domain.kept
    domain.kept = false
    const started = await (existsSync(path.join(runDir, RUN_FILE)) ? continueRun(runDir, stepServices) : startRun(stepPlan(plan, variant, step), runDir, stepServices)).catch((error: unknown) => {
      domain.kept = keptBefore
      throw error
    })
    const begun = Date.now()
    try {
      hooks.onStarted?.(started)
    } catch (error) {
      // the sweep ends here: its step's run is stopped, and puts the domain back as a cancelled run does
      started.engine.cancel()
      await started.done.catch(() => undefined)
      throw error
    }
    const status = await started.done
    results.push({ step, label: variant.label, dir: stepDir, status, seconds: Math.round((Date.now() - begun) / 100) / 10 })
    await record()
    if (status !== 'completed') break
  }
}
