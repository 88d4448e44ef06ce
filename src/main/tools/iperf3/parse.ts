import type { Labels, Sample } from '../../../shared/model/sample'
import { findJsonObject } from '../common/json-text'
import { parseFailure, parseSuccess, sampler } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { iperf3Metrics } from './metrics'
import { flowFrom, otherMachine, senderOf, type Direction, type Machine } from './network-roles'
import type { Iperf3Params } from './params'

const metric = sampler(iperf3Metrics)

type Json = Record<string, unknown>

/** Something in the document that cannot be read; parse() turns it into a failure, it never escapes. */
class Unreadable extends Error {
  constructor(
    readonly reason: string,
    readonly near: string
  ) {
    super(reason)
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function quote(value: unknown): string {
  return JSON.stringify(value) ?? String(value)
}

function section(parent: Json, key: string, path: string): Json {
  const value = parent[key]
  if (!isObject(value)) throw new Unreadable(`iperf3's JSON has no ${path}.${key} object: the test did not finish, or the output is cut short`, quote(parent))
  return value
}

/** A number field checked against the range it can have; anything else is a failure naming the field. */
function numberField(obj: Json, key: string, path: string, range: { integer?: boolean; max?: number } = {}): number {
  const value = obj[key]
  const max = range.max ?? Number.MAX_SAFE_INTEGER
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > max || (range.integer === true && !Number.isInteger(value))) {
    const what = range.integer === true ? 'a whole number' : 'a number'
    throw new Unreadable(`${path}.${key} must be ${what} from 0 to ${max}, not ${quote(value)}`, quote(obj))
  }
  return value
}

/** iperf3's 0/1 (and, in some builds, true/false) flags. */
function flag(value: unknown): boolean | undefined {
  if (value === 1 || value === true) return true
  if (value === 0 || value === false) return false
  return undefined
}

type Protocol = 'TCP' | 'UDP'

function protocolOf(testStart: Json | undefined, end: Json): Protocol {
  const declared = testStart?.protocol
  if (declared === 'TCP' || declared === 'UDP') return declared
  if (typeof declared === 'string') throw new Unreadable(`VirtBench reads iperf3's TCP and UDP tests, not ${declared}`, quote(testStart))
  return isObject(end.sum) && 'jitter_ms' in end.sum ? 'UDP' : 'TCP'
}

/** Whose data the main sums describe: the client's, unless the test ran with -R (the server sends). */
function reversed(testStart: Json | undefined, client: Machine, params: Iperf3Params | undefined): boolean {
  const fromJson = flag(testStart?.reverse)
  if (fromJson !== undefined) return fromJson
  if (params !== undefined && params.direction !== 'both') return senderOf(params.direction) !== client
  if (params?.direction === 'both') return false
  throw new Unreadable('start.test_start.reverse is missing, so the direction of the data cannot be told', quote(testStart ?? null))
}

interface Flow {
  direction: Direction
  labels: Labels
}

function flowLabels(direction: Direction, stream?: number): Labels {
  return stream === undefined ? { direction } : { direction, stream: String(stream) }
}

/** TCP figures of one direction: the sender's and the receiver's sums (or one stream's). */
function tcpSamples(sent: Json, received: Json, path: { sent: string; received: string }, labels: Labels): Sample[] {
  const samples = [
    metric('iperf3.sent.bandwidth', numberField(sent, 'bits_per_second', path.sent), labels),
    metric('iperf3.sent.bytes', numberField(sent, 'bytes', path.sent, { integer: true }), labels)
  ]
  // Retransmits come from the sender's TCP_INFO; iperf3 leaves them out (or sends -1) where it has none.
  const retransmits = sent.retransmits
  if (typeof retransmits === 'number' && retransmits >= 0) samples.push(metric('iperf3.retransmits', numberField(sent, 'retransmits', path.sent, { integer: true }), labels))
  samples.push(
    metric('iperf3.received.bandwidth', numberField(received, 'bits_per_second', path.received), labels),
    metric('iperf3.received.bytes', numberField(received, 'bytes', path.received, { integer: true }), labels)
  )
  return samples
}

/** UDP figures of one direction (a sum or one stream): rate, and what the receiver saw of the datagrams. */
function udpSamples(sum: Json, path: string, labels: Labels, warnings: string[]): Sample[] {
  const samples = [metric('iperf3.bandwidth', numberField(sum, 'bits_per_second', path), labels)]
  const packets = numberField(sum, 'packets', path, { integer: true })
  const lost = numberField(sum, 'lost_packets', path, { integer: true })
  if (packets === 0) {
    warnings.push(`${path} counts no datagram (${labels.direction}${labels.stream ? `, stream ${labels.stream}` : ''}): jitter and loss were not measured`)
    return samples
  }
  samples.push(
    metric('iperf3.jitter', numberField(sum, 'jitter_ms', path) / 1000, labels),
    metric('iperf3.loss', numberField(sum, 'lost_percent', path, { max: 100 }), labels),
    metric('iperf3.packets.lost', lost, labels),
    metric('iperf3.packets.total', packets, labels)
  )
  return samples
}

/** What each direction's sums are called in `end`: the main pair, and the server's half of --bidir. */
const SUMS = {
  TCP: { main: ['sum_sent', 'sum_received'], bidir: ['sum_sent_bidir_reverse', 'sum_received_bidir_reverse'] },
  UDP: { main: ['sum', 'sum_received'], bidir: ['sum_bidir_reverse', 'sum_received_bidir_reverse'] }
} as const

function sumSamples(end: Json, protocol: Protocol, keys: readonly [string, string], flow: Flow, warnings: string[]): Sample[] {
  const [first, second] = keys
  if (protocol === 'TCP') {
    return tcpSamples(section(end, first, 'end'), section(end, second, 'end'), { sent: `end.${first}`, received: `end.${second}` }, flow.labels)
  }
  const samples = udpSamples(section(end, first, 'end'), `end.${first}`, flow.labels, warnings)
  // iperf3 3.10 and later add what the receiver counted; older ones have only end.sum.
  if (isObject(end[second])) samples.push(metric('iperf3.received.bandwidth', numberField(end[second], 'bits_per_second', `end.${second}`), flow.labels))
  return samples
}

/**
 * Per-stream samples, only for directions with more than one stream (otherwise they repeat the sums).
 * Each stream says whether the client sent it (`sender`, iperf3 3.7 and later); older outputs, without
 * --bidir, have all streams going the main way.
 */
function streamSamples(end: Json, protocol: Protocol, client: Machine, reverse: boolean, bidir: boolean, warnings: string[]): Sample[] {
  const streams = Array.isArray(end.streams) ? end.streams : []
  const byDirection = new Map<Direction, { stream: Json; index: number }[]>()
  for (const [index, stream] of streams.entries()) {
    const partName = protocol === 'TCP' ? 'sender' : 'udp'
    const part = isObject(stream) ? stream[partName] : undefined
    if (!isObject(stream) || !isObject(part)) throw new Unreadable(`end.streams[${index}] has no ${partName} figures`, quote(stream))
    const clientSends = flag(part.sender) ?? (bidir ? undefined : !reverse)
    if (clientSends === undefined) {
      warnings.push('the streams of this --bidir test do not say which way they went (iperf3 older than 3.7?): only the totals are reported')
      return []
    }
    const direction = flowFrom(clientSends ? client : otherMachine(client))
    byDirection.set(direction, [...(byDirection.get(direction) ?? []), { stream, index }])
  }
  const samples: Sample[] = []
  for (const [direction, list] of byDirection) {
    if (list.length < 2) continue
    list.forEach(({ stream, index }, i) => {
      const labels = flowLabels(direction, i + 1)
      const path = `end.streams[${index}]`
      if (protocol === 'TCP') {
        samples.push(...tcpSamples(section(stream, 'sender', path), section(stream, 'receiver', path), { sent: `${path}.sender`, received: `${path}.receiver` }, labels))
      } else {
        samples.push(...udpSamples(section(stream, 'udp', path), `${path}.udp`, labels, warnings))
      }
    })
  }
  return samples
}

function cpuSamples(end: Json, client: Machine): Sample[] {
  const cpu = end.cpu_utilization_percent
  if (!isObject(cpu)) return []
  const samples: Sample[] = []
  const path = 'end.cpu_utilization_percent'
  if (cpu.host_total !== undefined) samples.push(metric('iperf3.cpu', numberField(cpu, 'host_total', path), { machine: client }))
  if (cpu.remote_total !== undefined) samples.push(metric('iperf3.cpu', numberField(cpu, 'remote_total', path), { machine: otherMachine(client) }))
  return samples
}

function readDocument(doc: Json, params: Iperf3Params | undefined): ParseResult {
  const testStart = isObject(doc.start) && isObject(doc.start.test_start) ? doc.start.test_start : undefined
  if (!isObject(doc.end)) throw new Unreadable('iperf3\'s JSON has no "end" summary: the test did not finish', quote(doc).slice(-200))
  const end = doc.end
  const protocol = protocolOf(testStart, end)
  const client: Machine = params?.serverOn === 'target' ? 'peer' : 'target'
  const reverse = reversed(testStart, client, params)
  const mainFlow = flowFrom(reverse ? otherMachine(client) : client)
  const keys = SUMS[protocol]
  const bidir = keys.bidir[0] in end
  const warnings: string[] = []

  if (!(keys.main[0] in end)) {
    throw new Unreadable(`iperf3's JSON has no end.${keys.main[0]}: the ${protocol} test did not finish, or the output is cut short`, quote(end))
  }
  const samples = sumSamples(end, protocol, keys.main, { direction: mainFlow, labels: flowLabels(mainFlow) }, warnings)
  if (bidir) {
    const reverseFlow = flowFrom(otherMachine(senderOf(mainFlow)))
    samples.push(...sumSamples(end, protocol, keys.bidir, { direction: reverseFlow, labels: flowLabels(reverseFlow) }, warnings))
  }
  samples.push(...streamSamples(end, protocol, client, reverse, bidir, warnings), ...cpuSamples(end, client))

  if (params !== undefined && params.protocol.toUpperCase() !== protocol) {
    warnings.push(`the output is of a ${protocol} test, but the parameters ask for ${params.protocol.toUpperCase()}: the samples follow the output`)
  }
  return parseSuccess(samples, warnings)
}

/** No JSON document: say why, from what iperf3 printed instead. */
function withoutJson(out: StepOutput): ParseResult {
  const text = `${out.stdout}\n${out.stderr}`
  const error = /iperf3: (?:error|parameter error) - (.+)/.exec(text)
  if (error) return parseFailure(`iperf3 reported an error: ${error[1]!.trim()}`, text, error.index)
  if (/^Connecting to host .+, port [0-9]+/m.test(out.stdout)) {
    return parseFailure('this is iperf3 text output; VirtBench reads the JSON of iperf3 -J', out.stdout)
  }
  if (out.stdout.trim() === '') return parseFailure('iperf3 printed nothing on its standard output', out.stderr)
  return parseFailure('no iperf3 JSON document in the output (a complete { … } object from iperf3 -J)', out.stdout)
}

/**
 * Reads the JSON of `iperf3 -c … -J`, tolerating notes before or after it. An `error` in the JSON
 * (for example "unable to connect to server: Connection refused") is a failure with iperf3's own words,
 * even when a partial result is there. `params` only says which machine ran the client (serverOn);
 * the direction of the data comes from the JSON.
 */
export function parse(out: StepOutput, params?: Iperf3Params): ParseResult {
  const found = findJsonObject(out.stdout)
  if (found === null) return withoutJson(out)
  const doc = found.value
  if (!isObject(doc)) return parseFailure('iperf3 printed JSON that is not an object: is this the output of iperf3 -J?', out.stdout, found.start)
  if (typeof doc.error === 'string') return parseFailure(`iperf3 reported an error: ${doc.error}`, out.stdout, out.stdout.indexOf('"error"', found.start))
  if (out.signal) return parseFailure(`iperf3 was stopped by ${out.signal} before it finished`, out.stderr || out.stdout)
  if (out.exitCode !== null && out.exitCode !== 0) return parseFailure(`iperf3 exited with code ${out.exitCode}`, out.stderr || out.stdout)
  if (!isObject(doc.start) && !isObject(doc.end)) return parseFailure('this JSON is not an iperf3 result (no "start" and no "end")', out.stdout, found.start)
  try {
    return readDocument(doc, params)
  } catch (error) {
    if (error instanceof Unreadable) return parseFailure(error.reason, error.near)
    throw error
  }
}
