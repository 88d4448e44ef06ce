/**
 * Connecting to real servers and to things that are not SSH servers: stages reported live,
 * Nagle off, and clear errors for a closed port, a silent port, a port that never accepts, a
 * port that speaks something else, and a cancelled attempt.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Client } from 'ssh2'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect, ConnectError, type ConnectSpec, type StageDetail } from '../../../src/main/ssh/connect'
import type { ConnectStage } from '../../../src/main/ssh/connect-errors'
import { startSshd, type SshdServer } from '../../harness/sshd'

let dir: string
let server: SshdServer | undefined
const clients: Client[] = []
const cleanups: (() => Promise<void> | void)[] = []

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'virtbench-connect-'))
})

afterEach(async () => {
  for (const c of clients.splice(0)) c.end()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  await server?.stop()
  server = undefined
  await rm(dir, { recursive: true, force: true })
})

const acceptOnce = (): Promise<'accept-once'> => Promise.resolve('accept-once')

function options(extra: { onStage?: (stage: ConnectStage, detail: StageDetail) => void; signal?: AbortSignal } = {}) {
  return { decideHostKey: acceptOnce, knownHosts: { appFile: path.join(dir, 'known_hosts') }, ...extra }
}

function specFor(s: SshdServer, extra: Partial<ConnectSpec> = {}): ConnectSpec {
  return { host: s.host, port: s.port, username: s.username, auth: { method: 'key', privateKey: s.privateKey }, ...extra }
}

async function connectError(promise: Promise<unknown>): Promise<ConnectError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(ConnectError)
  return error as ConnectError
}

/** A TCP server on 127.0.0.1; `onConnection` decides what (if anything) it says. */
async function tcpServer(onConnection: (socket: net.Socket) => void): Promise<{ port: number; open: () => number }> {
  const sockets = new Set<net.Socket>()
  const srv = net.createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    socket.resume()
    onConnection(socket)
  })
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        srv.close(() => resolve())
      })
  )
  return { port: (srv.address() as net.AddressInfo).port, open: () => sockets.size }
}

async function closedPort(): Promise<number> {
  const srv = net.createServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address() as net.AddressInfo
  await new Promise<void>((resolve) => srv.close(() => resolve()))
  return port
}

/**
 * A port whose accept queue is full: a child process listens with backlog 1 and then blocks its
 * event loop, so it never accepts; once two connections wait in the queue, the kernel drops
 * further SYNs and a connect attempt hangs exactly as with a firewall that drops packets.
 */
async function neverAcceptingPort(): Promise<number> {
  const script =
    "const s=require('net').createServer();s.listen({port:0,host:'127.0.0.1',backlog:1},()=>{" +
    "process.stdout.write(String(s.address().port)+'\\n');" +
    'setTimeout(()=>Atomics.wait(new Int32Array(new SharedArrayBuffer(4)),0,0,20000),20)})'
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'ignore'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  cleanups.push(async () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL')
    await exited
  })
  const port = await new Promise<number>((resolve) => child.stdout?.once('data', (d: Buffer) => resolve(Number(String(d).trim()))))
  await new Promise((r) => setTimeout(r, 150))
  const fillers: net.Socket[] = []
  cleanups.push(() => fillers.forEach((f) => f.destroy()))
  for (let i = 0; i < 2; i++) {
    const filler = net.connect({ host: '127.0.0.1', port })
    filler.on('error', () => undefined)
    fillers.push(filler)
    await new Promise<void>((resolve) => filler.once('connect', () => resolve()))
  }
  return port
}

function noDelayIsSet(socket: net.Socket): boolean {
  const symbol = Object.getOwnPropertySymbols(socket).find((s) => s.description === 'kSetNoDelay')
  if (symbol === undefined) throw new Error('this Node version does not expose kSetNoDelay')
  return (socket as unknown as Record<symbol, unknown>)[symbol] === true
}

describe('connecting to a real sshd', () => {
  it('reports tcp, host-key, auth, ready in order, names the hop, and returns a ready client', async () => {
    server = await startSshd()
    const stages: [ConnectStage, string][] = []
    const client = await connect(
      specFor(server, { label: 'kvm-host' }),
      options({ onStage: (stage, detail) => stages.push([stage, detail.message]) })
    )
    clients.push(client)
    expect(stages.map(([s]) => s)).toEqual(['tcp', 'host-key', 'host-key', 'auth', 'ready'])
    expect(stages[0]?.[1]).toBe(`Connecting to 127.0.0.1:${server.port} (target 'kvm-host')`)
    expect(stages[2]?.[1]).toContain(server.hostKeyFingerprint)
    expect(stages[3]?.[1]).toMatch(/^Logging in as \S+ with the key ssh-ed25519 SHA256:/)
    const out = await new Promise<string>((resolve, reject) =>
      client.exec('echo "$SSH_CONNECTION"', (err, stream) => {
        if (err) return reject(err)
        let text = ''
        stream.on('data', (d: Buffer) => (text += d.toString()))
        stream.on('close', () => resolve(text))
      })
    )
    expect(out.trim()).toMatch(new RegExp(`^127\\.0\\.0\\.1 \\d+ 127\\.0\\.0\\.1 ${server.port}$`))
  })

  it('with a remembered key, the host-key stage says where the key is known', async () => {
    server = await startSshd()
    const appFile = path.join(dir, 'known_hosts')
    await writeFile(appFile, `[127.0.0.1]:${server.port} ${server.hostPublicKey}\n`)
    const stages: [ConnectStage, StageDetail][] = []
    const client = await connect(specFor(server), { ...options({ onStage: (stage, detail) => stages.push([stage, detail]) }) })
    clients.push(client)
    expect(stages.map(([s]) => s)).toEqual(['tcp', 'host-key', 'host-key', 'auth', 'ready'])
    expect(stages[2]?.[1]).toMatchObject({
      message: `Host key ssh-ed25519 ${server.hostKeyFingerprint} is known (${appFile} line 1)`,
      keyType: 'ssh-ed25519',
      fingerprint: server.hostKeyFingerprint,
      hop: { label: '127.0.0.1', host: '127.0.0.1', port: server.port, role: 'target' }
    })
  })

  it('turns Nagle off on the TCP socket', async () => {
    server = await startSshd()
    const client = await connect(specFor(server), options())
    clients.push(client)
    const sock = (client as unknown as { _sock: net.Socket })._sock
    expect(sock).toBeInstanceOf(net.Socket)
    expect(noDelayIsSet(sock)).toBe(true)
  })

  it('ending the client closes the connection on the server', async () => {
    server = await startSshd()
    const s = server
    const client = await connect(specFor(s), options())
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()))
    client.end()
    await closed
    const deadline = Date.now() + 20_000
    while (!/Disconnected from user/.test(s.logs()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
    expect(s.logs()).toMatch(/Disconnected from user \S+ 127\.0\.0\.1/)
  })
})

/** PIDs of `root` and all its descendants, from /proc. */
/** Sends `signal` to `pid`, unless it has ended already. */
function signalIfThere(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err
  }
}

async function processTree(root: number): Promise<number[]> {
  const parents = new Map<number, number>()
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '')
    if (stat !== '') parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
  }
  const tree = [root]
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid)
  }
  return tree
}

describe('keepalive', () => {
  it('a server that stops answering is detected by the keepalive settings of the spec', async () => {
    server = await startSshd()
    const s = server
    const client = await connect(specFor(s, { keepaliveIntervalMs: 200, keepaliveCountMax: 2 }), options())
    const errors: string[] = []
    client.on('error', (e) => errors.push(e.message))
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()))
    // Freeze the sshd processes this test started (SIGSTOP), so keepalives go unanswered.
    // (a process of the tree may end between the scan and the signal: sshd's pre-auth child ends
    // once the login is through, which a loaded machine may put just after the scan)
    const frozen = await processTree(s.pid)
    cleanups.push(() => frozen.forEach((pid) => signalIfThere(pid, 'SIGCONT')))
    frozen.forEach((pid) => signalIfThere(pid, 'SIGSTOP'))
    // the client gives up on its own keepalives (TCP alone would wait minutes; the test's deadline
    // is the bound): no wall-clock bound here, which a loaded machine stretches either way
    await closed
    expect(errors).toEqual(['Keepalive timeout'])
  })
})

describe('errors before SSH', () => {
  it('a closed port: refused, naming host, port and target', async () => {
    const port = await closedPort()
    const error = await connectError(
      connect({ host: '127.0.0.1', port, username: 'u', auth: { method: 'password', password: 'x' }, label: 'kvm-host' }, options())
    )
    expect(error.code).toBe('refused')
    expect(error.stage).toBe('tcp')
    expect(error.message).toBe(`Connection refused by 127.0.0.1:${port} (target 'kvm-host'): is sshd running and the port right?`)
  })

  it('a port that accepts and stays silent: timeout after readyTimeoutMs, saying no SSH greeting came, nothing left open', async () => {
    const silent = await tcpServer(() => undefined)
    const started = Date.now()
    const error = await connectError(
      connect(
        { host: '127.0.0.1', port: silent.port, username: 'u', auth: { method: 'password', password: 'x' }, readyTimeoutMs: 700, label: 'quiet' },
        options()
      )
    )
    const elapsed = Date.now() - started
    expect(error.code).toBe('timeout')
    expect(error.message).toBe(
      `127.0.0.1:${silent.port} (target 'quiet') accepted the connection but sent no SSH greeting within 0.7 s: is an SSH server listening on port ${silent.port}?`
    )
    // not before its readyTimeoutMs (a timer never fires early); no upper bound a loaded machine could stretch
    expect(elapsed).toBeGreaterThanOrEqual(650)
    const deadline = Date.now() + 20_000
    while (silent.open() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(silent.open()).toBe(0)
  })

  it('a port that never completes the TCP handshake: timeout naming host and port', async () => {
    const port = await neverAcceptingPort()
    const error = await connectError(
      connect({ host: '127.0.0.1', port, username: 'u', auth: { method: 'password', password: 'x' }, readyTimeoutMs: 600 }, options())
    )
    expect(error.code).toBe('timeout')
    expect(error.stage).toBe('tcp')
    expect(error.message).toBe(
      `No answer from 127.0.0.1:${port} (target '127.0.0.1') within 0.6 s: is the host up, is the port right, and is a firewall dropping the connection?`
    )
  })

  it('a port that speaks another protocol: quotes what it said', async () => {
    const http = await tcpServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n'))
    const error = await connectError(
      connect({ host: '127.0.0.1', port: http.port, username: 'u', auth: { method: 'password', password: 'x' }, readyTimeoutMs: 5000 }, options())
    )
    expect(error.code).toBe('protocol')
    expect(error.message).toBe(
      `127.0.0.1:${http.port} (target '127.0.0.1') answered "HTTP/1.1 400 Bad Request", which is not an SSH greeting: is this the SSH port?`
    )
  })

  it('an invalid spec is refused before any network traffic', async () => {
    const error = await connectError(
      connect({ host: 'bad host', port: 70_000, username: 'u', auth: { method: 'password', password: 'x' } }, options())
    )
    expect(error.code).toBe('invalid-spec')
    expect(error.message).toContain('contains spaces')
  })
})

describe('cancelling', () => {
  it('aborting while the host key decision is pending closes everything and rejects with cancelled', async () => {
    server = await startSshd()
    const s = server
    const controller = new AbortController()
    const pending = connect(specFor(s), {
      decideHostKey: () => {
        setTimeout(() => controller.abort(), 50)
        return new Promise(() => undefined)
      },
      knownHosts: { appFile: path.join(dir, 'known_hosts') },
      signal: controller.signal
    })
    const error = await connectError(pending)
    expect(error.code).toBe('cancelled')
    expect(error.stage).toBe('host-key')
    const deadline = Date.now() + 20_000
    const closedBeforeAuth = /(Connection (closed|reset) by|Disconnected from) 127\.0\.0\.1 port \d+ \[preauth\]/
    while (!closedBeforeAuth.test(s.logs()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
    expect(s.logs()).toMatch(closedBeforeAuth)
  })

  it('an already aborted signal never connects', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await connectError(
      connect({ host: '127.0.0.1', port: 22, username: 'u', auth: { method: 'password', password: 'x' } }, options({ signal: controller.signal }))
    )
    expect(error.code).toBe('cancelled')
  })
})
