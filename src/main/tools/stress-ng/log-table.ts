import { numberOf, type StressorFigures } from './figures'

/**
 * stress-ng's log on stderr: `stress-ng: <type>: [<pid>] <message>`, the type `info`, `metrc`
 * (the metrics table, from 0.15.05; `info` before), `warn`, `fail`, `error` or `debug`, with an
 * optional time stamp (--timestamp) before it. The metrics table of --metrics-brief:
 *
 *     stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s
 *                               (secs)    (secs)    (secs)   (real time) (usr+sys time)
 *     cpu                1699      2.00      1.87      0.00       847.53         908.22
 *
 * --metrics adds "CPU used per instance (%)" and, from 0.14, "RSS Max (KB)".
 */

const LOG_LINE = /^stress-ng: (?:[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{2} )?([a-z]+): *\[([0-9]+)\] ?(.*)$/
const HEADER = /^stressor +bogo ops +real time +usr time +sys time +bogo ops\/s +bogo ops\/s( +CPU used per)?( +RSS Max)?\s*$/
const UNITS = /^\s*\(secs\)/
/** A stressor, its bogo ops, then 5 to 7 numbers (`%9.2f`, or `%9.3e` with --sn), checked one by one. */
const ROW = /^([A-Za-z0-9_-]+) +([0-9]{1,20})((?: +[0-9][0-9.e+-]*){5,7})\s*$/

/** Two decimals (`%.2f`): the true value is within half a unit of the last one. */
const LOG_ROUNDING = 0.005

export interface LogMessage {
  type: string
  pid: string
  text: string
  line: string
  /** The last line of a text that ends without a newline: it may have been cut. */
  partial?: true
}

export interface StressNgLog {
  messages: LogMessage[]
  /** Lines of stderr that are not log messages (stress-ng's complaints about its options). */
  other: string[]
  /** The metrics table, when there is one; a string says why it is not one stress-ng wrote. */
  table: StressorFigures[] | string | null
}

function messagesOf(text: string): { messages: LogMessage[]; other: string[] } {
  const messages: LogMessage[] = []
  const other: string[] = []
  const lines = text.split(/\r\n|\r|\n/)
  for (const [i, line] of lines.entries()) {
    const m = LOG_LINE.exec(line)
    const partial = i === lines.length - 1 && line !== ''
    if (m) messages.push({ type: m[1]!, pid: m[2]!, text: m[3]!, line, ...(partial ? { partial } : {}) })
    else if (line.trim() !== '') other.push(line)
  }
  return { messages, other }
}

function rowFigures(message: LogMessage, withCpuUsage: boolean, columns: number): StressorFigures | null {
  const row = ROW.exec(message.text)
  if (!row) return null
  const values = row[3]!.trim().split(/ +/).map(numberOf)
  if (values.length !== columns || values.some((v) => v === null)) return null
  const [wallSeconds, , , opsPerSecond, opsPerCpuSecond, cpuUsage] = values as number[]
  return {
    stressor: row[1]!,
    ops: Number(row[2]),
    opsPerSecond: opsPerSecond!,
    opsPerCpuSecond: opsPerCpuSecond!,
    wallSeconds: wallSeconds!,
    ...(withCpuUsage ? { cpuUsage: cpuUsage! } : {}),
    rounding: LOG_ROUNDING,
    text: message.line
  }
}

/**
 * The rows under the table's header and unit line, up to the first message that is not a row. A
 * text cut inside the table (its last line without a newline) is not read: a row may have lost digits.
 */
function tableOf(messages: readonly LogMessage[]): StressorFigures[] | string | null {
  const headers = messages.flatMap((m, i) => (HEADER.test(m.text) ? [i] : []))
  if (headers.length === 0) return null
  if (headers.length > 1) return 'the log holds more than one metrics table: is it the output of more than one stress-ng run?'
  const at = headers[0]!
  const header = HEADER.exec(messages[at]!.text)!
  const withCpuUsage = header[1] !== undefined
  // real, usr and sys time, the two rates, then CPU used per instance and RSS Max when printed
  const columns = 5 + (withCpuUsage ? 1 : 0) + (header[2] !== undefined ? 1 : 0)
  if (!UNITS.test(messages[at + 1]?.text ?? '')) return 'the metrics table of the log ends after its header: is the output cut short?'
  const cutShort = 'the log ends inside its metrics table: is the output cut short?'
  const rows: StressorFigures[] = []
  for (const message of messages.slice(at + 2)) {
    if (message.pid !== messages[at]!.pid) continue
    if (message.partial) return cutShort
    const figures = rowFigures(message, withCpuUsage, columns)
    if (!figures) break
    rows.push(figures)
  }
  return rows.length > 0 ? rows : cutShort
}

/**
 * stress-ng's log messages and its metrics table: from its stderr, and from stdout too, where a log
 * saved by hand (`2>&1`) and given to `virtbench parse` arrives.
 */
export function readLog(out: { stdout: string; stderr: string }): StressNgLog {
  const fromStdout = messagesOf(out.stdout)
  const fromStderr = messagesOf(out.stderr)
  const messages = [...fromStdout.messages, ...fromStderr.messages]
  return { messages, other: fromStderr.other, table: tableOf(messages) }
}
