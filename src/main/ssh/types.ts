import type { Readable } from 'node:stream'

/**
 * The session interface: how the engine runs commands on a target, whether the target is reached
 * over SSH (`SshSession`) or is this computer (`LocalSession`).
 */

/**
 * A command for the target's shell. `{ argv }` is quoted here, argument by argument;
 * `{ script }` is shell text whose user values the caller has already quoted
 * (src/shared/shell-quote.ts). A plain string is taken as a script.
 */
export type RemoteCommand = { argv: readonly string[] } | { script: string }

/** How a command gets root: not at all, sudo without a password, or sudo with one (sent on stdin). */
export type SudoMode = false | { mode: 'passwordless' } | { mode: 'password'; password: string }

export interface CaptureOptions {
  /** At most this many bytes of each stream are kept (stdout and stderr separately). */
  maxBytes: number
  /** Keep the first bytes (default) or the last ones. */
  keep?: 'head' | 'tail'
}

export interface ExecOptions {
  /**
   * Raw stdout bytes as they arrive. Both streams are always read to the end, whatever the
   * output size; nothing is kept unless `capture` asks for it. Returning a promise pauses the
   * stream until it settles (back-pressure to the remote command).
   */
  onStdout?: (chunk: Buffer) => void | Promise<void>
  onStderr?: (chunk: Buffer) => void | Promise<void>
  /** Keep up to `maxBytes` of each stream in the result. */
  capture?: CaptureOptions
  /**
   * Written to the command's stdin, then stdin is closed. Without it stdin is closed at once. A
   * stream is piped as it comes, and stdin closes when it ends (not with sudo's password: a
   * command that takes its input as it comes runs without sudo).
   */
  stdin?: string | Buffer | Readable
  /**
   * Stop the command (its whole process group) after this long, counted from its start (a wait
   * for a free channel does not count); the result says `timedOut`.
   */
  timeoutMs?: number
  /** Aborting stops the command (its whole process group); the result says `cancelled`. */
  signal?: AbortSignal
  sudo?: SudoMode
  /** Environment variables for the command. Names must match [A-Za-z_][A-Za-z0-9_]*. */
  env?: Readonly<Record<string, string>>
  /** Working directory on the target. */
  cwd?: string
}

/** What a command gets on stdin: bytes, then the end; or a stream piped as it comes. */
export type StdinSource = Buffer | Readable

export interface ExecResult {
  /** The command's exit code; null when it was ended by a signal. */
  exitCode: number | null
  /** The signal that ended the command ('TERM', 'KILL'...), without the SIG prefix; null otherwise. */
  signal: string | null
  /** From the start of the command (after any wait for a channel) to the end of both streams, in ms. */
  durationMs: number
  stdoutBytes: number
  stderrBytes: number
  timedOut: boolean
  cancelled: boolean
  /** Present when `capture` was asked for. */
  stdout?: Buffer
  stderr?: Buffer
  /** True when the stream had more bytes than `capture.maxBytes`. */
  stdoutTruncated?: boolean
  stderrTruncated?: boolean
}

/** How commands are run on a target: POSIX `sh`, or PowerShell on Windows. */
export type ShellFamily = 'posix' | 'windows'

/** What a session found out about its target in one probe. */
export interface SessionFacts {
  shell: ShellFamily
  /** `uname -s` ('Linux', 'Darwin', 'FreeBSD') or 'Windows'. */
  system: string
  /** `uname -r`, or the Windows version ('10.0.20348.0'). */
  release: string
  /** `uname -m` ('x86_64', 'aarch64'), or the Windows processor architecture ('AMD64'). */
  machine: string
  /** The login user's home directory in the target's own form ('/home/ana', 'C:\Users\ana'). */
  homeDir: string
}

export interface EnsureScriptsResult {
  /** Absolute directory on the target holding the scripts, in the target's own path form. */
  remoteDir: string
  /** False when an identical, verified copy was already there. */
  uploaded: boolean
  /** The content hash naming the directory. */
  hash: string
}

export interface UploadOptions {
  /** File mode on POSIX targets (default 0o644; ignored on Windows). */
  mode?: number
}

export interface Session {
  /** The name people know the target by; used in every error message. */
  readonly label: string
  /** OS, kernel and home directory of the target (probed once, then remembered). */
  facts(): Promise<SessionFacts>
  exec(command: RemoteCommand | string, opts?: ExecOptions): Promise<ExecResult>
  /** Copies one local file to `remotePath` (written under a temporary name, then renamed). */
  upload(localPath: string, remotePath: string, opts?: UploadOptions): Promise<void>
  /** Writes `data` to `remotePath` (temporary name, then rename). */
  writeFile(remotePath: string, data: string | Buffer, opts?: UploadOptions): Promise<void>
  /**
   * Makes the files of `localDir` present, verified and executable in the work directory
   * `<workRoot>/<hash>` on the target; uploads only when no identical copy is there.
   */
  ensureScripts(localDir: string): Promise<EnsureScriptsResult>
  /** Removes the script directories this session ensured (and the work root when left empty). */
  removeWorkDir(): Promise<void>
  /** Ends running commands and the connection; later calls fail with a clear error. */
  close(): Promise<void>
}

export type SessionErrorCode =
  /** The connection dropped while a command was running. */
  | 'connection-lost'
  /** No connection could be made (after retries where retrying made sense). */
  | 'connect-failed'
  /** The session was closed by the app. */
  | 'closed'
  /** sudo is missing, needs a password that was not given, or refused the password. */
  | 'sudo'
  /** The server refused a channel, a transfer failed or could not be verified. */
  | 'channel'
  | 'upload'
  /** The request itself is invalid (bad environment variable name, NUL byte in an argument...). */
  | 'invalid'

/** A failure a person reads: says which target, what happened, and what to do. */
export class SessionError extends Error {
  override readonly name = 'SessionError'
  constructor(
    readonly code: SessionErrorCode,
    message: string,
    readonly target: string,
    options?: { cause?: unknown }
  ) {
    super(message, options)
  }
}
