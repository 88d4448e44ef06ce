/**
 * Runs the real iperf3 (3.12 here) on 127.0.0.1 from the plans' own argv: the one-off server in the
 * background (started by the test, waited for by its ready line, stopped by PID if still there), then
 * the measured client for 1 s. parse() is compared with the client's JSON read by plain lookups.
 */
import type { ChildProcess } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from '../../harness/free-port'
import { runStep, startServerStep, stopServers } from '../../harness/tool-steps'
import { iperf3ParamsSchema, type Iperf3ParamsInput } from '../../../src/main/tools/iperf3/params'
import { parse } from '../../../src/main/tools/iperf3/parse'
import { plan } from '../../../src/main/tools/iperf3/plan'
import type { Plan, StepOutput } from '../../../src/main/tools/types'

const LOOPBACK = { os: 'linux' as const, workDir: '/tmp', address: '127.0.0.1' }

const servers: ChildProcess[] = []
afterEach(() => stopServers(servers))





async function planOnLoopback(input: Iperf3ParamsInput): Promise<{ plan: Plan; params: ReturnType<typeof iperf3ParamsSchema.parse> }> {
  const params = iperf3ParamsSchema.parse({ seconds: 1, port: await freePort(), serverBind: '127.0.0.1', ...input })
  return { plan: plan(params, { target: { os: 'linux', workDir: '/tmp' }, peer: LOOPBACK }), params }
}

/** Server, then client; the client's output and its JSON. */
async function runTest(input: Iperf3ParamsInput, viaShell = false) {
  const { plan: p, params } = await planOnLoopback(input)
  const [server, client] = p.steps
  expect(server).toMatchObject({ on: 'peer', background: true })
  expect(client).toMatchObject({ on: 'target', measured: true })
  await startServerStep(server!, servers)
  const out = await runStep(client!, viaShell ? 'shell' : 'argv')
  expect(out.exitCode, out.stderr).toBe(0)
  return { out, params, json: JSON.parse(out.stdout) }
}

function valueOf(out: StepOutput, params: ReturnType<typeof iperf3ParamsSchema.parse>, metric: string, labels: Record<string, string>): number | undefined {
  const result = parse(out, params)
  if (!result.ok) throw new Error(`iperf3 output did not parse: ${result.error.reason}`)
  const found = result.samples.filter((s) => s.metric === metric && JSON.stringify(s.labels) === JSON.stringify(labels))
  expect(found.length).toBeLessThanOrEqual(1)
  return found[0]?.value
}

const UP = { direction: 'target->peer' }
const DOWN = { direction: 'peer->target' }

describe('iperf3 (real) through plan and parse', () => {
  it('TCP, target to peer, the client run through its sh script: sent, received, retransmits, CPU', async () => {
    const { out, params, json } = await runTest({}, true)
    expect(json.start.version).toMatch(/^iperf 3\./)
    expect(json.start.test_start).toMatchObject({ protocol: 'TCP', duration: 1, reverse: 0 })
    const v = (metric: string, labels: Record<string, string>) => valueOf(out, params, metric, labels)
    expect(v('iperf3.sent.bandwidth', UP)).toBe(json.end.sum_sent.bits_per_second)
    expect(v('iperf3.sent.bytes', UP)).toBe(json.end.sum_sent.bytes)
    expect(v('iperf3.retransmits', UP)).toBe(json.end.sum_sent.retransmits)
    expect(v('iperf3.received.bandwidth', UP)).toBe(json.end.sum_received.bits_per_second)
    expect(v('iperf3.received.bytes', UP)).toBe(json.end.sum_received.bytes)
    expect(v('iperf3.cpu', { machine: 'target' })).toBe(json.end.cpu_utilization_percent.host_total)
    expect(v('iperf3.cpu', { machine: 'peer' })).toBe(json.end.cpu_utilization_percent.remote_total)
    expect(json.end.sum_received.bits_per_second).toBeGreaterThan(0)
  })

  it('TCP -R -P 2: the peer sends, totals and both streams', async () => {
    const { out, params, json } = await runTest({ direction: 'peer->target', parallel: 2 })
    expect(json.start.test_start).toMatchObject({ reverse: 1, num_streams: 2 })
    const v = (metric: string, labels: Record<string, string>) => valueOf(out, params, metric, labels)
    expect(v('iperf3.sent.bandwidth', DOWN)).toBe(json.end.sum_sent.bits_per_second)
    expect(v('iperf3.received.bandwidth', DOWN)).toBe(json.end.sum_received.bits_per_second)
    expect(v('iperf3.sent.bandwidth', UP)).toBeUndefined()
    json.end.streams.forEach((stream: { sender: { bits_per_second: number }; receiver: { bits_per_second: number } }, i: number) => {
      expect(v('iperf3.sent.bandwidth', { ...DOWN, stream: String(i + 1) })).toBe(stream.sender.bits_per_second)
      expect(v('iperf3.received.bandwidth', { ...DOWN, stream: String(i + 1) })).toBe(stream.receiver.bits_per_second)
    })
  })

  it('TCP --bidir: both directions, each from its own sums', async () => {
    const { out, params, json } = await runTest({ direction: 'both' })
    const v = (metric: string, labels: Record<string, string>) => valueOf(out, params, metric, labels)
    expect(v('iperf3.sent.bandwidth', UP)).toBe(json.end.sum_sent.bits_per_second)
    expect(v('iperf3.received.bandwidth', UP)).toBe(json.end.sum_received.bits_per_second)
    expect(v('iperf3.sent.bandwidth', DOWN)).toBe(json.end.sum_sent_bidir_reverse.bits_per_second)
    expect(v('iperf3.received.bandwidth', DOWN)).toBe(json.end.sum_received_bidir_reverse.bits_per_second)
    expect(v('iperf3.retransmits', DOWN)).toBe(json.end.sum_sent_bidir_reverse.retransmits)
  })

  it('UDP at 10 Mbit/s: bandwidth, jitter in seconds, loss and datagrams from end.sum', async () => {
    const { out, params, json } = await runTest({ protocol: 'udp', bitrate: 10_000_000 })
    expect(json.start.test_start).toMatchObject({ protocol: 'UDP', target_bitrate: 10_000_000 })
    const v = (metric: string) => valueOf(out, params, metric, UP)
    expect(v('iperf3.bandwidth')).toBe(json.end.sum.bits_per_second)
    expect(v('iperf3.jitter')).toBe(json.end.sum.jitter_ms / 1000)
    expect(v('iperf3.loss')).toBe(json.end.sum.lost_percent)
    expect(v('iperf3.packets.lost')).toBe(json.end.sum.lost_packets)
    expect(v('iperf3.packets.total')).toBe(json.end.sum.packets)
    expect(v('iperf3.received.bandwidth')).toBe(json.end.sum_received.bits_per_second)
    expect(json.end.sum.packets).toBeGreaterThan(0)
  })

  it('a refused connection is a failure with iperf3\'s own message', async () => {
    const { plan: p, params } = await planOnLoopback({})
    const out = await runStep(p.steps[1]!, 'argv')
    const result = parse(out, params)
    expect(result).toMatchObject({ ok: false, error: { reason: 'iperf3 reported an error: unable to connect to server: Connection refused' } })
  })
})
