import type { NetworkUse, VersionProbe } from '../types'
import type { Iperf3Params } from './params'
import { serverPeer } from './server-peer'

/** What arrived at the receiver, for TCP and UDP alike (for UDP, iperf3.bandwidth is the rate offered). */
export function iperf3PrimaryMetrics(_params: Iperf3Params): readonly string[] {
  return ['iperf3.received.bandwidth']
}

export const iperf3Network: NetworkUse = serverPeer(5201)

/** `iperf3 --version` prints `iperf 3.12 (cJSON 1.7.15)`. */
export const iperf3Version: VersionProbe = { kind: 'command', command: 'iperf3', args: ['--version'] }
