import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { Client, type ClientChannel } from 'ssh2'
import { hostKeyBlob, sshConnectConfig, sshExec, startSshd, type SshdServer, type SshdOptions } from '../harness/sshd'

const started: SshdServer[] = []

async function start(options?: SshdOptions): Promise<SshdServer> {
  const server = await startSshd(options)
  started.push(server)
  return server
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()))
})

function connect(server: SshdServer): Promise<Client> {
  return new Promise((resolve, reject) => {
    const conn = new Client()
    conn.once('ready', () => resolve(conn))
    conn.once('error', reject)
    conn.connect(sshConnectConfig(server))
  })
}

type ExecOutcome = { ok: true; stdout: string } | { ok: false; error: string }

function execOn(conn: Client, command: string): Promise<ExecOutcome> {
  return new Promise((resolve) => {
    conn.exec(command, (err: Error | undefined, stream: ClientChannel) => {
      if (err) {
        resolve({ ok: false, error: err.message })
        return
      }
      let stdout = ''
      stream.on('data', (d: Buffer) => (stdout += d.toString()))
      stream.stderr.resume()
      stream.on('close', () => resolve({ ok: true, stdout }))
    })
  })
}

function isDead(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH'
  }
  // still signalable: only acceptable as an unreaped zombie (reparented to a non-reaping init)
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return true
  }
}

describe('sshd fixture', () => {
  it('logs in with the user key and returns real command output and exit codes', async () => {
    const t0 = Date.now()
    const server = await start()
    const startMs = Date.now() - t0
    expect(startMs).toBeLessThan(10_000)
    expect(server.host).toBe('127.0.0.1')
    expect(server.port).toBeGreaterThan(0)
    expect(server.privateKey.toString()).toContain('BEGIN OPENSSH PRIVATE KEY')
    expect(existsSync(server.privateKeyPath)).toBe(true)
    expect(server.hostPublicKey).toMatch(/^ssh-ed25519 AAAA/)

    // the fingerprint is the one of the host key blob
    const fp = 'SHA256:' + createHash('sha256').update(hostKeyBlob(server)).digest('base64').replace(/=+$/, '')
    expect(server.hostKeyFingerprint).toBe(fp)

    const res = await sshExec(server, 'echo hello; uname -s; echo oops >&2')
    expect(res.code).toBe(0)
    expect(res.stdout).toContain('hello')
    expect(res.stdout).toContain('Linux')
    expect(res.stderr).toBe('oops\n')

    const failed = await sshExec(server, 'echo before; exit 3')
    expect(failed.code).toBe(3)
    expect(failed.stdout).toBe('before\n')

    expect(server.logs()).toContain(`Accepted publickey for ${server.username}`)
    expect(readFileSync(server.logPath, 'utf8')).toContain('Server listening on 127.0.0.1')
  })

  it('refuses a server whose host key does not match', async () => {
    const server = await start()
    await expect(sshExec(server, 'true', { hostVerifier: () => false })).rejects.toThrow(/verification failed/i)
    // a real but different key (another server's) is refused as well
    const other = await start()
    const otherBlob = hostKeyBlob(other)
    await expect(
      sshExec(server, 'true', { hostVerifier: (key: Buffer) => key.equals(otherBlob) })
    ).rejects.toThrow(/verification failed/i)
    expect(server.logs()).not.toMatch(/Accepted publickey/)
  })

  it('runs several servers at once on different ports', async () => {
    const [a, b] = await Promise.all([start(), start()])
    expect(a.port).not.toBe(b.port)
    expect(a.pid).not.toBe(b.pid)
    expect(a.dir).not.toBe(b.dir)
    expect(a.hostPublicKey).not.toBe(b.hostPublicKey)
    const [ra, rb] = await Promise.all([sshExec(a, 'echo from-a'), sshExec(b, 'echo from-b')])
    expect(ra).toMatchObject({ stdout: 'from-a\n', code: 0 })
    expect(rb).toMatchObject({ stdout: 'from-b\n', code: 0 })
    // each fixture's user key is only authorized on its own server
    await expect(sshExec(a, 'true', { privateKey: b.privateKey })).rejects.toThrow(/authentication methods failed/i)
  })

  it('writes MaxSessions and sshd enforces it per connection', async () => {
    const server = await start({ maxSessions: 2 })
    expect(readFileSync(server.configPath, 'utf8')).toMatch(/^MaxSessions 2$/m)

    const conn = await connect(server)
    try {
      // three concurrent session channels on ONE connection: the third open is rejected by sshd
      const outcomes = await Promise.all([0, 1, 2].map((i) => execOn(conn, `sleep 1; echo ${i}`)))
      expect(outcomes[0]).toEqual({ ok: true, stdout: '0\n' })
      expect(outcomes[1]).toEqual({ ok: true, stdout: '1\n' })
      expect(outcomes[2]).toMatchObject({ ok: false })
      expect((outcomes[2] as { error: string }).error).toMatch(/Channel open failure: open failed/)
      // once the sessions are closed, the same connection can open new ones
      expect(await execOn(conn, 'echo again')).toEqual({ ok: true, stdout: 'again\n' })
    } finally {
      conn.end()
    }
    expect(server.logs()).toContain('no more sessions')
  })

  it('allows more than two concurrent sessions without maxSessions (sshd default 10)', async () => {
    const server = await start()
    expect(readFileSync(server.configPath, 'utf8')).not.toMatch(/MaxSessions/)
    const conn = await connect(server)
    try {
      const outcomes = await Promise.all([0, 1, 2].map((i) => execOn(conn, `sleep 0.5; echo ${i}`)))
      expect(outcomes.every((o) => o.ok)).toBe(true)
    } finally {
      conn.end()
    }
  })

  it('stop() kills sshd and its session processes and removes the temp dir', async () => {
    const server = await startSshd()
    const conn = await connect(server)
    // a long-running remote command; $$ becomes the sleep's pid through exec
    const remotePid = await new Promise<number>((resolve, reject) => {
      conn.exec('echo $$; exec sleep 60', (err, stream) => {
        if (err) return reject(err)
        stream.once('data', (d: Buffer) => resolve(Number(d.toString().trim())))
        stream.stderr.resume()
      })
    })
    expect(remotePid).toBeGreaterThan(0)
    expect(isDead(remotePid)).toBe(false)
    const connClosed = new Promise<void>((resolve) => conn.once('close', () => resolve()))

    const t0 = Date.now()
    await server.stop()
    expect(Date.now() - t0).toBeLessThan(8000)
    expect(() => process.kill(server.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }))
    expect(existsSync(server.dir)).toBe(false)
    expect(isDead(remotePid)).toBe(true)
    await connClosed
    // idempotent
    await server.stop()
  })

  it('lets extraConfig override the defaults and accepts Match blocks', async () => {
    const server = await start({
      extraConfig: ['LogLevel DEBUG1', 'Match Address 10.255.255.0/24', '  MaxSessions 1']
    })
    const config = readFileSync(server.configPath, 'utf8')
    expect(config.indexOf('LogLevel DEBUG1')).toBeLessThan(config.indexOf('LogLevel VERBOSE'))
    expect(config.trimEnd().endsWith('MaxSessions 1')).toBe(true)
    expect((await sshExec(server, 'echo ok')).stdout).toBe('ok\n')
    expect(server.logs()).toContain('debug1:')
  })

  it('fails with sshd stderr when sshd cannot start', async () => {
    await expect(startSshd({ extraConfig: ['NoSuchOption yes'] })).rejects.toThrow(
      /sshd exited during startup[\s\S]*Bad configuration option: NoSuchOption/
    )
  })

  it('does not accept passwords unless the password option is given', async () => {
    const server = await start()
    expect(readFileSync(server.configPath, 'utf8')).toMatch(/^PasswordAuthentication no$/m)
    await expect(
      sshExec(server, 'true', { privateKey: undefined, password: 'anything' })
    ).rejects.toThrow(/authentication methods failed/i)
  })

  const isRoot = process.getuid?.() === 0
  it.runIf(isRoot)('supports password auth without changing the real /etc/shadow', async () => {
    const shadowBefore = readFileSync('/etc/shadow', 'utf8')
    const server = await start({ password: 'correct horse' })
    expect(server.password).toBe('correct horse')

    const ok = await sshExec(server, 'id -un', { privateKey: undefined, password: 'correct horse' })
    expect(ok).toMatchObject({ stdout: `${server.username}\n`, code: 0 })
    await expect(
      sshExec(server, 'true', { privateKey: undefined, password: 'wrong horse' })
    ).rejects.toThrow(/authentication methods failed/i)
    // key auth still works on a password-enabled server
    expect((await sshExec(server, 'echo key')).stdout).toBe('key\n')
    expect(server.logs()).toContain(`Accepted password for ${server.username}`)
    expect(server.logs()).toContain(`Failed password for ${server.username}`)

    // the private shadow copy is only mounted inside sshd's own mount namespace
    expect(readFileSync('/etc/shadow', 'utf8')).toBe(shadowBefore)
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain(server.dir)
  })
})
