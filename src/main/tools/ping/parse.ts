import type { Sample } from '../../../shared/model/sample'
import { parseFailure, parseSuccess, sampler } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { pingMetrics } from './metrics'

const metric = sampler(pingMetrics)

/** What ping's statistics say, in base units (seconds, %). */
interface PingSummary {
  host?: string
  transmitted: number
  received: number
  loss: number
  errors?: number
  duplicates?: number
  rtt: { min?: number; avg?: number; max?: number; mdev?: number }
  line: string
  warnings: string[]
  /** Exit codes ping gives with its statistics: 1 when no reply came (iputils, BusyBox, Windows), 2 on BSD and macOS. */
  statisticsExits: readonly number[]
}

/** FreeBSD's and macOS' ping(8): 0 when a reply came, 2 when none did. */
const BSD_EXITS = [0, 2]
const OTHER_EXITS = [0, 1]

// iputils: `10 packets transmitted, 10 received, 0% packet loss, time 9001ms`
// BusyBox and BSD: `3 packets transmitted, 3 packets received, 0% packet loss`
const UNIX_COUNTS = /^([0-9]{1,15}) packets transmitted, ([0-9]{1,15}) (packets )?received((?:, [^,]+)*)$/
const UNIX_EXTRA = /^(?:\+([0-9]{1,15}) (duplicates|errors|corrupted)|([0-9]+(?:\.[0-9]+)?)% packet loss|time [0-9.]+ ?ms)$/
// iputils `rtt min/avg/max/mdev = 0.133/0.181/0.224/0.028 ms`, BusyBox `round-trip min/avg/max = …`,
// FreeBSD and macOS ping `round-trip min/avg/max/stddev = …`, their ping6 `round-trip min/avg/max/std-dev = …`;
// iputils may add `, pipe 2, ipg/ewma …`.
const N = '([0-9]{1,12}(?:\\.[0-9]{1,9})?)'
const UNIX_RTT = new RegExp(`^(?:rtt|round-trip) min/avg/max(?:/(mdev|stddev|std-dev))? = ${N}/${N}/${N}(?:/${N})? (ms|us|µs)(?:,.*)?$`)
const UNIX_HOST = /^--- (.+) ping6? statistics ---$/

const WINDOWS_COUNTS = /^\s*Packets: Sent = ([0-9]{1,15}), Received = ([0-9]{1,15}), Lost = ([0-9]{1,15}) \(([0-9]{1,3})% loss\),\s*$/
const WINDOWS_RTT = /^\s*Minimum = ([0-9]{1,9})ms, Maximum = ([0-9]{1,9})ms, Average = ([0-9]{1,9})ms\s*$/
const WINDOWS_HOST = /^Ping statistics for (.+):\s*$/
const WINDOWS_ECHO_REPLY = /^Reply from .+: bytes=[0-9]+ time[=<][0-9]+ms TTL=[0-9]+\s*$/i
const WINDOWS_UNREACHABLE = /^Reply from .+: Destination (?:host|net) unreachable\.?\s*$/i

/** Loss ping computes from its counts may differ from the printed one by BusyBox's and Windows' truncation to whole %. */
const LOSS_TOLERANCE_PERCENT = 1

function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/)
}

/** A printed time in seconds, converted in decimal (`0.021` ms is exactly 0.000021 s, not 0.021 / 1000). */
function toSeconds(text: string, unit: string): number {
  return Number(`${text}e${unit === 'ms' ? -3 : -6}`)
}

function findAll(lines: readonly string[], pattern: RegExp): { m: RegExpExecArray; line: string }[] {
  const found: { m: RegExpExecArray; line: string }[] = []
  for (const line of lines) {
    const m = pattern.exec(line)
    if (m) found.push({ m, line })
  }
  return found
}

function unixSummary(lines: readonly string[], counts: { m: RegExpExecArray; line: string }): PingSummary | string {
  const summary: PingSummary = {
    transmitted: Number(counts.m[1]),
    received: Number(counts.m[2]),
    loss: NaN,
    rtt: {},
    line: counts.line,
    warnings: [],
    statisticsExits: OTHER_EXITS
  }
  const host = findAll(lines, UNIX_HOST)[0]
  if (host) summary.host = host.m[1]
  const parts = (counts.m[4] ?? '').split(', ').filter((p) => p !== '')
  for (const part of parts) {
    const extra = UNIX_EXTRA.exec(part)
    if (!extra) return `the statistics line has a part VirtBench does not know: "${part}"`
    if (extra[2] === 'duplicates') summary.duplicates = Number(extra[1])
    if (extra[2] === 'errors') summary.errors = Number(extra[1])
    if (extra[3] !== undefined) summary.loss = Number(extra[3])
    // BSD and macOS print "N packets received, 0.0% packet loss" (one decimal); BusyBox a whole %.
    if (extra[3] !== undefined && counts.m[3] !== undefined && /\.[0-9]$/.test(extra[3])) summary.statisticsExits = BSD_EXITS
  }
  if (Number.isNaN(summary.loss)) return 'the statistics line has no "% packet loss"'
  // iputils ("N received") always ends the line with ", time Nms"; BusyBox and BSD ("N packets received") do not.
  if (counts.m[3] === undefined && !parts.some((p) => p.startsWith('time '))) {
    return 'the statistics line ends before ", time …ms": is the output cut short?'
  }
  const rtts = findAll(lines, UNIX_RTT)
  if (rtts.length > 1) return `found ${rtts.length} round-trip summaries; VirtBench reads one ping run at a time`
  const rtt = rtts[0]
  if (rtt) {
    const unit = rtt.m[6]!
    const printed = { min: rtt.m[2], avg: rtt.m[3], max: rtt.m[4], mdev: rtt.m[5] }
    const zero: string[] = []
    for (const [name, text] of Object.entries(printed) as [keyof PingSummary['rtt'], string | undefined][]) {
      if (text === undefined) continue
      if (Number(text) > 0) summary.rtt[name] = toSeconds(text, unit)
      else zero.push(name)
    }
    if (zero.length > 0) {
      summary.warnings.push(`ping printed 0 for ${zero.join(', ')} (below its resolution of 1 µs); ${zero.length === 1 ? 'it is' : 'they are'} not recorded`)
    }
    const spread = rtt.m[1]
    if (spread !== undefined && spread !== 'mdev') {
      summary.warnings.push(`ping printed ${spread} (BSD or macOS ping); it is recorded as ping.rtt.mdev, which is the same statistic in iputils`)
    }
  } else if (summary.received > 0) {
    return 'replies came back but the round-trip summary (rtt min/avg/max…) is missing: is the output cut short?'
  }
  return summary
}

/** Windows ping.exe (English). Its 1 ms resolution shows a reply under 1 ms as 0 ms. */
function windowsSummary(lines: readonly string[], counts: { m: RegExpExecArray; line: string }): PingSummary | string {
  const summary: PingSummary = {
    transmitted: Number(counts.m[1]),
    received: Number(counts.m[2]),
    loss: Number(counts.m[4]),
    rtt: {},
    line: counts.line,
    warnings: [],
    statisticsExits: OTHER_EXITS
  }
  const host = findAll(lines, WINDOWS_HOST)[0]
  if (host) summary.host = host.m[1]
  if (summary.transmitted !== summary.received + Number(counts.m[3])) {
    return `Sent (${summary.transmitted}) is not Received (${summary.received}) + Lost (${counts.m[3]})`
  }
  const unreachable = findAll(lines, WINDOWS_UNREACHABLE).length
  if (unreachable > 0) {
    // ping.exe counts "Destination host unreachable" answers as received; only echo replies are.
    const replies = findAll(lines, WINDOWS_ECHO_REPLY).length
    summary.warnings.push(
      `Windows ping counted ${unreachable} "Destination host unreachable" answer${unreachable === 1 ? '' : 's'} as received (Received = ${summary.received}); VirtBench counts only the ${replies} real echo repl${replies === 1 ? 'y' : 'ies'}`
    )
    summary.received = replies
    summary.loss = summary.transmitted === 0 ? 0 : ((summary.transmitted - replies) / summary.transmitted) * 100
  }
  const rtts = findAll(lines, WINDOWS_RTT)
  if (rtts.length > 1) return `found ${rtts.length} round-trip summaries; VirtBench reads one ping run at a time`
  const rtt = rtts[0]
  if (rtt) {
    const [min, max, avg] = [rtt.m[1]!, rtt.m[2]!, rtt.m[3]!]
    const zero: string[] = []
    const keep = (name: 'min' | 'avg' | 'max', ms: string) => {
      if (Number(ms) > 0) summary.rtt[name] = toSeconds(ms, 'ms')
      else zero.push(name)
    }
    keep('min', min)
    keep('avg', avg)
    keep('max', max)
    if (zero.length > 0) {
      summary.warnings.push(
        `Windows ping prints whole milliseconds and showed 0 ms for ${zero.join(', ')} (replies under 1 ms); ${zero.length === 1 ? 'it is' : 'they are'} not recorded`
      )
    }
  } else if (summary.received > 0) {
    return 'replies came back but the round-trip times (Minimum = …, Maximum = …, Average = …) are missing: is the output cut short?'
  }
  return summary
}

function checkLoss(summary: PingSummary): string[] {
  if (summary.transmitted === 0) return []
  const computed = ((summary.transmitted - summary.received) / summary.transmitted) * 100
  if (Math.abs(computed - summary.loss) <= LOSS_TOLERANCE_PERCENT) return []
  return [`ping printed ${summary.loss}% loss, but ${summary.received} of ${summary.transmitted} replies is ${Number(computed.toFixed(4))}% loss`]
}

function samplesOf(summary: PingSummary): Sample[] {
  const samples = [
    metric('ping.transmitted', summary.transmitted),
    metric('ping.received', summary.received),
    metric('ping.loss', summary.loss)
  ]
  if (summary.errors !== undefined) samples.push(metric('ping.errors', summary.errors))
  if (summary.duplicates !== undefined) samples.push(metric('ping.duplicates', summary.duplicates))
  for (const name of ['min', 'avg', 'max', 'mdev'] as const) {
    const value = summary.rtt[name]
    if (value !== undefined) samples.push(metric(`ping.rtt.${name}`, value))
  }
  return samples
}

function resultWarnings(summary: PingSummary, out: StepOutput): string[] {
  const host = summary.host ?? 'the host'
  const warnings = [...summary.warnings, ...checkLoss(summary)]
  if (summary.transmitted > 0 && summary.received === 0) {
    warnings.push(`no replies from ${host}: 100 % packet loss, so there are no round-trip times`)
  }
  if (summary.errors) warnings.push(`ping counted ${summary.errors} ICMP error${summary.errors === 1 ? '' : 's'} (such as Destination Host Unreachable) from the way to ${host}`)
  if (summary.duplicates) warnings.push(`ping received ${summary.duplicates} duplicate repl${summary.duplicates === 1 ? 'y' : 'ies'}: is there a network loop or a misbehaving bridge?`)
  if (out.signal) warnings.push(`ping was stopped by signal ${out.signal}; the statistics cover the requests sent until then`)
  else if (out.exitCode !== null && !summary.statisticsExits.includes(out.exitCode)) warnings.push(`ping exited with code ${out.exitCode} after printing its statistics`)
  return warnings
}

function noStatistics(lines: readonly string[]): ParseResult {
  const said = lines.find((l) => l.trim() !== '')
  if (said === undefined) return parseFailure('the output is empty: ping printed nothing', '')
  return parseFailure(
    `ping printed no statistics (like "10 packets transmitted, 10 received, 0% packet loss" or, on Windows, "Packets: Sent = 4, Received = 4, Lost = 0 (0% loss)"); it said: ${said.trim()}`,
    said
  )
}

/**
 * Reads the statistics of iputils ping, BusyBox ping, FreeBSD or macOS ping and ping6, or Windows
 * ping.exe (English).
 * All loss, including 100 %, is a result; a run that sent nothing (unknown host, no route) is not.
 */
export function parse(out: StepOutput): ParseResult {
  const lines = [...splitLines(out.stdout), ...splitLines(out.stderr)]
  const unix = findAll(lines, UNIX_COUNTS)
  const windows = findAll(lines, WINDOWS_COUNTS)
  const all = [...unix, ...windows]
  if (all.length === 0) return noStatistics(lines)
  if (all.length > 1) return parseFailure(`found ${all.length} ping statistics blocks; VirtBench reads one ping run at a time`, all[1]!.line)
  const summary = unix[0] ? unixSummary(lines, unix[0]) : windowsSummary(lines, windows[0]!)
  if (typeof summary === 'string') return parseFailure(`ping's statistics cannot be read: ${summary}`, all[0]!.line)
  if (summary.transmitted === 0) return parseFailure('ping sent no requests (0 packets transmitted), so nothing was measured', summary.line)
  if (summary.received > summary.transmitted) {
    return parseFailure(`ping counts ${summary.received} replies for ${summary.transmitted} requests, which cannot be`, summary.line)
  }
  if (summary.loss < 0 || summary.loss > 100) return parseFailure(`ping printed a loss of ${summary.loss}%, outside 0-100 %`, summary.line)
  const { min, avg, max } = summary.rtt
  if ((min !== undefined && max !== undefined && min > max) || (avg !== undefined && ((min !== undefined && avg < min) || (max !== undefined && avg > max)))) {
    return parseFailure('the round-trip summary is not in order (min <= avg <= max), so the output is damaged', summary.line)
  }
  return parseSuccess(samplesOf(summary), resultWarnings(summary, out))
}
