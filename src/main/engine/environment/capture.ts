/**
 * Captures a target's environment: runs resources/scripts/linux/environment.sh there (uploaded
 * once with ensureScripts) and reads its output. A target that answers always gives a
 * TargetEnvironment, with notes saying what could not be read or what went wrong (timeout,
 * cancel, an exit status, a Windows target); only a lost or refused connection is thrown, as the
 * SessionError the session raised.
 */
import type { TargetEnvironment } from '../../../shared/model/environment'
import { SessionError, type Session } from '../../ssh/types'
import { TOOL_IDS } from '../../../shared/model/tool-ids'
import { toolProbeArgs } from '../tool-probes'
import { parseEnvironment } from './parse'

export interface CaptureEnvironmentOptions {
  /** The local resources/scripts directory (EngineDeps.scriptsDir). */
  scriptsDir: string
  /** The run's work directory on the target: its filesystem and free space are recorded. */
  workDir: string
  /** libvirt domain names whose disk setup to read with `virsh dumpxml` (on a physical host). */
  domains?: readonly string[]
  signal?: AbortSignal
  /** Default 30 s. */
  timeoutMs?: number
}

export const ENVIRONMENT_TIMEOUT_MS = 30_000
const DEFAULT_TIMEOUT_MS = ENVIRONMENT_TIMEOUT_MS
/** Plenty for the facts and a few domain XMLs; more is cut and noted. */
export const ENVIRONMENT_MAX_BYTES = 4 * 1024 * 1024
const MAX_OUTPUT_BYTES = ENVIRONMENT_MAX_BYTES

/** Session failures that mean the target did not answer: those are the caller's to handle. */
const UNREACHABLE: ReadonlySet<string> = new Set(['connect-failed', 'connection-lost', 'closed'])

function withNote(env: TargetEnvironment, note: string): TargetEnvironment {
  return { ...env, notes: [...(env.notes ?? []), note] }
}

/** Pure: environment.sh's arguments (every tool's version probe, the work directory, the domains). */
export function environmentArgs(opts: Pick<CaptureEnvironmentOptions, 'workDir' | 'domains'>): string[] {
  return [...toolProbeArgs(TOOL_IDS).args, opts.workDir, ...(opts.domains ?? [])]
}

/** How environment.sh ended. */
export interface EnvironmentEnd {
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  cancelled: boolean
  stderr: string
  stdoutTruncated: boolean
}

/** Pure: the environment in environment.sh's output, with notes on how it ended (a timeout, a cancel, an exit status, a cut). */
export function environmentOfOutput(label: string, stdout: string, end: EnvironmentEnd, capturedAt: string, timeoutMs: number, maxBytes = MAX_OUTPUT_BYTES): TargetEnvironment {
  let env = parseEnvironment(stdout, capturedAt)
  const stderr = end.stderr.trim()
  if (end.timedOut) env = withNote(env, `${label}: environment capture stopped after ${Math.round(timeoutMs / 1000)} s; the facts read before then are kept`)
  else if (end.cancelled) env = withNote(env, `${label}: environment capture cancelled; the facts read before then are kept`)
  else if (end.exitCode !== 0) {
    const how = end.exitCode === null ? `was ended by signal ${end.signal ?? '?'}` : `exited with status ${end.exitCode}`
    env = withNote(env, `${label}: environment.sh ${how}${stderr ? `: ${stderr.split('\n').slice(-3).join(' / ')}` : ''}`)
  }
  if (end.stdoutTruncated) env = withNote(env, `${label}: environment output passed ${maxBytes} bytes and was cut`)
  return env
}

export async function captureEnvironment(session: Session, opts: CaptureEnvironmentOptions): Promise<TargetEnvironment> {
  const capturedAt = new Date().toISOString()
  const failed = (what: string): TargetEnvironment => ({ capturedAt, notes: [`${session.label}: ${what}`] })
  if (opts.signal?.aborted) return failed('environment capture cancelled before it started')
  try {
    const facts = await session.facts()
    if (facts.shell === 'windows') {
      return {
        capturedAt,
        os: `Windows ${facts.release}`,
        arch: facts.machine,
        notes: [`${session.label}: environment capture runs on Linux targets only; this Windows target records its version and architecture alone`]
      }
    }
    const { remoteDir } = await session.ensureScripts(opts.scriptsDir)
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const result = await session.exec(
      { argv: ['sh', `${remoteDir}/linux/environment.sh`, ...environmentArgs(opts)] },
      { capture: { maxBytes: MAX_OUTPUT_BYTES }, timeoutMs, ...(opts.signal ? { signal: opts.signal } : {}) }
    )
    return environmentOfOutput(session.label, result.stdout?.toString('utf8') ?? '', {
      ...result,
      stderr: result.stderr?.toString('utf8') ?? '',
      stdoutTruncated: result.stdoutTruncated === true
    }, capturedAt, timeoutMs)
  } catch (err) {
    if (err instanceof SessionError && UNREACHABLE.has(err.code)) throw err
    return failed(`environment capture failed: ${err instanceof Error ? err.message : String(err)}`)
  }
}
