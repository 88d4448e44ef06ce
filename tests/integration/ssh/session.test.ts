import os from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from 'ssh2'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { SshSession } from '../../../src/main/ssh/session'
import { SessionError } from '../../../src/main/ssh/types'
import { connectAs, connectClient, createThrowawayUser, pgrep, sessionFor, uniqueSleep, waitFor, type ThrowawayUser } from './session-helpers'

/** What a noisy ~/.bashrc prints: a banner on stdout (ANSI, bytes that are not UTF-8, no final newline) and on stderr. */
const NOISY_BASHRC = [
  'echo "Welcome to the noisy host"',
  "printf '\\033[1;31mANSI banner\\033[0m \\377\\376\\n'",
  'echo "rc noise on stderr" >&2',
  "printf 'no newline at the end'",
  "printf '\\036VB fake marker without our nonce\\n'",
  ''
].join('\n')

function rawExec(client: Client, command: string): Promise<{ stdout: Buffer; stderr: Buffer }> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, ch) => {
      if (err) return reject(err)
      const out: Buffer[] = []
      const errs: Buffer[] = []
      ch.on('data', (d: Buffer) => out.push(d))
      ch.stderr.on('data', (d: Buffer) => errs.push(d))
      ch.on('close', () => resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(errs) }))
      ch.end()
    })
  })
}

describe('SshSession against a real sshd (root, the fixture user)', () => {
  let server: SshdServer
  beforeAll(async () => {
    server = await startSshd()
  })
  afterAll(async () => {
    await server.stop()
  })

  it('probes the target once: POSIX shell, kernel, machine and home', async () => {
    const session = sessionFor(server)
    try {
      const facts = await session.facts()
      expect(facts).toEqual({ shell: 'posix', system: 'Linux', release: os.release(), machine: os.machine(), homeDir: os.userInfo().homedir })
      expect(await session.facts()).toBe(facts)
    } finally {
      await session.close()
    }
  })

  it('uses one connection for all its commands', async () => {
    const before = (server.logs().match(/Accepted publickey/g) ?? []).length
    const session = sessionFor(server)
    try {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => session.exec({ argv: ['echo', String(i)] }, { capture: { maxBytes: 100 } })))
      expect(results.map((r) => r.stdout?.toString())).toEqual(Array.from({ length: 12 }, (_, i) => `${i}\n`))
      await session.exec('true')
    } finally {
      await session.close()
    }
    expect((server.logs().match(/Accepted publickey/g) ?? []).length - before).toBe(1)
  })

  it('close() stops what runs (the whole process group), ends the connection, and refuses later work', async () => {
    const session = sessionFor(server, { killGraceMs: 300 })
    const [a, b] = [uniqueSleep(), uniqueSleep()]
    const running = session.exec({ script: `sleep ${a} & sleep ${b}` })
    expect(await waitFor(() => pgrep(`sleep ${b}`).length > 0, 10_000)).toBe(true)
    await session.close()
    const result = await running
    expect(result.cancelled).toBe(true)
    expect(await waitFor(() => pgrep(`sleep ${a}`).length + pgrep(`sleep ${b}`).length === 0, 3000)).toBe(true)
    const err = await session.exec('true').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SessionError)
    expect((err as SessionError).code).toBe('closed')
    expect((err as SessionError).message).toContain(session.label)
    await session.close()
  })

  it('names the target when it cannot connect, and gives up at once on a refused login', async () => {
    let attempts = 0
    const session = new SshSession({
      label: 'db-host',
      connect: () => {
        attempts++
        return connectClient(server, { privateKey: undefined, password: 'wrong' })
      },
      reconnectDelaysMs: [10, 10]
    })
    const err = await session.exec('true').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SessionError)
    expect((err as SessionError).code).toBe('connect-failed')
    expect((err as SessionError).message).toMatch(/^cannot connect to db-host: All configured authentication methods failed/)
    expect(attempts).toBe(1)
    await session.close()
  })
})

describe('a POSIX sh login, with and without ~/.ssh/rc output', () => {
  let server: SshdServer
  let quiet: ThrowawayUser
  let talking: ThrowawayUser

  beforeAll(async () => {
    quiet = createThrowawayUser()
    // sshd runs ~/.ssh/rc before every command, into the command's own streams
    talking = createThrowawayUser({ files: { '.ssh/rc': 'echo "rc says hello"\necho "rc noise" >&2\n' } })
    // both accounts on one server (each account's own sshdConfig allows only itself)
    server = await startSshd({
      extraConfig: [`AllowUsers ${os.userInfo().username} ${quiet.name} ${talking.name}`, `Match User ${quiet.name},${talking.name}`, '  AuthorizedKeysFile %h/.ssh/authorized_keys']
    })
    quiet.authorize(server)
    talking.authorize(server)
  })
  afterAll(async () => {
    await server?.stop()
    quiet?.remove()
    talking?.remove()
  })

  it.each([
    ['without', () => quiet],
    ['with', () => talking]
  ])('returns exactly what each command printed %s ~/.ssh/rc output, the first command and the ones after it', async (_, who) => {
    const session = new SshSession({ label: 'sh-login', connect: connectAs(server, who()) })
    try {
      for (let i = 0; i < 3; i++) {
        const r = await session.exec({ script: `printf 'out ${i}\\n'; printf 'err ${i}\\n' >&2` }, { capture: { maxBytes: 1000 } })
        expect([r.stdout?.toString(), r.stderr?.toString(), r.exitCode]).toEqual([`out ${i}\n`, `err ${i}\n`, 0])
      }
      // what sshd runs: a bare ssh2 exec of the same login gets the rc file's words
      const client = await connectClient(server, { username: who().name })
      try {
        expect((await rawExec(client, 'true')).stdout.toString()).toBe(who() === talking ? 'rc says hello\n' : '')
      } finally {
        client.end()
      }
    } finally {
      await session.close()
    }
  })
})

describe('a login shell whose ~/.bashrc prints a banner', () => {
  let server: SshdServer
  let user: ThrowawayUser
  let session: SshSession

  beforeAll(async () => {
    user = createThrowawayUser({ shell: '/bin/bash', files: { '.bashrc': NOISY_BASHRC, '.profile': 'echo profile-noise\n' } })
    server = await startSshd({ extraConfig: user.sshdConfig })
    user.authorize(server)
    session = new SshSession({ label: 'noisy', connect: connectAs(server, user) })
  })
  afterAll(async () => {
    await session?.close()
    await server?.stop()
    user?.remove()
  })

  it('really is noisy: a bare ssh2 exec gets the banner mixed into its output', async () => {
    const client = await connectClient(server, { username: user.name })
    try {
      const raw = await rawExec(client, 'echo real')
      expect(raw.stdout.toString('latin1')).toContain('Welcome to the noisy host')
      expect(raw.stdout.toString('latin1').endsWith('real\n')).toBe(true)
      expect(raw.stderr.toString()).toBe('rc noise on stderr\n')
    } finally {
      client.end()
    }
  })

  it('returns exactly the command output, bytes unchanged, without the banner', async () => {
    const facts = await session.facts()
    expect(facts.homeDir).toBe(user.home)
    const chunks: Buffer[] = []
    const errChunks: Buffer[] = []
    const r = await session.exec(
      { script: "printf 'out \\033[32mgreen\\033[0m \\377\\000\\r\\n'; printf 'err \\376\\n' >&2; exit 7" },
      { onStdout: (c) => void chunks.push(c), onStderr: (c) => void errChunks.push(c), capture: { maxBytes: 1000 } }
    )
    const expectedOut = Buffer.concat([Buffer.from('out \x1b[32mgreen\x1b[0m '), Buffer.from([0xff, 0x00, 0x0d, 0x0a])])
    const expectedErr = Buffer.concat([Buffer.from('err '), Buffer.from([0xfe, 0x0a])])
    expect(r.exitCode).toBe(7)
    expect(Buffer.concat(chunks).equals(expectedOut)).toBe(true)
    expect(r.stdout?.equals(expectedOut)).toBe(true)
    expect(Buffer.concat(errChunks).equals(expectedErr)).toBe(true)
    expect(r.stdoutBytes).toBe(expectedOut.length)
    expect(r.stderrBytes).toBe(expectedErr.length)
  })

  it('keeps empty output empty and runs argv with hostile values as plain strings', async () => {
    const empty = await session.exec('true', { capture: { maxBytes: 100 } })
    expect(empty.stdoutBytes).toBe(0)
    expect(empty.stderrBytes).toBe(0)
    const values = ['$(touch pwned); rm -rf ~', "it's \"quoted\"", 'two\nlines']
    const r = await session.exec({ argv: ['printf', '%s|', ...values] }, { capture: { maxBytes: 1000 }, cwd: user.home })
    expect(r.stdout?.toString()).toBe(values.map((v) => `${v}|`).join(''))
    const check = await session.exec({ script: 'ls -A' }, { capture: { maxBytes: 1000 }, cwd: user.home })
    expect(check.stdout?.toString()).not.toContain('pwned')
  })
})
