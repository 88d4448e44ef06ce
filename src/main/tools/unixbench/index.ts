import type { BenchmarkTool } from '../types'
import { unixbenchPrimaryMetrics, unixbenchStorageNeed, unixbenchVersion } from './describe'
import { unixbenchInstall } from './install'
import { unixbenchMetrics } from './metrics'
import { unixbenchParamsSchema, type UnixbenchParams } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export const unixbenchTool: BenchmarkTool<UnixbenchParams> = {
  id: 'unixbench',
  name: 'UnixBench',
  categories: ['cpu', 'storage'],
  description:
    'BYTE UNIX Benchmarks: CPU (Dhrystone, Whetstone), system calls, pipes, process creation, shell scripts and small-file copies, each as a raw score and an index against a fixed baseline machine.',
  params: unixbenchParamsSchema,
  defaults: unixbenchParamsSchema.parse({}),
  windows: false,
  network: false,
  rawDevice: false,
  plan,
  parse,
  estimateSeconds,
  metrics: unixbenchMetrics,
  primaryMetrics: unixbenchPrimaryMetrics,
  storageNeed: unixbenchStorageNeed,
  version: unixbenchVersion,
  install: unixbenchInstall
}
