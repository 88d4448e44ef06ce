import { metricDefsOf } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import type { CompareInput, Comparison, Measurement } from '../../../src/shared/model/comparison'
import { metricDefFinder } from '../../../src/shared/model/metric-def'
import type { Scenario } from '../../../src/shared/model/scenario'
import { TOOL_IDS } from '../../../src/shared/model/tool-ids'

/** Every tool's metric definitions, as a run made today carries them. */
const defOf = metricDefFinder(metricDefsOf(TOOL_IDS))

export interface SideValues {
  label: string
  /** One value per repetition, in the metric's base unit; none: every repetition failed. */
  values: readonly number[]
  scenario?: Scenario
}

export interface OneMetric {
  test: { id: string; title: string }
  /** A concrete metric name its tool defines (`fio.write.iops`): unit, direction, category and comparison come from the definition. */
  metric: string
  baseline: SideValues
  variants: readonly SideValues[]
  /** Flags a whole side gets from the environment (a baseline that is virtual, a guest on the baseline's machine). */
  baselineFlags?: CompareInput['baselineFlags']
}

function measurements(side: SideValues, testId: string, metric: string): Measurement[] {
  const def = defOf(metric)!
  return side.values.map((value, i) => ({
    side: side.label,
    testId,
    repetition: i + 1,
    samples: [{ metric, value, unit: def.unit, better: def.better, labels: {} }]
  }))
}

/**
 * One metric of one test measured on a baseline and its variants, compared by the app's own
 * compare() as the primary figure of its test: the figures, intervals, verdicts and flags a table
 * shows are the ones a run with these repetitions would get.
 */
export function oneMetricComparison(input: OneMetric): Comparison {
  const def = defOf(input.metric)
  if (!def) throw new Error(`no tool defines ${input.metric}`)
  const sides = [input.baseline, ...input.variants]
  return compare({
    baseline: input.baseline.label,
    variants: input.variants.map((v) => v.label),
    tests: [{ ...input.test, aggregate: 'median' }],
    measurements: sides.flatMap((side) => measurements(side, input.test.id, input.metric)),
    factsOf: () => ({ category: def.category, primary: true, source: def.source, comparison: def.comparison, roles: def.roles ?? [] }),
    scenarios: Object.fromEntries(input.variants.flatMap((v) => (v.scenario ? [[v.label, v.scenario] as const] : []))),
    ...(input.baselineFlags ? { baselineFlags: input.baselineFlags } : {})
  })
}

/**
 * 4 KiB random write IOPS on a host (7349 in the middle) and five guests: one behind a writeback
 * cache (40 % faster), one 31 % slower, a twin of the host, one with a single repetition and one
 * whose repetitions all failed.
 */
export const RANDOM_WRITES: OneMetric = {
  test: { id: 'fio-4k-randwrite', title: '4 KiB random write' },
  metric: 'fio.write.iops',
  baseline: { label: 'host', values: [7349, 7362, 7338] },
  variants: [
    { label: 'guest-wb', values: [10289, 10350, 10198], scenario: { hypervisor: 'kvm', cache: 'writeback' } },
    { label: 'guest-slow', values: [5071, 5120, 5013] },
    { label: 'guest-twin', values: [7352, 7345, 7366] },
    { label: 'guest-once', values: [4409] },
    { label: 'guest-lost', values: [] }
  ]
}
