import type { MetricDef } from '../../../shared/model/metric-def'
import { BONNIE_TESTS, type BonnieTest } from './csv-layout'

const REPETITION = ['repetition']

function rateMetric(test: BonnieTest): MetricDef {
  const what =
    test.rate === 'KiB/s'
      ? 'Throughput in bytes per second (bonnie++ reports KiB/s; VirtBench multiplies by 1024).'
      : test.id === 'seeks'
        ? 'Random seeks per second.'
        : 'Files per second.'
  return {
    name: `bonnie.${test.id}`,
    unit: test.rate === 'KiB/s' ? 'B/s' : 'op/s',
    better: 'higher',
    category: 'storage',
    source: 'tool',
    comparison: 'ratio',
    description:
      `bonnie++ ${test.id} test: ${test.does}. ${what} Absent when bonnie++ printed \`+++++\` ` +
      '(the test took under 0.5 s, too fast to time) or skipped the test. `labels.repetition` is the run number with `-x`.',
    labels: REPETITION
  }
}

function cpuMetric(test: BonnieTest): MetricDef {
  return {
    name: `bonnie.${test.id}.cpu`,
    unit: '%',
    better: 'lower',
    category: 'storage',
    source: 'tool',
    // a share of time that is often 0 or 1 %: compared in percentage points
    comparison: 'difference',
    description: `CPU bonnie++ used during the ${test.id} test: user + system CPU time as a percentage of the test's elapsed time.`,
    labels: REPETITION
  }
}

function latencyMetric(test: BonnieTest): MetricDef {
  return {
    name: `bonnie.${test.id}.latency`,
    unit: 's',
    better: 'lower',
    category: 'storage',
    source: 'tool',
    comparison: 'ratio',
    description:
      `Longest time a single operation of the ${test.id} test took, in seconds (bonnie++ prints it in us, ms or s, ` +
      'rounded down to a whole number of that unit). Measured even when the rate was too fast to time.',
    labels: REPETITION
  }
}

export const bonnieMetrics: readonly MetricDef[] = BONNIE_TESTS.flatMap((t) => [rateMetric(t), cpuMetric(t), latencyMetric(t)])
