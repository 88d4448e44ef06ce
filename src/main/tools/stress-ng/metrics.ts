import type { MetricDef } from '../../../shared/model/metric-def'
import type { MetricCategory } from '../../../shared/model/sample'
import { STRESSORS, type Stressor } from './params'

/** What each stressor loads: the cpu stressor computes, the vm stressor writes and reads mapped memory. */
export const STRESSOR_CATEGORY: Readonly<Record<Stressor, MetricCategory>> = { cpu: 'cpu', vm: 'memory' }

const WORK: Readonly<Record<Stressor, string>> = {
  cpu: 'one bogo operation is one round of the chosen --cpu-method',
  vm: 'one bogo operation is one pass of the chosen --vm-method over a part of the mapped memory'
}

const WHERE =
  'From the YAML report (`--yaml`, six decimals) when there is one, else from the metrics table of the log (`metrc:` lines from stress-ng 0.15.05, `info:` lines before; two decimals).'

const BOGO =
  'Bogo operations are stress-ng\'s own count of work done, not a standard unit: compare them only between runs of the same stressor, method and stress-ng version.'

/** The metrics of one stressor, each in the stressor's category. */
function stressorMetrics(stressor: Stressor): MetricDef[] {
  const base = { category: STRESSOR_CATEGORY[stressor], source: 'tool' } as const
  const what = `${stressor} stressor; ${WORK[stressor]}`
  return [
    {
      name: `stress-ng.${stressor}.ops-per-second`,
      unit: 'op/s',
      better: 'higher',
      comparison: 'ratio',
      ...base,
      description: `Bogo operations per second of wall-clock time, all workers together (\`bogo-ops-per-second-real-time\`, the "bogo ops/s (real time)" column): the ${what}. ${WHERE} ${BOGO}`
    },
    {
      name: `stress-ng.${stressor}.ops-per-cpu-second`,
      unit: 'op/s',
      better: 'higher',
      comparison: 'ratio',
      ...base,
      description: `Bogo operations per second of CPU time the workers used, user plus system (\`bogo-ops-per-second-usr-sys-time\`, the "bogo ops/s (usr+sys time)" column): the ${what}; it leaves out time a worker waited for a CPU. ${WHERE}`
    },
    {
      name: `stress-ng.${stressor}.ops`,
      unit: 'count',
      better: 'higher',
      comparison: 'ratio',
      ...base,
      description: `Bogo operations of all workers in the whole run (\`bogo-ops\`, the "bogo ops" column): the ${what}. Grows with the timeout; compare runs of the same length. ${WHERE}`
    },
    {
      name: `stress-ng.${stressor}.cpu-usage`,
      unit: '%',
      better: 'higher',
      comparison: 'difference',
      ...base,
      description: `Share of the wall-clock time each worker spent on a CPU, user plus system, averaged over the workers (\`cpu-usage-per-instance\`, the "CPU used per instance (%)" column of \`--metrics\`): near 100 when every worker had a CPU to itself; lower when workers waited (more workers than CPUs, CPU steal, page faults). Absent where stress-ng does not print it (the YAML of stress-ng before 0.12.05, the \`--metrics-brief\` log).`
    }
  ]
}

export const stressNgMetrics: readonly MetricDef[] = STRESSORS.flatMap(stressorMetrics)
