import { BRIDGE_PATH, BRIDGE_PROTOCOL, BRIDGE_TOKEN_PREFIX, ServerMessage } from '../../../shared/bridge-protocol'
import type { EventChannel, InvokeChannel } from '../../../shared/channels'
import type { Envelope, VirtbenchPreloadApi } from '../../../shared/contract'

export type ConnectionState = 'connecting' | 'open' | 'lost'

interface Pending {
  resolve: (envelope: Envelope<unknown>) => void
}

/**
 * The renderer's side of `virtbench serve`: the same envelope API as the preload, over a
 * WebSocket that reconnects with backoff when the server goes away.
 */
export function createBridgeClient(
  token: string,
  onState: (state: ConnectionState) => void
): VirtbenchPreloadApi {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${BRIDGE_PATH}`
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>()
  const pending = new Map<number, Pending>()
  const queue: string[] = []
  let nextId = 1
  let socket: WebSocket
  let retry = 0

  const connect = (): void => {
    onState('connecting')
    socket = new WebSocket(url, [BRIDGE_PROTOCOL, `${BRIDGE_TOKEN_PREFIX}${token}`])
    socket.addEventListener('open', () => {
      retry = 0
      onState('open')
      for (const frame of queue.splice(0)) socket.send(frame)
    })
    socket.addEventListener('message', (message) => {
      const parsed = ServerMessage.safeParse(JSON.parse(String(message.data)))
      if (!parsed.success) return
      const data = parsed.data
      if (data.type === 'result') {
        pending.get(data.id)?.resolve(data.result as Envelope<unknown>)
        pending.delete(data.id)
      } else {
        for (const listener of listeners.get(data.event) ?? []) listener(data.payload)
      }
    })
    socket.addEventListener('close', () => {
      onState('lost')
      for (const [id, call] of pending) {
        call.resolve({
          ok: false,
          error: { code: 'unavailable', message: 'The connection to virtbench serve was lost before it answered.' }
        })
        pending.delete(id)
      }
      retry = Math.min(retry + 1, 6)
      setTimeout(connect, 250 * 2 ** retry)
    })
  }
  connect()

  return {
    invoke(channel: InvokeChannel, payload: unknown) {
      const id = nextId++
      const frame = JSON.stringify({ type: 'invoke', id, channel, payload })
      return new Promise<Envelope<unknown>>((resolve) => {
        pending.set(id, { resolve })
        if (socket.readyState === WebSocket.OPEN) socket.send(frame)
        else queue.push(frame)
      })
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
      return () => set.delete(listener)
    }
  }
}
