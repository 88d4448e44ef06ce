import { parseFailure, parseSuccess } from '../common/result'
import { flowFrom, otherMachine, type Machine } from '../iperf3/network-roles'
import type { ParseResult, StepOutput } from '../types'
import { looksLikeCsv, readCsv } from './csv-report'
import type { IperfParams } from './params'
import { finalReports, OutputProblem, samplesOf, type Reading, type Report } from './report'
import { CLIENT_HEADER, readText, readWayBackOnServer } from './text-report'

const DEFAULT_PORT = 5001

/** What iperf 2 prints when the other end is not there. */
const FAILURE_LINE = /^.*(?:connect failed|read failed|write failed|listener bind failed|WARNING: did not receive ack|error).*$/im
const UDP_NO_ANSWER = /^.*WARNING: did not receive ack of last datagram.*$/m
/** What iperf 2 says when the client cannot listen for the way back of -r. */
const LISTENER_FAILED = /^.*listener bind failed.*$/m

function notIperf2(out: StepOutput): ParseResult {
  const text = out.stdout
  if (/^Connecting to host .+, port [0-9]+/m.test(text) || /^\s*\{\s*"start"/.test(text)) {
    return parseFailure('this is iperf3 output; the iperf tool reads iperf 2 (use the iperf3 tool for it)', text)
  }
  if (/^Server listening on (?:TCP|UDP) port/m.test(text)) {
    return parseFailure("this is an iperf 2 server's output; VirtBench reads the client's (iperf -c …)", text)
  }
  const failure = FAILURE_LINE.exec(out.stderr)
  if (failure) return parseFailure(`iperf failed: ${failure[0].trim()}`, out.stderr, failure.index)
  if (text.trim() === '') return parseFailure('iperf printed nothing on its standard output', out.stderr)
  return parseFailure('this is not the output of an iperf 2 client: no "Client connecting to …" line and no -y C lines', text)
}

/** No final report: quote what iperf said went wrong, if it said so. */
function noResult(out: StepOutput): ParseResult {
  const text = `${out.stderr}\n${out.stdout}`
  const failure = FAILURE_LINE.exec(text)
  if (failure) return parseFailure(`iperf printed no result; it said: ${failure[0].trim()}`, text, failure.index)
  return parseFailure('iperf printed no final report (a line like "[  1] 0.0-10.0 sec  1.10 GBytes  941 Mbits/sec"): did the test finish?', out.stdout)
}

function read(out: StepOutput, params: IperfParams | undefined): Reading | undefined {
  if (CLIENT_HEADER.test(out.stdout)) return readText(out.stdout)
  if (!looksLikeCsv(out.stdout)) return undefined
  const server = params?.port ?? DEFAULT_PORT
  return readCsv(out.stdout, { server, listen: params?.listenPort ?? server, dual: params?.direction === 'both' })
}

/**
 * The way back of -r from the server's own output, when the client's has none: the server reports
 * it from its sending end (and, for UDP, what arrived in its Server Report). Empty when the client
 * reported it, or the server never connected back.
 */
function wayBackFromServer(finals: readonly Report[], reading: Reading, out: StepOutput, params: IperfParams | undefined): { reports: Report[]; problem?: string } {
  if (params?.direction !== 'both' || out.background === undefined || finals.some((r) => r.flow === 'in')) return { reports: [] }
  try {
    const server = readWayBackOnServer(out.background.stdout)
    if (server === undefined || server.protocol !== reading.protocol) return { reports: [] }
    return { reports: finalReports(server.reports) }
  } catch (error) {
    if (error instanceof OutputProblem) return { reports: [], problem: `the server's own output could not be read for the way back: ${error.reason}` }
    throw error
  }
}

function wayBackNote(out: StepOutput, params: IperfParams | undefined, client: Machine): string {
  const server = otherMachine(client)
  const said = LISTENER_FAILED.exec(out.stderr)
  const port = params?.listenPort ?? params?.port ?? DEFAULT_PORT
  return (
    `the way back (${flowFrom(server)}) is the server's own report from its sending end: the ${client} did not report it` +
    (said ? ` (iperf said "${said[0].trim()}": does another iperf server hold port ${port} on the ${client}?)` : '') +
    `; give the test a listenPort that is free on the ${client} to have it measured where it arrives`
  )
}

function warningsFor(finals: readonly Report[], reading: Reading, params: IperfParams | undefined, client: Machine, csv: boolean): string[] {
  const warnings = [...reading.warnings]
  const server = otherMachine(client)
  const flows = new Set(finals.map((r) => r.flow))
  if (params?.direction === 'both' && !flows.has('in')) {
    warnings.push(
      `the way back (${flowFrom(server)}) has no report: the server could not connect back to the listen port on the ${client} (a firewall, or NAT?)`
    )
  }
  if (reading.protocol === 'UDP' && finals.some((r) => r.flow === 'out') && !finals.some((r) => r.flow === 'out' && r.measuredBy === 'receiver')) {
    const why = csv ? 'iperf 2.1 leaves the Server Report out of -y C output (use the text format for UDP)' : 'iperf printed no Server Report'
    warnings.push(`${flowFrom(client)} has only the sender's rate, not what arrived: ${why}, so its jitter and loss were not measured`)
  }
  return warnings
}

/**
 * Reads the client's output of iperf 2 (2.0.x or 2.1.x): the text table (with or without -e) or
 * -y C lines. Both halves of -r are told apart by their connections; `params` says which machine ran
 * the client (serverOn) and, for -y C, which ports were used. When the client did not report the
 * way back of -r, the server's output (`out.background`) gives it from the server's end.
 */
export function parse(out: StepOutput, params?: IperfParams): ParseResult {
  if (out.signal) return parseFailure(`iperf was stopped by ${out.signal} before it finished`, out.stderr || out.stdout)
  if (out.exitCode !== null && out.exitCode !== 0) return parseFailure(`iperf exited with code ${out.exitCode}`, out.stderr || out.stdout)
  let reading: Reading | undefined
  try {
    reading = read(out, params)
  } catch (error) {
    if (error instanceof OutputProblem) return parseFailure(error.reason, out.stdout, error.at)
    throw error
  }
  if (reading === undefined) return notIperf2(out)
  const own = finalReports(reading.reports)
  if (own.length === 0) return noResult(out)
  const wayBack = wayBackFromServer(own, reading, out, params)
  const finals = [...own, ...wayBack.reports]
  const said = `${out.stdout}\n${out.stderr}`
  const silent = UDP_NO_ANSWER.exec(said)
  if (reading.protocol === 'UDP' && silent) {
    return parseFailure(`the iperf server did not answer the UDP test ("${silent[0].trim()}"): is iperf -s -u running there, and does its firewall let UDP in?`, said, silent.index)
  }
  const client: Machine = params?.serverOn === 'target' ? 'peer' : 'target'
  const csv = !CLIENT_HEADER.test(out.stdout)
  const notes = [...(wayBack.reports.length > 0 ? [wayBackNote(out, params, client)] : []), ...(wayBack.problem ? [wayBack.problem] : [])]
  return parseSuccess(samplesOf(finals, client), [...notes, ...warningsFor(finals, reading, params, client, csv)])
}
