import type { BenchmarkTool } from '../types'
import { pingNetwork, pingPrimaryMetrics, pingVersion } from './describe'
import { pingInstall } from './install'
import { pingMetrics } from './metrics'
import { pingDefaults, pingParamsSchema, type PingParams } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export const pingTool: BenchmarkTool<PingParams> = {
  id: 'ping',
  name: 'ping',
  categories: ['network'],
  description:
    "Round-trip time and packet loss from the target to the peer (or a named host) with ICMP echo: `ping -c 10 <peer>` as in study 000; ping.exe on Windows, which ships with the system.",
  params: pingParamsSchema,
  defaults: pingDefaults,
  windows: true,
  network: pingNetwork,
  rawDevice: false,
  plan,
  parse,
  estimateSeconds,
  metrics: pingMetrics,
  primaryMetrics: pingPrimaryMetrics,
  storageNeed: () => undefined,
  version: pingVersion,
  install: pingInstall
}
