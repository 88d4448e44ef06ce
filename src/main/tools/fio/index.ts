import type { BenchmarkTool } from '../types'
import { fioPrimaryMetrics, fioRawDevice, fioStorageNeed, fioVersion } from './describe'
import { FIO_INSTALL } from './install'
import { FIO_METRICS } from './metrics'
import { fioDefaults, fioParamsSchema, type FioParams } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export type { FioParams } from './params'
export { renderJobSection } from './job-options'

export const fioTool: BenchmarkTool<FioParams> = {
  id: 'fio',
  name: 'fio',
  categories: ['storage'],
  description:
    'Flexible I/O tester: random and sequential reads, writes and trims on files in the work directory (or a named raw device), with IOPS, bandwidth and latency percentiles from its JSON report.',
  params: fioParamsSchema,
  defaults: fioDefaults,
  windows: true,
  network: false,
  rawDevice: fioRawDevice,
  plan,
  parse,
  estimateSeconds,
  metrics: FIO_METRICS,
  primaryMetrics: fioPrimaryMetrics,
  storageNeed: fioStorageNeed,
  version: fioVersion,
  install: FIO_INSTALL
}
