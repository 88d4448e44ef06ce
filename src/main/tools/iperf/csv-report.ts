/**
 * iperf 2's -y C output: one line per report,
 *
 *   time,src ip,src port,dst ip,dst port,ID,start-end,bytes,bits/s
 *
 * and, for a UDP receiver, five more: jitter (ms),lost,total,loss %,out-of-order. The numbers are
 * exact where the text rounds to three digits. Which way a line's data went is told by the ports:
 * the client's own connection has the server's port at one end, the server's connection back to the
 * client's listener (-r/-d) has the listen port (-L, the same as the server port unless given).
 *
 * Two versions differ: 2.0.x writes every line local end first; 2.1.x writes the sending end first
 * (so a receiver's line is swapped). Both are read the same way below. 2.1.x also leaves the
 * Server Report (the peer's jitter and loss) out of -y C, and marks a UDP sender's own line with a
 * total of -1 datagrams; 2.0.x writes the sender's own UDP line with the 9 TCP fields.
 */
import { OutputProblem, type Flow, type Reading, type Report } from './report'
import { secondsOfMilliseconds } from './units'

const TIMESTAMP = /^[0-9]{14}(?:\.[0-9]+)?$/
const INTERVAL = /^([0-9]+(?:\.[0-9]+)?)-([0-9]+(?:\.[0-9]+)?)$/
const WHOLE = /^-?[0-9]{1,18}$/
const DECIMAL = /^-?[0-9]{1,18}(?:\.[0-9]+)?$/

/** The server port (-p), the client's listen port (-L) and whether the test went both ways (-r). */
export interface CsvPorts {
  server: number
  listen: number
  dual: boolean
}

interface Endpoint {
  ip: string
  port: number
}

interface CsvLine {
  src: Endpoint
  dst: Endpoint
  id: number
  start: number
  end: number
  bytes: number
  bitsPerSecond: number
  udp?: { jitterMs: string; lost: number; total: number; loss: number; outOfOrder: number }
  at: number
}

/** Whether the text holds iperf 2 -y C lines (a line starting with its 14-digit timestamp). */
export function looksLikeCsv(text: string): boolean {
  return /(?:^|\n)[0-9]{14}(?:\.[0-9]+)?,[^,\n]*,[0-9]+,/.test(text)
}

function whole(field: string, what: string, at: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = WHOLE.test(field) ? Number(field) : NaN
  if (!(value >= min && value <= max)) throw new OutputProblem(`the ${what} field of a -y C line must be a whole number from ${min} to ${max}, not "${field}"`, at)
  return value
}

function decimal(field: string, what: string, at: number, min: number, max: number): number {
  const value = DECIMAL.test(field) ? Number(field) : NaN
  if (!(value >= min && value <= max)) throw new OutputProblem(`the ${what} field of a -y C line must be a number from ${min} to ${max}, not "${field}"`, at)
  return value
}

function lineOf(text: string, at: number): CsvLine {
  const f = text.split(',')
  if (f.length !== 9 && f.length !== 14) {
    throw new OutputProblem(`a -y C line has ${f.length} fields; iperf 2 writes 9 (TCP, or a UDP sender) or 14 (a UDP receiver)`, at)
  }
  const interval = INTERVAL.exec(f[6]!)
  if (!interval) throw new OutputProblem(`the interval field of a -y C line must look like 0.0-10.0, not "${f[6]}"`, at)
  const line: CsvLine = {
    src: { ip: f[1]!, port: whole(f[2]!, 'source port', at, 0, 65_535) },
    dst: { ip: f[3]!, port: whole(f[4]!, 'destination port', at, 0, 65_535) },
    id: whole(f[5]!, 'ID', at, -1),
    start: Number(interval[1]),
    end: Number(interval[2]),
    bytes: whole(f[7]!, 'bytes', at, 0),
    bitsPerSecond: whole(f[8]!, 'bits/s', at, 0),
    at
  }
  if (f.length === 14) {
    line.udp = {
      jitterMs: f[9]!,
      lost: whole(f[10]!, 'lost datagrams', at, 0),
      total: whole(f[11]!, 'total datagrams', at, -1),
      loss: decimal(f[12]!, 'loss %', at, -100, 100),
      outOfOrder: whole(f[13]!, 'out-of-order datagrams', at, 0)
    }
    decimal(f[9]!, 'jitter', at, 0, 1e9)
  }
  return line
}

/**
 * Which way a line's data went. With the listen port L different from the server port P, the ports
 * say it all. With L = P (iperf's default), a line towards P is either the client's own (2.0 and 2.1)
 * or, in 2.1's sender-first form, the server's connection back: those are told apart by where they
 * come from, the client's own lines coming first in a -r output. A line with neither port, beside
 * the client's own line towards P, is the way back on a listen port other than the one given (a
 * test run by hand with its own -L, read without it).
 */
function flowsOf(lines: readonly CsvLine[], ports: CsvPorts): Flow[] {
  const { server: P, listen: L } = ports
  const towardsServer = lines.some((l) => l.dst.port === P && l.src.port !== P)
  const flows: (Flow | 'towards-server')[] = lines.map((l) => {
    const { port: sp } = l.src
    const { port: dp } = l.dst
    if (dp === P && sp !== P) return P === L ? 'towards-server' : 'out'
    if (sp === P && dp !== P) return 'in' // 2.1 -R (the server sends), or 2.0's listener line with L = P
    if (P !== L && (sp === L || dp === L)) return 'in'
    if (towardsServer && sp !== P && dp !== P) return 'in'
    throw new OutputProblem(
      `a -y C line connects ports ${sp} and ${dp}, neither of which is the server port ${P}${P === L ? '' : ` or the listen port ${L}`}: were other ports used? (give the test's port and listenPort)`,
      l.at
    )
  })
  const towards = lines.filter((_, i) => flows[i] === 'towards-server')
  const sources = [...new Set(towards.map((l) => l.src.ip))]
  if (sources.length > 2) throw new OutputProblem(`-y C lines towards the server port come from ${sources.length} addresses; VirtBench expects the client's and the server's`, 0)
  if (sources.length === 1 && ports.dual && new Set(towards.map((l) => l.id)).size > 1) {
    throw new OutputProblem(
      'the -y C lines of the two directions cannot be told apart: they use the same port and the same address at both ends; give a listen port (-L) different from the server port',
      towards[1]!.at
    )
  }
  return flows.map((flow, i) => (flow !== 'towards-server' ? flow : lines[i]!.src.ip === sources[0] ? 'out' : 'in'))
}

function endpointKey(e: Endpoint): string {
  return `${e.ip}:${e.port}`
}

/** Reads every -y C line; throws OutputProblem (with the offset) on a line it cannot trust. */
export function readCsv(text: string, ports: CsvPorts): Reading {
  const lines: CsvLine[] = []
  const warnings: string[] = []
  let at = 0
  const rows = text.split('\n')
  for (const [i, row] of rows.entries()) {
    const lineAt = at
    at += row.length + 1
    const clean = row.replace(/\r$/, '')
    const first = clean.split(',', 1)[0]!
    if (!TIMESTAMP.test(first) || !clean.includes(',')) continue
    if (i === rows.length - 1) {
      warnings.push(`the last -y C line has no line end, so it may be cut short; it was left out: "${clean}"`)
      continue
    }
    lines.push(lineOf(clean, lineAt))
  }
  // ID -1 lines are iperf 2.0's [SUM] of parallel streams; totals are added up from the streams instead.
  const streams = lines.filter((l) => l.id >= 0)
  const flows = flowsOf(streams, ports)
  const reports = streams.map((l, i): Report => {
    const flow = flows[i]!
    const report: Report = {
      connection: `${l.id}|${[endpointKey(l.src), endpointKey(l.dst)].sort().join('|')}`,
      sum: false,
      flow,
      // A UDP line with a datagram count is the receiver's; a sender's has none (2.0) or -1 (2.1).
      measuredBy: l.udp !== undefined ? (l.udp.total >= 0 ? 'receiver' : 'sender') : flow === 'out' ? 'sender' : 'receiver',
      start: l.start,
      end: l.end,
      bytes: l.bytes,
      bitsPerSecond: l.bitsPerSecond
    }
    if (l.udp !== undefined && l.udp.total >= 0) {
      report.datagrams = {
        jitterSeconds: secondsOfMilliseconds(l.udp.jitterMs),
        lost: l.udp.lost,
        total: l.udp.total,
        outOfOrder: l.udp.outOfOrder,
        ...(l.udp.total > 0 && l.udp.loss >= 0 ? { lossPercent: l.udp.loss + 0 } : {})
      }
    }
    return report
  })
  const udp = lines.some((l) => l.udp !== undefined)
  return { protocol: udp ? 'UDP' : 'TCP', reports, warnings }
}
