import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { SshSession } from '../../../src/main/ssh/session'
import { SessionError } from '../../../src/main/ssh/types'
import { connectAs, connectClient, createThrowawayUser, pgrep, uniqueSleep, waitFor, type ThrowawayUser } from './session-helpers'

const HOSTILE = ['$(touch pwned); rm -rf ~', "'; reboot #", 'it\'s a "quoted" name', 'with space', 'new\nline', '`touch pwned`', '']

describe('SshSession.exec against a real sshd', () => {
  let server: SshdServer
  let user: ThrowawayUser
  let session: SshSession
  let scratch: string

  beforeAll(async () => {
    user = createThrowawayUser()
    server = await startSshd({ extraConfig: user.sshdConfig })
    user.authorize(server)
    session = new SshSession({ label: 'exec-target', connect: connectAs(server, user), killGraceMs: 500 })
    scratch = mkdtempSync(path.join(os.tmpdir(), 'virtbench-exec-'))
    chmodSync(scratch, 0o777)
  })
  afterAll(async () => {
    await session?.close()
    await server?.stop()
    user?.remove()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('reports exit codes and keeps stdout and stderr apart', async () => {
    for (const code of [0, 1, 3, 255]) {
      const r = await session.exec({ script: `echo out; echo err >&2; exit ${code}` }, { capture: { maxBytes: 100 } })
      expect(r).toMatchObject({ exitCode: code, signal: null, timedOut: false, cancelled: false, stdoutBytes: 4, stderrBytes: 4 })
      expect(r.stdout?.toString()).toBe('out\n')
      expect(r.stderr?.toString()).toBe('err\n')
      expect(r.durationMs).toBeGreaterThan(0)
    }
  })

  it('reports the signal that ended a command', async () => {
    const killed = await session.exec({ script: 'kill -s KILL $$' })
    expect(killed).toMatchObject({ exitCode: null, signal: 'KILL' })
    const termed = await session.exec({ script: 'kill -s TERM $$' })
    expect(termed).toMatchObject({ exitCode: null, signal: 'TERM' })
  })

  it('sends stdin, then closes it; without stdin the command sees end of input at once', async () => {
    const binary = Buffer.from([0x00, 0xff, 0x1b, 0x5b, 0x6d, 0x0a, 0x80, 0xfe])
    const r = await session.exec({ argv: ['cat'] }, { stdin: binary, capture: { maxBytes: 100 } })
    expect(r.stdout?.equals(binary)).toBe(true)
    const text = await session.exec({ argv: ['wc', '-c'] }, { stdin: 'héllo\n', capture: { maxBytes: 100 } })
    expect(text.stdout?.toString().trim()).toBe(String(Buffer.byteLength('héllo\n')))
    const none = await session.exec({ argv: ['cat'] }, { capture: { maxBytes: 100 }, timeoutMs: 5000 })
    expect(none).toMatchObject({ exitCode: 0, stdoutBytes: 0, timedOut: false })
  })

  it('returns bytes that are not UTF-8 and ANSI escapes unchanged', async () => {
    const file = path.join(scratch, 'bytes.bin')
    const bytes = Buffer.alloc(256 * 16)
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + (i >> 8)) & 0xff
    const ansi = Buffer.from('\x1b[1;31mred\x1b[0m\r\n\x1b]0;title\x07')
    writeFileSync(file, Buffer.concat([bytes, ansi]))
    const chunks: Buffer[] = []
    const r = await session.exec({ argv: ['cat', file] }, { onStdout: (c) => void chunks.push(c), capture: { maxBytes: 1 << 20 } })
    const expected = Buffer.concat([bytes, ansi])
    expect(Buffer.concat(chunks).equals(expected)).toBe(true)
    expect(r.stdout?.equals(expected)).toBe(true)
    expect(r.stdoutBytes).toBe(expected.length)
  })

  it('keeps hostile arguments, environment values and paths as plain strings', async () => {
    const dir = path.join(scratch, `d $(touch pwned) 'q' "dq"\nnl`)
    spawnSync('mkdir', ['-p', dir])
    chmodSync(dir, 0o777)
    const env = Object.fromEntries(HOSTILE.map((v, i) => [`VB_${i}`, v]))
    const r = await session.exec(
      { script: `${HOSTILE.map((_, i) => `printf '%s|' "$VB_${i}"`).join('; ')}; pwd` },
      { env, cwd: dir, capture: { maxBytes: 10_000 } }
    )
    expect(r.exitCode).toBe(0)
    expect(r.stdout?.toString()).toBe(HOSTILE.map((v) => `${v}|`).join('') + `${dir}\n`)
    const argv = await session.exec({ argv: ['printf', '%s\\0', ...HOSTILE] }, { cwd: dir, capture: { maxBytes: 10_000 } })
    expect(argv.stdout?.toString()).toBe(HOSTILE.map((v) => `${v}\0`).join(''))
    for (const where of [scratch, dir, user.home, os.tmpdir(), '/']) expect(existsSync(path.join(where, 'pwned'))).toBe(false)
  })

  it('refuses a bad environment variable name before running anything', async () => {
    const err = await session.exec({ script: 'touch should-not-exist' }, { env: { 'A;touch x': '1' }, cwd: scratch }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SessionError)
    expect((err as SessionError).code).toBe('invalid')
    expect(existsSync(path.join(scratch, 'should-not-exist'))).toBe(false)
  })

  it('fails a command whose cwd is missing, with the shell saying why', async () => {
    const r = await session.exec({ script: 'echo ran' }, { cwd: '/nonexistent/dir', capture: { maxBytes: 1000 } })
    expect(r.exitCode).toBe(1)
    expect(r.stdoutBytes).toBe(0)
    expect(r.stderr?.toString()).toMatch(/nonexistent/)
  })

  it('keeps only the bytes asked for, head or tail, and says it cut', async () => {
    const head = await session.exec({ script: 'seq 1 100000' }, { capture: { maxBytes: 10 } })
    expect(head.stdout?.toString()).toBe('1\n2\n3\n4\n5\n')
    expect(head.stdoutTruncated).toBe(true)
    expect(head.stdoutBytes).toBe(588895)
    const tail = await session.exec({ script: 'seq 1 100000' }, { capture: { maxBytes: 13, keep: 'tail' } })
    expect(tail.stdout?.toString()).toBe('99999\n100000\n')
    const small = await session.exec({ script: 'echo hi' }, { capture: { maxBytes: 10 } })
    expect(small.stdoutTruncated).toBe(false)
  })

  it('stops a command at its timeout, whole process group included', async () => {
    const [a, b] = [uniqueSleep(), uniqueSleep()]
    const t0 = Date.now()
    const r = await session.exec({ script: `sleep ${a} & sleep ${b}` }, { timeoutMs: 500 })
    expect(r.timedOut).toBe(true)
    expect(r.cancelled).toBe(false)
    // the shell ran `sleep b` as its last command in place of itself
    expect(r.signal).toBe('TERM')
    expect(Date.now() - t0).toBeLessThan(5000)
    expect(await waitFor(() => pgrep(`sleep ${a}`).length + pgrep(`sleep ${b}`).length === 0, 2000)).toBe(true)
  })

  it('refuses sudo for an account with no sudo rights, saying a password is needed', async () => {
    const err = await session.exec({ argv: ['id', '-u'] }, { sudo: { mode: 'passwordless' } }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(SessionError)
    expect((err as SessionError).code).toBe('sudo')
    expect((err as SessionError).message).toMatch(/^sudo on exec-target needs a password/)
  })
})

/** Processes whose command line contains `text` (read from /proc, like ps would show it). */
function commandLinesContaining(text: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`).toString('utf8').includes(text)) found.push(Number(entry))
    } catch {
      // gone
    }
  }
  return found
}

describe('sudo (the real sudo of this machine, with throwaway accounts and sudoers.d rules)', () => {
  const password = "pa ss'$(touch pwned)"
  let server: SshdServer
  let withPassword: ThrowawayUser
  let nopasswd: ThrowawayUser

  beforeAll(async () => {
    // this one also has a login shell whose rc file talks on both streams
    withPassword = createThrowawayUser({
      password,
      sudo: 'password',
      shell: '/bin/bash',
      files: { '.bashrc': 'echo "Welcome!"\necho "rc noise" >&2\n' }
    })
    nopasswd = createThrowawayUser({ sudo: 'nopasswd' })
    server = await startSshd({
      extraConfig: [
        `AllowUsers ${os.userInfo().username} ${withPassword.name} ${nopasswd.name}`,
        `Match User ${withPassword.name},${nopasswd.name}`,
        '  AuthorizedKeysFile %h/.ssh/authorized_keys'
      ]
    })
    withPassword.authorize(server)
    nopasswd.authorize(server)
  })
  afterAll(async () => {
    await server?.stop()
    withPassword?.remove()
    nopasswd?.remove()
  })

  const open = (user: ThrowawayUser): SshSession => new SshSession({ label: 'sudo-target', connect: connectAs(server, user), killGraceMs: 300 })

  it('runs as root with the password sent on stdin: never on a command line, and the command gets only its own input', async () => {
    const session = open(withPassword)
    try {
      const s = uniqueSleep(1)
      const running = session.exec(
        { script: `id -u; sleep ${s}; printf '\\377\\033[31mx\\n'; cat` },
        { sudo: { mode: 'password', password }, stdin: 'input\n', capture: { maxBytes: 1000 } }
      )
      expect(await waitFor(() => pgrep(`sleep ${s}`).length > 0, 10_000)).toBe(true)
      expect(commandLinesContaining('pa ss')).toEqual([])
      const r = await running
      expect(r.exitCode).toBe(0)
      expect(r.stdout?.equals(Buffer.concat([Buffer.from('0\n'), Buffer.from([0xff]), Buffer.from('\x1b[31mx\ninput\n')]))).toBe(true)
      expect(server.logs()).not.toContain('pa ss')
      expect(existsSync(path.join(withPassword.home, 'pwned'))).toBe(false)
    } finally {
      await session.close()
    }
  })

  it('stops a sudo command (root processes) through sudo', async () => {
    const session = open(withPassword)
    const [a, b] = [uniqueSleep(), uniqueSleep()]
    try {
      const ac = new AbortController()
      const running = session.exec({ script: `sleep ${a} & sleep ${b}; echo never` }, { sudo: { mode: 'password', password }, signal: ac.signal })
      expect(await waitFor(() => pgrep(`sleep ${a}`).length > 0 && pgrep(`sleep ${b}`).length > 0, 10_000)).toBe(true)
      ac.abort()
      const r = await running
      expect(r.cancelled).toBe(true)
      expect(r.stdoutBytes).toBe(0)
      expect(pgrep(`sleep ${a}`).length + pgrep(`sleep ${b}`).length).toBe(0)
    } finally {
      await session.close()
    }
  })

  it('explains a wrong password and a missing one', async () => {
    const session = open(withPassword)
    try {
      const wrong = await session.exec('true', { sudo: { mode: 'password', password: 'nope' } }).catch((e: unknown) => e)
      expect(wrong).toBeInstanceOf(SessionError)
      expect((wrong as SessionError).code).toBe('sudo')
      expect((wrong as SessionError).message).toMatch(/^sudo on sudo-target did not accept the stored password, .*\(sudo said: Sorry, try again\.\)/)
      const missing = await session.exec('true', { sudo: { mode: 'passwordless' } }).catch((e: unknown) => e)
      expect((missing as SessionError).message).toMatch(/^sudo on sudo-target needs a password \(sudo -n true said: sudo: a password is required\)/)
    } finally {
      await session.close()
    }
  })

  it('runs passwordless under NOPASSWD even when a password was given (it is never sent)', async () => {
    const session = open(nopasswd)
    try {
      const r = await session.exec({ script: 'id -u; cat' }, { sudo: { mode: 'password', password }, stdin: 'only this', capture: { maxBytes: 100 } })
      expect(r.stdout?.toString()).toBe('0\nonly this')
    } finally {
      await session.close()
    }
  })

  it('works for root (the fixture user) without a password', async () => {
    const root = await startSshd()
    const session = new SshSession({ label: 'root-target', connect: () => connectClient(root) })
    try {
      const r = await session.exec({ argv: ['id', '-un'] }, { sudo: { mode: 'passwordless' }, capture: { maxBytes: 100 } })
      expect(r.stdout?.toString()).toBe('root\n')
    } finally {
      await session.close()
      await root.stop()
    }
  })
})
