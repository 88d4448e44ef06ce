import type { BenchmarkTool } from '../types'
import { bonniePrimaryMetrics, bonnieStorageNeed, bonnieVersion } from './describe'
import { bonnieInstall } from './install'
import { bonnieMetrics } from './metrics'
import { bonnieParamsSchema, type BonnieParams } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export const bonnieTool: BenchmarkTool<BonnieParams> = {
  id: 'bonnie',
  name: 'bonnie++',
  categories: ['storage'],
  description:
    'File system benchmark: sequential writes and reads per character and per block, rewrite, random seeks, and file creation, stat and deletion rates, with CPU use and worst latency of each.',
  params: bonnieParamsSchema,
  defaults: bonnieParamsSchema.parse({}),
  windows: false,
  network: false,
  rawDevice: false,
  plan,
  parse,
  estimateSeconds,
  metrics: bonnieMetrics,
  primaryMetrics: bonniePrimaryMetrics,
  storageNeed: bonnieStorageNeed,
  version: bonnieVersion,
  install: bonnieInstall
}
