import type { BenchmarkTool } from '../types'
import { stressNgPrimaryMetrics, stressNgVersion } from './describe'
import { stressNgInstall } from './install'
import { stressNgMetrics } from './metrics'
import { stressNgDefaults, stressNgParamsSchema, type StressNgParams } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export const stressNgTool: BenchmarkTool<StressNgParams> = {
  id: 'stress-ng',
  name: 'stress-ng',
  categories: ['cpu', 'memory'],
  description:
    "stress-ng's bogo operations per second: its cpu stressor (one --cpu-method, compute) or its vm stressor (one --vm-method over --vm-bytes of mapped memory), with N workers for a fixed time, read from its YAML report.",
  params: stressNgParamsSchema,
  defaults: stressNgDefaults,
  windows: false,
  network: false,
  rawDevice: false,
  plan,
  parse,
  estimateSeconds,
  metrics: stressNgMetrics,
  primaryMetrics: stressNgPrimaryMetrics,
  // only the YAML report, a few hundred bytes
  storageNeed: () => undefined,
  version: stressNgVersion,
  install: stressNgInstall
}
