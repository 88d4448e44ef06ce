import type { BenchmarkTool } from '../types'
import { iperfNetwork, iperfPrimaryMetrics, iperfVersion } from './describe'
import { iperfInstall } from './install'
import { iperfMetrics } from './metrics'
import { iperfDefaults, iperfParamsSchema, type IperfParams } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export const iperfTool: BenchmarkTool<IperfParams> = {
  id: 'iperf',
  name: 'iperf 2',
  categories: ['network'],
  description:
    "TCP or UDP throughput between the target and a peer with iperf 2 (the classic iperf, not iperf3): `iperf -s` on one machine, `iperf -c <peer> -r` on the other, both directions one after the other, as in study 000; UDP (-u) adds jitter and loss. Read from -y C (exact) or from iperf's text table.",
  params: iperfParamsSchema,
  defaults: iperfDefaults,
  windows: false,
  network: iperfNetwork,
  rawDevice: false,
  plan,
  parse,
  estimateSeconds,
  metrics: iperfMetrics,
  primaryMetrics: iperfPrimaryMetrics,
  storageNeed: () => undefined,
  version: iperfVersion,
  install: iperfInstall
}
