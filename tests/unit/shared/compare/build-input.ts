import type { CompareInput, Measurement } from '../../../../src/shared/model/comparison'
import { metricDefsOf } from '../../../../src/main/tools/describe-run'
import type { Better, Labels, Sample, Unit } from '../../../../src/shared/model/sample'
import { TOOL_IDS } from '../../../../src/shared/model/tool-ids'
import { runMetrics } from '../../../../src/shared/run-metrics'
import type { Aggregate } from '../../../../src/shared/model/tool-ids'

export function sample(metric: string, value: number, unit: Unit, better: Better, labels: Labels = {}): Sample {
  return { metric, value, unit, better, labels }
}

/** One measurement per value: repetition 1, 2, 3... of one metric of one test on one side. */
export function repetitions(side: string, testId: string, metric: string, values: readonly number[], unit: Unit, better: Better, labels: Labels = {}): Measurement[] {
  return values.map((value, i) => ({ side, testId, repetition: i + 1, samples: [sample(metric, value, unit, better, labels)] }))
}

/** Every tool's metric definitions, as a run made today carries them. */
const ALL_METRICS = runMetrics({ metrics: metricDefsOf(TOOL_IDS), tests: [] })

/**
 * What a metric is, from the tools' own definitions (category, ratio or difference, roles); a
 * metric is primary when it is listed in `primary` (by test id).
 */
export function factsOf(primary: Record<string, readonly string[]> = {}): NonNullable<CompareInput['factsOf']> {
  return (testId, metric) => {
    const def = ALL_METRICS.defOf(metric)
    if (!def) return undefined
    return { category: def.category, primary: (primary[testId] ?? []).includes(metric), source: def.source, comparison: def.comparison, roles: def.roles ?? [] }
  }
}

/** A two-sided input for one metric of one test. */
export function pairInput(
  baseline: readonly number[],
  variant: readonly number[],
  options: { aggregate?: Aggregate; better?: Better; unit?: Unit; metric?: string } = {}
): CompareInput {
  const better = options.better ?? 'higher'
  const unit = options.unit ?? 'op/s'
  const metric = options.metric ?? 'fio.read.iops'
  return {
    baseline: 'host',
    variants: ['guest'],
    tests: [{ id: 't', title: 'the test', aggregate: options.aggregate ?? 'median' }],
    measurements: [
      ...repetitions('host', 't', metric, baseline, unit, better),
      ...repetitions('guest', 't', metric, variant, unit, better)
    ],
    factsOf: factsOf({ t: [metric] })
  }
}
