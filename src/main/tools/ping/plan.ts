import { pwshJoin, shJoin } from '../../../shared/shell-quote'
import type { Plan, PlanContext, RemoteStep } from '../types'
import type { PingParams } from './params'

/** ping's default interval between requests. */
const DEFAULT_INTERVAL_SECONDS = 1
/** How long iputils ping waits for the last reply when no -W is given. */
const DEFAULT_LINGER_SECONDS = 10
const TIMEOUT_GRACE_SECONDS = 30

/** How long the run should take: one request per interval, then the wait for the last reply. */
export function estimateSeconds(params: PingParams): number {
  const sending = params.count * (params.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS)
  const byCount = sending + (params.replyTimeoutSeconds ?? 1)
  return Math.ceil(params.deadlineSeconds === undefined ? byCount : Math.min(byCount, params.deadlineSeconds))
}

function timeoutSeconds(params: PingParams): number {
  const sending = params.count * (params.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS)
  const byCount = sending + (params.replyTimeoutSeconds ?? DEFAULT_LINGER_SECONDS)
  const run = params.deadlineSeconds === undefined ? byCount : Math.min(byCount, params.deadlineSeconds)
  return Math.ceil(run + TIMEOUT_GRACE_SECONDS)
}

/** The host: the `host` parameter, else the peer's address (never something ping reads as an option). */
function destination(params: PingParams, ctx: PlanContext): string {
  const host = params.host ?? ctx.peer?.address
  if (host === undefined || host === '') {
    throw new Error('ping needs a host: choose a peer machine, or give the host parameter')
  }
  if (host.startsWith('-')) throw new Error(`the host "${host}" starts with '-', which ping would read as an option`)
  return host
}

/** `ping -c 10 <host>` (study 000), with -i, -s, -w and -W when given. */
export function linuxArgv(params: PingParams, host: string): string[] {
  const argv = ['ping', '-c', String(params.count)]
  if (params.intervalSeconds !== undefined) argv.push('-i', String(params.intervalSeconds))
  if (params.sizeBytes !== undefined) argv.push('-s', String(params.sizeBytes))
  if (params.deadlineSeconds !== undefined) argv.push('-w', String(params.deadlineSeconds))
  if (params.replyTimeoutSeconds !== undefined) argv.push('-W', String(params.replyTimeoutSeconds))
  argv.push(host)
  return argv
}

/** `ping.exe -n 10 <host>`, with -l and -w (milliseconds) when given. */
export function windowsArgv(params: PingParams, host: string): string[] {
  if (params.intervalSeconds !== undefined) {
    throw new Error('ping.exe on Windows has no interval option (it sends one request per second); remove intervalSeconds')
  }
  if (params.deadlineSeconds !== undefined) {
    throw new Error('ping.exe on Windows has no deadline option; remove deadlineSeconds and set count instead')
  }
  const argv = ['ping.exe', '-n', String(params.count)]
  if (params.sizeBytes !== undefined) argv.push('-l', String(params.sizeBytes))
  if (params.replyTimeoutSeconds !== undefined) argv.push('-w', String(params.replyTimeoutSeconds * 1000))
  argv.push(host)
  return argv
}

/**
 * One measured step on the target pinging the peer (or the given host). ping exits with 1 when
 * no reply came back; that is a result (100 % loss), not a failure of the step.
 */
export function plan(params: PingParams, ctx: PlanContext): Plan {
  const host = destination(params, ctx)
  const windows = ctx.target.os === 'windows'
  const argv = windows ? windowsArgv(params, host) : linuxArgv(params, host)
  const step: RemoteStep = {
    id: 'ping',
    on: 'target',
    shell: windows ? 'powershell' : 'sh',
    // LC_ALL=C keeps iputils' numbers in the C locale (a '.' as decimal point).
    script: windows ? `${pwshJoin(argv)}\nexit $LASTEXITCODE` : `LC_ALL=C ${shJoin(argv)}`,
    argv,
    timeoutSeconds: timeoutSeconds(params),
    okExitCodes: [0, 1],
    measured: true
  }
  return { steps: [step], files: [], estimatedSeconds: estimateSeconds(params) }
}
