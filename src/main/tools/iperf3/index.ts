import type { BenchmarkTool } from '../types'
import { iperf3Network, iperf3PrimaryMetrics, iperf3Version } from './describe'
import { iperf3Install } from './install'
import { iperf3Metrics } from './metrics'
import { iperf3Defaults, iperf3ParamsSchema, type Iperf3Params } from './params'
import { parse } from './parse'
import { estimateSeconds, plan } from './plan'

export const iperf3Tool: BenchmarkTool<Iperf3Params> = {
  id: 'iperf3',
  name: 'iperf3',
  categories: ['network'],
  description:
    'TCP or UDP throughput between the target and a peer: an iperf3 server on one machine, the measured client on the other (`iperf3 -s --bind <addr>` and `iperf3 -c <addr> -t 30` in study 001), read from its JSON (-J). Sent and received bandwidth and retransmits for TCP; bandwidth, jitter and loss for UDP; one way, the other way (-R) or both at once (--bidir); iperf3.exe on Windows.',
  params: iperf3ParamsSchema,
  defaults: iperf3Defaults,
  windows: true,
  network: iperf3Network,
  rawDevice: false,
  plan,
  parse,
  estimateSeconds,
  metrics: iperf3Metrics,
  primaryMetrics: iperf3PrimaryMetrics,
  storageNeed: () => undefined,
  version: iperf3Version,
  install: iperf3Install
}
