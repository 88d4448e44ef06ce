import type { BenchmarkTool } from '../types'
import { mbwPrimaryMetrics, mbwVersion } from './describe'
import { mbwInstall } from './install'
import { mbwMetrics } from './metrics'
import { mbwDefaults, mbwParamsSchema, type MbwParams } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export const mbwTool: BenchmarkTool<MbwParams> = {
  id: 'mbw',
  name: 'mbw',
  categories: ['memory'],
  description:
    'Memory copy bandwidth seen by a user program, with memcpy(), a plain copy loop and memcpy() in fixed blocks, averaged over several runs: `mbw 512` as in study 001.',
  params: mbwParamsSchema,
  defaults: mbwDefaults,
  windows: false,
  network: false,
  rawDevice: false,
  plan,
  parse,
  estimateSeconds,
  metrics: mbwMetrics,
  primaryMetrics: mbwPrimaryMetrics,
  storageNeed: () => undefined,
  version: mbwVersion,
  install: mbwInstall
}
