import type { NetworkUse, VersionProbe } from '../types'
import type { PingParams } from './params'

/** The mean round trip is what study 000 tabulates; min, max, spread and loss are secondary. */
export function pingPrimaryMetrics(_params: PingParams): readonly string[] {
  return ['ping.rtt.avg']
}

/** The peer only answers, from its kernel: nothing is installed or started there. */
export const pingNetwork: NetworkUse = { peerRuns: 'none' }

/** iputils `ping -V` prints `ping from iputils 20221126`; BusyBox ping prints its usage with the BusyBox version. */
export const pingVersion: VersionProbe = { kind: 'command', command: 'ping', args: ['-V'] }
