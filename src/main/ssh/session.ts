/**
 * SshSession: one SSH connection per target, shared by all its jobs.
 *
 * - Commands run on channels of that connection, at most `maxChannels` at once; more wait in
 *   order (pool.ts). A server that refuses a channel ("open failed", MaxSessions) lowers the
 *   limit and the command waits instead of failing.
 * - Each command runs in the wrapper of remote-command.ts (or windows.ts): its process group is
 *   announced, so a cancel or timeout stops the whole group through a second command on the same
 *   connection (TERM, then KILL after a grace period), with the same sudo as the command.
 * - A dropped connection fails the commands running on it ("connection to <label> lost while
 *   running <cmd>"); the next command reconnects, retrying with backoff.
 * - Scripts go up through SFTP (upload.ts); the SFTP channel stays open while in use and closes
 *   after a short idle time.
 *
 * The session does not know how a Client is made: `connect` is injected (auth, host keys, jump
 * hosts, keepalive and Nagle are the connection layer's business).
 */
import { createHash, randomBytes } from 'node:crypto'
import type { Client, SFTPWrapper } from 'ssh2'
import { quotePwsh, quoteSh, shJoin } from '../../shared/shell-quote'
import { openExecChannel, type ChannelEnd, type RunningChannel } from './exec'
import { buildExecResult, StreamSink } from './output'
import { resolveSudo, sudoKey } from './sudo'
import { AbortedWhileQueued, ChannelPool, type Release } from './pool'
import { tracked, watchForStop } from './stop-watch'
import {
  parsePosixProbe,
  marksStdout,
  parseProbingPreamble,
  preambleIsProbeAlone,
  posixKillCommand,
  posixProbeCommand,
  probingWrapPosix,
  shortCommand,
  commandStdin,
  validateEnv,
  wrapPosix,
  type LoginShell,
  type ProcessIds
} from './remote-command'
import {
  ensureBundle,
  mismatches,
  parseSha256sum,
  readScriptBundle,
  SftpFiles,
  type EnsuredDir,
  type ScriptBundle,
  type ScriptStore
} from './upload'
import {
  SessionError,
  type EnsureScriptsResult,
  type ExecOptions,
  type ExecResult,
  type RemoteCommand,
  type Session,
  type SessionFacts,
  type StdinSource,
  type SudoMode,
  type UploadOptions
} from './types'
import {
  joinWindowsPath,
  parseWindowsProbe,
  powershellCommandLine,
  taskkillCommand,
  toSftpPath,
  windowsHashScript,
  windowsMkdirScript,
  windowsProbeScript,
  windowsRemoveDirScript,
  windowsWorkRoot,
  wrapWindows
} from './windows'

export interface SshSessionOptions {
  /** The target's name in messages. */
  label: string
  /** Makes a ready, authenticated ssh2 Client (the connection layer's connect()). */
  connect: () => Promise<Client>
  /** Channels open at once on the connection (default 8; OpenSSH allows 10 by default). */
  maxChannels?: number
  /** Where script directories go (default `~/.cache/virtbench`, `%LOCALAPPDATA%\virtbench\cache` on Windows). */
  workRoot?: string
  /** Waits before each reconnect attempt after a failed one (default 250, 500, 1000, 2000 ms). */
  reconnectDelaysMs?: readonly number[]
  /** Whether a failed connect is worth retrying (default: not for auth and host key failures). */
  isRetryable?: (err: unknown) => boolean
  /** Between TERM and KILL when stopping a command (default 2000 ms). */
  killGraceMs?: number
  /** The SFTP channel is closed after this long unused (default 2000 ms). */
  sftpIdleMs?: number
}

const DEFAULT_MAX_CHANNELS = 8
const DEFAULT_RECONNECT_DELAYS = [250, 500, 1000, 2000]
const DEFAULT_KILL_GRACE_MS = 2000
const DEFAULT_SFTP_IDLE_MS = 2000
/** How long a stop waits for the command's pid marker before falling back to closing the channel. */
const MARKER_WAIT_MS = 2000
const PROBE_CAPTURE = { maxBytes: 64 * 1024 }
/** Refusals in a row (no success between) after which the server's limit is taken as learned. */
const REFUSALS_TO_LEARN = 3
/** How long a kill command may wait for a channel before the stop falls back to an SSH signal. */
const KILL_CHANNEL_WAIT_MS = 1000

/** Connect failures that retrying cannot fix (codes of the connection layer's ConnectError). */
const PERMANENT_CONNECT_CODES = new Set([
  'host-key-unknown-rejected',
  'host-key-changed',
  'host-key-revoked',
  'host-key-store',
  'auth-failed',
  'auth-method-not-allowed',
  'key-passphrase-needed',
  'key-passphrase-wrong',
  'key-invalid',
  'agent-unavailable',
  'agent-no-keys',
  'invalid-spec',
  'cancelled'
])

export function isRetryableConnectError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return true
  const { code, level, message } = err as { code?: unknown; level?: unknown; message?: unknown }
  if (typeof code === 'string' && PERMANENT_CONNECT_CODES.has(code)) return false
  if (level === 'client-authentication') return false
  if (typeof message === 'string' && /host key verification failed|all configured authentication methods failed/i.test(message)) {
    return false
  }
  return true
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/** ssh2's synchronous refusal to use a socket that is no longer writable. */
function isNotConnected(err: unknown): boolean {
  return messageOf(err) === 'Not connected'
}

/** ssh2's message when the server refuses a channel (MaxSessions reached). */
function isChannelRefused(err: unknown): boolean {
  return /Channel open failure/i.test(messageOf(err)) && !/closed channel unexpectedly/i.test(messageOf(err))
}

interface Connection {
  client: Client
  lost: boolean
  lastError?: Error
}

interface PosixPlatform {
  shell: 'posix'
  facts: SessionFacts
  loginShell: LoginShell
  /** Nothing came before the folded probe's output (remote-command.ts, quietLogin); false when the probe ran on its own. */
  quietLogin: boolean
}

interface WindowsPlatform {
  shell: 'windows'
  facts: SessionFacts
  localAppData: string
}

type Platform = PosixPlatform | WindowsPlatform

interface OpenSftp {
  files: SftpFiles
  release: Release
  /** withSftp calls using it now. */
  users: number
  closed: boolean
  idle?: NodeJS.Timeout
}

interface RawOutput {
  end: ChannelEnd
  stdout: string
  stderr: string
}

export class SshSession implements Session {
  readonly label: string
  private readonly connectFn: () => Promise<Client>
  private readonly pool: ChannelPool
  private readonly reconnectDelays: readonly number[]
  private readonly retryable: (err: unknown) => boolean
  private readonly killGraceMs: number
  private readonly sftpIdleMs: number
  private readonly workRootOption: string | undefined
  private readonly nonce = randomBytes(9).toString('base64').replace(/[^A-Za-z0-9]/g, 'x')

  private conn: Connection | undefined
  /** Channels of ours the server holds open now (commands and SFTP). */
  private established = 0
  /** Channel opens in flight now. */
  private opening = 0
  /** Channel refusals since the last successful open. */
  private refusals = 0
  private connecting: Promise<Connection> | undefined
  /** close() was called: no new work is accepted (the stops of running commands still run). */
  private closing = false
  private closeDone: Promise<void> | undefined
  /** close() finished: nothing runs any more. */
  private closed = false
  private platform: Promise<Platform> | undefined
  private readonly sudoModes = new Map<string, Promise<SudoMode>>()
  private sftp: Promise<OpenSftp> | undefined
  private sftpCurrent: OpenSftp | undefined
  private readonly ensured = new Map<string, Promise<EnsuredDir>>()
  private readonly ensuredDirs = new Set<string>()
  /** Stops of the commands running now (close() calls them). */
  private readonly running = new Set<() => void>()
  private readonly inFlight = new Set<Promise<unknown>>()

  constructor(opts: SshSessionOptions) {
    this.label = opts.label
    this.connectFn = opts.connect
    this.pool = new ChannelPool(opts.maxChannels ?? DEFAULT_MAX_CHANNELS)
    this.reconnectDelays = opts.reconnectDelaysMs ?? DEFAULT_RECONNECT_DELAYS
    this.retryable = opts.isRetryable ?? isRetryableConnectError
    this.killGraceMs = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS
    this.sftpIdleMs = opts.sftpIdleMs ?? DEFAULT_SFTP_IDLE_MS
    this.workRootOption = opts.workRoot
  }

  /** The channel limit now in force (lowered when the server refused a channel). */
  get channelLimit(): number {
    return this.pool.currentLimit
  }

  // ---- facts -------------------------------------------------------------------------------

  async facts(): Promise<SessionFacts> {
    return (await this.detectPlatform()).facts
  }

  private detectPlatform(): Promise<Platform> {
    this.platform ??= this.probePlatform().catch((err: unknown) => {
      this.platform = undefined
      throw err
    })
    return this.platform
  }

  private async probePlatform(): Promise<Platform> {
    const posix = await this.runRaw(posixProbeCommand(this.nonce), Buffer.alloc(0))
    const probed = posix.end.exitCode === 0 ? parsePosixProbe(posix.stdout) : undefined
    if (probed) {
      const { loginShell, ...facts } = probed
      // whether anything came before the probe's output is not seen here (its filter drops it): markers stay
      return { shell: 'posix', facts: { shell: 'posix', ...facts }, loginShell, quietLogin: false }
    }
    const win = await this.runRaw(powershellCommandLine(windowsProbeScript(this.nonce)), Buffer.alloc(0))
    const parsed = win.end.exitCode === 0 ? parseWindowsProbe(win.stdout) : undefined
    if (parsed) return { shell: 'windows', facts: parsed.facts, localAppData: parsed.localAppData }
    throw new SessionError(
      'invalid',
      `cannot tell what system ${this.label} runs: \`uname\` failed (${describeEnd(posix)}) and PowerShell did not answer ` +
        `(${describeEnd(win)}). VirtBench supports Linux and other POSIX systems with /bin/sh, and Windows with PowerShell.`,
      this.label
    )
  }

  // ---- exec --------------------------------------------------------------------------------

  exec(command: RemoteCommand | string, opts: ExecOptions = {}): Promise<ExecResult> {
    return tracked(this.inFlight, this.execInner(command, opts) as Promise<ExecResult>)
  }

  /**
   * Runs a POSIX script as the session's first command, with the platform probe folded into it;
   * undefined, with nothing run, when the platform is known already or the target has no POSIX
   * shell (then the probe has run on its own).
   */
  private execFirstIfPosix(script: string): Promise<ExecResult | undefined> {
    if (this.platform !== undefined) return Promise.resolve(undefined)
    return tracked(this.inFlight, this.execInner({ script }, { capture: PROBE_CAPTURE }, true))
  }

  private async execInner(command: RemoteCommand | string, opts: ExecOptions, posixFirstOnly = false): Promise<ExecResult | undefined> {
    this.assertAccepting()
    validateEnv(opts.env, this.label)
    const started = performance.now()
    const stdout = new StreamSink(opts.onStdout, opts.capture)
    const stderr = new StreamSink(opts.onStderr, opts.capture)
    const cancelledEarly = (): ExecResult => buildExecResult(started, stdout, stderr, undefined, { timedOut: false, cancelled: true })
    if (opts.signal?.aborted) return cancelledEarly()

    if (this.platform === undefined && !opts.sudo) {
      const probing = await this.execProbing(command, opts, { stdout, stderr, cancelledEarly })
      // undefined: it did not start (no POSIX shell as expected); the probe on its own tells what runs there
      if (probing || posixFirstOnly) return probing
    }
    if (posixFirstOnly) return undefined
    const platform = await this.detectPlatform()
    const sudo = opts.sudo ? await this.effectiveSudo(opts.sudo, platform) : false
    const line =
      platform.shell === 'posix'
        ? wrapPosix(command, { nonce: this.nonce, sudo, env: opts.env, cwd: opts.cwd, loginShell: platform.loginShell, quietLogin: platform.quietLogin })
        : wrapWindows(command, { nonce: this.nonce, env: opts.env, cwd: opts.cwd })
    const stdoutMarked = platform.shell === 'windows' || marksStdout({ quietLogin: platform.quietLogin, sudo, loginShell: platform.loginShell })
    return this.runWrapped(command, opts, { line, stdin: commandStdin(opts.stdin, sudo), shell: platform.shell, sudo, stdout, stderr, cancelledEarly, stdoutMarked })
  }

  /**
   * The session's first command, with the platform probe folded into it (probingWrapPosix): one
   * round trip for both. Commands that come meanwhile wait for what it learns, which is known as
   * soon as the command's marker arrives. Undefined when the command did not start (no marker: a
   * Windows shell, MSYS); the probe then runs on its own, and the command after it as always.
   */
  private async execProbing(
    command: RemoteCommand | string,
    opts: ExecOptions,
    out: { stdout: StreamSink; stderr: StreamSink; cancelledEarly: () => ExecResult }
  ): Promise<ExecResult | undefined> {
    let learn: (platform: Platform | undefined) => void = () => undefined
    let fail: (err: unknown) => void = () => undefined
    const learned = new Promise<Platform | undefined>((resolve, reject) => {
      learn = resolve
      fail = reject
    })
    const guarded: Promise<Platform> = learned
      .then((found) => found ?? this.probePlatform())
      .catch((err: unknown) => {
        if (this.platform === guarded) this.platform = undefined
        throw err
      })
    this.platform = guarded
    // a failure is reported to whoever awaits the platform, and is no unhandled rejection when nobody does
    guarded.catch(() => undefined)
    let started: boolean | undefined
    const onPreamble = (preamble: Buffer | undefined): void => {
      started = preamble !== undefined
      const probed = preamble ? parseProbingPreamble(preamble, this.nonce) : undefined
      if (!preamble || !probed) return learn(undefined)
      const { loginShell, ...facts } = probed
      learn({ shell: 'posix', facts: { shell: 'posix', ...facts }, loginShell, quietLogin: preambleIsProbeAlone(preamble, this.nonce) })
    }
    try {
      const result = await this.runWrapped(command, opts, {
        line: probingWrapPosix(command, { nonce: this.nonce, env: opts.env, cwd: opts.cwd }),
        stdin: commandStdin(opts.stdin, false),
        shell: 'posix',
        sudo: false,
        ...out,
        onPreamble
      })
      // stopped or cancelled before its output ended: the probe on its own, for the commands to come
      if (started === undefined) learn(undefined)
      return started === false && !result.cancelled && !result.timedOut ? undefined : result
    } catch (err) {
      fail(err)
      throw err
    }
  }

  /** Runs a wrapped command line on a channel of its own: its stop on cancel and timeout, its result. */
  private async runWrapped(
    command: RemoteCommand | string,
    opts: ExecOptions,
    wrapped: {
      line: string
      stdin: StdinSource
      shell: Platform['shell']
      sudo: SudoMode
      stdout: StreamSink
      stderr: StreamSink
      cancelledEarly: () => ExecResult
      onPreamble?: (preamble: Buffer | undefined) => void
      /** Whether stdout has the wrapper's marker (default true). */
      stdoutMarked?: boolean
    }
  ): Promise<ExecResult> {
    const { stdout, stderr, sudo } = wrapped
    let slot: Awaited<ReturnType<SshSession['openChannel']>>
    try {
      slot = await this.openChannel(wrapped.line, wrapped.stdin, stdout, stderr, opts.signal, {
        ...(wrapped.onPreamble ? { onPreamble: wrapped.onPreamble } : {}),
        ...(wrapped.stdoutMarked === false ? { stdoutMarked: false } : {})
      })
    } catch (err) {
      if (err instanceof AbortedWhileQueued) return wrapped.cancelledEarly()
      throw this.channelError(err, command)
    }
    const { running, conn, release } = slot
    const channelStarted = performance.now()

    const watch = watchForStop(opts, () => this.stopCommand(running, conn, wrapped.shell, sudo), this.running)
    // close() may have begun while the channel was opening: it could not see this command yet
    if (this.closing) watch.cancel()
    try {
      const end = await running.ended
      await watch.stopped()
      if (end.noStatus && watch.reason === undefined) {
        throw new SessionError(
          conn.lost ? (this.closed ? 'closed' : 'connection-lost') : 'channel',
          conn.lost
            ? this.closed
              ? `the session to ${this.label} was closed while running ${shortCommand(command)}`
              : `connection to ${this.label} lost while running ${shortCommand(command)}` +
                (conn.lastError ? ` (${conn.lastError.message})` : '') +
                '; whether it finished is unknown. The next command reconnects.'
            : `${this.label} closed the channel of ${shortCommand(command)} without an exit status`,
          this.label,
          { cause: conn.lastError }
        )
      }
      return buildExecResult(channelStarted, stdout, stderr, end, {
        timedOut: watch.reason === 'timeout',
        cancelled: watch.reason === 'cancel'
      })
    } finally {
      watch.dispose()
      release()
    }
  }

  /** Acquires a slot and opens a channel running `line` (see openOnConnection). */
  private async openChannel(
    line: string,
    stdin: StdinSource,
    stdout: StreamSink,
    stderr: StreamSink,
    signal: AbortSignal | undefined,
    extra: { control?: boolean; onPreamble?: (preamble: Buffer | undefined) => void; stdoutMarked?: boolean } = {}
  ): Promise<{ running: RunningChannel; conn: Connection; release: Release }> {
    const { control = false, ...channel } = extra
    const { value: running, conn, release } = await this.openOnConnection(
      (client) => openExecChannel(client, { command: line, stdin, nonce: this.nonce, stdout, stderr, ...channel }),
      signal,
      control
    )
    void running.ended.then(() => this.established--)
    return { running, conn, release }
  }

  /**
   * Acquires a slot, connects if needed and opens a channel with `open`. The caller decrements
   * `established` when the channel ends. A refusal by the server is retried after a short wait:
   * right after a channel closes, sshd may still count it for a moment. Refusals that persist
   * while nothing else is being opened lower the channel limit to what is open now.
   */
  private async openOnConnection<T>(
    open: (client: Client) => Promise<T>,
    signal: AbortSignal | undefined,
    control: boolean
  ): Promise<{ value: T; conn: Connection; release: Release }> {
    for (;;) {
      const release = await this.pool.acquire({ signal, control })
      let conn: Connection
      try {
        conn = await this.connection()
      } catch (err) {
        release()
        throw err
      }
      this.opening++
      try {
        const value = await open(conn.client)
        this.opening--
        this.refusals = 0
        this.established++
        return { value, conn, release }
      } catch (err) {
        this.opening--
        release()
        if (!conn.lost && isNotConnected(err)) {
          // the socket died before ssh2 told us: nothing ran, so connect again and retry
          this.forget(conn)
          conn.client.end()
          continue
        }
        if (conn.lost || !isChannelRefused(err)) throw err
        this.noteRefusal(err)
        if (signal?.aborted) throw new AbortedWhileQueued()
        await sleep(5 * Math.min(this.refusals, 10))
        if (signal?.aborted) throw new AbortedWhileQueued()
      }
    }
  }

  /** Counts a refusal; learns the server's limit, or gives up, once the picture is clear. */
  private noteRefusal(err: unknown): void {
    // other opens still in flight may yet succeed or fail: decide only when none are
    if (this.opening > 0) return
    this.refusals++
    if (this.refusals < REFUSALS_TO_LEARN) return
    this.refusals = 0
    if (this.established === 0) {
      throw new SessionError(
        'channel',
        `${this.label} refuses every new session channel (${messageOf(err)}) although none of ours is open; ` +
          'check MaxSessions and the account in its sshd_config',
        this.label,
        { cause: err }
      )
    }
    this.pool.learnServerLimit(this.established + 1)
  }

  private channelError(err: unknown, command: RemoteCommand | string): Error {
    if (err instanceof SessionError) return err
    const lost = this.conn === undefined || this.conn.lost
    return new SessionError(
      lost ? 'connection-lost' : 'channel',
      lost
        ? `connection to ${this.label} lost before ${shortCommand(command)} could start: ${messageOf(err)}`
        : `${this.label} refused to run ${shortCommand(command)}: ${messageOf(err)}`,
      this.label,
      { cause: err }
    )
  }

  /**
   * Stops a running command: its process group gets TERM, then KILL after the grace period,
   * from a second command on the same connection. Falls back to an SSH signal request and
   * closing the channel when the group is unknown or the kill command cannot run.
   */
  private async stopCommand(running: RunningChannel, conn: Connection, shell: Platform['shell'], sudo: SudoMode): Promise<void> {
    let markerTimer: NodeJS.Timeout | undefined
    const ids = await Promise.race([
      running.processIds,
      new Promise<undefined>((resolve) => (markerTimer = setTimeout(() => resolve(undefined), MARKER_WAIT_MS)))
    ])
    clearTimeout(markerTimer)
    let stopped = false
    if (ids && !conn.lost) stopped = await this.killRemote(ids, shell, sudo)
    if (!stopped) {
      running.signal('TERM')
      const ended = await Promise.race([running.ended.then(() => true), sleep(this.killGraceMs).then(() => false)])
      if (ended) return
      running.signal('KILL')
    }
    // the group is gone; give the channel a moment to report, then close it ourselves
    const ended = await Promise.race([running.ended.then(() => true), sleep(this.killGraceMs).then(() => false)])
    if (!ended) running.close()
  }

  private async killRemote(ids: ProcessIds, shell: Platform['shell'], sudo: SudoMode): Promise<boolean> {
    const line = shell === 'posix' ? posixKillCommand(ids.pgid, this.killGraceMs, sudo) : taskkillCommand(ids.pid)
    const stdin = commandStdin(undefined, sudo)
    try {
      const out = await this.runRaw(line, stdin, { control: true, signal: AbortSignal.timeout(KILL_CHANNEL_WAIT_MS) })
      return out.end.exitCode === 0
    } catch {
      return false
    }
  }

  /** Runs a command line as is (no wrapper), keeping up to 64 KiB of each stream as text. */
  private async runRaw(
    line: string,
    stdin: Buffer,
    opts: { control?: boolean; signal?: AbortSignal } = {}
  ): Promise<RawOutput> {
    this.assertOpen()
    const stdout = new StreamSink(undefined, PROBE_CAPTURE)
    const stderr = new StreamSink(undefined, PROBE_CAPTURE)
    let slot: Awaited<ReturnType<SshSession['openChannel']>>
    try {
      slot = await this.openChannel(line, stdin, stdout, stderr, opts.signal, opts.control !== undefined ? { control: opts.control } : {})
    } catch (err) {
      throw this.channelError(err, { script: line })
    }
    try {
      const end = await slot.running.ended
      if (end.noStatus && slot.conn.lost) {
        throw new SessionError('connection-lost', `connection to ${this.label} lost while running ${shortCommand(line)}`, this.label)
      }
      return { end, stdout: stdout.result()?.data.toString('utf8') ?? '', stderr: stderr.result()?.data.toString('utf8') ?? '' }
    } finally {
      slot.release()
    }
  }

  // ---- sudo --------------------------------------------------------------------------------

  /** Checks once per mode that sudo works (sudo.ts); the answer is remembered for the session. */
  private effectiveSudo(sudo: Exclude<SudoMode, false>, platform: Platform): Promise<SudoMode> {
    if (platform.shell === 'windows') {
      return Promise.reject(
        new SessionError('sudo', `sudo is not available on Windows target ${this.label}: connect as an administrator instead`, this.label)
      )
    }
    const key = sudoKey(sudo, (s) => createHash('sha256').update(s).digest('hex'))
    let checked = this.sudoModes.get(key)
    if (!checked) {
      // the probe runs in the wrapper too, so rc-file noise on stderr does not hide sudo's words
      checked = resolveSudo(this.label, sudo, async (line, stdin) => {
        const out = await this.runRaw(wrapPosix(line, { nonce: this.nonce, loginShell: platform.loginShell }), stdin)
        return { exitCode: out.end.exitCode, stderr: out.stderr }
      })
      this.sudoModes.set(key, checked)
      checked.catch(() => this.sudoModes.delete(key))
    }
    return checked
  }

  // ---- connection --------------------------------------------------------------------------

  private connection(): Promise<Connection> {
    this.assertOpen()
    if (this.conn && !this.conn.lost) return Promise.resolve(this.conn)
    this.connecting ??= this.connectWithRetry().finally(() => (this.connecting = undefined))
    return this.connecting
  }

  private async connectWithRetry(): Promise<Connection> {
    const waits = [0, ...this.reconnectDelays]
    let lastError: unknown
    let attempts = 0
    const t0 = Date.now()
    for (const wait of waits) {
      if (wait > 0) await sleep(wait)
      this.assertOpen()
      attempts++
      try {
        const client = await this.connectFn()
        return this.adopt(client)
      } catch (err) {
        lastError = err
        if (!this.retryable(err)) break
      }
    }
    const seconds = ((Date.now() - t0) / 1000).toFixed(1)
    throw new SessionError(
      'connect-failed',
      attempts > 1
        ? `cannot connect to ${this.label} (${attempts} attempts over ${seconds} s): ${messageOf(lastError)}`
        : `cannot connect to ${this.label}: ${messageOf(lastError)}`,
      this.label,
      { cause: lastError }
    )
  }

  private adopt(client: Client): Connection {
    const conn: Connection = { client, lost: false }
    client.on('error', (err: Error) => (conn.lastError = err))
    client.on('close', () => this.forget(conn))
    if (this.closed) {
      client.end()
      this.assertOpen()
    }
    this.conn = conn
    return conn
  }

  /** Marks a connection dead; the next command connects anew. */
  private forget(conn: Connection): void {
    conn.lost = true
    if (this.conn === conn) this.conn = undefined
  }

  /** For work a caller asks for: refused once close() has begun. */
  private assertAccepting(): void {
    if (this.closing) throw new SessionError('closed', `the session to ${this.label} is closed`, this.label)
  }

  /** For the session's own work (the kill command of a stop may still run while closing). */
  private assertOpen(): void {
    if (this.closed) throw new SessionError('closed', `the session to ${this.label} is closed`, this.label)
  }

  // ---- files -------------------------------------------------------------------------------

  async upload(localPath: string, remotePath: string, opts: UploadOptions = {}): Promise<void> {
    const platform = await this.detectPlatform()
    const target = platform.shell === 'windows' ? toSftpPath(remotePath) : remotePath
    const tmp = `${target}.vb-tmp-${randomBytes(4).toString('hex')}`
    await this.withSftp(async (files) => {
      try {
        await files.putFile(localPath, tmp, opts.mode ?? 0o644)
        await files.renameOver(tmp, target)
      } catch (err) {
        await files.unlink(tmp).catch(() => undefined)
        throw new SessionError('upload', `uploading ${localPath} to ${remotePath} on ${this.label} failed: ${messageOf(err)}`, this.label, {
          cause: err
        })
      }
    })
  }

  async writeFile(remotePath: string, data: string | Buffer, opts: UploadOptions = {}): Promise<void> {
    const platform = await this.detectPlatform()
    const target = platform.shell === 'windows' ? toSftpPath(remotePath) : remotePath
    const tmp = `${target}.vb-tmp-${randomBytes(4).toString('hex')}`
    await this.withSftp(async (files) => {
      try {
        await files.putBuffer(tmp, Buffer.from(data), opts.mode ?? 0o644)
        await files.renameOver(tmp, target)
      } catch (err) {
        await files.unlink(tmp).catch(() => undefined)
        throw new SessionError('upload', `writing ${remotePath} on ${this.label} failed: ${messageOf(err)}`, this.label, { cause: err })
      }
    })
  }

  async ensureScripts(localDir: string): Promise<EnsureScriptsResult> {
    this.assertAccepting()
    const bundle = await readScriptBundle(localDir)
    let pending = this.ensured.get(bundle.hash)
    let first = false
    if (!pending) {
      first = true
      pending = this.scriptsInPlace(bundle).then(async (found) => found ?? ensureBundle(this.scriptStore(await this.detectPlatform()), bundle))
      this.ensured.set(bundle.hash, pending)
      pending.catch(() => this.ensured.delete(bundle.hash))
    }
    const done = await pending
    this.ensuredDirs.add(done.remoteDir)
    return { remoteDir: done.remoteDir, uploaded: first && done.uploaded, hash: bundle.hash }
  }

  async removeWorkDir(): Promise<void> {
    const platform = await this.detectPlatform()
    const store = this.scriptStore(platform)
    for (const dir of this.ensuredDirs) await store.removeDir(dir)
    this.ensuredDirs.clear()
    this.ensured.clear()
    await store.removeDirIfEmpty(await store.workRoot())
  }

  /** Runs `fn` with the session's SFTP channel, opening it when needed. */
  private async withSftp<T>(fn: (files: SftpFiles) => Promise<T>): Promise<T> {
    this.assertAccepting()
    const open = await this.currentSftp()
    open.users++
    clearTimeout(open.idle)
    try {
      return await fn(open.files)
    } finally {
      open.users--
      if (open.users === 0 && !open.closed) open.idle = setTimeout(() => this.dropSftp(open), this.sftpIdleMs)
    }
  }

  private currentSftp(): Promise<OpenSftp> {
    if (this.sftpCurrent?.closed) this.sftp = undefined
    this.sftp ??= this.openSftp().catch((err: unknown) => {
      this.sftp = undefined
      throw err
    })
    return this.sftp
  }

  private async openSftp(): Promise<OpenSftp> {
    try {
      const { value: sftp, release, conn } = await this.openOnConnection(
        (client) =>
          new Promise<SFTPWrapper>((resolve, reject) => {
            try {
              client.sftp((err, s) => (err ? reject(err) : resolve(s)))
            } catch (err) {
              reject(err)
            }
          }),
        undefined,
        false
      )
      const open: OpenSftp = { files: new SftpFiles(sftp), release, users: 0, closed: false }
      const gone = (): void => {
        if (open.closed) return
        open.closed = true
        clearTimeout(open.idle)
        this.established--
        release()
        if (this.sftpCurrent === open) {
          this.sftpCurrent = undefined
          this.sftp = undefined
        }
      }
      // a dead SFTP channel never answers new requests: forget it at its end or its connection's
      sftp.on('close', gone)
      sftp.on('end', gone)
      conn.client.once('close', gone)
      this.sftpCurrent = open
      return open
    } catch (err) {
      if (err instanceof SessionError) throw err
      throw new SessionError('upload', `cannot open SFTP on ${this.label}: ${messageOf(err)}`, this.label, { cause: err })
    }
  }

  /** Closes an idle SFTP channel (its slot is given back when the channel reports closed). */
  private dropSftp(open: OpenSftp): void {
    if (open.users > 0 || open.closed) return
    if (this.sftpCurrent === open) {
      this.sftpCurrent = undefined
      this.sftp = undefined
    }
    open.files.sftp.end()
  }

  /** Runs a wrapped script and keeps its output as text (for the file helpers below). */
  private async script(script: string): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
    const r = await this.exec({ script }, { capture: PROBE_CAPTURE })
    return { exitCode: r.exitCode, stdout: r.stdout?.toString('utf8') ?? '', stderr: r.stderr?.toString('utf8') ?? '' }
  }

  private async mustScript(script: string, what: string): Promise<string> {
    const r = await this.script(script)
    if (r.exitCode !== 0) {
      throw new SessionError('upload', `${what} on ${this.label} failed (exit ${r.exitCode}): ${r.stderr.trim()}`, this.label)
    }
    return r.stdout
  }

  /**
   * For a session whose platform is not known yet: whether the bundle is in place on a POSIX
   * target, checked in the session's first command with the platform probe folded into it (one
   * round trip for both; its folder is found from $HOME there, as the probe reads it). Undefined
   * when it is not known to be there: then ensureBundle checks (and uploads) as always.
   */
  private async scriptsInPlace(bundle: ScriptBundle): Promise<EnsuredDir | undefined> {
    const dir = this.workRootOption !== undefined ? quoteSh(`${this.workRootOption}/${bundle.hash}`) : `"$HOME"/.cache/virtbench/${quoteSh(bundle.hash)}`
    const names = bundle.files.map((f) => f.name)
    const result = await this.execFirstIfPosix(posixHashScript(dir, names))
    if (result?.exitCode !== 0) return undefined
    const platform = await this.detectPlatform()
    const out = (result.stdout ?? Buffer.alloc(0)).toString('utf8')
    if (platform.shell !== 'posix' || out.startsWith('vb-missing')) return undefined
    if (mismatches(bundle, parseSha256sum(out)).length > 0) return undefined
    const store = this.scriptStore(platform)
    return { remoteDir: store.join(await store.workRoot(), bundle.hash), uploaded: false }
  }

  private scriptStore(platform: Platform): ScriptStore {
    return platform.shell === 'posix' ? this.posixStore(platform) : this.windowsStore(platform)
  }

  private posixStore(platform: PosixPlatform): ScriptStore {
    const root = this.workRootOption ?? `${platform.facts.homeDir.replace(/\/+$/, '')}/.cache/virtbench`
    return {
      label: this.label,
      workRoot: () => Promise.resolve(root),
      join: (dir, rel) => `${dir}/${rel}`,
      hashFiles: async (dir, names) => {
        const out = await this.mustScript(posixHashScript(quoteSh(dir), names), `checking ${dir}`)
        return out.startsWith('vb-missing') ? 'missing' : parseSha256sum(out)
      },
      makeDirs: async (dir, subdirs) => {
        await this.mustScript(shJoin(['mkdir', '-p', '--', dir, ...subdirs.map((s) => `${dir}/${s}`)]), `creating ${dir}`)
      },
      writeFile: (filePath, data) => this.withSftp((files) => files.putBuffer(filePath, data, 0o755)),
      makeExecutable: async (dir, names) => {
        await this.mustScript(`cd -- ${quoteSh(dir)} && ${shJoin(['chmod', '0755', '--', ...names])}`, `chmod in ${dir}`)
      },
      renameDir: (from, to) => this.withSftp((files) => files.rename(from, to)),
      removeDir: async (dir) => {
        await this.mustScript(shJoin(['rm', '-rf', '--', dir]), `removing ${dir}`)
      },
      removeDirIfEmpty: async (dir) => {
        await this.script(`${shJoin(['rmdir', '--', dir])} 2>/dev/null; exit 0`)
      }
    }
  }

  private windowsStore(platform: WindowsPlatform): ScriptStore {
    const root = this.workRootOption ?? windowsWorkRoot(platform.localAppData)
    return {
      label: this.label,
      workRoot: () => Promise.resolve(root),
      join: (dir, rel) => joinWindowsPath(dir, ...rel.split('/')),
      hashFiles: async (dir, names) => {
        const exists = await this.mustScript(`if (Test-Path -LiteralPath ${quotePwsh(dir)}) { 'yes' } else { 'no' }`, `checking ${dir}`)
        if (exists.trim() !== 'yes') return 'missing'
        const nativeNames = names.map((n) => n.replace(/\//g, '\\'))
        const out = await this.mustScript(windowsHashScript(dir, nativeNames), `hashing files in ${dir}`)
        const byNative = parseSha256sum(out)
        return new Map(names.map((n, i) => [n, byNative.get(nativeNames[i] as string) ?? '']))
      },
      makeDirs: async (dir, subdirs) => {
        const script = [dir, ...subdirs.map((s) => joinWindowsPath(dir, ...s.split('/')))].map(windowsMkdirScript).join('\n')
        await this.mustScript(script, `creating ${dir}`)
      },
      writeFile: (filePath, data) => this.withSftp((files) => files.putBuffer(toSftpPath(filePath), data, 0o755)),
      makeExecutable: () => Promise.resolve(),
      renameDir: (from, to) => this.withSftp((files) => files.rename(toSftpPath(from), toSftpPath(to))),
      removeDir: async (dir) => {
        await this.mustScript(windowsRemoveDirScript(dir), `removing ${dir}`)
      },
      removeDirIfEmpty: async (dir) => {
        const q = quotePwsh(dir)
        await this.script(`if ((Test-Path -LiteralPath ${q}) -and -not (Get-ChildItem -Force -LiteralPath ${q})) { Remove-Item -LiteralPath ${q} }`)
      }
    }
  }

  // ---- close -------------------------------------------------------------------------------

  close(): Promise<void> {
    this.closeDone ??= this.shutDown()
    return this.closeDone
  }

  private async shutDown(): Promise<void> {
    this.closing = true
    const closedError = new SessionError('closed', `the session to ${this.label} is closed`, this.label)
    // queued commands never start; running ones are stopped (their process groups), then the
    // connection ends
    this.pool.failAll(closedError)
    for (const stop of [...this.running]) stop()
    await Promise.race([Promise.allSettled([...this.inFlight]), sleep(this.killGraceMs * 2 + 2000)])
    this.closed = true
    this.pool.failAll(closedError)
    const sftp = this.sftpCurrent
    if (sftp) {
      sftp.users = 0
      this.dropSftp(sftp)
    }
    const conn = this.conn
    this.conn = undefined
    if (conn && !conn.lost) {
      const gone = new Promise<void>((resolve) => conn.client.once('close', () => resolve()))
      conn.client.end()
      await Promise.race([gone, sleep(2000)])
    }
  }
}

function describeEnd(out: RawOutput): string {
  const how = out.end.signal ? `signal ${out.end.signal}` : `exit ${out.end.exitCode}`
  const err = out.stderr.trim().split('\n')[0]
  return err ? `${how}: ${err.slice(0, 200)}` : how
}

/** sha256sum of each of `names` in `dir` (a shell word: quoted, or with $HOME) that is an executable file; "vb-missing" when there is no `dir`. */
function posixHashScript(dir: string, names: readonly string[]): string {
  return [
    `cd -- ${dir} 2>/dev/null || { echo vb-missing; exit 0; }`,
    `for f in ${names.map(quoteSh).join(' ')}; do [ -f "$f" ] && [ -x "$f" ] && sha256sum -- "$f"; done`,
    'exit 0'
  ].join('\n')
}
