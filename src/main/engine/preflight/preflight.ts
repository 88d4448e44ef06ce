import { SessionError, type ExecResult, type Session, type SudoMode } from '../../ssh/types'
import { emptyFacts, type DeviceFacts, type PreflightFacts, type Unreachable } from './facts'
import { toolProbeArgs } from '../tool-probes'
import { parsePreflightOutput } from './parse'

export interface PreflightRequest {
  /**
   * The local resources/scripts directory (src/main/resources.ts scriptsDir(); passed in because
   * the layer rules keep main/engine from importing src/main/resources.ts).
   */
  scriptsDir: string
  /** The test directory (absolute, or ~/...); created when missing. */
  dir?: string
  /** The raw device of a device plan. */
  device?: string
  /** Tool ids to look for ('fio', 'bonnie', 'unixbench'...). */
  tools: readonly string[]
  /** Where the plan's UnixBench folder is, when it sets one (looked at first). */
  unixbenchDir?: string
  /** TCP ports a server of the plan listens on there (iperf3, iperf 2): checked to be free (Linux targets). */
  ports?: readonly number[]
  /** Measure CPU use for this many seconds (0 or absent: no idle check). */
  idleSeconds?: number
  /** How the target gets root: the device checks run through it (reading a disk needs root). */
  sudo?: SudoMode
  signal?: AbortSignal
  /** For the whole check, on top of the idle seconds (default 2 minutes). */
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 120_000
const MAX_OUTPUT_BYTES = 1 << 20
/** The session errors that mean the target is out of reach, not that one check failed. */
const UNREACHABLE: ReadonlySet<string> = new Set(['connect-failed', 'connection-lost', 'closed'])

/**
 * Runs resources/scripts/linux/preflight.sh on the session's target and reads its facts. The
 * directory, tool and idle checks run as the login user; the device checks run through `sudo` when
 * given (so a directory the checks create belongs to the login user). Throws only when the target
 * cannot be reached (SessionError connect-failed, connection-lost, closed); whatever else goes wrong
 * is in the facts' `problems` or the device's `checkError`.
 */
export async function collectPreflightFacts(session: Session, req: PreflightRequest): Promise<PreflightFacts> {
  const about = await session.facts()
  if (about.shell === 'windows') {
    return {
      ...emptyFacts([`the checks run on Linux and other POSIX targets only, and ${session.label} runs Windows: check its tools, free space and load by hand`]),
      system: about.system
    }
  }
  let script: string
  try {
    script = `${(await session.ensureScripts(req.scriptsDir)).remoteDir}/linux/preflight.sh`
  } catch (err) {
    if (isUnreachable(err)) throw err
    return emptyFacts([`the check script could not be put on ${session.label}: ${messageOf(err)}`])
  }

  const call = preflightCall(req, about.homeDir)
  const [main, device] = await Promise.all([
    runChecks(session, script, call.args, { timeoutMs: call.timeoutMs, signal: req.signal }),
    call.deviceApart && req.device !== undefined ? runDeviceChecks(session, script, req.device, { timeoutMs: call.timeoutMs, signal: req.signal, sudo: req.sudo }) : undefined
  ])
  return completeFacts(main, device, call)
}

/** How preflight.sh is called for a request: its arguments, its time limit, and what is checked apart. */
export interface PreflightCall {
  /** preflight.sh's arguments, without the device when it is checked apart (through sudo). */
  args: string[]
  /** The idle seconds asked for (0: none); their `--idle-seconds` is in `args` when not 0. */
  idleSeconds: number
  timeoutMs: number
  /** The device checks run as a second command through the target's sudo. */
  deviceApart: boolean
  /** Tool names the request gave that are no tool. */
  unknownTools: string[]
}

/** Pure: preflight.sh's arguments for `req`, with `~` as the login user's `homeDir`. */
export function preflightCall(req: PreflightRequest, homeDir: string): PreflightCall {
  const probes = toolProbeArgs(req.tools, req.unixbenchDir ? { unixbench: expandHome(req.unixbenchDir, homeDir) } : {})
  const idleSeconds = Math.max(0, Math.round(req.idleSeconds ?? 0))
  const timeoutMs = (req.timeoutMs ?? DEFAULT_TIMEOUT_MS) + idleSeconds * 1000
  const deviceApart = req.device !== undefined && Boolean(req.sudo)

  const args: string[] = []
  args.push(...probes.args)
  if (req.dir) args.push('--dir', expandHome(req.dir, homeDir))
  if (req.device !== undefined && !deviceApart) args.push('--device', req.device)
  if (idleSeconds > 0) args.push('--idle-seconds', String(idleSeconds))
  return { args, idleSeconds, timeoutMs, deviceApart, unknownTools: probes.unknown }
}

/** The facts of the main checks, with the device checked apart and the tool names that were no tool. */
export function completeFacts(main: PreflightFacts, device: { device: DeviceFacts; problems: string[] } | undefined, call: PreflightCall): PreflightFacts {
  if (device) {
    main.device = device.device
    main.problems.push(...device.problems)
  }
  main.problems.unshift(...call.unknownTools.map((t) => `${JSON.stringify(t)} is not a tool name`))
  return main
}

/** Pure: the facts in preflight.sh's output, with what went wrong with the command (a timeout, an exit status) as the first problem. */
export function factsOfOutput(label: string, stdout: string, end: CommandEnd, timeoutMs: number): PreflightFacts {
  const facts = parsePreflightOutput(stdout)
  const trouble = runTrouble(label, end, timeoutMs)
  if (trouble) facts.problems.unshift(trouble)
  return facts
}

/** How a command ended, as far as the checks' problems tell it. */
export type CommandEnd = Pick<ExecResult, 'exitCode' | 'signal' | 'timedOut' | 'cancelled'> & { stderr?: string }

/** collectPreflightFacts, with a target that cannot be reached answered as `{ unreachable }`. */
export async function probeTarget(session: Session, req: PreflightRequest): Promise<PreflightFacts | Unreachable> {
  try {
    return await collectPreflightFacts(session, req)
  } catch (err) {
    return { unreachable: messageOf(err) }
  }
}

export interface RunOptions {
  timeoutMs: number
  signal: AbortSignal | undefined
  sudo?: SudoMode | undefined
}

async function runChecks(session: Session, script: string, args: readonly string[], opts: RunOptions): Promise<PreflightFacts> {
  let result: ExecResult
  try {
    result = await session.exec(
      { argv: ['sh', script, ...args] },
      {
        capture: { maxBytes: MAX_OUTPUT_BYTES },
        timeoutMs: opts.timeoutMs,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.sudo ? { sudo: opts.sudo } : {})
      }
    )
  } catch (err) {
    if (isUnreachable(err)) throw err
    return emptyFacts([`the checks could not run on ${session.label}${opts.sudo ? ' through sudo' : ''}: ${messageOf(err)}`])
  }
  return factsOfOutput(session.label, result.stdout?.toString('utf8') ?? '', { ...result, stderr: result.stderr?.toString('utf8') ?? '' }, opts.timeoutMs)
}

/** The device part alone, through sudo; a refusal becomes the device's checkError. */
export async function runDeviceChecks(session: Session, script: string, device: string, opts: RunOptions): Promise<{ device: DeviceFacts; problems: string[] }> {
  const facts = await runChecks(session, script, ['--device', device], opts)
  if (facts.device) return { device: facts.device, problems: facts.problems }
  return {
    device: { path: device, partitions: [], holders: [], mounts: [], swaps: [], signatures: [], probes: {}, checkError: facts.problems.join('; ') || 'the device checks printed nothing' },
    problems: []
  }
}

function runTrouble(label: string, result: CommandEnd, timeoutMs: number): string | undefined {
  if (result.cancelled) return `the checks on ${label} were cancelled`
  if (result.timedOut) return `the checks on ${label} did not finish within ${Math.round(timeoutMs / 1000)} s`
  if (result.exitCode === 0) return undefined
  const stderr = result.stderr?.trim().split('\n')[0]?.trim()
  const how = result.exitCode === null ? `was ended by signal ${result.signal ?? '?'}` : `exited with status ${result.exitCode}`
  return `the check script on ${label} ${how}${stderr ? `: ${stderr}` : ''}`
}

/** `~` and `~/x` in the login user's home (the checks may run where $HOME differs, under sudo). */
export function expandHome(path: string, homeDir: string): string {
  if (path === '~') return homeDir
  if (path.startsWith('~/')) return `${homeDir.replace(/\/+$/, '')}/${path.slice(2)}`
  return path
}

export function isUnreachable(err: unknown): boolean {
  return err instanceof SessionError && UNREACHABLE.has(err.code)
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
