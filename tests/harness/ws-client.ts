import WebSocket from 'ws'
import { BRIDGE_PATH, BRIDGE_PROTOCOL, BRIDGE_TOKEN_PREFIX } from '../../src/shared/bridge-protocol'

export interface BridgeConnection {
  socket: WebSocket
  invoke: (channel: string, payload?: unknown) => Promise<unknown>
  events: { event: string; payload: unknown }[]
  close: () => Promise<void>
}

/** A Node client of `virtbench serve`, speaking the same frames as the renderer's bridge client. */
export function connectBridge(
  origin: string,
  token: string,
  headers: Record<string, string> = {}
): Promise<BridgeConnection> {
  const url = origin.replace(/^http/, 'ws') + BRIDGE_PATH
  const socket = new WebSocket(url, [BRIDGE_PROTOCOL, BRIDGE_TOKEN_PREFIX + token], { headers })
  const pending = new Map<number, (result: unknown) => void>()
  const events: { event: string; payload: unknown }[] = []
  let nextId = 1
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string; id?: number; result?: unknown; event?: string; payload?: unknown }
    if (message.type === 'result' && message.id !== undefined) pending.get(message.id)?.(message.result)
    if (message.type === 'event') events.push({ event: message.event!, payload: message.payload })
  })
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    socket.once('error', reject)
    socket.once('open', () =>
      resolve({
        socket,
        events,
        invoke: (channel, payload) =>
          new Promise((done) => {
            const id = nextId++
            pending.set(id, done)
            socket.send(JSON.stringify({ type: 'invoke', id, channel, payload }))
          }),
        close: () =>
          new Promise<void>((closed) => {
            socket.once('close', () => closed())
            socket.close()
          })
      })
    )
  })
}
