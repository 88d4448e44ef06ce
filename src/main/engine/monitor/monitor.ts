import { StringDecoder } from 'node:string_decoder'
import type { ExecResult, Session } from '../../ssh/types'
import { diskstatsReader, type DiskSnapshot } from './diskstats'

/**
 * The block monitor: runs resources/scripts/linux/diskstats.sh on a target while a test runs and
 * reads its snapshots as they arrive. Stopping aborts the command, which ends the script's whole
 * process group on the target; the script prints one last snapshot on its way out.
 */

export interface DiskMonitorOptions {
  /** The local resources/scripts directory (EngineDeps.scriptsDir), made present with ensureScripts. */
  scriptsDir: string
  /** Seconds between snapshots, 0.1 to 3600 (default 1); whole seconds where the target's sleep takes no fractions. */
  intervalSeconds?: number
  /** The script stops by itself after this many seconds, so it never outlives a lost engine. */
  maxSeconds: number
  /** Aborting stops the monitor as stop() does. */
  signal?: AbortSignal
  /** At most this many characters of raw output are kept (default 64 Mi); snapshots are read from all of it. */
  maxRawChars?: number
}

export interface DiskMonitorResult {
  /** The script's output as printed (up to maxRawChars). */
  raw: string
  /** Complete snapshots, oldest first. */
  snapshots: DiskSnapshot[]
  warnings: string[]
  /** Why the monitor gave nothing or less than asked: it could not start, failed, or printed no snapshot. */
  error?: string
}

export interface DiskMonitor {
  /** True once the first snapshot is in (start the test then); false when the monitor ended without one. */
  readonly ready: Promise<boolean>
  /** Stops the monitor and gives what it collected. Never throws; calling it again gives the same result. */
  stop(): Promise<DiskMonitorResult>
}

const DEFAULT_INTERVAL_SECONDS = 1
const DEFAULT_MAX_RAW_CHARS = 64 * 1024 * 1024
const STDERR_KEEP_CHARS = 4096
/** The exec's own time limit beyond the script's safety stop, in case the script itself hangs. */
const TIMEOUT_MARGIN_SECONDS = 30

interface RunOutcome {
  error?: string
  warnings: string[]
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

/** The options as the script's arguments, or what is wrong with them. */
export function monitorArguments(opts: Pick<DiskMonitorOptions, 'intervalSeconds' | 'maxSeconds'>): { interval: string; max: string } | { error: string } {
  const interval = opts.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS
  if (!Number.isFinite(interval) || interval < 0.1 || interval > 3600) {
    return { error: `the disk monitor's interval must be 0.1 to 3600 seconds, not ${interval}` }
  }
  if (!Number.isFinite(opts.maxSeconds) || opts.maxSeconds <= 0) {
    return { error: `the disk monitor's safety limit (maxSeconds) must be a positive number of seconds, not ${opts.maxSeconds}` }
  }
  // hundredths are as fine as /proc/uptime; the script takes plain decimals ("0.25", "2")
  return { interval: String(Math.round(interval * 100) / 100), max: String(Math.ceil(opts.maxSeconds)) }
}

export function startDiskMonitor(session: Session, opts: DiskMonitorOptions): DiskMonitor {
  const abort = new AbortController()
  const stopNow = (): void => abort.abort()
  opts.signal?.addEventListener('abort', stopNow, { once: true })
  if (opts.signal?.aborted) stopNow()

  const maxRawChars = opts.maxRawChars ?? DEFAULT_MAX_RAW_CHARS
  const reader = diskstatsReader()
  const decoder = new StringDecoder('utf8')
  let raw = ''
  let rawCut = false
  let stderr = ''
  let markReady: (ready: boolean) => void = () => undefined
  const ready = new Promise<boolean>((resolve) => (markReady = resolve))

  const take = (text: string): void => {
    if (text === '') return
    if (raw.length + text.length <= maxRawChars) raw += text
    else {
      raw += text.slice(0, Math.max(0, maxRawChars - raw.length))
      rawCut = true
    }
    reader.push(text)
    if (reader.snapshotCount() > 0) markReady(true)
  }

  const run = async (): Promise<RunOutcome> => {
    const args = monitorArguments(opts)
    if ('error' in args) return { error: args.error, warnings: [] }
    if ((await session.facts()).shell !== 'posix') {
      return { error: `${session.label} runs Windows, which has no /proc/diskstats: no block-layer figures are taken there`, warnings: [] }
    }
    const { remoteDir } = await session.ensureScripts(opts.scriptsDir)
    if (abort.signal.aborted) return { error: `the disk monitor on ${session.label} was stopped before it started: nothing was measured`, warnings: [] }
    const result = await session.exec(
      { argv: ['sh', `${remoteDir}/linux/diskstats.sh`, args.interval, args.max] },
      {
        onStdout: (chunk) => take(decoder.write(chunk)),
        onStderr: (chunk) => {
          if (stderr.length < STDERR_KEEP_CHARS) stderr += chunk.toString('utf8')
        },
        signal: abort.signal,
        timeoutMs: (Number(args.max) + TIMEOUT_MARGIN_SECONDS) * 1000
      }
    )
    take(decoder.end())
    return judge(result, session.label, args.max, stderr)
  }

  const outcome: Promise<RunOutcome> = run().catch((err: unknown) => ({
    error: `the disk monitor on ${session.label} could not run: ${messageOf(err)}`,
    warnings: []
  }))
  void outcome.then(() => markReady(false))

  let stopped: Promise<DiskMonitorResult> | undefined
  const finish = async (): Promise<DiskMonitorResult> => {
    stopNow()
    const { error, warnings } = await outcome
    opts.signal?.removeEventListener('abort', stopNow)
    const parsed = reader.end()
    const all = [...warnings]
    if (rawCut) all.push(`the disk monitor's output passed ${maxRawChars} characters: only the first ${maxRawChars} are kept as raw output (every snapshot was still read)`)
    if (parsed.ok) {
      all.push(...parsed.warnings)
      return { raw, snapshots: parsed.snapshots, warnings: all, ...(error !== undefined ? { error } : {}) }
    }
    // with an error already said, an empty output is its consequence, not news
    return { raw, snapshots: [], warnings: all, error: error ?? `${session.label}: ${parsed.reason}` }
  }
  return {
    ready,
    stop: () => (stopped ??= finish())
  }
}

/** What the end of the script says: stopped by us (fine), stopped by itself, or failed. */
function judge(result: ExecResult, label: string, max: string, stderr: string): RunOutcome {
  if (result.cancelled) return { warnings: [] }
  if (result.timedOut) {
    return { warnings: [`the disk monitor on ${label} ran past its safety limit of ${max} s and was ended; activity after that is not covered`] }
  }
  if (result.exitCode === 0) {
    return { warnings: [`the disk monitor on ${label} stopped by itself at its safety limit of ${max} s; activity after that is not covered`] }
  }
  const how = result.exitCode !== null ? `exit code ${result.exitCode}` : `signal ${result.signal ?? 'unknown'}`
  const said = stderr.trim().split('\n').slice(0, 3).join(' / ')
  return { error: `the disk monitor on ${label} failed (${how})${said ? `: ${said}` : ''}`, warnings: [] }
}
