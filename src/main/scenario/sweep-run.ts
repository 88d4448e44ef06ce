/**
 * Running a sweep: one run per step of the sweep (sweepSteps), each a plan with the baseline and
 * the guest under one combination, in `<sweep folder>/NN-<combination>/`. The guest's domain is
 * changed before each step's jobs; the original XML is kept in `<sweep folder>/domains` from
 * before the first change and put back after the last step, or as soon as a step does not
 * complete (a failure, a cancel), which also ends the sweep. `sweep.json` records the steps as
 * they end.
 */
import path from 'node:path'
import type { ComparisonPlan } from '../../shared/model/plan'
import type { RunStatus } from '../../shared/model/run'
import { expandSweep, sweepSteps, type SweepStep, type SweepVariant } from '../../shared/sweep/expand'
import { startRun, type RunServices, type StartedRun } from '../engine/start-run'
import { writeFileAtomic } from '../fs/atomic-file'
import { SWEEP_FILE } from './run-domains'

export { SWEEP_FILE }

export interface SweepStepResult {
  step: SweepStep
  label: string
  /** The step's run folder, relative to the sweep folder. */
  dir: string
  status: RunStatus
  seconds: number
}

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

/** Runs every step of the plan's sweep in `dir`; returns each step's result (the steps not run are missing). */
export async function runSweep(plan: ComparisonPlan, dir: string, services: RunServices, hooks: SweepHooks = {}): Promise<SweepStepResult[]> {
  if (!plan.sweep) throw new Error('runSweep needs a plan with a sweep')
  const variants = expandSweep(plan.sweep)
  const steps = sweepSteps(variants.length, plan.repetitions, plan.sweep.order)
  const results: SweepStepResult[] = []
  const record = (): Promise<void> =>
    writeFileAtomic(path.join(dir, SWEEP_FILE), `${JSON.stringify({ kind: 'virtbench.sweep', version: 1, plan, variants: variants.map((v) => ({ label: v.label, values: v.values })), steps: results }, null, 2)}\n`)
  // written first: a step's run folder finds the sweep's originals through it (a resume after a crash)
  await record()
  for (const [index, step] of steps.entries()) {
    if (hooks.stopped?.()) break
    const variant = variants[step.variant]!
    const stepDir = `${String(index + 1).padStart(2, '0')}-${slug(variant.label)}`
    const last = index === steps.length - 1
    hooks.onStep?.(index, steps.length, variant)
    // each step's run finds the sweep's originals through sweep.json (domainsDirOf)
    const started = await startRun(stepPlan(plan, variant, step), path.join(dir, stepDir), {
      ...services,
      restoreDomains: (status) => last || status !== 'completed' || hooks.stopped?.() === true
    })
    const begun = Date.now()
    hooks.onStarted?.(started)
    const status = await started.done
    results.push({ step, label: variant.label, dir: stepDir, status, seconds: Math.round((Date.now() - begun) / 100) / 10 })
    await record()
    if (status !== 'completed') break
  }
  return results
}
