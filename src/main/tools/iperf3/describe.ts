import type { NetworkUse, VersionProbe } from '../types'
import type { Iperf3Params } from './params'
import { serverPeer } from './server-peer'

/**
 * What arrived at the receiver, for TCP and UDP alike (for UDP, iperf3.bandwidth is the rate offered);
 * a UDP test also exists to measure jitter and loss, so they are primary beside it.
 */
export function iperf3PrimaryMetrics(params: Pick<Iperf3Params, 'protocol'>): readonly string[] {
  return params.protocol === 'udp' ? ['iperf3.received.bandwidth', 'iperf3.jitter', 'iperf3.loss'] : ['iperf3.received.bandwidth']
}

export const iperf3Network: NetworkUse = serverPeer(5201)

/** `iperf3 --version` prints `iperf 3.12 (cJSON 1.7.15)`. */
export const iperf3Version: VersionProbe = { kind: 'command', command: 'iperf3', args: ['--version'] }
