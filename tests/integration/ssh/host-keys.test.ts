/**
 * Host key verification against real OpenSSH servers: known_hosts entries written the way
 * OpenSSH writes them (plain, `[host]:port`, hashed by `ssh-keygen -H`, @revoked), the decision
 * for unknown keys, and the app's own known_hosts file read back by OpenSSH's own tools.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Client } from 'ssh2'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connect, ConnectError, type ConnectSpec, type HostKeyDecision, type HostKeyQuestion } from '../../../src/main/ssh/connect'
import { startSshd, type SshdServer } from '../../harness/sshd'

const run = promisify(execFile)

let dir: string
let server: SshdServer | undefined
let userFile: string
let appFile: string
const clients: Client[] = []

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'virtbench-hostkeys-'))
  userFile = path.join(dir, 'user_known_hosts')
  appFile = path.join(dir, 'app', 'known_hosts')
})

afterEach(async () => {
  for (const c of clients.splice(0)) c.end()
  await server?.stop()
  server = undefined
  await rm(dir, { recursive: true, force: true })
})

function spec(s: SshdServer, extra: Partial<ConnectSpec> = {}): ConnectSpec {
  return {
    host: s.host,
    port: s.port,
    username: s.username,
    auth: { method: 'key', privateKey: s.privateKey },
    label: 'lab-host',
    readyTimeoutMs: 10_000,
    ...extra
  }
}

/** A decider that records every question and answers `answer`. */
function recordingDecider(answer: HostKeyDecision): { questions: HostKeyQuestion[]; decide: (q: HostKeyQuestion) => Promise<HostKeyDecision> } {
  const questions: HostKeyQuestion[] = []
  return {
    questions,
    decide: (q) => {
      questions.push(q)
      return Promise.resolve(answer)
    }
  }
}

async function connectWith(s: SshdServer, answer: HostKeyDecision): Promise<{ client: Client; questions: HostKeyQuestion[] }> {
  const decider = recordingDecider(answer)
  const client = await connect(spec(s), { decideHostKey: decider.decide, knownHosts: { userFile, appFile } })
  clients.push(client)
  return { client, questions: decider.questions }
}

async function expectConnectError(promise: Promise<unknown>): Promise<ConnectError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(ConnectError)
  return error as ConnectError
}

/** Established TCP connections to `port` on 127.0.0.1, from /proc/net/tcp (either direction). */
async function establishedTo(port: number): Promise<number> {
  const text = await readFile('/proc/net/tcp', 'utf8')
  const hex = port.toString(16).toUpperCase().padStart(4, '0')
  return text
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[3] === '01' && (f[1]?.endsWith(`:${hex}`) || f[2]?.endsWith(`:${hex}`))).length
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 3000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}

async function otherKey(type: 'ed25519' | 'rsa' = 'ed25519'): Promise<{ line: string; fingerprint: string }> {
  const file = path.join(dir, `other_${type}_${Math.random().toString(16).slice(2)}`)
  await run('ssh-keygen', ['-q', '-t', type, '-N', '', '-f', file])
  const { stdout } = await run('ssh-keygen', ['-lf', `${file}.pub`])
  const pub = (await readFile(`${file}.pub`, 'utf8')).trim().split(/\s+/)
  return { line: `${pub[0]} ${pub[1]}`, fingerprint: stdout.split(/\s+/)[1] as string }
}

function hostKeyLine(s: SshdServer): string {
  return s.hostPublicKey.split(/\s+/).slice(0, 2).join(' ')
}

describe('unknown host keys', () => {
  it('ask the decider with the SHA256 fingerprint OpenSSH prints, and accept-once connects without remembering', async () => {
    server = await startSshd()
    const { client, questions } = await connectWith(server, 'accept-once')
    expect(questions).toEqual([
      {
        host: '127.0.0.1',
        port: server.port,
        keyType: 'ssh-ed25519',
        fingerprint: server.hostKeyFingerprint,
        label: 'lab-host',
        role: 'target'
      }
    ])
    expect(client).toBeDefined()
    await expect(stat(appFile)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('reject closes the connection: no established TCP connection is left, sshd logs the close before auth', async () => {
    server = await startSshd()
    const s = server
    const error = await expectConnectError(
      connect(spec(s), { decideHostKey: () => Promise.resolve('reject'), knownHosts: { userFile, appFile } })
    )
    expect(error.code).toBe('host-key-unknown-rejected')
    expect(error.message).toContain(`127.0.0.1:${s.port}`)
    expect(error.message).toContain(s.hostKeyFingerprint)
    expect(error.presentedFingerprint).toBe(s.hostKeyFingerprint)
    expect(await waitFor(async () => (await establishedTo(s.port)) === 0)).toBe(true)
    expect(await waitFor(() => /Connection (closed|reset) by 127\.0\.0\.1 port \d+ \[preauth\]|Disconnected from 127\.0\.0\.1/.test(s.logs()))).toBe(true)
    expect(s.logs()).not.toMatch(/Accepted publickey/)
  })

  it('a decider that throws counts as a rejection', async () => {
    server = await startSshd()
    const error = await expectConnectError(
      connect(spec(server), { decideHostKey: () => Promise.reject(new Error('dialog closed')), knownHosts: { appFile } })
    )
    expect(error.code).toBe('host-key-unknown-rejected')
  })

  it('accept-and-remember writes an OpenSSH line (mode 0600) that ssh-keygen -F finds and the second connect needs no decision', async () => {
    server = await startSshd()
    const first = await connectWith(server, 'accept-and-remember')
    expect(first.questions).toHaveLength(1)
    const text = await readFile(appFile, 'utf8')
    expect(text).toBe(`[127.0.0.1]:${server.port} ${hostKeyLine(server)}\n`)
    expect((await stat(appFile)).mode & 0o777).toBe(0o600)
    const found = await run('ssh-keygen', ['-F', `[127.0.0.1]:${server.port}`, '-f', appFile])
    expect(found.stdout).toContain(`[127.0.0.1]:${server.port} ssh-ed25519`)

    const second = await connectWith(server, 'reject')
    expect(second.questions).toEqual([])
  })

  it('the remembered file is accepted by the real ssh client with StrictHostKeyChecking=yes', async () => {
    server = await startSshd()
    await connectWith(server, 'accept-and-remember')
    const { stdout } = await run('ssh', [
      '-o', 'BatchMode=yes',
      '-o', 'StrictHostKeyChecking=yes',
      '-o', `UserKnownHostsFile=${appFile}`,
      '-o', 'GlobalKnownHostsFile=/dev/null',
      '-i', server.privateKeyPath,
      '-p', String(server.port),
      `${server.username}@127.0.0.1`,
      'echo verified-by-openssh'
    ])
    expect(stdout.trim()).toBe('verified-by-openssh')
  })

  it('two connections remembering at once both land in the file', async () => {
    server = await startSshd()
    const other = await startSshd()
    try {
      const decide = (): Promise<HostKeyDecision> => Promise.resolve('accept-and-remember')
      const [a, b] = await Promise.all([
        connect(spec(server), { decideHostKey: decide, knownHosts: { appFile } }),
        connect(spec(other), { decideHostKey: decide, knownHosts: { appFile } })
      ])
      clients.push(a, b)
      const lines = (await readFile(appFile, 'utf8')).trim().split('\n').sort()
      expect(lines).toEqual(
        [`[127.0.0.1]:${server.port} ${hostKeyLine(server)}`, `[127.0.0.1]:${other.port} ${hostKeyLine(other)}`].sort()
      )
    } finally {
      await other.stop()
    }
  })

  it('a re-key during the session asks nobody again and keeps the connection usable', async () => {
    // sshd re-keys after every 4 KiB; the command sends 64 KiB, so several re-keys happen.
    server = await startSshd({ extraConfig: ['RekeyLimit 4K', 'LogLevel DEBUG1'] })
    const { client, questions } = await connectWith(server, 'accept-once')
    const out = await new Promise<string>((resolve, reject) =>
      client.exec('head -c 65536 /dev/zero; echo after-rekey', (err, stream) => {
        if (err) return reject(err)
        let text = ''
        stream.on('data', (d: Buffer) => (text += d.toString()))
        stream.on('close', () => resolve(text))
      })
    )
    expect(out).toBe(`${'\0'.repeat(65_536)}after-rekey\n`)
    expect(server.logs().match(/SSH2_MSG_NEWKEYS received/g)?.length ?? 0).toBeGreaterThanOrEqual(2)
    expect(questions).toHaveLength(1)
  })

  it('the time spent deciding does not count against the connect timeout', async () => {
    server = await startSshd()
    const client = await connect(spec(server, { readyTimeoutMs: 1000 }), {
      decideHostKey: () => new Promise((resolve) => setTimeout(() => resolve('accept-once'), 1500)),
      knownHosts: { appFile }
    })
    clients.push(client)
  })
})

describe('known host keys', () => {
  it('a `[127.0.0.1]:port` entry in the user file matches without a decision', async () => {
    server = await startSshd()
    await writeFile(userFile, `# my hosts\n\n[127.0.0.1]:${server.port} ${hostKeyLine(server)} lab\n`)
    const { questions } = await connectWith(server, 'reject')
    expect(questions).toEqual([])
  })

  it('an entry hashed by `ssh-keygen -H` matches', async () => {
    server = await startSshd()
    await writeFile(userFile, `[127.0.0.1]:${server.port} ${hostKeyLine(server)}\n`)
    await run('ssh-keygen', ['-H', '-f', userFile])
    const hashed = await readFile(userFile, 'utf8')
    expect(hashed).toMatch(/^\|1\|[A-Za-z0-9+/=]+\|[A-Za-z0-9+/=]+ ssh-ed25519 /)
    expect(hashed).not.toContain('127.0.0.1')
    const { questions } = await connectWith(server, 'reject')
    expect(questions).toEqual([])
  })

  it('wildcards match, and a negated pattern takes the host out again', async () => {
    server = await startSshd()
    await writeFile(userFile, `[127.0.0.?]:${server.port} ${hostKeyLine(server)}\n`)
    expect((await connectWith(server, 'reject')).questions).toEqual([])

    await writeFile(userFile, `[127.0.0.*]:*,![127.0.0.1]:${server.port} ${hostKeyLine(server)}\n`)
    const error = await expectConnectError(
      connect(spec(server), { decideHostKey: () => Promise.resolve('reject'), knownHosts: { userFile, appFile } })
    )
    expect(error.code).toBe('host-key-unknown-rejected')
  })

  it('the key remembered for the plain host (port 22 form) does not apply to another port', async () => {
    server = await startSshd()
    await writeFile(userFile, `127.0.0.1 ${hostKeyLine(server)}\n`)
    const { questions } = await connectWith(server, 'accept-once')
    expect(questions).toHaveLength(1)
  })

  it('@cert-authority lines have no effect', async () => {
    server = await startSshd()
    await writeFile(userFile, `@cert-authority [127.0.0.1]:${server.port} ${hostKeyLine(server)}\n`)
    const { questions } = await connectWith(server, 'accept-once')
    expect(questions).toHaveLength(1)
  })

  it('a host known by its RSA key is asked for its RSA key (as OpenSSH does), not reported as changed', async () => {
    const rsaHostKey = path.join(dir, 'ssh_host_rsa_key')
    await run('ssh-keygen', ['-q', '-t', 'rsa', '-b', '2048', '-N', '', '-f', rsaHostKey])
    server = await startSshd({ extraConfig: [`HostKey ${rsaHostKey}`] })
    const rsaPub = (await readFile(`${rsaHostKey}.pub`, 'utf8')).trim().split(/\s+/).slice(0, 2).join(' ')
    await writeFile(userFile, `[127.0.0.1]:${server.port} ${rsaPub}\n`)
    const { questions } = await connectWith(server, 'reject')
    expect(questions).toEqual([])
  })
})

describe('refused host keys', () => {
  it('a changed key is refused with both fingerprints, without asking', async () => {
    server = await startSshd()
    const old = await otherKey()
    await writeFile(userFile, `[127.0.0.1]:${server.port} ${old.line}\n`)
    const decider = recordingDecider('accept-once')
    const error = await expectConnectError(connect(spec(server), { decideHostKey: decider.decide, knownHosts: { userFile, appFile } }))
    expect(error.code).toBe('host-key-changed')
    expect(decider.questions).toEqual([])
    expect(error.message).toContain('HAS CHANGED')
    expect(error.message).toContain(old.fingerprint)
    expect(error.message).toContain(server.hostKeyFingerprint)
    expect(error.message).toContain(`${userFile} line 1`)
    expect(error.message).toContain(`ssh-keygen -R '[127.0.0.1]:${server.port}' -f '${userFile}'`)
    expect(error.rememberedFingerprint).toBe(old.fingerprint)
    expect(error.presentedFingerprint).toBe(server.hostKeyFingerprint)
    expect(server.logs()).not.toMatch(/Accepted publickey/)
  })

  it('a changed key in the app file is refused too', async () => {
    server = await startSshd()
    const old = await otherKey()
    await mkdir(path.dirname(appFile), { recursive: true })
    await writeFile(appFile, `[127.0.0.1]:${server.port} ${old.line}\n`)
    const error = await expectConnectError(connect(spec(server), { decideHostKey: () => Promise.resolve('accept-once'), knownHosts: { appFile } }))
    expect(error.code).toBe('host-key-changed')
  })

  it('a key marked @revoked is refused even though another line accepts it', async () => {
    server = await startSshd()
    await writeFile(
      userFile,
      `[127.0.0.1]:${server.port} ${hostKeyLine(server)}\n@revoked * ${hostKeyLine(server)}\n`
    )
    const error = await expectConnectError(
      connect(spec(server), { decideHostKey: () => Promise.resolve('accept-once'), knownHosts: { userFile, appFile } })
    )
    expect(error.code).toBe('host-key-revoked')
    expect(error.message).toContain(`${userFile} line 2`)
    expect(error.message).toContain(server.hostKeyFingerprint)
  })

  it('an unreadable known_hosts file stops the connection with a clear error', async () => {
    server = await startSshd()
    await mkdir(appFile, { recursive: true })
    const error = await expectConnectError(
      connect(spec(server), { decideHostKey: () => Promise.resolve('accept-once'), knownHosts: { appFile } })
    )
    expect(error.code).toBe('host-key-store')
    expect(error.message).toContain(appFile)
  })
})
