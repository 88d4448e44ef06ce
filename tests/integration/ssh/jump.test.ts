/**
 * Jump hosts (like OpenSSH ProxyJump) through real sshd servers. That the connection really went
 * through the jump is proven from the kernel's socket table: the source port the target sees
 * belongs to a socket held by the jump's sshd process, not by this test process.
 */
import { mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { Client } from 'ssh2'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect, ConnectError, type ConnectSpec, type HostKeyQuestion } from '../../../src/main/ssh/connect'
import { startSshd, type SshdServer } from '../../harness/sshd'

let dir: string
const servers: SshdServer[] = []
const clients: Client[] = []

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'virtbench-jump-'))
})

afterEach(async () => {
  for (const c of clients.splice(0)) c.end()
  for (const s of servers.splice(0)) await s.stop()
  await rm(dir, { recursive: true, force: true })
})

async function sshd(options: Parameters<typeof startSshd>[0] = {}): Promise<SshdServer> {
  const s = await startSshd(options)
  servers.push(s)
  return s
}

function hop(s: SshdServer, label: string, jump?: ConnectSpec): ConnectSpec {
  return {
    host: s.host,
    port: s.port,
    username: s.username,
    auth: { method: 'key', privateKey: s.privateKey },
    label,
    readyTimeoutMs: 10_000,
    ...(jump ? { jump } : {})
  }
}

function opts(questions: HostKeyQuestion[] = []) {
  return {
    decideHostKey: (q: HostKeyQuestion) => {
      questions.push(q)
      return Promise.resolve('accept-once' as const)
    },
    knownHosts: { appFile: path.join(dir, 'known_hosts') }
  }
}

function exec(client: Client, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, stream) => {
      if (err) {
        reject(err)
        return
      }
      let out = ''
      stream.on('data', (d: Buffer) => (out += d.toString()))
      stream.stderr.resume()
      stream.on('close', () => resolve(out))
    })
  })
}

/** The PID holding the established 127.0.0.1 socket from `localPort` to `remotePort`. */
async function pidOwningSocket(localPort: number, remotePort: number): Promise<number | undefined> {
  const hex = (p: number): string => p.toString(16).toUpperCase().padStart(4, '0')
  const rows = (await readFile('/proc/net/tcp', 'utf8')).split('\n').slice(1).map((l) => l.trim().split(/\s+/))
  const row = rows.find((f) => f[1] === `0100007F:${hex(localPort)}` && f[2] === `0100007F:${hex(remotePort)}` && f[3] === '01')
  const inode = row?.[9]
  if (inode === undefined) return undefined
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let fds: string[]
    try {
      fds = await readdir(`/proc/${entry}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      const link = await readlink(`/proc/${entry}/fd/${fd}`).catch(() => '')
      if (link === `socket:[${inode}]`) return Number(entry)
    }
  }
  return undefined
}

async function parentOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
}

async function isDescendantOf(pid: number, ancestor: number): Promise<boolean> {
  for (let p = pid; p > 1; p = await parentOf(p)) if (p === ancestor) return true
  return false
}

/** `$SSH_CONNECTION` on the target: "client-ip client-port server-ip server-port". */
async function sourcePortSeenByTarget(client: Client): Promise<number> {
  const [, port] = (await exec(client, 'echo "$SSH_CONNECTION"')).trim().split(' ')
  return Number(port)
}

describe('jump hosts', () => {
  it('reaches the target through the jump: the target sees a socket of the jump sshd, and the jump logs direct-tcpip', async () => {
    const jump = await sshd({ extraConfig: ['LogLevel DEBUG1'] })
    const target = await sshd()
    const questions: HostKeyQuestion[] = []
    const client = await connect(hop(target, 'kvm-host', hop(jump, 'bastion')), opts(questions))
    clients.push(client)

    const sourcePort = await sourcePortSeenByTarget(client)
    const owner = await pidOwningSocket(sourcePort, target.port)
    expect(owner).toBeDefined()
    expect(owner).not.toBe(process.pid)
    expect(await isDescendantOf(owner as number, jump.pid)).toBe(true)
    expect(jump.logs()).toContain(`server_request_direct_tcpip: originator 127.0.0.1 port 0, target 127.0.0.1 port ${target.port}`)
    expect(target.logs()).toContain(`Connection from 127.0.0.1 port ${sourcePort} on 127.0.0.1 port ${target.port}`)

    expect(questions.map((q) => [q.label, q.role, q.port, q.fingerprint])).toEqual([
      ['bastion', 'jump', jump.port, jump.hostKeyFingerprint],
      ['kvm-host', 'target', target.port, target.hostKeyFingerprint]
    ])
  })

  it('follows a chain of two jumps, each hop opening the next', async () => {
    const outer = await sshd({ extraConfig: ['LogLevel DEBUG1'] })
    const inner = await sshd({ extraConfig: ['LogLevel DEBUG1'] })
    const target = await sshd()
    const client = await connect(hop(target, 'guest', hop(inner, 'inner', hop(outer, 'outer'))), opts())
    clients.push(client)
    const sourcePort = await sourcePortSeenByTarget(client)
    expect(await isDescendantOf((await pidOwningSocket(sourcePort, target.port)) as number, inner.pid)).toBe(true)
    expect(outer.logs()).toContain(`target 127.0.0.1 port ${inner.port}`)
    expect(inner.logs()).toContain(`target 127.0.0.1 port ${target.port}`)
  })

  it('ending the target connection ends the jump connection too', async () => {
    const jump = await sshd()
    const target = await sshd()
    const client = await connect(hop(target, 'kvm-host', hop(jump, 'bastion')), opts())
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()))
    client.end()
    await closed
    const deadline = Date.now() + 3000
    while (!/Disconnected from user/.test(jump.logs()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
    expect(jump.logs()).toMatch(/Disconnected from user \S+ 127\.0\.0\.1/)
  })

  it('a jump that may not forward says so (AllowTcpForwarding)', async () => {
    const jump = await sshd({ extraConfig: ['AllowTcpForwarding no'] })
    const target = await sshd()
    const error = await connect(hop(target, 'kvm-host', hop(jump, 'bastion')), opts()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConnectError)
    const e = error as ConnectError
    expect(e.code).toBe('jump-failed')
    expect(e.message).toContain(`Jump host 'bastion' (127.0.0.1:${jump.port}) could not open a connection to 127.0.0.1:${target.port} (target 'kvm-host')`)
    expect(e.message).toContain('AllowTcpForwarding')
  })

  it('a jump that cannot reach the target names both', async () => {
    const jump = await sshd()
    const target = await sshd()
    const port = target.port
    await target.stop()
    const error = (await connect(hop(target, 'kvm-host', hop(jump, 'bastion')), opts()).catch((e: unknown) => e)) as ConnectError
    expect(error).toBeInstanceOf(ConnectError)
    expect(error.code).toBe('jump-failed')
    expect(error.message).toContain(`127.0.0.1:${port} (target 'kvm-host')`)
    expect(error.message).toMatch(/Connection refused/i)
    // the jump connection opened for this attempt was closed again
    const deadline = Date.now() + 3000
    while (!/Disconnected from user/.test(jump.logs()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
    expect(jump.logs()).toMatch(/Disconnected from user \S+ 127\.0\.0\.1/)
  })

  it('a failure on the jump host itself names the jump host on the way to the target', async () => {
    const jump = await sshd()
    const target = await sshd()
    const wrongKey = { ...hop(jump, 'bastion'), auth: { method: 'key' as const, privateKey: target.privateKey } }
    const error = (await connect(hop(target, 'kvm-host', wrongKey), opts()).catch((e: unknown) => e)) as ConnectError
    expect(error).toBeInstanceOf(ConnectError)
    expect(error.code).toBe('auth-failed')
    expect(error.hop).toEqual({ label: 'bastion', host: '127.0.0.1', port: jump.port, role: 'jump', targetLabel: 'kvm-host' })
    expect(error.message).toContain(`127.0.0.1:${jump.port} (jump host 'bastion' on the way to 'kvm-host')`)
    expect(target.logs()).not.toMatch(/Accepted/)
  })
})
