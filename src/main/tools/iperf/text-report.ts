/**
 * iperf 2's text output on the client, 2.0.x and 2.1.x (with or without -e):
 *
 *   Client connecting to peer, TCP port 5001
 *   [  5] local 10.1.5.102 port 59009 connected with 10.1.4.122 port 5001
 *   [  5]  0.0-10.0 sec  1.10 GBytes   941 Mbits/sec
 *   [  4] local 10.1.5.102 port 5001 connected with 10.1.4.122 port 48873
 *   [  4]  0.0-10.0 sec  1.09 GBytes   932 Mbits/sec
 *
 * A connection to the server's port is the client's own (it sends, or receives with -R, marked
 * "(reverse)"); any other is the server connecting back to the client's listener (-r, -d), which
 * receives. Result lines belong to the last connection line with their [ ID]; after
 * "[ ID] Server Report:" the next one is the server's, relayed to the client (UDP).
 */
import { bitsPerSecondOf, bytesOf, secondsOfMilliseconds } from './units'
import { OutputProblem, type DatagramFigures, type Flow, type Measurer, type Reading, type Report } from './report'

export const CLIENT_HEADER = /^Client connecting to (.+), (TCP|UDP) port ([0-9]+)/m

const ID = '\\[\\s*\\*?\\s*([0-9]+)\\]'
// At most 15 digits before the point: any such figure stays finite in base units.
const NUM = '([0-9]{1,15}(?:\\.[0-9]{1,12})?)'
const CONNECTION = new RegExp(`^${ID}\\s+local\\s+(\\S+)\\s+port\\s+([0-9]+)\\s+connected\\s+with\\s+(\\S+)\\s+port\\s+([0-9]+)(.*)$`)
const RESULT = new RegExp(
  `^\\[\\s*\\*?\\s*([0-9]+|SUM(?:-[0-9]+)?)\\]\\s+${NUM}\\s*-\\s*${NUM}\\s+sec\\s+${NUM}\\s+([KMGT]?Bytes)\\s+${NUM}\\s+([KMGT]?(?:bits|Bytes)/sec)(.*)$`
)
const SERVER_REPORT = new RegExp(`^${ID}\\s+Server Report:\\s*$`)
// `   0.002 ms 0/ 893 (0%)`, possibly followed by -e's latency columns.
const DATAGRAMS = new RegExp(`^\\s+${NUM}\\s+ms\\s+([0-9]+)\\s*/\\s*([0-9]+)\\s+\\(([^)%]*)%\\)`)
const LOOKS_LIKE_DATAGRAMS = /^\s+\S+\s+ms\b/
const OUT_OF_ORDER = new RegExp(`^${ID}\\s+${NUM}\\s*-\\s*${NUM}\\s+sec\\s+([0-9]+)\\s+datagrams received out-of-order`)

type Figures = Pick<Report, 'start' | 'end' | 'bytes' | 'bitsPerSecond' | 'datagrams'>

interface Connection {
  key: string
  /** The client's own connection to the server, or the server's connection back to the client (-r/-d). */
  own: boolean
  reversed: boolean
}

function datagramsOf(tail: string, at: number): DatagramFigures | undefined {
  const m = DATAGRAMS.exec(tail)
  if (!m) {
    if (LOOKS_LIKE_DATAGRAMS.test(tail)) throw new OutputProblem(`a UDP report line ends in something VirtBench cannot read (cut short?): "${tail.trim()}"`, at)
    return undefined
  }
  const loss = Number(m[4]!.trim())
  return {
    jitterSeconds: secondsOfMilliseconds(m[1]!),
    lost: Number(m[2]),
    total: Number(m[3]),
    // iperf prints nan% when it counted no datagram.
    ...(m[4]!.trim() !== '' && Number.isFinite(loss) && loss >= 0 && loss <= 100 ? { lossPercent: loss } : {})
  }
}

/** The end whose figures a line carries: the client's own lines are the client's side, a Server Report the server's. */
function measurer(connection: Connection, serverReport: boolean): Measurer {
  if (!connection.own) return 'receiver'
  const clientSends = !connection.reversed
  return clientSends !== serverReport ? 'sender' : 'receiver'
}

function flowOf(connection: Connection): Flow {
  return connection.own && !connection.reversed ? 'out' : 'in'
}

/** Reads every report line of a client's text output; throws OutputProblem (with the offset) on a line it cannot trust. */
export function readText(text: string): Reading {
  const header = CLIENT_HEADER.exec(text)
  if (!header) throw new OutputProblem('no "Client connecting to …" line: this is not the output of an iperf 2 client', 0)
  const before = text.slice(0, header.index).split('\n')
  if (before.some((line) => CONNECTION.test(line.replace(/\r$/, '')))) {
    throw new OutputProblem("this is an iperf 2 server's output (a test ran before it connected back with -r); VirtBench reads the client's", 0)
  }
  const serverPort = Number(header[3])
  const protocol = header[2] as 'TCP' | 'UDP'
  const connections = new Map<string, Connection>()
  const serverReportNext = new Set<string>()
  const reports: Report[] = []
  const sums: Figures[] = []
  let seen = 0
  let at = 0
  for (const line of text.split('\n')) {
    const lineAt = at
    at += line.length + 1
    const clean = line.replace(/\r$/, '')
    const conn = CONNECTION.exec(clean)
    if (conn) {
      const [, id, , , , remotePort, rest] = conn
      connections.set(id!, { key: `${id}#${++seen}`, own: Number(remotePort) === serverPort, reversed: /\(reverse\)/.test(rest!) })
      continue
    }
    const serverReport = SERVER_REPORT.exec(clean)
    if (serverReport) {
      serverReportNext.add(serverReport[1]!)
      continue
    }
    const ooo = OUT_OF_ORDER.exec(clean)
    if (ooo) {
      const last = [...reports].reverse().find((r) => r.connection === connections.get(ooo[1]!)?.key && r.datagrams !== undefined)
      if (last?.datagrams !== undefined) last.datagrams.outOfOrder = Number(ooo[4])
      continue
    }
    const m = RESULT.exec(clean)
    if (!m) continue
    const [, id, start, end, size, sizeUnit, rate, rateUnit, tail] = m
    const figures: Figures = { start: Number(start), end: Number(end), bytes: bytesOf(size!, sizeUnit!)!, bitsPerSecond: bitsPerSecondOf(rate!, rateUnit!)! }
    const datagrams = protocol === 'UDP' ? datagramsOf(tail!, lineAt) : undefined
    if (datagrams !== undefined) figures.datagrams = datagrams
    if (id!.startsWith('SUM')) {
      sums.push(figures)
      continue
    }
    const connection = connections.get(id!)
    if (connection === undefined) throw new OutputProblem(`a report for [${id}] comes before any connection line with that ID`, lineAt)
    const fromServer = serverReportNext.delete(id!)
    reports.push({ connection: connection.key, sum: false, flow: flowOf(connection), measuredBy: measurer(connection, fromServer), ...figures })
  }
  // [SUM] lines add up the client's own streams (-P), which all go the same way.
  const own = [...connections.values()].filter((c) => c.own)
  if (own.length > 0) {
    const flow = flowOf(own[0]!)
    const measuredBy = measurer(own[0]!, false)
    for (const figures of sums) reports.push({ connection: 'SUM', sum: true, flow, measuredBy, ...figures })
  }
  return { protocol, reports, warnings: [] }
}
