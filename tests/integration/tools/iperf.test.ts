/**
 * Runs the real iperf 2 (2.1.8 here) on 127.0.0.1 from the plans' own argv: the server in the
 * background (started by the test, waited for by its ready line, stopped by PID), then the measured
 * client for 1 s per direction. parse() is compared with the client's -y C lines split by commas in
 * the test, or with its text table read by a plain pattern.
 *
 * On one machine the way back of -r needs a listen port of its own (-L): the client cannot listen on
 * the port the server already holds.
 */
import type { ChildProcess } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from '../../harness/free-port'
import { runStep, startServerStep, stopServers } from '../../harness/tool-steps'
import { iperfParamsSchema, type IperfParams, type IperfParamsInput } from '../../../src/main/tools/iperf/params'
import { parse } from '../../../src/main/tools/iperf/parse'
import { plan } from '../../../src/main/tools/iperf/plan'
import type { RemoteStep, StepOutput } from '../../../src/main/tools/types'

const LOOPBACK = { os: 'linux' as const, workDir: '/tmp', address: '127.0.0.1' }

const servers: ChildProcess[] = []
afterEach(() => stopServers(servers))

/** Starts the plan's server step with the LC_ALL=C of its script. */
function startServer(step: RemoteStep): Promise<ChildProcess> {
  expect(step.script.startsWith('LC_ALL=C ')).toBe(true)
  return startServerStep(step, servers, { ...process.env, LC_ALL: 'C' })
}





async function runTest(input: IperfParamsInput): Promise<{ out: StepOutput; params: IperfParams }> {
  const params = iperfParamsSchema.parse({ seconds: 1, port: await freePort(), listenPort: await freePort(), serverBind: '127.0.0.1', ...input })
  const [server, client] = plan(params, { target: { os: 'linux', workDir: '/tmp' }, peer: LOOPBACK }).steps
  await startServer(server!)
  const out = await runStep(client!)
  expect(out.exitCode, out.stderr).toBe(0)
  return { out, params }
}

/** parse()'s samples as "metric direction measured_by [stream]" → value. */
function table(out: StepOutput, params: IperfParams): Record<string, number> {
  const result = parse(out, params)
  if (!result.ok) throw new Error(`iperf output did not parse: ${result.error.reason}`)
  return Object.fromEntries(result.samples.map((s) => [[s.metric, s.labels.direction, s.labels.measured_by, s.labels.stream].filter(Boolean).join(' '), s.value]))
}

/** The -y C lines, split: [time, src ip, src port, dst ip, dst port, id, interval, bytes, bits/s, …]. */
function csvRows(stdout: string): string[][] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => line.split(','))
}

describe('iperf 2 (real) through plan and parse', () => {
  it('TCP -r with -y C: the client line (to the server port) out, the listener line (to -L) back', async () => {
    const { out, params } = await runTest({})
    expect(out.stdout).not.toMatch(/Client connecting/)
    const rows = csvRows(out.stdout)
    expect(rows).toHaveLength(2)
    const sent = rows.find((f) => f[4] === String(params.port))!
    const back = rows.find((f) => f[4] === String(params.listenPort))!
    expect(table(out, params)).toEqual({
      'iperf.bandwidth target->peer sender': Number(sent[8]),
      'iperf.bytes target->peer sender': Number(sent[7]),
      'iperf.bandwidth peer->target receiver': Number(back[8]),
      'iperf.bytes peer->target receiver': Number(back[7])
    })
    expect(Number(sent[8])).toBeGreaterThan(0)
  })

  it('UDP -r in text (the default for UDP): the Server Report and the listener report, as printed', async () => {
    const { out, params } = await runTest({ protocol: 'udp', bitrate: 2_000_000 })
    const report = /Server Report:\n(?:\[ ID\].*\n)?\[\s*\d+\] [\d.]+-[\d.]+ sec\s+[\d.]+ \w+\s+([\d.]+) Mbits\/sec\s+([\d.]+) ms (\d+)\/\s*(\d+) \((\d+(?:\.\d+)?)%\)/.exec(out.stdout)
    expect(report, out.stdout).not.toBeNull()
    const lines = out.stdout.split('\n')
    const listener = lines.find((l) => l.includes(`local 127.0.0.1 port ${params.listenPort} connected`))
    expect(listener, out.stdout).toBeDefined()
    const id = /^\[\s*(\d+)\]/.exec(listener!)![1]
    const back = new RegExp(`^\\[\\s*${id}\\] [\\d.]+-[\\d.]+ sec\\s+[\\d.]+ \\w+\\s+([\\d.]+) Mbits/sec\\s+([\\d.]+) ms (\\d+)/\\s*(\\d+)`, 'm').exec(out.stdout)!
    const t = table(out, params)
    expect(t['iperf.bandwidth target->peer receiver']).toBeCloseTo(Number(report![1]) * 1e6, 3)
    expect(t['iperf.jitter target->peer receiver']).toBeCloseTo(Number(report![2]) / 1000, 12)
    expect(t['iperf.packets.lost target->peer receiver']).toBe(Number(report![3]))
    expect(t['iperf.packets.total target->peer receiver']).toBe(Number(report![4]))
    expect(t['iperf.loss target->peer receiver']).toBe(Number(report![5]))
    expect(t['iperf.bandwidth peer->target receiver']).toBeCloseTo(Number(back[1]) * 1e6, 3)
    expect(t['iperf.jitter peer->target receiver']).toBeCloseTo(Number(back[2]) / 1000, 12)
    expect(t['iperf.packets.total peer->target receiver']).toBe(Number(back[4]))
    expect(Number(report![4])).toBeGreaterThan(0)
  })

  it('UDP -r with -y C: the listener line with its datagram fields; the sender line has none', async () => {
    const { out, params } = await runTest({ protocol: 'udp', format: 'csv' })
    const rows = csvRows(out.stdout)
    const sent = rows.find((f) => f[4] === String(params.port))!
    const back = rows.find((f) => f[4] === String(params.listenPort))!
    expect(sent[11]).toBe('-1')
    const t = table(out, params)
    expect(t).toEqual({
      'iperf.bandwidth target->peer sender': Number(sent[8]),
      'iperf.bytes target->peer sender': Number(sent[7]),
      'iperf.bandwidth peer->target receiver': Number(back[8]),
      'iperf.bytes peer->target receiver': Number(back[7]),
      'iperf.jitter peer->target receiver': t['iperf.jitter peer->target receiver'],
      'iperf.packets.lost peer->target receiver': Number(back[10]),
      'iperf.packets.total peer->target receiver': Number(back[11]),
      'iperf.loss peer->target receiver': Number(back[12]),
      'iperf.packets.out_of_order peer->target receiver': Number(back[13])
    })
    expect(t['iperf.jitter peer->target receiver']).toBeCloseTo(Number(back[9]) / 1000, 12)
  })

  it('TCP -P 2, one way, with -y C: each stream, and the total added up', async () => {
    const { out, params } = await runTest({ direction: 'target->peer', parallel: 2 })
    const rows = csvRows(out.stdout)
    expect(rows).toHaveLength(2)
    const t = table(out, params)
    expect(t['iperf.bandwidth target->peer sender']).toBe(Number(rows[0]![8]) + Number(rows[1]![8]))
    expect(t['iperf.bytes target->peer sender']).toBe(Number(rows[0]![7]) + Number(rows[1]![7]))
    expect(t['iperf.bandwidth target->peer sender 1']).toBe(Number(rows[0]![8]))
    expect(t['iperf.bandwidth target->peer sender 2']).toBe(Number(rows[1]![8]))
  })

  it('TCP -R with -y C: the peer sends, the target measures', async () => {
    const { out, params } = await runTest({ direction: 'peer->target' })
    const [row] = csvRows(out.stdout)
    expect(row![2]).toBe(String(params.port))
    expect(table(out, params)).toEqual({ 'iperf.bandwidth peer->target receiver': Number(row![8]), 'iperf.bytes peer->target receiver': Number(row![7]) })
  })

  it('no server: a failure that quotes iperf', async () => {
    const params = iperfParamsSchema.parse({ seconds: 1, port: await freePort(), direction: 'target->peer' })
    const out = await runStep(plan(params, { target: { os: 'linux', workDir: '/tmp' }, peer: LOOPBACK }).steps[1]!)
    expect(parse(out, params)).toMatchObject({ ok: false, error: { reason: 'iperf failed: tcp connect failed: Connection refused' } })
  })
})
