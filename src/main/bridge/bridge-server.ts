import { randomBytes, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type WebSocket } from 'ws'
import {
  BRIDGE_PATH,
  BRIDGE_PROTOCOL,
  BRIDGE_TOKEN_PREFIX,
  ClientMessage,
  type ServerMessage
} from '../../shared/bridge-protocol'
import { contentSecurityPolicy } from '../../shared/csp'
import { dispatch } from '../api/dispatch'
import type { Api } from '../api/handlers'
import { loopbackBindAddress } from './loopback'
import { readStaticFile } from '../fs/static-files'

const MAX_MESSAGE_BYTES = 1024 * 1024

export interface BridgeOptions {
  api: Api
  /** The built renderer (out/renderer). */
  rendererDir: string
  host?: string
  /** 0 picks a free port. */
  port?: number
  /** Fixed token for tests; random (256 bits) otherwise. */
  token?: string
}

export interface Bridge {
  url: string
  host: string
  port: number
  token: string
  close(): Promise<void>
}

/**
 * `virtbench serve`: the built renderer and the API over HTTP + WebSocket on loopback only.
 * The API needs the token; requests whose Host or Origin is not this server are refused, so
 * other web pages (and DNS rebinding) cannot reach it.
 */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const bindHost = loopbackBindAddress(options.host ?? '127.0.0.1')
  const token = options.token ?? randomBytes(32).toString('hex')
  const { api, rendererDir } = options
  const sockets = new Set<WebSocket>()
  let allowedHosts = new Set<string>()

  const server = http.createServer((req, res) => {
    void serveHttp(req, res)
  })

  async function serveHttp(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff')
    res.setHeader('Referrer-Policy', 'no-referrer')
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin')
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin')
    if (!allowedHosts.has(req.headers.host ?? '')) return plain(res, 421, 'Unknown host.\n')
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method not allowed.\n')
    const pathname = new URL(req.url ?? '/', 'http://x').pathname
    const file = await readStaticFile(rendererDir, pathname)
    if (!file) return plain(res, 404, 'Not found.\n')
    res.statusCode = 200
    res.setHeader('Content-Type', file.contentType)
    res.setHeader('Cache-Control', 'no-store')
    if (file.contentType.startsWith('text/html')) {
      res.setHeader('Content-Security-Policy', contentSecurityPolicy())
      res.setHeader('X-Frame-Options', 'DENY')
    }
    res.end(req.method === 'HEAD' ? undefined : file.body)
  }

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (protocols) => (protocols.has(BRIDGE_PROTOCOL) ? BRIDGE_PROTOCOL : false)
  })

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = refuseUpgrade(req)
    if (refusal) {
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws))
  })

  function refuseUpgrade(req: http.IncomingMessage): string | undefined {
    if (!allowedHosts.has(req.headers.host ?? '')) return '421 Misdirected Request'
    if (new URL(req.url ?? '/', 'http://x').pathname !== BRIDGE_PATH) return '404 Not Found'
    const origin = req.headers.origin
    if (origin !== undefined && !allowedHosts.has(origin.replace(/^http:\/\//, ''))) return '403 Forbidden'
    const offered = String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
    if (!offered.includes(BRIDGE_PROTOCOL)) return '400 Bad Request'
    const presented = offered.find((p) => p.startsWith(BRIDGE_TOKEN_PREFIX))?.slice(BRIDGE_TOKEN_PREFIX.length)
    if (!presented || !sameToken(presented, token)) return '401 Unauthorized'
    return undefined
  }

  function onConnection(ws: WebSocket): void {
    sockets.add(ws)
    const send = (message: ServerMessage): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message))
    }
    const unsubscribe = api.hub.subscribe((event, payload) => send({ type: 'event', event, payload }))
    ws.on('message', (data, isBinary) => {
      void (async () => {
        let message: ClientMessage
        try {
          if (isBinary) throw new Error('binary frame')
          message = ClientMessage.parse(JSON.parse(data.toString()))
        } catch {
          ws.close(1008, 'Malformed message: expected {"type":"invoke","id":N,"channel":"...","payload":...}')
          return
        }
        send({ type: 'result', id: message.id, result: await dispatch(api.handlers, message.channel, message.payload) })
      })()
    })
    ws.on('close', () => {
      unsubscribe()
      sockets.delete(ws)
    })
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, bindHost, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const urlHost = bindHost.includes(':') ? `[${bindHost}]` : bindHost
  allowedHosts = new Set([`${urlHost}:${port}`, `localhost:${port}`])

  return {
    url: `http://${urlHost}:${port}/#token=${token}`,
    host: bindHost,
    port,
    token,
    close: async () => {
      for (const ws of sockets) ws.terminate()
      wss.close()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    }
  }
}

function sameToken(presented: string, expected: string): boolean {
  const a = Buffer.from(presented)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

function plain(res: http.ServerResponse, status: number, body: string): void {
  res.statusCode = status
  res.setHeader('Content-Type', 'text/plain; charset=utf-8')
  res.end(body)
}
