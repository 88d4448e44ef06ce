import type { CompareInput, Flag, Measurement } from './model/comparison'
import type { TargetEnvironment } from './model/environment'
import type { RunDocument } from './model/run'
import { runMetrics } from './run-metrics'

/**
 * What the comparison reads from a run: the samples of its succeeded baseline-vs-variant jobs
 * (matrix and simultaneous network jobs are tables of their own, warm-up runs are not counted),
 * what each metric is (the run's own definitions), the plan's equivalence margin, and what the
 * environment capture found about the machines: scenario mismatches, a baseline that is itself
 * virtual, targets that are one machine, jobs disturbed by other load.
 */
export function comparisonInputOf(run: RunDocument): CompareInput {
  const baseline = run.targets.find((t) => t.role === 'baseline')
  const variants = run.targets.filter((t) => t.role === 'variant')
  const measurements: Measurement[] = run.jobs
    .filter((j) => j.kind === 'compare' && j.status === 'succeeded')
    .map((j) => {
      const startedAtMs = j.startedAt ? Date.parse(j.startedAt) : NaN
      return { side: j.side, testId: j.testId, repetition: j.repetition, samples: j.samples, ...(Number.isFinite(startedAtMs) ? { startedAtMs } : {}) }
    })
  const mismatches: Record<string, { message: string }[]> = {}
  for (const v of variants) {
    const found = run.environment[v.name]?.scenarioMismatches ?? []
    if (found.length > 0) mismatches[v.label] = found
  }
  const baselineName = baseline?.name ?? run.plan.baseline.target
  const baselineLabel = baseline?.label ?? baselineName
  const baselineEnv = run.environment[baselineName]
  const variantFlags: Record<string, Flag[]> = {}
  for (const v of variants) {
    const shared = sameMachineFlag(baselineLabel, baselineEnv, v.label, run.environment[v.name])
    if (shared) variantFlags[v.label] = [shared]
  }
  const virtual = virtualBaselineFlag(baselineLabel, baselineEnv)
  const metrics = runMetrics(run)
  const contamination = contaminationOf(run)
  return {
    baseline: baselineLabel,
    variants: variants.map((v) => v.label),
    tests: run.tests.map((t) => ({ id: t.id, title: t.title, aggregate: t.aggregate })),
    measurements,
    mismatches,
    variantFlags,
    baselineFlags: virtual ? [virtual] : [],
    factsOf: metrics.factsOf,
    marginPct: run.plan.equivalenceMarginPct,
    paired: run.plan.schedule.order === 'interleaved',
    scenarios: Object.fromEntries(variants.flatMap((v) => (v.scenario ? [[v.label, v.scenario] as const] : []))),
    // a variant found to be a physical machine (study 003's second disk or host): faster is the finding, not a cache
    hostColumns: variants.filter((v) => run.environment[v.name]?.virtualization === 'none').map((v) => v.label),
    // none recorded: no cell has anything to look up (600 cells of a large run skip the search)
    ...(Object.keys(contamination).length > 0 ? { contamination } : {})
  }
}

/** What each disturbed job saw, by `${side}|${testId}|${repetition}` (the engine records it per job). */
function contaminationOf(run: RunDocument): Record<string, string> {
  const out: Record<string, string> = {}
  for (const job of run.jobs) {
    if (job.kind !== 'compare' || job.status !== 'succeeded' || !job.contamination?.disturbed) continue
    out[`${job.side}|${job.testId}|${job.repetition}`] = job.contamination.disturbed
  }
  return out
}

/**
 * The baseline is meant to be the physical host: when its environment says it runs on a
 * hypervisor, every relative % compares a guest with another guest.
 */
export function virtualBaselineFlag(label: string, env: TargetEnvironment | undefined): Flag | undefined {
  const kind = env?.virtualization
  if (!kind || kind === 'none') return undefined
  const explanation =
    'Every relative % then compares one virtual machine with another, not with the hardware: the overhead of ' +
    'virtualization is hidden in the baseline. Measure the physical host itself as the baseline, or read the ' +
    'results as guest against guest.'
  return {
    kind: 'baseline-virtual',
    message: `The baseline ${label} is itself a virtual machine (${kind}${env?.virtualizationSource ? `, by ${env.virtualizationSource}` : ''}). ${explanation}`,
    explanation
  }
}

/**
 * Two targets with the same machine id and boot id are one running system (two logins, two
 * SSH servers, a container on its host): their comparison measures that machine against itself.
 */
export function sameMachineFlag(baselineLabel: string, baselineEnv: TargetEnvironment | undefined, variant: string, env: TargetEnvironment | undefined): Flag | undefined {
  if (!baselineEnv?.machineId || !baselineEnv.bootId || baselineEnv.machineId !== env?.machineId || baselineEnv.bootId !== env.bootId) return undefined
  const explanation =
    'Both were reached as different targets, but they share one kernel, one CPU and one disk, so any difference ' +
    'between them is noise or a difference in how each was reached, not virtualization. Check the addresses of ' +
    'the two targets.'
  return {
    kind: 'same-machine',
    message: `${variant} and the baseline ${baselineLabel} are the same machine (same machine id and boot id). ${explanation}`,
    explanation
  }
}
