import { pwshJoin, shJoin } from '../../../shared/shell-quote'
import type { Plan, PlanContext, RemoteStep, TargetFacts } from '../types'
import { placement, senderOf, type Machine } from './network-roles'
import type { Iperf3Params } from './params'

/**
 * The line the server prints once it listens (`Server listening on 5201 (test #1)`). The client must
 * not start before it: with --forceflush the server prints it at once even when its output is a pipe.
 */
export const SERVER_READY = /^Server listening on [0-9]+/m

/** Connecting, exchanging parameters and the final results around the timed part. */
const CLIENT_GRACE_SECONDS = 30
/** The server is started first and must outlive the client. */
const SERVER_GRACE_SECONDS = 30

export function estimateSeconds(params: Iperf3Params): number {
  return params.seconds + params.omitSeconds + 1
}

function clientTimeout(params: Iperf3Params): number {
  return params.seconds + params.omitSeconds + CLIENT_GRACE_SECONDS
}

function binary(facts: TargetFacts): string {
  return facts.toolPaths?.iperf3 ?? (facts.os === 'windows' ? 'iperf3.exe' : 'iperf3')
}

/**
 * `iperf3 -s [-p port] [--bind addr]` (study 001: `iperf3 -s --bind 10.127.100.3`), then what VirtBench
 * needs to drive it: -1 (serve one test, then exit) and --forceflush (print the ready line at once).
 */
export function serverArgv(params: Iperf3Params, bin = 'iperf3'): string[] {
  const argv = [bin, '-s']
  if (params.port !== undefined) argv.push('-p', String(params.port))
  if (params.serverBind !== undefined) argv.push('--bind', params.serverBind)
  argv.push('-1', '--forceflush')
  return argv
}

/** -R when the server is the one that sends; --bidir for both directions at once. */
function directionFlag(params: Iperf3Params, client: Machine): string | undefined {
  if (params.direction === 'both') return '--bidir'
  return senderOf(params.direction) === client ? undefined : '-R'
}

/** `iperf3 -c <server> [-p port] -t <seconds> …` (study 001: `iperf3 -c 10.127.100.3 -t 30`), then -J for the JSON VirtBench reads. */
export function clientArgv(params: Iperf3Params, address: string, client: Machine = 'target', bin = 'iperf3'): string[] {
  const argv = [bin, '-c', address]
  if (params.port !== undefined) argv.push('-p', String(params.port))
  argv.push('-t', String(params.seconds))
  if (params.omitSeconds > 0) argv.push('-O', String(params.omitSeconds))
  if (params.parallel > 1) argv.push('-P', String(params.parallel))
  const flag = directionFlag(params, client)
  if (flag !== undefined) argv.push(flag)
  if (params.protocol === 'udp') argv.push('-u')
  if (params.bitrate !== undefined) argv.push('-b', String(params.bitrate))
  if (params.lengthBytes !== undefined) argv.push('-l', String(params.lengthBytes))
  if (params.windowBytes !== undefined) argv.push('-w', String(params.windowBytes))
  if (params.clientBind !== undefined) argv.push('--bind', params.clientBind)
  argv.push('-J')
  return argv
}

function command(argv: readonly string[], facts: TargetFacts): Pick<RemoteStep, 'shell' | 'script'> {
  return facts.os === 'windows'
    ? { shell: 'powershell', script: `${pwshJoin(argv)}\nexit $LASTEXITCODE` }
    : { shell: 'sh', script: shJoin(argv) }
}

/**
 * Two steps: the server in the background on one machine (the peer unless serverOn says otherwise),
 * then the measured client on the other. The server serves exactly one test (-1) and exits; the
 * engine starts the client once the server printed SERVER_READY, and stops the server if it is
 * still there when the client has ended.
 */
export function plan(params: Iperf3Params, ctx: PlanContext): Plan {
  const where = placement('iperf3', params.serverOn, params.targetAddress, ctx)
  const sArgv = serverArgv(params, binary(where.serverFacts))
  const cArgv = clientArgv(params, where.connectTo, where.client, binary(where.clientFacts))
  const server: RemoteStep = {
    id: 'server',
    on: where.server,
    ...command(sArgv, where.serverFacts),
    argv: sArgv,
    timeoutSeconds: clientTimeout(params) + SERVER_GRACE_SECONDS,
    okExitCodes: [0],
    background: true,
    readyPattern: SERVER_READY
  }
  const client: RemoteStep = {
    id: 'client',
    on: where.client,
    ...command(cArgv, where.clientFacts),
    argv: cArgv,
    timeoutSeconds: clientTimeout(params),
    okExitCodes: [0],
    measured: true
  }
  return { steps: [server, client], files: [], estimatedSeconds: estimateSeconds(params) }
}
