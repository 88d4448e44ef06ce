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
 *
 * The server's own output reports the way back of -r from its end, after its own
 * "Client connecting to <client>, TCP port <listen port>" header: when the client could not listen
 * for it (another iperf server holds that port there, as on every machine of study 000), that is
 * the only report of the way back.
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
  /** The client's own connection to the server (its [SUM] lines add these up). */
  own: boolean
  flow: Flow
  /** Whether the end that prints the line sends; a Server Report is the other end's. */
  localSends: boolean
}

/** A connection line's ports and what follows them ("(reverse)", -e's columns). */
interface ConnectionLine {
  localPort: number
  remotePort: number
  rest: string
}

/** What a connection line is for the reader: its part of the test, or undefined for one whose reports are not wanted. */
type Classify = (line: ConnectionLine) => Omit<Connection, 'key'> | undefined

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

/** The end whose figures a line carries: the printing end's own lines, or the other end's in a Server Report. */
function measurer(connection: Connection, serverReport: boolean): Measurer {
  return connection.localSends !== serverReport ? 'sender' : 'receiver'
}

/**
 * Every report line of `text`, each belonging to the last connection line with its [ ID] that
 * `classify` wants (the lines of one it does not want are skipped); [SUM] lines add up the
 * connections marked `own`.
 */
function readReports(text: string, protocol: Reading['protocol'], classify: Classify): Report[] {
  const connections = new Map<string, Connection | undefined>()
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
      const [, id, , localPort, , remotePort, rest] = conn
      const kind = classify({ localPort: Number(localPort), remotePort: Number(remotePort), rest: rest! })
      connections.set(id!, kind && { key: `${id}#${++seen}`, ...kind })
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
    if (!connections.has(id!)) throw new OutputProblem(`a report for [${id}] comes before any connection line with that ID`, lineAt)
    const connection = connections.get(id!)
    const fromServer = serverReportNext.delete(id!)
    if (connection === undefined) continue
    reports.push({ connection: connection.key, sum: false, flow: connection.flow, measuredBy: measurer(connection, fromServer), ...figures })
  }
  const own = [...connections.values()].filter((c): c is Connection => c?.own === true)
  if (own.length > 0) {
    for (const figures of sums) reports.push({ connection: 'SUM', sum: true, flow: own[0]!.flow, measuredBy: measurer(own[0]!, false), ...figures })
  }
  return reports
}

/**
 * Reads every report line of a client's text output; throws OutputProblem (with the offset) on a
 * line it cannot trust. A connection to the server's port is the client's own (it sends, or
 * receives with -R, marked "(reverse)"); any other is the server connecting back to the client's
 * listener (-r, -d), which receives. The client's own connection line may come before the
 * "Client connecting to" header (iperf 2.1's threads print in either order); any other connection
 * before it makes this a server's output.
 */
export function readText(text: string): Reading {
  const header = CLIENT_HEADER.exec(text)
  if (!header) throw new OutputProblem('no "Client connecting to …" line: this is not the output of an iperf 2 client', 0)
  const serverPort = Number(header[3])
  const before = text.slice(0, header.index).split('\n')
  if (before.some((line) => Number(CONNECTION.exec(line.replace(/\r$/, ''))?.[5] ?? serverPort) !== serverPort)) {
    throw new OutputProblem("this is an iperf 2 server's output (a test ran before it connected back with -r); VirtBench reads the client's", 0)
  }
  const protocol = header[2] as Reading['protocol']
  const reports = readReports(text, protocol, ({ remotePort, rest }) => {
    if (remotePort !== serverPort) return { own: false, flow: 'in', localSends: false }
    const reversed = /\(reverse\)/.test(rest)
    return { own: true, flow: reversed ? 'in' : 'out', localSends: !reversed }
  })
  return { protocol, reports, warnings: [] }
}

/**
 * The way back of -r as the server's own output reports it: after its "Client connecting to …"
 * header (the server connecting back), the connection to that port is the server sending
 * ("(reverse)" in 2.1); a Server Report after it is what arrived at the other end. Connections the
 * server's own listener accepted meanwhile are not the way back and are left out. Undefined when
 * the server never connected back.
 */
export function readWayBackOnServer(text: string): Reading | undefined {
  const header = CLIENT_HEADER.exec(text)
  if (!header) return undefined
  const port = Number(header[3])
  const protocol = header[2] as Reading['protocol']
  const reports = readReports(text.slice(header.index), protocol, ({ remotePort }) =>
    remotePort === port ? { own: true, flow: 'in', localSends: true } : undefined
  )
  return { protocol, reports, warnings: [] }
}
