import { randomBytes, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import { describeBytes } from '../../shared/byte-limit'
import {
  BRIDGE_MESSAGE_LIMIT_BYTES,
  BRIDGE_PATH,
  BRIDGE_PROTOCOL,
  BRIDGE_TOKEN_PREFIX,
  type ServerMessage
} from '../../shared/bridge-protocol'
import type { Envelope } from '../../shared/contract'
import { contentSecurityPolicy } from '../../shared/csp'
import { dispatch } from '../api/dispatch'
import type { Api } from '../api/handlers'
import { readStaticFile } from '../fs/static-files'
import { MALFORMED_REASON, readClientMessage, tooBigAnswer, tooBigReason } from './client-message'
import { loopbackBindAddress } from './loopback'

/**
 * Messages up to this size are read, so one over BRIDGE_MESSAGE_LIMIT_BYTES is still answered
 * with an error; at a longer one ws closes the socket with 1009 without reading it.
 */
const SOCKET_READ_LIMIT_BYTES = 4 * BRIDGE_MESSAGE_LIMIT_BYTES
/**
 * Invokes of one socket being run or answered at once. Past it the socket is not read until
 * answers have gone out, so a flood, or a client that never reads its answers, waits in the
 * kernel's buffers instead of growing this process.
 */
const INVOKES_IN_FLIGHT_LIMIT = 64

export interface BridgeOptions {
  api: Api
  /** The built renderer (out/renderer). */
  rendererDir: string
  host?: string
  /** 0 picks a free port. */
  port?: number
  /** Fixed token for tests; random (256 bits) otherwise. */
  token?: string
  /** Told when a client's connection is cut for breaking the protocol (the server serves on). */
  onProblem?: (message: string) => void
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
  const onProblem = options.onProblem ?? (() => {})
  const sockets = new Set<WebSocket>()
  let allowedHosts = new Set<string>()

  const server = http.createServer((req, res) => {
    serveHttp(req, res).catch((error: unknown) => {
      onProblem(`could not answer ${req.method ?? 'a request'} ${req.url ?? ''}: ${error instanceof Error ? error.message : String(error)}`)
      if (res.headersSent) res.destroy()
      else plain(res, 500, 'Internal error.\n')
    })
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
    maxPayload: SOCKET_READ_LIMIT_BYTES,
    handleProtocols: (protocols) => (protocols.has(BRIDGE_PROTOCOL) ? BRIDGE_PROTOCOL : false)
  })

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = refuseUpgrade(req)
    if (refusal) {
      // a client that resets while being refused must not take the server down
      socket.on('error', () => socket.destroy())
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
    let inFlight = 0
    /** Sends a message; resolves when it has left for the kernel (or the socket is gone), rejects when JSON cannot carry it. */
    const send = (message: ServerMessage): Promise<void> =>
      new Promise((resolve) => {
        if (ws.readyState !== ws.OPEN) return resolve()
        ws.send(JSON.stringify(message), () => resolve())
      })
    /** Answers invoke `id` with `result` once it is known; counts it in flight until the answer has gone out. */
    const answer = async (id: number, result: Envelope<unknown> | Promise<Envelope<unknown>>): Promise<void> => {
      inFlight++
      if (inFlight >= INVOKES_IN_FLIGHT_LIMIT) ws.pause()
      try {
        await send({ type: 'result', id, result: await result })
      } catch (error) {
        // an answer JSON cannot carry (a bug in a handler): the caller still hears back
        await send({ type: 'result', id, result: { ok: false, error: { code: 'failed', message: `The answer could not be sent: ${(error as Error).message}` } } })
      } finally {
        inFlight--
        if (inFlight < INVOKES_IN_FLIGHT_LIMIT && ws.isPaused) ws.resume()
      }
    }
    const unsubscribe = api.hub.subscribe((event, payload) => {
      send({ type: 'event', event, payload }).catch((error: unknown) => onProblem(`could not send ${event}: ${(error as Error).message}`))
    })
    ws.on('message', (data, isBinary) => {
      const read = readClientMessage(asBuffer(data), isBinary)
      if (read.kind === 'malformed') return ws.close(1008, MALFORMED_REASON)
      if (read.kind === 'too-big') {
        if (!read.invoke) return ws.close(1009, tooBigReason(read.bytes))
        return void answer(read.invoke.id, tooBigAnswer(read.invoke.channel, read.bytes))
      }
      const { id, channel, payload } = read.message
      void answer(id, dispatch(api.handlers, channel, payload))
    })
    ws.on('error', (error: Error & { code?: string }) => {
      // ws has already closed the socket with the protocol's code (1002, 1007, 1009...)
      const what =
        error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
          ? `a message over ${describeBytes(SOCKET_READ_LIMIT_BYTES)}`
          : `a frame that breaks the WebSocket protocol (${error.message})`
      onProblem(`closed a connection that sent ${what}; other connections are not affected.`)
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

function asBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)
}
