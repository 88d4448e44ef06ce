/**
 * Shared pieces of the session integration tests: ssh2 Clients for the harness's sshd (the
 * connection layer's connect() is plugged in by the app; here we build Clients directly), and
 * process checks on this machine (the servers are local, so `pgrep` sees remote processes).
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync, chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client, type ConnectConfig } from 'ssh2'
import { sshConnectConfig, type SshdServer } from '../../harness/sshd'
import { SshSession, type SshSessionOptions } from '../../../src/main/ssh/session'

/** `SHA256:<base64>` of a raw host key blob, as ssh-keygen -l prints it. */
export function fingerprintOf(key: Buffer): string {
  return 'SHA256:' + createHash('sha256').update(key).digest('base64').replace(/=+$/, '')
}

/** A ready Client: user key auth, host key checked against the fixture's fingerprint, Nagle off. */
export function connectClient(server: SshdServer, overrides: ConnectConfig = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new Client()
    // a persistent listener: after a refused login sshd may also reset the socket, and a second
    // 'error' with nobody listening would crash the test run
    client.on('error', reject)
    client.once('ready', () => resolve(client))
    client.connect(
      sshConnectConfig(server, {
        hostVerifier: (key: Buffer) => fingerprintOf(key) === server.hostKeyFingerprint,
        ...overrides
      })
    )
    client.setNoDelay(true)
  })
}

/** An SshSession on the fixture; `label` defaults to the server's address. */
export function sessionFor(server: SshdServer, opts: Partial<SshSessionOptions> = {}): SshSession {
  return new SshSession({
    label: `test-sshd:${server.port}`,
    connect: () => connectClient(server),
    ...opts
  })
}

/** PIDs of processes whose full command line matches `pattern` (pgrep -f). */
export function pgrep(pattern: string): number[] {
  const r = spawnSync('pgrep', ['-f', pattern], { encoding: 'utf8' })
  return r.stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(Number)
    .filter((pid) => pid !== process.pid)
}

/** Waits until `check()` is true or `ms` passed; returns the last value of check(). */
export async function waitFor(check: () => boolean, ms: number, every = 25): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, every))
  }
  return check()
}

/**
 * A `sleep` duration no other process uses (e.g. `40.51234567`), so `pgrep -f 'sleep <it>'`
 * finds exactly the sleeps a test started, in any shell.
 */
export function uniqueSleep(seconds = 40): string {
  return `${seconds}.${String(process.pid).slice(-3)}${Math.floor(Math.random() * 1e8)}`
}

export interface ThrowawayUser {
  name: string
  home: string
  uid: number
  /** sshd_config lines that let this user log in with the fixture's user key. */
  sshdConfig: string[]
  /** Adds the fixture's user key to this user's authorized_keys (call after startSshd). */
  authorize(server: SshdServer): void
  /** Deletes the account and its home (kills nothing: stop the sshd first). */
  remove(): void
}

export interface ThrowawayUserOptions {
  /** Login shell (default /bin/sh). */
  shell?: string
  /** Files to put in the home directory (name relative to home → content). */
  files?: Record<string, string | Buffer>
  /** A password for this account (set with chpasswd; sshd still only takes the key). */
  password?: string
  /** A sudo rule for this account, in /etc/sudoers.d/virtbench-test-<name> (removed by remove()). */
  sudo?: 'password' | 'nopasswd'
}

function runOrThrow(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr || r.error?.message}`)
  return r.stdout
}

/** Accounts not yet removed: removed at process exit if a test or bench died before remove(). */
const liveUsers = new Map<string, () => void>()
let exitHookInstalled = false

/**
 * Creates a short-lived local account (root only) with its home in a temp dir: never touches
 * /root or any existing account. Its password field is `*` (no password, not locked), so sshd
 * with `UsePAM no` accepts key logins.
 */
export function createThrowawayUser(opts: ThrowawayUserOptions = {}): ThrowawayUser {
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.on('exit', () => {
      for (const remove of liveUsers.values()) remove()
    })
  }
  const name = `vb${process.pid.toString(36)}${Math.random().toString(36).slice(2, 8)}`
  const home = mkdtempSync(path.join(os.tmpdir(), 'virtbench-user-'))
  runOrThrow('useradd', ['-M', '-d', home, '-s', opts.shell ?? '/bin/sh', '-p', '*', '-K', 'MAIL_DIR=/nonexistent', name])
  const sudoers = `/etc/sudoers.d/virtbench-test-${name}`
  const remove = (): void => {
    liveUsers.delete(name)
    rmSync(sudoers, { force: true })
    // -f: also when a process of the account is still alive (a test died before stopping sshd)
    spawnSync('userdel', ['-f', name], { encoding: 'utf8' })
    rmSync(home, { recursive: true, force: true })
  }
  liveUsers.set(name, remove)
  const uid = Number(runOrThrow('id', ['-u', name]).trim())
  const gid = Number(runOrThrow('id', ['-g', name]).trim())
  const own = (p: string): void => chownSync(p, uid, gid)
  own(home)
  chmodSync(home, 0o755)
  if (opts.password !== undefined) {
    const r = spawnSync('chpasswd', [], { input: `${name}:${opts.password}\n`, encoding: 'utf8' })
    if (r.status !== 0) throw new Error(`chpasswd failed: ${r.stderr}`)
  }
  if (opts.sudo) {
    const rule = `${name} ALL=(ALL:ALL) ${opts.sudo === 'nopasswd' ? 'NOPASSWD: ' : ''}ALL\n`
    const draft = path.join(home, '.sudoers-draft')
    writeFileSync(draft, rule, { mode: 0o440 })
    runOrThrow('visudo', ['-cqf', draft])
    writeFileSync(sudoers, rule, { mode: 0o440 })
    rmSync(draft)
  }
  for (const [rel, content] of Object.entries(opts.files ?? {})) {
    const file = path.join(home, rel)
    mkdirSync(path.dirname(file), { recursive: true })
    writeFileSync(file, content)
    own(file)
  }
  return {
    name,
    home,
    uid,
    sshdConfig: [`AllowUsers ${os.userInfo().username} ${name}`, `Match User ${name}`, '  AuthorizedKeysFile %h/.ssh/authorized_keys'],
    authorize(server) {
      const sshDir = path.join(home, '.ssh')
      mkdirSync(sshDir, { recursive: true, mode: 0o700 })
      const keys = path.join(sshDir, 'authorized_keys')
      // appended: one account can serve several fixtures, each with its own user key
      appendFileSync(keys, readFileSync(`${server.privateKeyPath}.pub`))
      own(sshDir)
      own(keys)
    },
    remove
  }
}

/** A session that logs in as `user` on `server` instead of the fixture's own user. */
export function connectAs(server: SshdServer, user: ThrowawayUser): () => Promise<Client> {
  return () => connectClient(server, { username: user.name })
}
