import type { BenchmarkTool } from '../types'
import { sysbenchPrimaryMetrics, sysbenchStorageNeed, sysbenchVersion } from './describe'
import { sysbenchInstall } from './install'
import { sysbenchMetrics } from './metrics'
import { sysbenchDefaults, sysbenchParamsSchema, type SysbenchParams } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export const sysbenchTool: BenchmarkTool<SysbenchParams> = {
  id: 'sysbench',
  name: 'sysbench',
  categories: ['cpu', 'memory', 'storage'],
  description:
    "sysbench 1.0's built-in tests: cpu (prime numbers, events per second), memory (block reads or writes, transfer rate) and fileio (file I/O in the work directory with prepare, run and cleanup steps), each with its latency summary.",
  params: sysbenchParamsSchema,
  defaults: sysbenchDefaults,
  windows: false,
  network: false,
  rawDevice: false,
  plan,
  parse,
  estimateSeconds,
  metrics: sysbenchMetrics,
  primaryMetrics: sysbenchPrimaryMetrics,
  storageNeed: sysbenchStorageNeed,
  version: sysbenchVersion,
  install: sysbenchInstall
}
