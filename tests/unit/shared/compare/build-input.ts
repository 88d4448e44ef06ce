import type { CompareInput, Measurement } from '../../../../src/shared/model/comparison'
import type { Better, Labels, MetricCategory, Sample, Unit } from '../../../../src/shared/model/sample'
import type { Aggregate } from '../../../../src/shared/model/tool-ids'

export function sample(metric: string, value: number, unit: Unit, better: Better, labels: Labels = {}): Sample {
  return { metric, value, unit, better, labels }
}

/** One measurement per value: repetition 1, 2, 3... of one metric of one test on one side. */
export function repetitions(side: string, testId: string, metric: string, values: readonly number[], unit: Unit, better: Better, labels: Labels = {}): Measurement[] {
  return values.map((value, i) => ({ side, testId, repetition: i + 1, samples: [sample(metric, value, unit, better, labels)] }))
}

const CATEGORIES: [string, MetricCategory][] = [
  ['fio.', 'storage'],
  ['dd.', 'storage'],
  ['iperf3.', 'network'],
  ['iperf.', 'network'],
  ['ping.', 'network'],
  ['unixbench.', 'cpu'],
  ['mbw.', 'memory']
]

/** The categories the tools give their metrics, by name prefix (enough for these tests). */
export function categoryOf(metric: string): MetricCategory | undefined {
  return CATEGORIES.find(([prefix]) => metric.startsWith(prefix))?.[1]
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
    categoryOf
  }
}
