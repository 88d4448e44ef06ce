import { serverPeer } from '../iperf3/server-peer'
import type { NetworkUse, VersionProbe } from '../types'
import type { IperfParams } from './params'

/** The bandwidth of each direction, as iperf 2 reports it, and in UDP mode its jitter and loss too. */
export function iperfPrimaryMetrics(params: Pick<IperfParams, 'protocol'>): readonly string[] {
  return params.protocol === 'udp' ? ['iperf.bandwidth', 'iperf.jitter', 'iperf.loss'] : ['iperf.bandwidth']
}

export const iperfNetwork: NetworkUse = serverPeer(5001)

/** iperf 2 prints its version on stderr (2.0.x) or stdout (2.1.x): `iperf version 2.1.8 (12 August 2022) pthreads`. */
export const iperfVersion: VersionProbe = { kind: 'command', command: 'iperf', args: ['-v'] }
