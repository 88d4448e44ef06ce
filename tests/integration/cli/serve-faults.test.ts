/**
 * `virtbench serve` under hostile or careless clients: messages over the limits, frames that break
 * the WebSocket protocol, and a flood. The built CLI runs as its own process, so a crash would show
 * as its exit; after each fault the server must still answer `app:info`, on a new socket and on
 * the old one when that stays open.
 */
import net from 'node:net'
import { randomBytes } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BRIDGE_MESSAGE_LIMIT_BYTES, BRIDGE_PATH, BRIDGE_PROTOCOL, BRIDGE_TOKEN_PREFIX } from '../../../src/shared/bridge-protocol'
import { PRESET_TEXT_LIMIT_BYTES } from '../../../src/shared/presets-contract'
import { startServe, type ServeProcess } from '../../harness/serve'
import { connectBridge, type BridgeConnection } from '../../harness/ws-client'

const closings = new WeakMap<BridgeConnection, Promise<{ code: number; reason: string }>>()

/** The close code and reason the server sent, or 1006 when the connection ended without one. */
function closed(client: BridgeConnection): Promise<{ code: number; reason: string }> {
  const known = closings.get(client)
  if (known) return known
  const closing = new Promise<{ code: number; reason: string }>((resolve) =>
    client.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }))
  )
  closings.set(client, closing)
  return closing
}

/** `client.invoke`, or an error when the server closes the socket (or dies) before it answers. */
function invoke(client: BridgeConnection, channel: string, payload?: unknown): Promise<unknown> {
  return Promise.race([
    client.invoke(channel, payload),
    closed(client).then(({ code, reason }) => {
      throw new Error(`the server closed the socket (${code} ${reason}) before it answered ${channel}`)
    })
  ])
}

/** One masked client frame (RFC 6455 5.2) with a payload under 64 KiB. */
function clientFrame(firstByte: number, payload: Buffer): Buffer {
  const mask = randomBytes(4)
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!))
  return Buffer.concat([Buffer.from([firstByte, 0x80 | (payload.length < 126 ? payload.length : 126)]), payload.length < 126 ? Buffer.alloc(0) : Buffer.from([payload.length >> 8, payload.length & 0xff]), mask, masked])
}

/** The API socket opened by hand, after the handshake: no WebSocket library between the test and the server. */
function openRawSocket(serve: ServeProcess): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(serve.port, '127.0.0.1')
    let head = Buffer.alloc(0)
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end < 0) return
      socket.off('data', onData)
      const status = head.subarray(0, end).toString('latin1').split('\r\n')[0] ?? ''
      if (!status.startsWith('HTTP/1.1 101 ')) return reject(new Error(`handshake refused: ${status}`))
      // a frame sent with the 101 stays readable
      if (end + 4 < head.length) socket.unshift(head.subarray(end + 4))
      resolve(socket)
    }
    socket.once('error', reject)
    socket.on('data', onData)
    socket.write(
      [
        `GET ${BRIDGE_PATH} HTTP/1.1`,
        `Host: 127.0.0.1:${serve.port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        `Sec-WebSocket-Protocol: ${BRIDGE_PROTOCOL}, ${BRIDGE_TOKEN_PREFIX}${serve.token}`,
        '',
        ''
      ].join('\r\n')
    )
  })
}

/** Writes `bytes` on a fresh socket and resolves with the code of the close frame the server answers with. */
async function closeCodeFor(serve: ServeProcess, bytes: Buffer): Promise<number> {
  const socket = await openRawSocket(serve)
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0)
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no close frame within 30 s; received ${JSON.stringify(received.toString('latin1').slice(0, 200))}`))
    }, 30_000)
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      // the server's close frame: opcode 8, unmasked, the code in the first two payload bytes
      if (received.length >= 4 && received[0] === 0x88) {
        clearTimeout(timer)
        socket.destroy()
        resolve(received.readUInt16BE(2))
      }
    })
    socket.write(bytes)
  })
}

describe('virtbench serve survives any message', () => {
  let serve: ServeProcess

  // a server of its own for each fault, so each one shows whether it alone brings the server down
  beforeEach(async () => {
    serve = await startServe()
  })

  afterEach(async () => {
    // exit code 0 from SIGTERM: the process was alive to the end
    expect(await serve.stop(), serve.stderr()).toBe(0)
  })

  const stillServing = async (old?: BridgeConnection): Promise<void> => {
    const info = { ok: true, value: expect.objectContaining({ transport: 'bridge', dataDir: serve.dataDir }) }
    const fresh = await connectBridge(serve.origin, serve.token)
    expect(await invoke(fresh, 'app:info')).toEqual(info)
    await fresh.close()
    if (old) expect(await invoke(old, 'app:info')).toEqual(info)
    expect(serve.child.exitCode).toBeNull()
  }

  it('refuses a 2 MB preset (1,000,000 "é") by its size in bytes, and serves on', async () => {
    const client = await connectBridge(serve.origin, serve.token)
    const text = 'é'.repeat(1_000_000)
    // fewer characters than the limit has bytes: a limit counted in characters let it through
    expect(text.length).toBeLessThan(PRESET_TEXT_LIMIT_BYTES)
    const refusal = 'a preset file is at most 1048576 bytes (1 MiB) in UTF-8; this one is 2000000 bytes'
    expect(await invoke(client, 'presets:import', { text, fileName: 'huge.json' })).toEqual({
      ok: false,
      error: {
        code: 'invalid-request',
        message: `Invalid request for presets:import: text: ${refusal}`,
        issues: [{ path: 'text', message: refusal }]
      }
    })
    await stillServing(client)
    await client.close()
  })

  it('answers a message over the frame limit with an error naming the limit, and keeps the socket open', async () => {
    const client = await connectBridge(serve.origin, serve.token)
    const text = 'x'.repeat(BRIDGE_MESSAGE_LIMIT_BYTES)
    const answer = (await invoke(client, 'presets:import', { text })) as { ok: boolean; error: { code: string; message: string } }
    expect(answer.ok).toBe(false)
    expect(answer.error.code).toBe('invalid-request')
    const size = Buffer.byteLength(JSON.stringify({ type: 'invoke', id: 1, channel: 'presets:import', payload: { text } }))
    expect(answer.error.message).toBe(
      `This presets:import request is ${size} bytes; virtbench serve reads messages of at most 4194304 bytes (4 MiB), so it was not run. Send less in one request (a smaller file, for example).`
    )
    await stillServing(client)
    await client.close()
  })

  it('closes a socket whose message is far over the limit with 1009, naming the limit, and serves on', async () => {
    const client = await connectBridge(serve.origin, serve.token)
    client.socket.on('error', () => {})
    const ended = closed(client)
    client.socket.send(Buffer.alloc(20 * 1024 * 1024, 0x20).toString())
    expect((await ended).code).toBe(1009)
    await stillServing()
    expect(serve.stderr()).toContain('virtbench serve: closed a connection that sent a message over 16777216 bytes (16 MiB); other connections are not affected.')
  })

  it('closes a socket that sends a malformed frame with the protocol\'s code, and serves on', async () => {
    // a text frame that is not UTF-8: 1007
    expect(await closeCodeFor(serve, clientFrame(0x81, Buffer.from([0xff, 0xfe, 0xfd])))).toBe(1007)
    // opcode 3 is reserved: 1002
    expect(await closeCodeFor(serve, clientFrame(0x83, Buffer.from('x')))).toBe(1002)
    // a client frame without a mask: 1002
    expect(await closeCodeFor(serve, Buffer.from([0x81, 0x02, 0x7b, 0x7d]))).toBe(1002)
    // a control frame longer than 125 bytes: 1002
    expect(await closeCodeFor(serve, clientFrame(0x89, Buffer.alloc(200, 0x61)))).toBe(1002)
    // JSON that is not an invoke, and a binary frame: 1008
    expect(await closeCodeFor(serve, clientFrame(0x81, Buffer.from('{"type":"shell"}')))).toBe(1008)
    expect(await closeCodeFor(serve, clientFrame(0x82, Buffer.from('{}')))).toBe(1008)
    await stillServing()
  })

  it('answers every one of 5,000 invokes sent at once, and serves on', async () => {
    const client = await connectBridge(serve.origin, serve.token)
    const answers = await Promise.all(Array.from({ length: 5000 }, () => invoke(client, 'settings:get')))
    expect(answers).toHaveLength(5000)
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(new Set([JSON.stringify({ ok: true, value: { theme: 'system' } })]))
    await stillServing(client)
    await client.close()
  })

  it('survives 5,000 frames from each of three sockets that never read their answers, and serves on', async () => {
    const frame = clientFrame(0x81, Buffer.from(JSON.stringify({ type: 'invoke', id: 1, channel: 'app:info' })))
    const sockets = await Promise.all([1, 2, 3].map(() => openRawSocket(serve)))
    for (const socket of sockets) {
      // never read: the answers pile up on the server's side
      socket.pause()
      socket.write(Buffer.concat(Array.from({ length: 5000 }, () => frame)))
    }
    await stillServing()
    for (const socket of sockets) socket.destroy()
    await stillServing()
  })
})
