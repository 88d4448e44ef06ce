import { shJoin } from '../../../shared/shell-quote'
import { placement, senderOf, type Machine } from '../iperf3/network-roles'
import type { Plan, PlanContext, RemoteStep, TargetFacts } from '../types'
import { outputFormat, type IperfParams } from './params'

/** The line the server prints (and flushes) once it listens: `Server listening on TCP port 5001`. */
export const SERVER_READY = /^Server listening on (?:TCP|UDP) port/m

/**
 * The server's last words on the way back of -r, which it sends after the client's own half: its
 * final report of that connection (TCP), the Server Report of what arrived (UDP) or the ack it
 * never got, or a failed connect. iperf 2.1's client may end before the way back does, and then
 * only the server reports it; the engine waits for these words before it stops the server.
 */
export const WAY_BACK_REPORTED = {
  tcp: /^Client connecting to [^\n]*\n[\s\S]*?^\[\s*\*?\s*\d+\]\s+0\.0+-\d+(?:\.\d+)?\s+sec\s[^\n]*\n|connect failed|write failed/m,
  udp: /^Client connecting to [^\n]*\n[\s\S]*?(?:Server Report:[^\n]*\n(?:\[ ID\][^\n]*\n)?\[\s*\*?\s*\d+\][^\n]*\n|did not receive ack)|connect failed|write failed/m
}
/** How long after the client's end the way back may still take: its own length, and a margin. */
const WAY_BACK_GRACE_SECONDS = 15

/** iperf's test length when -t is not given. */
const DEFAULT_SECONDS = 10
/** Connecting, the server's report of a UDP test and the way back of -r around the timed parts. */
const CLIENT_GRACE_SECONDS = 30
/** The server is started first and must outlive the client. */
const SERVER_GRACE_SECONDS = 30

/** Timed seconds: each direction of -r runs for the full length, one after the other. */
export function estimateSeconds(params: IperfParams): number {
  const seconds = params.seconds ?? DEFAULT_SECONDS
  return (params.direction === 'both' ? 2 * seconds : seconds) + 1
}

function binary(facts: TargetFacts): string {
  return facts.toolPaths?.iperf ?? 'iperf'
}

/** -r for both ways (one after the other), -R when the server is the sender, nothing when the client is. */
function directionFlag(params: IperfParams, client: Machine): string | undefined {
  if (params.direction === 'both') return '-r'
  return senderOf(params.direction) === client ? undefined : '-R'
}

/** `iperf -s [-u] [-p port]` (study 000: `iperf -s`, `iperf -s -u`), with -B, -w and -l when given. */
export function serverArgv(params: IperfParams, bin = 'iperf'): string[] {
  const argv = [bin, '-s']
  if (params.protocol === 'udp') argv.push('-u')
  if (params.port !== undefined) argv.push('-p', String(params.port))
  if (params.serverBind !== undefined) argv.push('-B', params.serverBind)
  if (params.windowBytes !== undefined) argv.push('-w', String(params.windowBytes))
  if (params.lengthBytes !== undefined) argv.push('-l', String(params.lengthBytes))
  return argv
}

/**
 * `iperf -c <server> -r [-p port] [-u]` (study 000: `iperf -c <peer> -r`, `… -r -p 12000`, `… -r -u`),
 * then the options given, and `-y C` when VirtBench reads the CSV.
 */
export function clientArgv(params: IperfParams, address: string, client: Machine = 'target', bin = 'iperf'): string[] {
  const argv = [bin, '-c', address]
  const flag = directionFlag(params, client)
  if (flag !== undefined) argv.push(flag)
  if (params.port !== undefined) argv.push('-p', String(params.port))
  if (params.listenPort !== undefined) argv.push('-L', String(params.listenPort))
  if (params.protocol === 'udp') argv.push('-u')
  if (params.bitrate !== undefined) argv.push('-b', String(params.bitrate))
  if (params.seconds !== undefined) argv.push('-t', String(params.seconds))
  if (params.parallel > 1) argv.push('-P', String(params.parallel))
  if (params.lengthBytes !== undefined) argv.push('-l', String(params.lengthBytes))
  if (params.windowBytes !== undefined) argv.push('-w', String(params.windowBytes))
  if (params.clientBind !== undefined) argv.push('-B', params.clientBind)
  if (params.enhanced) argv.push('-e')
  if (outputFormat(params) === 'csv') argv.push('-y', 'C')
  return argv
}

function linuxOnly(facts: TargetFacts, machine: Machine): void {
  if (facts.os === 'windows') {
    throw new Error(`iperf 2 plans run on Linux, and the ${machine} is a Windows machine: use iperf3, which VirtBench also runs on Windows`)
  }
}

/**
 * Two steps: the server in the background on one machine (the peer unless serverOn says otherwise),
 * then the measured client on the other. iperf 2's server has no one-test mode: the engine starts
 * the client once the server printed SERVER_READY, and stops the server when the client has ended.
 * LC_ALL=C keeps the decimal point of the text report a '.'.
 */
export function plan(params: IperfParams, ctx: PlanContext): Plan {
  const where = placement('iperf', params.serverOn, params.targetAddress, ctx)
  linuxOnly(where.serverFacts, where.server)
  linuxOnly(where.clientFacts, where.client)
  const sArgv = serverArgv(params, binary(where.serverFacts))
  const cArgv = clientArgv(params, where.connectTo, where.client, binary(where.clientFacts))
  const clientTimeout = estimateSeconds(params) + CLIENT_GRACE_SECONDS
  const server: RemoteStep = {
    id: 'server',
    on: where.server,
    shell: 'sh',
    script: `LC_ALL=C ${shJoin(sArgv)}`,
    argv: sArgv,
    timeoutSeconds: clientTimeout + SERVER_GRACE_SECONDS,
    okExitCodes: [0],
    background: true,
    readyPattern: SERVER_READY,
    ...(params.direction === 'both'
      ? { finalReport: { pattern: WAY_BACK_REPORTED[params.protocol], withinSeconds: (params.seconds ?? DEFAULT_SECONDS) + WAY_BACK_GRACE_SECONDS } }
      : {})
  }
  const client: RemoteStep = {
    id: 'client',
    on: where.client,
    shell: 'sh',
    script: `LC_ALL=C ${shJoin(cArgv)}`,
    argv: cArgv,
    timeoutSeconds: clientTimeout,
    okExitCodes: [0],
    measured: true
  }
  return { steps: [server, client], files: [], estimatedSeconds: estimateSeconds(params) }
}
