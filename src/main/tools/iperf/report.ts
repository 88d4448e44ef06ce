/**
 * What iperf 2 reported, whatever the format (text or -y C): one `Report` per report line, with the
 * way the data flowed and which end measured it; then the final line of each connection and the
 * samples, named from the target's point of view.
 */
import type { Labels, Sample } from '../../../shared/model/sample'
import { sampler } from '../common/result'
import { flowFrom, otherMachine, type Machine } from '../iperf3/network-roles'
import { iperfMetrics } from './metrics'

const metric = sampler(iperfMetrics)

/** `out`: from the client's machine to the server's; `in`: the other way (-r/-d's second half, or -R). */
export type Flow = 'out' | 'in'
export type Measurer = 'sender' | 'receiver'

/** A line of the output that cannot be trusted; parse() turns it into a failure quoting the output at `at`. */
export class OutputProblem extends Error {
  constructor(
    readonly reason: string,
    readonly at: number
  ) {
    super(reason)
  }
}

export interface DatagramFigures {
  jitterSeconds: number
  lost: number
  total: number
  /** As iperf printed it; absent when it printed none (no datagram counted). */
  lossPercent?: number
  outOfOrder?: number
}

export interface Report {
  /** Lines of one connection share a key; iperf's [SUM] lines have their own. */
  connection: string
  sum: boolean
  flow: Flow
  measuredBy: Measurer
  start: number
  end: number
  bytes: number
  bitsPerSecond: number
  /** UDP, from the receiving end: jitter, lost/total. */
  datagrams?: DatagramFigures
}

export interface Reading {
  protocol: 'TCP' | 'UDP'
  reports: Report[]
  warnings: string[]
}

/**
 * The final report of each connection and measuring end: the line that starts at 0 and ends last
 * (with -i, the interval lines come first); with two such lines, the later one.
 */
export function finalReports(reports: readonly Report[]): Report[] {
  const finals = new Map<string, Report>()
  for (const report of reports) {
    if (report.start !== 0) continue
    const key = `${report.connection}|${report.measuredBy}`
    const kept = finals.get(key)
    if (kept === undefined || report.end >= kept.end) finals.set(key, report)
  }
  return [...finals.values()]
}

function figureSamples(report: Pick<Report, 'bytes' | 'bitsPerSecond' | 'datagrams'>, labels: Labels): Sample[] {
  const samples = [metric('iperf.bandwidth', report.bitsPerSecond, labels), metric('iperf.bytes', report.bytes, labels)]
  const d = report.datagrams
  if (d === undefined) return samples
  if (d.total > 0) {
    samples.push(metric('iperf.jitter', d.jitterSeconds, labels))
    if (d.lossPercent !== undefined) samples.push(metric('iperf.loss', d.lossPercent, labels))
  }
  samples.push(metric('iperf.packets.lost', d.lost, labels), metric('iperf.packets.total', d.total, labels))
  if (d.outOfOrder !== undefined) samples.push(metric('iperf.packets.out_of_order', d.outOfOrder, labels))
  return samples
}

/** Several streams without iperf's own [SUM] for them: their figures added up (jitter cannot be, so it is left out). */
function addedUp(streams: readonly Report[], labels: Labels): Sample[] {
  const sum = (figure: (r: Report) => number) => streams.reduce((acc, r) => acc + figure(r), 0)
  const samples = [metric('iperf.bandwidth', sum((r) => r.bitsPerSecond), labels), metric('iperf.bytes', sum((r) => r.bytes), labels)]
  if (!streams.every((r) => r.datagrams !== undefined)) return samples
  const lost = sum((r) => r.datagrams?.lost ?? 0)
  const total = sum((r) => r.datagrams?.total ?? 0)
  if (total > 0) samples.push(metric('iperf.loss', (100 * lost) / total, labels))
  samples.push(metric('iperf.packets.lost', lost, labels), metric('iperf.packets.total', total, labels))
  if (streams.every((r) => r.datagrams?.outOfOrder !== undefined)) {
    samples.push(metric('iperf.packets.out_of_order', sum((r) => r.datagrams?.outOfOrder ?? 0), labels))
  }
  return samples
}

/**
 * Samples from the final reports. Per flow and measuring end: one connection gives the totals;
 * several (-P) give one sample each (`labels.stream`) and a total, which is iperf's [SUM] line when
 * the test went one way only (in a dual test iperf 2.1 sums both ways into one line) and otherwise
 * the streams added up.
 */
export function samplesOf(finals: readonly Report[], client: Machine): Sample[] {
  const dual = finals.some((r) => r.flow === 'in') && finals.some((r) => r.flow === 'out')
  const groups = new Map<string, Report[]>()
  for (const report of finals) {
    const key = `${report.flow}|${report.measuredBy}`
    groups.set(key, [...(groups.get(key) ?? []), report])
  }
  const samples: Sample[] = []
  for (const group of groups.values()) {
    const { flow, measuredBy } = group[0]!
    const labels: Labels = { direction: flowFrom(flow === 'out' ? client : otherMachine(client)), measured_by: measuredBy }
    const streams = group.filter((r) => !r.sum)
    const sums = group.filter((r) => r.sum)
    if (streams.length <= 1) {
      const only = streams[0] ?? (sums.length === 1 ? sums[0] : undefined)
      if (only !== undefined) samples.push(...figureSamples(only, labels))
      continue
    }
    samples.push(...(sums.length === 1 && !dual ? figureSamples(sums[0]!, labels) : addedUp(streams, labels)))
    streams.forEach((s, i) => samples.push(...figureSamples(s, { ...labels, stream: String(i + 1) })))
  }
  return samples
}
