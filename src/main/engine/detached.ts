import { randomBytes } from 'node:crypto'
import { quoteSh } from '../../shared/shell-quote'
import { SessionError, type ExecResult, type Session, type SudoMode } from '../ssh/types'
import type { OutputSink } from './bounded-output'
import type { JobAgent, JobRequest } from './job-agent'

/**
 * Detached jobs (resources/scripts/linux/job.sh): the job runs in its own session on the target
 * with its output in files, so a dropped SSH connection does not end it, and it stops itself at
 * its limit even when nobody waits for it. The engine waits for it over one command, which prints
 * the job's status on its first line and then its output (the first and last halves of a long
 * one), so no amount of output can hide the status. When the connection drops, the engine
 * reconnects and waits again (reattaches). The engine keeps its own deadline on every job: a
 * target that does not report the end in time has the job stopped.
 */

export type DetachedStatus = number | 'lost' | 'timeout' | 'cancelled' | 'unwritable'

/** Free space on the file system of a job's folder, as df saw it when the job ended. */
export interface JobSpace {
  freeKiB: number
  mount: string
}

export interface DetachedResult {
  /**
   * The exit code; 'timeout' when the job was stopped at its limit; 'lost' when it ended without
   * a status (killed from outside, a reboot); 'unwritable' when its status could not be written
   * (a full disk); 'cancelled'.
   */
  status: DetachedStatus
  /** With 'unwritable': the exit code (or 'timeout') kept in the name of a file, when there was room for that. */
  unwrittenStatus?: number | 'timeout'
  /** With 'timeout': who stopped the job, job.sh on the target or VirtBench when the target did not report its end in time. */
  stoppedBy?: 'target' | 'engine'
  /** With any status but 0: the free space where the job's folder is, when df could tell. */
  space?: JobSpace
  /** How often the wait was resumed after the connection dropped. */
  reattached: number
  /** Connection errors and other breaks met while waiting (each followed by another wait). */
  interruptions: string[]
  /** The CPU counters job.sh read around the job, sent last on the wait's stderr (absent when the wait ended otherwise). */
  counters?: JobCounters
}

/** The CPU counters around a job and its CPU time, each part's lines (contamination.ts reads them). */
export interface JobCounters {
  before: string
  after: string
  times: string
}

/** Where the job's output goes as it arrives; `announce` is told the full size of an output sent only in part. */
export interface DetachedOutput {
  stdout: OutputSink & { announce?(totalBytes: number): void }
  stderr: OutputSink & { announce?(totalBytes: number): void }
}

export interface DetachedJob {
  /** Directory of the job on the target (created). */
  dir: string
  /** The job: a POSIX sh script. */
  script: string
  /** Hard limit from the job's start: job.sh stops the job then, and the engine a little later when the target does not say it did. */
  timeoutSeconds: number
  /** What the job is, for messages ("step 'run' of fio"); default "the job". */
  what?: string
  sudo?: SudoMode
  signal?: AbortSignal
  /** Receives the output; told to start over when a wait is repeated. */
  output: DetachedOutput
  /** Bytes of each stream the target sends: all of a shorter output, else its first and last halves (default 4 MiB). */
  keepBytes?: number
  /**
   * How long to keep trying to reach a target that dropped, counted from the drop (default 10
   * minutes, and never past the job's own deadline): after that the target counts as gone and the
   * job fails.
   */
  reattachForMs?: number
  /** Told each time the wait resumes after a dropped connection. */
  onReattach?: (error: string) => void
  /**
   * Once the status line has come: the longest pause in the output before the wait counts as
   * stalled, is dropped and the output fetched again by a new wait (default 60 s).
   */
  outputStallMs?: number
  /**
   * The target's job server (job-agent.ts): when it is free and the job needs no sudo, the job is
   * started and waited for through it rather than by a `job.sh run` command of its own.
   */
  agent?: JobAgent
}

export const DEFAULT_KEEP_BYTES = 4 * 1024 * 1024
const DEFAULT_REATTACH_MS = 10 * 60_000
/** The engine's deadline after the job's own limit: job.sh's stop (2 s grace), its polling, a loaded machine. */
export const DEADLINE_MARGIN_MS = 15_000
/** Once the job has ended: how long its output may take to arrive in all, and the longest pause in it. */
const OUTPUT_WITHIN_MS = 5 * 60_000
const OUTPUT_STALL_MS = 60_000
/** The last wait, after the engine's deadline: it stops the job if it still runs and collects what it printed. */
const COLLECT_MS = 30_000
/** Stderr that comes before the status line is job.sh's or sudo's own; at most this much is kept for the message. */
const EARLY_STDERR_BYTES = 64 * 1024
const STATUS_LINE_BYTES = 4096
const REATTACHABLE = new Set(['connection-lost', 'channel', 'connect-failed'])
const STOP_GRACE_MS = 2000
const CHECK_EVERY_MS = 250

/** The first line `job.sh wait` prints: the job's status, the sizes of its output, and free space. */
export interface StatusLine {
  status: Exclude<DetachedStatus, 'cancelled'>
  unwrittenStatus?: number | 'timeout'
  stdoutBytes: number
  stderrBytes: number
  space?: JobSpace
}

/** Reads `NONCE <status> <stdout bytes> <stderr bytes>[ <free KiB> <mount point>]`; undefined when it is not that. */
export function parseStatusLine(line: string, nonce: string): StatusLine | undefined {
  const m = /^(\S+) (\S+) (\d+) (\d+)(?: (\S+) (.+))?$/.exec(line.replace(/\r$/, ''))
  if (!m || m[1] !== nonce) return undefined
  const [, , word, out, err, free, mount] = m
  const code = (text: string): number | undefined => (/^\d{1,3}$/.test(text) ? Number(text) : undefined)
  let status: StatusLine['status']
  let unwritten: number | 'timeout' | undefined
  if (word === 'lost' || word === 'timeout' || word === 'unwritable') status = word
  else if (code(word!) !== undefined) status = code(word!)!
  else if (word!.startsWith('unwritable:')) {
    status = 'unwritable'
    const rest = word!.slice('unwritable:'.length)
    unwritten = rest === 'timeout' ? 'timeout' : code(rest)
  } else return undefined
  const freeKiB = free !== undefined && /^\d+$/.test(free) ? Number(free) : undefined
  return {
    status,
    ...(unwritten !== undefined ? { unwrittenStatus: unwritten } : {}),
    stdoutBytes: Number(out),
    stderrBytes: Number(err),
    ...(freeKiB !== undefined && mount !== undefined && mount !== '-' ? { space: { freeKiB, mount } } : {})
  }
}

/** The most of the end of a wait's stderr held back until the wait ends: job.sh's counters line is there. */
const COUNTERS_LINE_BYTES = 4096

/**
 * The CPU counters job.sh prints last on stderr (`NONCE+<before>|<after>|<times>`, each file's
 * lines joined by ";"), so the engine reads them without a round trip of its own; undefined when
 * `text` has no such line.
 */
export function countersOf(text: string, nonce: string): JobCounters | undefined {
  const at = text.lastIndexOf(`${nonce}+`)
  if (at < 0) return undefined
  const files = text
    .slice(at + nonce.length + 1)
    .replace(/\r?\n$/, '')
    .split('|')
    .map((file) => file.split(';').join('\n'))
  if (files.length !== 3) return undefined
  const [before, after, times] = files as [string, string, string]
  return { before, after, times }
}

/**
 * A wait's stderr on its way to the job's sink, less the counters line job.sh ends it with: the
 * last COUNTERS_LINE_BYTES are held back until the wait ends, then the line is cut off and read.
 */
class StderrWithCounters {
  private held: Buffer = Buffer.alloc(0)

  constructor(
    private readonly sink: OutputSink,
    private readonly nonce: string
  ) {}

  async write(chunk: Buffer): Promise<void> {
    this.held = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk])
    if (this.held.length <= COUNTERS_LINE_BYTES) return
    const pass = this.held.subarray(0, this.held.length - COUNTERS_LINE_BYTES)
    this.held = Buffer.from(this.held.subarray(this.held.length - COUNTERS_LINE_BYTES))
    await this.sink.write(pass)
  }

  /** Writes what was held back, less the counters line; returns the counters when they came. */
  async end(): Promise<JobCounters | undefined> {
    const marker = this.held.lastIndexOf(`${this.nonce}+`)
    const counters = marker < 0 ? undefined : countersOf(this.held.toString('utf8', marker), this.nonce)
    const rest = counters ? this.held.subarray(0, marker) : this.held
    this.held = Buffer.alloc(0)
    if (rest.length > 0) await this.sink.write(rest)
    return counters
  }
}

/** What one wait command came to. */
type Pass =
  | { kind: 'ended'; line: StatusLine; counters?: JobCounters }
  | { kind: 'cancelled' }
  | { kind: 'deadline' }
  /** The status line came, then the output stopped arriving or the wait failed while sending it. */
  | { kind: 'cut'; line: StatusLine; why: string }
  /** No status line: the wait ended without one (or printed something else first). */
  | { kind: 'no-status'; result: ExecResult; earlyStderr: string; firstLine?: string }

interface WaitCommand {
  session: Session
  argv: string[]
  stdin?: string
  /** Serves this `job.sh run` (argv then only names it): the target's job server and the run's arguments. */
  served?: { agent: JobAgent; request: JobRequest }
  job: DetachedJob
  nonce: string
  /** Until the status line arrives: the wait is stopped at this time. */
  until: number
}

/** Runs one `job.sh run` or `job.sh wait`: the status line first, then the output into the job's sinks. */
async function waitOnce(cmd: WaitCommand): Promise<Pass> {
  const { job } = cmd
  const control = new AbortController()
  let why: 'cancel' | 'deadline' | 'stall' | undefined
  const stop = (reason: NonNullable<typeof why>): void => {
    if (why !== undefined) return
    why = reason
    control.abort()
  }
  const onCancel = (): void => stop('cancel')
  job.signal?.addEventListener('abort', onCancel, { once: true })
  if (job.signal?.aborted) onCancel()
  let pending: Buffer = Buffer.alloc(0)
  let line: StatusLine | undefined
  let firstLine: string | undefined
  const stderr = new StderrWithCounters(job.output.stderr, cmd.nonce)
  const early: Buffer[] = []
  let earlyBytes = 0
  let lastByteAt = Date.now()
  const stallMs = job.outputStallMs ?? OUTPUT_STALL_MS
  const timer = setInterval(() => {
    if (line === undefined && firstLine === undefined && Date.now() >= cmd.until) stop('deadline')
    else if (line !== undefined && Date.now() - lastByteAt >= stallMs) stop('stall')
  }, CHECK_EVERY_MS)
  timer.unref()

  const onStdout = async (chunk: Buffer): Promise<void> => {
    lastByteAt = Date.now()
    if (firstLine !== undefined && line === undefined) return
    if (line === undefined) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      const eol = pending.indexOf(0x0a)
      if (eol < 0) {
        if (pending.length >= STATUS_LINE_BYTES) firstLine = pending.toString('utf8', 0, STATUS_LINE_BYTES)
        return
      }
      firstLine = pending.toString('utf8', 0, eol)
      line = parseStatusLine(firstLine, cmd.nonce)
      if (line === undefined) return
      job.output.stdout.announce?.(line.stdoutBytes)
      job.output.stderr.announce?.(line.stderrBytes)
      // in one write, which takes it in at once: a stderr chunk coming meanwhile goes after it
      const before = Buffer.concat(early.splice(0))
      if (before.length > 0) await stderr.write(before)
      chunk = pending.subarray(eol + 1)
      pending = Buffer.alloc(0)
    }
    await job.output.stdout.write(chunk)
  }
  const onStderr = (chunk: Buffer): void | Promise<void> => {
    lastByteAt = Date.now()
    if (line !== undefined) return stderr.write(chunk)
    if (earlyBytes < EARLY_STDERR_BYTES) {
      early.push(chunk)
      earlyBytes += chunk.length
    }
  }

  try {
    const result = cmd.served
      ? await cmd.served.agent.run(cmd.served.request, cmd.stdin ?? '', { signal: control.signal, onStdout, onStderr })
      : await cmd.session.exec(
          { argv: cmd.argv },
          {
            ...(cmd.stdin !== undefined ? { stdin: cmd.stdin } : {}),
            ...(job.sudo ? { sudo: job.sudo } : {}),
            signal: control.signal,
            onStdout,
            onStderr
          }
        )
    // what was held back of the job's stderr goes to its sink however the wait ended
    const counters = line !== undefined ? await stderr.end() : undefined
    if (why === 'cancel') return { kind: 'cancelled' }
    if (why === 'deadline') return { kind: 'deadline' }
    // before `cancelled`: the stall aborted the wait itself, which is no closed session
    if (why === 'stall' && line !== undefined) return { kind: 'cut', line, why: `the output stopped arriving for ${stallMs / 1000} s` }
    if (result.cancelled) {
      throw new SessionError('closed', `the session to ${cmd.session.label} was closed while ${job.what ?? 'the job'} ran`, cmd.session.label)
    }
    if (line !== undefined) {
      if (result.exitCode !== 0) return { kind: 'cut', line, why: `the wait ended with ${result.exitCode ?? result.signal} while sending the output` }
      return { kind: 'ended', line, ...(counters ? { counters } : {}) }
    }
    return { kind: 'no-status', result, earlyStderr: Buffer.concat(early).toString('utf8').trim(), ...(firstLine !== undefined ? { firstLine } : {}) }
  } finally {
    clearInterval(timer)
    job.signal?.removeEventListener('abort', onCancel)
  }
}

/** Runs `job.script` detached on the target and returns how it ended; its output went to `job.output`. */
export async function runDetached(session: Session, scripts: string, job: DetachedJob): Promise<DetachedResult> {
  const nonce = `VBJOB-${randomBytes(8).toString('hex')}`
  const jobSh = `${scripts}/linux/job.sh`
  const what = job.what ?? 'the job'
  const limit = String(Math.max(1, Math.ceil(job.timeoutSeconds)))
  const keep = String(job.keepBytes ?? DEFAULT_KEEP_BYTES)
  const startedAt = Date.now()
  const jobDeadline = startedAt + job.timeoutSeconds * 1000 + DEADLINE_MARGIN_MS
  /** Set once the job is known to have ended: from then on only its output is awaited. */
  let outputDeadline: number | undefined
  let giveUpAt = Number.POSITIVE_INFINITY
  const interruptions: string[] = []
  const restartOutput = async (): Promise<void> => {
    await job.output.stdout.restart()
    await job.output.stderr.restart()
  }
  const done = (line: StatusLine, stoppedBy: 'target' | 'engine' = 'target', counters?: JobCounters): DetachedResult => ({
    status: line.status,
    ...(line.unwrittenStatus !== undefined ? { unwrittenStatus: line.unwrittenStatus } : {}),
    ...(line.status === 'timeout' || line.unwrittenStatus === 'timeout' ? { stoppedBy } : {}),
    ...(line.space ? { space: line.space } : {}),
    reattached: interruptions.length,
    interruptions,
    ...(counters ? { counters } : {})
  })
  const cancelled = async (): Promise<DetachedResult> => {
    await stopDetached(session, scripts, job.dir, job.sudo)
    return { status: 'cancelled', reattached: interruptions.length, interruptions }
  }

  /** The engine's deadline passed without the job's end: stop it and collect what it printed. */
  const stopAtDeadline = async (): Promise<DetachedResult> => {
    interruptions.push(
      `${session.label} did not report the end of ${what} within its limit of ${limit} s and ${DEADLINE_MARGIN_MS / 1000} s more: VirtBench stopped it`
    )
    try {
      await restartOutput()
      const last = await waitOnce({ session, argv: ['sh', jobSh, 'wait', job.dir, nonce, '0', keep], job, nonce, until: Date.now() + COLLECT_MS })
      if (last.kind === 'ended') return done(last.line, 'engine', last.counters)
      if (last.kind === 'cancelled') return await cancelled()
    } catch {
      // the target cannot be reached: the job stops itself there at its limit
    }
    await stopDetached(session, scripts, job.dir, job.sudo)
    return { status: 'timeout', stoppedBy: 'engine', reattached: interruptions.length, interruptions }
  }

  for (let pass = 0; ; pass++) {
    if (pass > 0) {
      await waitBeforeReattach(job.signal)
      await restartOutput()
    }
    if (job.signal?.aborted) return cancelled()
    const until = outputDeadline ?? jobDeadline
    if (Date.now() >= until) {
      if (outputDeadline === undefined) return stopAtDeadline()
      throw new SessionError(
        'connection-lost',
        `${session.label}: ${what} ended, but its output could not be fetched within ${OUTPUT_WITHIN_MS / 60_000} minutes (${interruptions.at(-1) ?? 'no reason given'}); it is in ${job.dir} there until the run ends`,
        session.label
      )
    }
    const argv = pass === 0 ? ['sh', jobSh, 'run', job.dir, nonce, limit, keep] : ['sh', jobSh, 'wait', job.dir, nonce, limit, keep]
    let outcome: Pass
    try {
      // the first wait starts the job: through the target's job server when it is free
      const agent = pass === 0 && !job.sudo && job.agent && !job.agent.busy ? job.agent : undefined
      const served = agent ? { served: { agent, request: { dir: job.dir, nonce, limit, keep } } } : {}
      outcome = await waitOnce({ session, argv, ...(pass === 0 ? { stdin: job.script } : {}), ...served, job, nonce, until })
    } catch (err) {
      if (err instanceof SessionError && !REATTACHABLE.has(err.code)) throw new SessionError(err.code, `${err.message} (${what})`, err.target, { cause: err })
      if (!(err instanceof SessionError)) throw err
      if (giveUpAt === Number.POSITIVE_INFINITY) giveUpAt = Math.min(Date.now() + (job.reattachForMs ?? DEFAULT_REATTACH_MS), until)
      interruptions.push(err.message)
      if (job.signal?.aborted) return { status: 'cancelled', reattached: interruptions.length, interruptions }
      if (Date.now() >= giveUpAt) throw goneError(session.label, what, startedAt, limit, err)
      job.onReattach?.(err.message)
      continue
    }
    switch (outcome.kind) {
      case 'ended':
        return done(outcome.line, 'target', outcome.counters)
      case 'cancelled':
        return cancelled()
      case 'deadline':
        return stopAtDeadline()
      case 'cut':
        outputDeadline ??= Date.now() + OUTPUT_WITHIN_MS
        interruptions.push(outcome.why)
        continue
      case 'no-status':
        if (pass === 0 && outcome.result.exitCode !== 0) throw startError(session.label, what, job.dir, outcome)
        interruptions.push(
          outcome.firstLine !== undefined
            ? `the wait printed "${outcome.firstLine.slice(0, 200)}" where the job's status belongs`
            : `the wait ended without the job's status (exit ${outcome.result.exitCode ?? outcome.result.signal}${outcome.earlyStderr ? `: ${outcome.earlyStderr.slice(0, 300)}` : ''})`
        )
    }
  }
}

function goneError(label: string, what: string, startedAt: number, limit: string, cause: SessionError): SessionError {
  return new SessionError(
    'connection-lost',
    `${label} is gone: the connection dropped while a job ran and could not be made again (${what}, ` +
      `${Math.round((Date.now() - startedAt) / 1000)} s after it started). Last error: ${cause.message}. ` +
      `The job stops itself there at its limit of ${limit} s. Check that ${label} is up and reachable, then resume the run.`,
    label,
    { cause }
  )
}

/** Why job.sh could not start the job: a full disk, sudo refusing, or what it said. */
function startError(label: string, what: string, dir: string, pass: Extract<Pass, { kind: 'no-status' }>): SessionError {
  const said = pass.earlyStderr.slice(0, 400)
  const space = /\((\d+) KiB free on (.+)\)$/m.exec(said)
  if (space && Number(space[1]) < DISK_FULL_KIB) {
    return new SessionError(
      'channel',
      `${label}: ${what} could not start: ${diskFullMessage(label, { freeKiB: Number(space[1]), mount: space[2]! }, dir)}`,
      label
    )
  }
  if (/^sudo: /m.test(said)) {
    return new SessionError(
      'sudo',
      `${label}: ${what} needs root and sudo refused it (${said.split('\n').find((l) => l.startsWith('sudo: '))}). ` +
        `Let ${label}'s login use sudo without a password, or store its sudo password, then resume the run.`,
      label
    )
  }
  return new SessionError(
    'channel',
    `${label}: could not start ${what} in ${dir} (job.sh exit ${pass.result.exitCode ?? pass.result.signal}${said ? `: ${said}` : ''})`,
    label
  )
}

/**
 * What went wrong with a step that did not end with an exit code, as the words after "step X on T"
 * ("stopped after its limit of 60 s"); undefined for an exit code.
 */
export function statusProblem(result: DetachedResult, limitSeconds: number, target: string): string | undefined {
  switch (result.status) {
    case 'timeout':
      return result.stoppedBy === 'engine'
        ? `stopped after its limit of ${limitSeconds} s: ${target} did not report its end in time, so VirtBench stopped it`
        : `stopped after its limit of ${limitSeconds} s`
    case 'lost':
      return 'ended without an exit status (killed from outside, or the target rebooted)'
    case 'unwritable': {
      const how = result.unwrittenStatus === undefined ? '' : result.unwrittenStatus === 'timeout' ? ' (it was stopped at its limit)' : ` (it exited with ${result.unwrittenStatus})`
      return `ended, but its exit status could not be written${how}`
    }
    case 'cancelled':
      return 'cancelled'
    default:
      return undefined
  }
}

/** Less free space than this on a job's file system when it failed: the disk was full (a tool that met ENOSPC leaves a few blocks at most). */
export const DISK_FULL_KIB = 1024

/**
 * For a step that failed: ". The target's disk is full: ..." when the file system of its folder
 * had (almost) no room left, or for a status that could not be written, where it is and how much
 * room it had.
 */
export function diskNote(result: DetachedResult, target: string, dir: string): string {
  if (result.space && result.space.freeKiB < DISK_FULL_KIB) return `. ${capitalize(diskFullMessage(target, result.space, dir))}`
  if (result.status !== 'unwritable') return ''
  const where = result.space ? `${result.space.mount}, with ${result.space.freeKiB} KiB free` : 'a file system df could not report on'
  return `. Its folder ${dir} on ${target} is on ${where}: was that disk full when it ended? Make room there, then resume the run.`
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** "the target's disk is full: ..." with where and what to do. */
export function diskFullMessage(label: string, space: JobSpace, dir: string): string {
  return (
    `the target's disk is full: ${space.mount} on ${label} has ${space.freeKiB} KiB free (the job's folder is ${dir}). ` +
    `Free space there, or choose a storage directory with room in the plan, then resume the run.`
  )
}

/** A job's counters read from its folder, for a wait that ended without them on its status line (empty texts when they cannot be read). */
export async function readJobCounters(session: Session, dir: string): Promise<JobCounters> {
  // `started` (the counters before, a line "after", the counters at the end) and `status` (the exit
  // code, then `times`); cpu-before, cpu-after and times from job.sh before 2026-11-27
  const files = ['started', 'status', 'cpu-before', 'cpu-after', 'times'] as const
  const script = files.map((f) => `echo '== ${f}'; while IFS= read -r l; do echo "$l"; done 2>/dev/null <${quoteSh(`${dir}/${f}`)}`).join('; ')
  const result = await session.exec({ script }, { capture: { maxBytes: 8192 }, timeoutMs: 15_000 }).catch(() => undefined)
  const parts = new Map(
    `\n${(result?.stdout ?? Buffer.alloc(0)).toString('utf8')}`
      .split('\n== ')
      .slice(1)
      .map((part) => {
        const eol = part.indexOf('\n')
        return eol < 0 ? ([part, ''] as const) : ([part.slice(0, eol), part.slice(eol + 1)] as const)
      })
  )
  const lines = (name: (typeof files)[number]): string[] => (parts.get(name) ?? '').split('\n').filter((l) => l !== '')
  const started = lines('started')
  const at = started.indexOf('after')
  const joined = (l: string[]): string => l.join('\n')
  return {
    before: joined(at < 0 ? started : started.slice(0, at)) || (parts.get('cpu-before') ?? ''),
    after: (at < 0 ? '' : joined(started.slice(at + 1))) || (parts.get('cpu-after') ?? ''),
    times: joined(lines('status').slice(1)) || (parts.get('times') ?? '')
  }
}

/** Names a job folder may have to be made ahead (job ids, attempts and step ids: letters, digits, `.`, `_`, `-`). */
const JOB_DIR_NAME = /^[A-Za-z0-9._-]+$/
/** Folders per mkdir, so that no command line comes near the system's limit. */
const JOB_DIRS_PER_MKDIR = 200

/**
 * The files job.sh writes for every job, made empty ahead with the folders: a job then creates
 * only its `status` (whose being there means it ended). A new file is the costly part of a job's
 * bookkeeping on a file system that allocates inodes slowly (ext4 without a journal scans past
 * every recently deleted one: several ms per job here, issue 22); truncating one costs little.
 */
const JOB_FILES_AHEAD = ['cmd.sh', 'started', 'pgid', 'stdout', 'stderr'] as const

/**
 * Makes the folders of a run's coming jobs under `jobsDir` (`<run dir>/.jobs`), each with its FIFO
 * `ended` and its files (JOB_FILES_AHEAD) empty, all in one command: job.sh then starts no mkdir
 * and no mkfifo per job and makes one file. The script goes on stdin (a long run has thousands of
 * folders). Never throws: what is not made here, job.sh makes.
 */
export async function makeJobDirs(session: Session, jobsDir: string, names: readonly string[]): Promise<void> {
  const safe = names.filter((n) => JOB_DIR_NAME.test(n) && n !== '.' && n !== '..')
  if (safe.length === 0) return
  const lines = [`cd -- ${quoteSh(jobsDir)} || exit 0`]
  for (let i = 0; i < safe.length; i += JOB_DIRS_PER_MKDIR) {
    const chunk = safe.slice(i, i + JOB_DIRS_PER_MKDIR)
    lines.push(
      `mkdir -p -- ${chunk.map(quoteSh).join(' ')} 2>/dev/null`,
      `mkfifo -- ${chunk.map((n) => quoteSh(`${n}/ended`)).join(' ')} 2>/dev/null`,
      `touch -- ${chunk.flatMap((n) => JOB_FILES_AHEAD.map((f) => quoteSh(`${n}/${f}`))).join(' ')} 2>/dev/null`
    )
  }
  await session.exec({ argv: ['sh'] }, { stdin: `${lines.join('\n')}\nexit 0\n`, timeoutMs: 60_000 }).catch(() => undefined)
}

/** Stops a detached job (TERM to its process group, then KILL). Never throws. */
export async function stopDetached(session: Session, scripts: string, dir: string, sudo?: SudoMode): Promise<void> {
  try {
    await session.exec(
      { argv: ['sh', `${scripts}/linux/job.sh`, 'stop', dir, String(STOP_GRACE_MS)] },
      { timeoutMs: STOP_GRACE_MS + 10_000, ...(sudo ? { sudo } : {}) }
    )
  } catch {
    // the target is gone: its jobs stop themselves at their limit
  }
}

/** Stops the jobs of a run folder on the target that still run (left by a VirtBench that was killed); returns their folders. */
export async function stopLeftJobs(session: Session, scripts: string, runDir: string, sudo?: SudoMode): Promise<string[]> {
  const out = await session.exec(
    { argv: ['sh', `${scripts}/linux/job.sh`, 'stopall', runDir, String(STOP_GRACE_MS)] },
    { capture: { maxBytes: 64 * 1024 }, timeoutMs: 60_000, ...(sudo ? { sudo } : {}) }
  )
  return linesOf(out)
}

export interface RunDirSetup {
  /** Folders of earlier runs removed (sweep). */
  swept: string[]
  /** Jobs of this run that an earlier VirtBench left running, now stopped (stopall). */
  stopped: string[]
  /** Why the run's folder could not be made (mkdir's complaint), when it could not. */
  error?: string
}

/**
 * A target's setup before a run's first job: earlier runs' leftovers removed under `root`, the
 * run's folder made (`runDir/.jobs` and its `.virtbench-run` marker), and jobs of this run still
 * running from a VirtBench that was killed stopped. One command when all three run as the login
 * user (a target without sudo); with sudo, the folder is made through it for a raw-device plan and
 * the jobs are stopped through it, so they are three.
 */
export async function setUpRunDir(
  session: Session,
  scripts: string,
  opts: { root: string; runDir: string; runId: string; sudo: SudoMode; deviceStorage: boolean }
): Promise<RunDirSetup> {
  const jobSh = quoteSh(`${scripts}/linux/job.sh`)
  const makeDir = `mkdir -p ${quoteSh(`${opts.runDir}/.jobs`)} && printf '%s\\n' ${quoteSh(opts.runId)} > ${quoteSh(`${opts.runDir}/.virtbench-run`)}`
  const made = (result: ExecResult): string | undefined =>
    result.exitCode === 0 ? undefined : (result.stderr ?? Buffer.alloc(0)).toString('utf8').trim() || `exit ${result.exitCode}`
  if (!opts.sudo) {
    const separator = `--vb-${randomBytes(4).toString('hex')}--`
    const result = await session.exec(
      {
        script: [
          `sh ${jobSh} sweep ${quoteSh(opts.root)} ${quoteSh(opts.runId)} 2>/dev/null`,
          `echo ${separator}`,
          `{ ${makeDir}; } || exit 73`,
          `sh ${jobSh} stopall ${quoteSh(opts.runDir)} ${STOP_GRACE_MS} 2>/dev/null`,
          'exit 0'
        ].join('\n')
      },
      { capture: { maxBytes: 64 * 1024 }, timeoutMs: 120_000 }
    )
    const [before = '', after = ''] = (result.stdout ?? Buffer.alloc(0)).toString('utf8').split(`${separator}\n`)
    const lines = (text: string): string[] => text.split('\n').filter((l) => l.trim() !== '')
    const error = made(result)
    return { swept: lines(before), stopped: lines(after), ...(error !== undefined ? { error } : {}) }
  }
  const swept = await sweepLeftovers(session, scripts, opts.root, opts.runId).catch(() => [])
  const setup = await session.exec({ script: makeDir }, { capture: { maxBytes: 4096 }, sudo: opts.deviceStorage ? opts.sudo : false })
  const error = made(setup)
  if (error !== undefined) return { swept, stopped: [], error }
  const stopped = await stopLeftJobs(session, scripts, opts.runDir, opts.sudo).catch(() => [])
  return { swept, stopped }
}

/** Removes the work directories of earlier runs whose jobs have all ended; returns them. */
export async function sweepLeftovers(session: Session, scripts: string, root: string, keepRunId: string): Promise<string[]> {
  const out = await session.exec(
    { script: `sh ${quoteSh(`${scripts}/linux/job.sh`)} sweep ${quoteSh(root)} ${quoteSh(keepRunId)}` },
    { capture: { maxBytes: 64 * 1024 }, timeoutMs: 60_000 }
  )
  return linesOf(out)
}

function linesOf(out: ExecResult): string[] {
  return (out.stdout ?? Buffer.alloc(0))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
}

function waitBeforeReattach(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, 500)
    signal?.addEventListener('abort', done, { once: true })
  })
}
