import type { BenchmarkTool } from '../types'
import { ddPrimaryMetrics, ddRawDevice, ddStorageNeed, ddVersion } from './describe'
import { ddInstall } from './install'
import { ddMetrics } from './metrics'
import { ddDefaults, ddParamsSchema, type DdParams } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export const ddTool: BenchmarkTool<DdParams> = {
  id: 'dd',
  name: 'dd',
  categories: ['storage'],
  description:
    'Sequential write or read of a file in the work directory or of a named raw device with dd (GNU coreutils or BusyBox): throughput with large blocks, per-block latency with bs=512 oflag=direct (study 002), or study 004\'s `time sh -c "dd …"` and `time sh -c "cat ddfile > /dev/null"`.',
  params: ddParamsSchema,
  defaults: ddDefaults,
  windows: false,
  network: false,
  rawDevice: ddRawDevice,
  plan,
  parse,
  estimateSeconds,
  metrics: ddMetrics,
  primaryMetrics: ddPrimaryMetrics,
  storageNeed: ddStorageNeed,
  version: ddVersion,
  install: ddInstall
}
