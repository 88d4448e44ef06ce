/**
 * A target's checks before a run in one round trip: preflight, the environment capture and the
 * idle gate run as one command (resources/scripts/linux/checks.sh), the two scripts side by side
 * while the idle gate samples around them. Only the device checks of a target with sudo run as a
 * second command at the same time (reading a disk needs root; the rest runs as the login user).
 * The same command tells whether the TCP ports the plan's servers need there are taken already.
 * The answers are the ones collectPreflightFacts and captureEnvironment give.
 */
import type { TargetEnvironment } from '../../shared/model/environment'
import type { Session } from '../ssh/types'
import { captureEnvironment, ENVIRONMENT_MAX_BYTES, ENVIRONMENT_TIMEOUT_MS, environmentArgs, environmentOfOutput } from './environment/capture'
import { emptyFacts, type PreflightFacts, type Unreachable } from './preflight/facts'
import { parsePortFacts } from './preflight/parse'
import {
  collectPreflightFacts,
  completeFacts,
  factsOfOutput,
  isUnreachable,
  messageOf,
  preflightCall,
  runDeviceChecks,
  type PreflightRequest
} from './preflight/preflight'

export interface TargetChecksRequest {
  /** What preflight checks; its `idleSeconds` are sampled while the checks run. */
  preflight: PreflightRequest
  /** The environment capture's work directory and libvirt domains. */
  environment: { workDir: string; domains?: readonly string[] }
}

export interface TargetChecks {
  facts: PreflightFacts | Unreachable
  environment: TargetEnvironment
}

/** Preflight's output is 1 MiB at most, the environment's 4 MiB, each part's stderr a little. */
const MAX_OUTPUT_BYTES = (1 << 20) + ENVIRONMENT_MAX_BYTES + (64 << 10)
/** checks.sh's part markers start with the ASCII record separator, which no part's output has. */
const RS = String.fromCharCode(0x1e)
const SECTION = /^section ([a-z-]+) (\d+)$/

export interface ChecksSection {
  text: string
  /** The part's exit code (checks.sh's wait status). */
  status: number
}

/** Pure: checks.sh's output split into its parts by their `RS section NAME STATUS` lines. */
export function checksSections(output: string): Map<string, ChecksSection> {
  const sections = new Map<string, ChecksSection>()
  let current: { name: string; status: number; lines: string[] } | undefined
  const close = (): void => {
    if (current) sections.set(current.name, { text: current.lines.join('\n'), status: current.status })
  }
  for (const line of output.split('\n')) {
    const m = line.startsWith(RS) ? SECTION.exec(line.slice(1)) : null
    if (m) {
      close()
      current = { name: m[1]!, status: Number(m[2]), lines: [] }
      continue
    }
    current?.lines.push(line)
  }
  close()
  return sections
}

/**
 * Runs the checks on one target. Never throws: a target out of reach is `{ unreachable }` with an
 * environment that says so, and whatever else goes wrong is in the facts' problems and the
 * environment's notes. Windows targets get the answers of the two separate checks.
 */
export async function runTargetChecks(session: Session, scriptsDir: string, req: TargetChecksRequest, signal?: AbortSignal): Promise<TargetChecks> {
  const capturedAt = new Date().toISOString()
  const noEnvironment = (why: string): TargetEnvironment => ({ capturedAt, notes: [`${session.label}: the environment could not be read: ${why}`] })
  try {
    const about = await session.facts()
    if (about.shell === 'windows') {
      const facts = await collectPreflightFacts(session, { ...req.preflight, ...(signal ? { signal } : {}) })
      const environment = await captureEnvironment(session, { scriptsDir, ...req.environment, ...(signal ? { signal } : {}) })
      return { facts, environment }
    }
    let remoteDir: string
    try {
      remoteDir = (await session.ensureScripts(scriptsDir)).remoteDir
    } catch (err) {
      if (isUnreachable(err)) throw err
      return {
        facts: emptyFacts([`the check script could not be put on ${session.label}: ${messageOf(err)}`]),
        environment: noEnvironment(`the capture script could not be put there: ${messageOf(err)}`)
      }
    }
    const call = preflightCall({ ...req.preflight, idleSeconds: 0 }, about.homeDir)
    const idleSeconds = Math.max(0, Math.round(req.preflight.idleSeconds ?? 0))
    const timeoutMs = Math.max(call.timeoutMs, ENVIRONMENT_TIMEOUT_MS) + idleSeconds * 1000
    const device = req.preflight.device
    const ports = req.preflight.ports ?? []
    const [result, deviceFacts] = await Promise.all([
      session.exec(
        { argv: ['sh', `${remoteDir}/linux/checks.sh`, ...ports.flatMap((p) => ['--port', String(p)]), String(idleSeconds), String(call.args.length), ...call.args, ...environmentArgs(req.environment)] },
        { capture: { maxBytes: MAX_OUTPUT_BYTES }, timeoutMs, ...(signal ? { signal } : {}) }
      ),
      call.deviceApart && device !== undefined
        ? runDeviceChecks(session, `${remoteDir}/linux/preflight.sh`, device, { timeoutMs: call.timeoutMs, signal, sudo: req.preflight.sudo })
        : undefined
    ])
    const sections = checksSections(result.stdout?.toString('utf8') ?? '')
    const part = (name: string): ChecksSection | undefined => sections.get(name)
    const endOf = (name: string): { exitCode: number | null; signal: string | null; timedOut: boolean; cancelled: boolean; stderr: string } => {
      const section = part(name)
      // a part with no section: the whole command ended before it (its own end says how)
      const exitCode = section ? section.status : result.exitCode === 0 ? 1 : result.exitCode
      return {
        exitCode,
        signal: section ? null : result.signal,
        timedOut: result.timedOut,
        cancelled: result.cancelled,
        stderr: part(`${name}-err`)?.text ?? (section ? '' : result.stderr?.toString('utf8') ?? '')
      }
    }
    const facts = completeFacts(factsOfOutput(session.label, part('preflight')?.text ?? '', endOf('preflight'), timeoutMs), deviceFacts, call)
    if (ports.length > 0) facts.ports = parsePortFacts(part('ports')?.text ?? '', ports)
    const environment = environmentOfOutput(
      session.label,
      part('environment')?.text ?? '',
      { ...endOf('environment'), stdoutTruncated: result.stdoutTruncated === true },
      capturedAt,
      timeoutMs
    )
    return { facts, environment }
  } catch (err) {
    if (!isUnreachable(err)) {
      return { facts: emptyFacts([`the checks could not run on ${session.label}: ${messageOf(err)}`]), environment: noEnvironment(messageOf(err)) }
    }
    return { facts: { unreachable: messageOf(err) }, environment: noEnvironment(messageOf(err)) }
  }
}
