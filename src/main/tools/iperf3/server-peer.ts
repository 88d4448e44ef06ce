import type { NetworkUse } from '../types'

/**
 * The peer side of iperf and iperf3: a server the client talks to. A server serves one client at
 * a time, so several clients at once each get a server of their own on the test's port plus n
 * (study 000 used 5001 and 12000); the server listens only on the address its client dials,
 * unless the test says where (`serverBind`) or runs the server on the target (`serverOn`).
 */
export function serverPeer(defaultPort: number): NetworkUse {
  const serverPort = (params: Record<string, unknown>): number => (typeof params.port === 'number' ? params.port : defaultPort)
  return {
    peerRuns: 'server',
    serverPort,
    nthClient(params, index) {
      if (index === 0) return params
      return { ...params, port: serverPort(params) + index }
    },
    bindServer(params, address) {
      if (params.serverBind !== undefined || (params.serverOn ?? 'peer') !== 'peer') return undefined
      return { ...params, serverBind: address }
    }
  }
}
