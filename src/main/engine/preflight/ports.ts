import type { Job } from '../../../shared/model/run'
import { TOOLS } from '../../tools/registry'
import type { ToolId } from '../../tools/types'

/** A TCP port a network test's server listens on, on one target. */
export interface ServerPort {
  port: number
  tool: ToolId
}

/**
 * Pure: per target name, the ports the servers of `jobs` listen on there (iperf3 and iperf 2 run
 * `-s` on the peer, or on the target with `serverOn: target`), each port once, in order.
 */
export function serverPortsByTarget(jobs: readonly Pick<Job, 'tool' | 'params' | 'target' | 'peer'>[]): Map<string, ServerPort[]> {
  const byTarget = new Map<string, ServerPort[]>()
  for (const job of jobs) {
    const network = TOOLS[job.tool].network
    if (!network || network.peerRuns !== 'server' || !network.serverPort) continue
    const on = job.params.serverOn === 'target' ? job.target : job.peer
    if (on === undefined) continue
    const port = network.serverPort(job.params)
    const ports = byTarget.get(on) ?? []
    if (!ports.some((p) => p.port === port)) ports.push({ port, tool: job.tool })
    byTarget.set(on, ports)
  }
  return byTarget
}
