/**
 * Test fixture: a REAL OpenSSH server (/usr/sbin/sshd) running as its own process
 * on 127.0.0.1 with throwaway host and user keys.
 *
 *   const server = await startSshd({ maxSessions: 4 })
 *   const { stdout, code } = await sshExec(server, 'uname -s')
 *   await server.stop()
 *
 * Notes
 * - sshd_config takes the FIRST value given for a keyword, so `extraConfig` lines are written
 *   before the fixture's defaults and therefore override them. Lines from the first `Match`
 *   keyword onwards are appended at the very end (Match blocks must come last).
 * - Password auth: with `UsePAM no`, sshd checks the crypt(3) hash in /etc/shadow. To avoid
 *   touching system accounts, the fixture (root only) runs sshd inside a private mount namespace
 *   (`unshare --mount --propagation private`) where a temp copy of /etc/shadow, with the current
 *   user's hash replaced, is bind-mounted over /etc/shadow. The real file is never modified and
 *   the mount vanishes with the namespace when sshd exits. Not root / no unshare → clear error.
 * - stop() signals the sshd PID this fixture spawned plus that PID's descendants (per-connection
 *   sshd processes and the commands they run, found via /proc), never anything else.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Client, type ConnectConfig } from 'ssh2'
import { freePort, sshBanner } from '../../lab/net'

export const SSHD_PATH = '/usr/sbin/sshd'

export interface SshdOptions {
  /** Enable password auth for the current user with this password (root only, see file header). */
  password?: string
  /** Written as `MaxSessions n` (max concurrent session channels per connection). */
  maxSessions?: number
  /** Raw sshd_config lines; they take precedence over the fixture defaults. */
  extraConfig?: string[]
  /** How long to wait for sshd to come up, per attempt (default 10 s). */
  startTimeoutMs?: number
  /** The address sshd listens on and clients dial (default 127.0.0.1), e.g. a veth address in a network namespace. */
  listenAddress?: string
  /**
   * Words put before sshd's command line, e.g. `['nsenter', '--net=/run/netns/x', '--']` (the
   * known-truth targets of tests/harness/truth/ start sshd in cgroups and namespaces this way).
   * Each word's program must exec the next, keeping the PID: the fixture checks that sshd's
   * PidFile holds the PID it spawned.
   */
  launchPrefix?: string[]
}

export interface SshdServer {
  /** The listen address: 127.0.0.1 unless `listenAddress` said otherwise. */
  host: string
  port: number
  username: string
  /** OpenSSH-format private key of the throwaway user key pair. */
  privateKey: Buffer
  privateKeyPath: string
  /** Host public key line, e.g. `ssh-ed25519 AAAA... comment`. */
  hostPublicKey: string
  /** `SHA256:...` as printed by `ssh-keygen -lf`. */
  hostKeyFingerprint: string
  /** Password accepted for `username`, when the `password` option was given. */
  password: string | undefined
  dir: string
  configPath: string
  logPath: string
  pid: number
  /** Everything sshd wrote to stderr so far (also appended to `logPath`). */
  logs(): string
  /** Terminates sshd (and its descendants), waits for exit, removes `dir`. Idempotent. */
  stop(): Promise<void>
  /**
   * Kills sshd and everything it started at once with SIGKILL, as a crash would: connections
   * drop without any goodbye. Keys, config and port are kept for restart().
   */
  crash(): Promise<void>
  /** Starts sshd again on the same port with the same keys and config (crashing it first if it runs). */
  restart(): Promise<void>
}

export interface SshExecResult {
  stdout: string
  stderr: string
  code: number | null
}

const MAX_LOG_CHARS = 2_000_000
const LOOPBACK = '127.0.0.1'
const START_ATTEMPTS = 5

/** Servers not yet stopped, killed synchronously if the test process exits without stop(). */
const live = new Map<number, ChildProcess>()
let exitHookInstalled = false

function installExitHook(): void {
  if (exitHookInstalled) return
  exitHookInstalled = true
  process.on('exit', () => {
    for (const child of live.values()) {
      try {
        child.kill('SIGKILL')
      } catch {
        // already gone
      }
    }
  })
}

interface RunResult {
  stdout: string
  stderr: string
}

function run(cmd: string, args: string[], input?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ stdout, stderr })
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? `exit ${code}`}): ${stderr.trim()}`))
    })
    if (input !== undefined) child.stdin?.end(input)
  })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function firstExisting(candidates: string[]): string | undefined {
  return candidates.find((p) => existsSync(p))
}

async function keygen(file: string, comment: string): Promise<void> {
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', file])
}

/** Builds a private copy of /etc/shadow in which `username` has the crypt hash of `password`. */
async function buildShadowCopy(username: string, password: string, dest: string): Promise<void> {
  const { stdout } = await run('openssl', ['passwd', '-6', '-stdin'], `${password}\n`).catch((err: unknown) => {
    throw new Error(`startSshd: cannot hash the password with \`openssl passwd -6\`: ${String(err)}`)
  })
  const hash = stdout.trim()
  if (!hash.startsWith('$6$')) throw new Error(`startSshd: unexpected openssl passwd output: ${hash}`)
  const shadow = await readFile('/etc/shadow', 'utf8')
  const today = String(Math.floor(Date.now() / 86_400_000))
  let found = false
  const lines = shadow.split('\n').map((line) => {
    const fields = line.split(':')
    if (fields[0] !== username) return line
    found = true
    // name:hash:lastchg:min:max:warn:inactive:expire:reserved — fresh, never-expiring password
    return [username, hash, today, '0', '', '', '', '', ''].join(':')
  })
  if (!found) throw new Error(`startSshd: user ${username} has no /etc/shadow entry; password auth unsupported`)
  await writeFile(dest, lines.join('\n'), { mode: 0o600 })
}

function splitExtraConfig(extra: string[]): { head: string[]; tail: string[] } {
  const idx = extra.findIndex((l) => /^\s*match\s/i.test(l))
  return idx === -1 ? { head: extra, tail: [] } : { head: extra.slice(0, idx), tail: extra.slice(idx) }
}

interface ConfigParams {
  dir: string
  port: number
  username: string
  isRoot: boolean
  options: SshdOptions
}

function buildConfig({ dir, port, username, isRoot, options }: ConfigParams): string {
  const { head, tail } = splitExtraConfig(options.extraConfig ?? [])
  const passwordAuth = options.password !== undefined
  const lines = [
    '# generated by tests/harness/sshd.ts',
    ...(head.length > 0 ? ['# extraConfig (first value wins in sshd_config)', ...head] : []),
    `ListenAddress ${options.listenAddress ?? LOOPBACK}`,
    `Port ${port}`,
    `HostKey ${path.join(dir, 'ssh_host_ed25519_key')}`,
    `PidFile ${path.join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
    'UsePAM no',
    'StrictModes no',
    `PasswordAuthentication ${passwordAuth ? 'yes' : 'no'}`,
    'PermitEmptyPasswords no',
    'KbdInteractiveAuthentication no',
    'PubkeyAuthentication yes',
    ...(isRoot ? [`PermitRootLogin ${passwordAuth ? 'yes' : 'prohibit-password'}`] : []),
    ...(options.maxSessions !== undefined ? [`MaxSessions ${options.maxSessions}`] : []),
    `AllowUsers ${username}`,
    'LogLevel VERBOSE',
    'UseDNS no',
    'PrintMotd no',
    'PrintLastLog no',
    'X11Forwarding no',
    'Subsystem sftp internal-sftp',
    ...tail
  ]
  return lines.join('\n') + '\n'
}

class StartError extends Error {
  constructor(
    message: string,
    readonly bindRace: boolean
  ) {
    super(message)
  }
}

interface Launched {
  child: ChildProcess
  pid: number
  exited: Promise<void>
  logs(): string
}

async function launch(
  cmd: string,
  args: string[],
  host: string,
  port: number,
  pidFile: string,
  logPath: string,
  timeoutMs: number
): Promise<Launched> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  let exitInfo: string | undefined
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    log += d
    if (log.length > MAX_LOG_CHARS) log = log.slice(log.length - MAX_LOG_CHARS)
    try {
      appendFileSync(logPath, d)
    } catch {
      // dir already removed during stop()
    }
  })
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exitInfo = signal ? `signal ${signal}` : `exit code ${code}`
      resolve()
    })
    child.on('error', (err) => {
      exitInfo = `spawn error: ${err.message}`
      log += `\n[fixture] ${err.message}\n`
      resolve()
    })
  })
  const logs = (): string => log
  const deadline = Date.now() + timeoutMs

  while (true) {
    if (exitInfo !== undefined) {
      // let remaining stderr drain
      await sleep(20)
      const text = logs()
      throw new StartError(
        `sshd exited during startup (${exitInfo}) on port ${port}. sshd stderr:\n${text}`,
        /Address already in use|Cannot bind any address/.test(text)
      )
    }
    if (Date.now() > deadline) break
    // sshd writes its PidFile only after all listen sockets are bound, which makes sure the
    // banner we see is from OUR sshd, not from someone else who grabbed the port.
    let pidOk: boolean
    try {
      pidOk = Number(readFileSync(pidFile, 'utf8').trim()) === child.pid
    } catch {
      pidOk = false
    }
    if (pidOk && (await sshBanner(host, port, 1000)) && exitInfo === undefined) {
      return { child, pid: child.pid as number, exited, logs }
    }
    await sleep(50)
  }

  child.kill('SIGKILL')
  await exited
  throw new StartError(`sshd did not come up on ${host}:${port} within ${timeoutMs} ms. sshd stderr:\n${logs()}`, false)
}

/** PIDs of all descendants of `root` (read from /proc), children first in BFS order. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>()
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return []
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8')
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const ppid = Number(rest[1])
      const list = children.get(ppid) ?? []
      list.push(Number(e))
      children.set(ppid, list)
    } catch {
      // process vanished
    }
  }
  const out: number[] = []
  const queue = [root]
  while (queue.length > 0) {
    const p = queue.shift() as number
    for (const c of children.get(p) ?? []) {
      out.push(c)
      queue.push(c)
    }
  }
  return out
}

function isGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    try {
      process.kill(pid, 0)
      return false
    } catch {
      return true
    }
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig)
  } catch {
    // already gone
  }
}

export async function startSshd(options: SshdOptions = {}): Promise<SshdServer> {
  if (!existsSync(SSHD_PATH)) throw new Error(`startSshd: ${SSHD_PATH} not found (install openssh-server)`)
  const { maxSessions, password } = options
  if (maxSessions !== undefined && (!Number.isInteger(maxSessions) || maxSessions < 0)) {
    throw new Error(`startSshd: maxSessions must be a non-negative integer, got ${maxSessions}`)
  }
  const username = os.userInfo().username
  const isRoot = process.getuid?.() === 0

  let unshareBin: string | undefined
  let mountBin: string | undefined
  if (password !== undefined) {
    if (password === '' || /[\r\n]/.test(password)) {
      throw new Error('startSshd: password must be non-empty and contain no newlines')
    }
    if (!isRoot) {
      throw new Error(
        'startSshd: password auth needs root (sshd verifies /etc/shadow; the fixture uses a private ' +
          'mount namespace with a shadow copy and never changes the real account). Use key auth instead.'
      )
    }
    unshareBin = firstExisting(['/usr/bin/unshare', '/bin/unshare'])
    mountBin = firstExisting(['/usr/bin/mount', '/bin/mount'])
    if (!unshareBin || !mountBin) throw new Error('startSshd: password auth needs util-linux unshare and mount')
  }

  // Privilege separation dir; sshd refuses to start as root without it.
  if (isRoot) await mkdir('/run/sshd', { recursive: true, mode: 0o755 })

  const dir = await mkdtemp(path.join(os.tmpdir(), 'virtbench-sshd-'))
  try {
    const hostKeyPath = path.join(dir, 'ssh_host_ed25519_key')
    const privateKeyPath = path.join(dir, 'id_ed25519')
    const configPath = path.join(dir, 'sshd_config')
    const pidFile = path.join(dir, 'sshd.pid')
    const logPath = path.join(dir, 'sshd.log')
    const shadowPath = path.join(dir, 'shadow')

    await Promise.all([keygen(hostKeyPath, 'virtbench-test-host'), keygen(privateKeyPath, 'virtbench-test-user')])
    const [hostPub, userPub, privateKey, fp] = await Promise.all([
      readFile(`${hostKeyPath}.pub`, 'utf8'),
      readFile(`${privateKeyPath}.pub`, 'utf8'),
      readFile(privateKeyPath),
      run('ssh-keygen', ['-l', '-f', `${hostKeyPath}.pub`])
    ])
    await writeFile(path.join(dir, 'authorized_keys'), userPub, { mode: 0o600 })
    const hostPublicKey = hostPub.trim()
    const hostKeyFingerprint = fp.stdout.trim().split(/\s+/)[1] ?? ''
    if (!hostKeyFingerprint.startsWith('SHA256:')) throw new Error(`unexpected ssh-keygen -l output: ${fp.stdout}`)
    if (password !== undefined) await buildShadowCopy(username, password, shadowPath)

    const timeoutMs = options.startTimeoutMs ?? 10_000
    const host = options.listenAddress ?? LOOPBACK
    const prefixed = ([cmd, args]: [string, string[]]): [string, string[]] => {
      const [first, ...rest] = options.launchPrefix ?? []
      return first === undefined ? [cmd, args] : [first, [...rest, cmd, ...args]]
    }
    const launchCommand = (): [string, string[]] => {
      const sshdArgs = ['-D', '-e', '-f', configPath]
      return prefixed(password !== undefined
        ? [
            unshareBin as string,
            [
              '--mount',
              '--propagation',
              'private',
              '--',
              '/bin/sh',
              '-c',
              '"$1" --bind "$2" /etc/shadow && shift 2 && exec "$@"',
              'sh',
              mountBin as string,
              shadowPath,
              SSHD_PATH,
              ...sshdArgs
            ]
          ]
        : [SSHD_PATH, sshdArgs])
    }
    let launched: Launched | undefined
    let port = 0
    for (let attempt = 1; launched === undefined; attempt++) {
      port = await freePort()
      await writeFile(configPath, buildConfig({ dir, port, username, isRoot, options }))
      await writeFile(logPath, '')
      await rm(pidFile, { force: true })
      const [cmd, args] = launchCommand()
      try {
        launched = await launch(cmd, args, host, port, pidFile, logPath, timeoutMs)
      } catch (err) {
        if (err instanceof StartError && err.bindRace && attempt < START_ATTEMPTS) continue
        throw err
      }
    }

    // `current` changes when crash() and restart() replace the sshd process
    let current = launched
    live.set(current.pid, current.child)
    installExitHook()

    let stopping: Promise<void> | undefined
    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        const { child, pid, exited } = current
        const tree = descendants(pid)
        child.kill('SIGTERM')
        for (const p of tree) signal(p, 'SIGTERM')
        const killTimer = setTimeout(() => child.kill('SIGKILL'), 3000)
        await exited
        clearTimeout(killTimer)
        live.delete(pid)
        const deadline = Date.now() + 3000
        while (tree.some((p) => !isGone(p)) && Date.now() < deadline) await sleep(25)
        for (const p of tree) if (!isGone(p)) signal(p, 'SIGKILL')
        await rm(dir, { recursive: true, force: true })
      })()
      return stopping
    }

    const crash = async (): Promise<void> => {
      if (stopping) throw new Error('crash(): the server was stopped')
      const { child, pid, exited } = current
      const tree = descendants(pid)
      child.kill('SIGKILL')
      for (const p of tree) signal(p, 'SIGKILL')
      await exited
      live.delete(pid)
      const deadline = Date.now() + 3000
      while (tree.some((p) => !isGone(p)) && Date.now() < deadline) await sleep(10)
    }

    const restart = async (): Promise<void> => {
      if (stopping) throw new Error('restart(): the server was stopped')
      if (!isGone(current.pid)) await crash()
      const [cmd, args] = launchCommand()
      await rm(pidFile, { force: true })
      current = await launch(cmd, args, host, port, pidFile, logPath, timeoutMs)
      live.set(current.pid, current.child)
    }

    return {
      host,
      port,
      username,
      privateKey,
      privateKeyPath,
      hostPublicKey,
      hostKeyFingerprint,
      password,
      dir,
      configPath,
      logPath,
      get pid() {
        return current.pid
      },
      logs: () => current.logs(),
      stop,
      crash,
      restart
    }
  } catch (err) {
    await rm(dir, { recursive: true, force: true })
    throw err
  }
}

/** Raw key blob of the server's host key (what ssh2 passes to `hostVerifier`). */
export function hostKeyBlob(server: Pick<SshdServer, 'hostPublicKey'>): Buffer {
  const b64 = server.hostPublicKey.split(/\s+/)[1]
  if (!b64) throw new Error(`malformed host public key: ${server.hostPublicKey}`)
  return Buffer.from(b64, 'base64')
}

/** ssh2 connect config for the fixture: user key auth plus strict host key verification. */
export function sshConnectConfig(server: SshdServer, overrides: ConnectConfig = {}): ConnectConfig {
  const expected = hostKeyBlob(server)
  return {
    host: server.host,
    port: server.port,
    username: server.username,
    privateKey: server.privateKey,
    readyTimeout: 10_000,
    hostVerifier: (key: Buffer): boolean => Buffer.isBuffer(key) && key.equals(expected),
    ...overrides
  }
}

/** Runs one command over a fresh ssh2 connection (key auth, verified host key), then disconnects. */
export function sshExec(server: SshdServer, command: string, overrides: ConnectConfig = {}): Promise<SshExecResult> {
  return new Promise((resolve, reject) => {
    const conn = new Client()
    let settled = false
    const fail = (err: Error): void => {
      if (settled) return
      settled = true
      conn.end()
      reject(err)
    }
    conn.on('error', fail)
    conn.on('ready', () => {
      conn.exec(command, (err, stream) => {
        if (err) {
          fail(err)
          return
        }
        let stdout = ''
        let stderr = ''
        let code: number | null = null
        stream.setEncoding('utf8')
        stream.stderr.setEncoding('utf8')
        stream.on('data', (d: string) => (stdout += d))
        stream.stderr.on('data', (d: string) => (stderr += d))
        stream.on('exit', (exitCode: number | null) => {
          code = typeof exitCode === 'number' ? exitCode : null
        })
        stream.on('close', () => {
          if (settled) return
          settled = true
          conn.end()
          resolve({ stdout, stderr, code })
        })
      })
    })
    conn.on('close', () => fail(new Error('ssh connection closed before the command finished')))
    conn.connect(sshConnectConfig(server, overrides))
  })
}
