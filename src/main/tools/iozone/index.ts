import type { BenchmarkTool } from '../types'
import { iozonePrimaryMetrics, iozoneStorageNeed, iozoneVersion } from './describe'
import { iozoneInstall } from './install'
import { iozoneMetrics } from './metrics'
import { iozoneParamsSchema, type IozoneParams } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export const iozoneTool: BenchmarkTool<IozoneParams> = {
  id: 'iozone',
  name: 'IOzone',
  categories: ['storage'],
  description:
    'File system benchmark: write, rewrite, read, reread, random, backward, strided and stdio (fwrite/fread) throughput for every file size and record size of its auto mode.',
  params: iozoneParamsSchema,
  defaults: iozoneParamsSchema.parse({}),
  windows: false,
  network: false,
  rawDevice: false,
  plan,
  parse,
  estimateSeconds,
  metrics: iozoneMetrics,
  primaryMetrics: iozonePrimaryMetrics,
  storageNeed: iozoneStorageNeed,
  version: iozoneVersion,
  install: iozoneInstall
}
