import { randomBytes } from 'node:crypto'
import { quoteSh } from '../../shared/shell-quote'
import { SessionError, type Session, type SudoMode } from '../ssh/types'

/**
 * Detached jobs (resources/scripts/linux/job.sh): the job runs in its own session on the target
 * with its output in files, so a dropped SSH connection does not end it. The engine waits for it
 * over one command; when the connection drops, it reconnects and waits again (reattaches) until
 * the job's hard deadline.
 */

export type DetachedStatus = number | 'lost' | 'timeout' | 'cancelled'

export interface DetachedResult {
  stdout: Buffer
  stderr: Buffer
  status: DetachedStatus
  /** How often the wait was resumed after the connection dropped. */
  reattached: number
  /** Connection errors met while waiting (each followed by a reattach). */
  interruptions: string[]
  stdoutTruncated: boolean
  stderrTruncated: boolean
}

export interface DetachedJob {
  /** Directory of the job on the target (created). */
  dir: string
  /** The job: a POSIX sh script. */
  script: string
  /** Hard limit from the job's start; the wait stops the job after it. */
  timeoutSeconds: number
  sudo?: SudoMode
  signal?: AbortSignal
  /** Largest stdout/stderr kept (default 64 MiB each). */
  maxOutputBytes?: number
  /**
   * How long to keep trying to reach a target that dropped, counted from the drop (default 10
   * minutes, and never past the job's own deadline plus a minute): after that the target counts
   * as gone and the job fails.
   */
  reattachForMs?: number
  /** Told each time the wait resumes after a dropped connection. */
  onReattach?: (error: string) => void
}

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024
const DEFAULT_REATTACH_MS = 10 * 60_000
const REATTACHABLE = new Set(['connection-lost', 'channel', 'connect-failed'])
const STOP_GRACE_MS = 2000

/** Runs `job.script` detached on the target and returns its output once it ended. */
export async function runDetached(session: Session, scripts: string, job: DetachedJob): Promise<DetachedResult> {
  const nonce = `VBJOB-${randomBytes(8).toString('hex')}`
  const jobSh = `${scripts}/linux/job.sh`
  const limit = String(Math.max(1, Math.ceil(job.timeoutSeconds)))
  const maxBytes = job.maxOutputBytes ?? DEFAULT_MAX_OUTPUT
  const startedAt = Date.now()
  const deadline = startedAt + job.timeoutSeconds * 1000 + 60_000
  let giveUpAt = Number.POSITIVE_INFINITY
  const interruptions: string[] = []
  let first = true

  for (;;) {
    const argv = first ? ['sh', jobSh, 'run', job.dir, nonce, limit] : ['sh', jobSh, 'wait', job.dir, nonce, limit]
    try {
      const result = await session.exec(
        { argv },
        {
          ...(first ? { stdin: job.script } : {}),
          capture: { maxBytes, keep: 'head' },
          ...(job.sudo ? { sudo: job.sudo } : {}),
          ...(job.signal ? { signal: job.signal } : {})
        }
      )
      if (result.cancelled) {
        await stopDetached(session, scripts, job.dir, job.sudo)
        return done(result.stdout, result.stderr, 'cancelled')
      }
      const parsed = splitTrailer(result.stdout ?? Buffer.alloc(0), nonce)
      if (parsed) return done(parsed.stdout, result.stderr, parsed.status, result.stdoutTruncated, result.stderrTruncated)
      if (result.exitCode !== 0 && first) {
        const why = (result.stderr ?? Buffer.alloc(0)).toString('utf8').trim().slice(0, 400)
        throw new SessionError(
          'channel',
          `${session.label}: could not start the job in ${job.dir} (job.sh exit ${result.exitCode ?? result.signal}${why ? `: ${why}` : ''})`,
          session.label
        )
      }
      // no trailer: the waiting command was cut off; wait again
      interruptions.push(`the wait ended without the job's status (exit ${result.exitCode ?? result.signal})`)
    } catch (err) {
      if (!(err instanceof SessionError) || !REATTACHABLE.has(err.code)) throw err
      if (giveUpAt === Number.POSITIVE_INFINITY) giveUpAt = Math.min(Date.now() + (job.reattachForMs ?? DEFAULT_REATTACH_MS), deadline)
      interruptions.push(err.message)
      if (job.signal?.aborted) return done(undefined, undefined, 'cancelled')
      if (Date.now() >= giveUpAt) {
        throw new SessionError(
          'connection-lost',
          `${session.label} is gone: the connection dropped while a job ran and could not be made again ` +
            `(${Math.round((Date.now() - startedAt) / 1000)} s after the job started). Last error: ${err.message}. ` +
            'The job may still run there; its folder is removed by the next run on that target.',
          session.label,
          { cause: err }
        )
      }
      job.onReattach?.(err.message)
    }
    first = false
    await waitBeforeReattach(job.signal)
  }

  function done(
    stdout: Buffer | undefined,
    stderr: Buffer | undefined,
    status: DetachedStatus,
    stdoutTruncated = false,
    stderrTruncated = false
  ): DetachedResult {
    return {
      stdout: stdout ?? Buffer.alloc(0),
      stderr: stderr ?? Buffer.alloc(0),
      status,
      reattached: interruptions.length,
      interruptions,
      stdoutTruncated,
      stderrTruncated
    }
  }
}

/** Stops a detached job (TERM to its process group, then KILL). Never throws. */
export async function stopDetached(session: Session, scripts: string, dir: string, sudo?: SudoMode): Promise<void> {
  try {
    await session.exec(
      { argv: ['sh', `${scripts}/linux/job.sh`, 'stop', dir, String(STOP_GRACE_MS)] },
      { timeoutMs: STOP_GRACE_MS + 10_000, ...(sudo ? { sudo } : {}) }
    )
  } catch {
    // the target is gone: its jobs end by their own deadline (job.sh wait is not running then,
    // but the next run's sweep removes what they leave)
  }
}

/** Removes the work directories of earlier runs whose jobs have all ended; returns them. */
export async function sweepLeftovers(session: Session, scripts: string, root: string, keepRunId: string): Promise<string[]> {
  const out = await session.exec(
    { script: `sh ${quoteSh(`${scripts}/linux/job.sh`)} sweep ${quoteSh(root)} ${quoteSh(keepRunId)}` },
    { capture: { maxBytes: 64 * 1024 }, timeoutMs: 60_000 }
  )
  return (out.stdout ?? Buffer.alloc(0))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
}

/** The job's stdout without the wait's last line, and the status that line gives. */
export function splitTrailer(stdout: Buffer, nonce: string): { stdout: Buffer; status: DetachedStatus } | undefined {
  const marker = Buffer.from(`\n${nonce} `)
  const at = stdout.lastIndexOf(marker)
  if (at < 0) return undefined
  const rest = stdout.subarray(at + marker.length).toString('utf8').trim()
  let status: DetachedStatus
  if (rest === 'lost' || rest === 'timeout') status = rest
  else if (/^\d{1,3}$/.test(rest)) status = Number(rest)
  else return undefined
  return { stdout: stdout.subarray(0, at), status }
}

function waitBeforeReattach(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 500)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    }, { once: true })
  })
}
