import type { CompareInput, Measurement } from './model/comparison'
import type { RunDocument } from './model/run'
import type { MetricCategory } from './model/sample'

/** The category a metric belongs to, from its name (docs/metrics.md lists them). */
export function metricCategory(metric: string): MetricCategory | undefined {
  const [tool, part] = metric.split('.')
  switch (tool) {
    case 'fio':
    case 'dd':
    case 'bonnie':
    case 'iozone':
      return 'storage'
    case 'iperf3':
    case 'iperf':
    case 'ping':
      return 'network'
    case 'mbw':
      return 'memory'
    case 'sysbench':
      return part === 'cpu' ? 'cpu' : part === 'memory' ? 'memory' : part === 'fileio' ? 'storage' : undefined
    case 'unixbench':
      return part?.startsWith('fs') ? 'storage' : 'cpu'
    default:
      return undefined
  }
}

/**
 * What the comparison reads from a run: the samples of its succeeded baseline-vs-variant jobs
 * (matrix and simultaneous network jobs are tables of their own), and the scenario mismatches the
 * environment capture found.
 */
export function comparisonInputOf(run: RunDocument): CompareInput {
  const baseline = run.targets.find((t) => t.role === 'baseline')
  const variants = run.targets.filter((t) => t.role === 'variant')
  const measurements: Measurement[] = run.jobs
    .filter((j) => j.kind === 'compare' && j.status === 'succeeded')
    .map((j) => ({ side: j.side, testId: j.testId, repetition: j.repetition, samples: j.samples }))
  const mismatches: Record<string, { message: string }[]> = {}
  for (const v of variants) {
    const found = mismatchesOf(run.environment, v.name)
    if (found.length > 0) mismatches[v.label] = found
  }
  return {
    baseline: baseline?.label ?? run.plan.baseline.target,
    variants: variants.map((v) => v.label),
    tests: run.tests.map((t) => ({ id: t.id, title: t.title, aggregate: t.aggregate })),
    measurements,
    mismatches,
    categoryOf: metricCategory
  }
}

/** Mismatches stored by the engine under environment["<variant>"].scenarioMismatches. */
function mismatchesOf(environment: Record<string, unknown>, target: string): { message: string }[] {
  const entry = environment[target] as { scenarioMismatches?: unknown } | undefined
  const list = entry?.scenarioMismatches
  if (!Array.isArray(list)) return []
  return list.filter((m): m is { message: string } => typeof (m as { message?: unknown })?.message === 'string')
}
