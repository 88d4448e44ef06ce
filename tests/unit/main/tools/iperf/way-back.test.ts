import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from '../../../../../src/main/tools/iperf/parse'
import { plan, WAY_BACK_REPORTED } from '../../../../../src/main/tools/iperf/plan'
import { iperfParamsSchema } from '../../../../../src/main/tools/iperf/params'
import type { StepOutput } from '../../../../../src/main/tools/types'
import { fixtureOutput, fixtureParams, table, warningsOf } from './fixtures'

const DIR = new URL('../../../../fixtures/tools/iperf/', import.meta.url)

/** A captured client run with the output of the plan's server beside it (capture-way-back.sh). */
function withServer(name: string): StepOutput {
  const server = (ext: string) => readFileSync(new URL(`${name}.server.${ext}`, DIR), 'utf8')
  return { ...fixtureOutput(name), background: { stdout: server('stdout'), stderr: server('stderr') } }
}

/** "NN.N Gbits/sec" of the line of `id` in `text` that starts at 0, in bit/s. */
function printed(text: string, id: string): { bits: number; bytes: string } {
  const m = new RegExp(`^\\[\\s*${id.replace('*', '\\*')}\\] 0\\.0+-[\\d.]+ sec\\s+(\\S+ \\w+)\\s+([\\d.]+) Gbits/sec`, 'm').exec(text)!
  return { bits: Number(m[2]) * 1e9, bytes: m[1]! }
}

describe("iperf 2.1.8 -r whose way back only the server reports (study 000's machines each run iperf -s)", () => {
  it('text: the way back comes from the server\'s "(reverse)" connection, as its sender measured it', () => {
    const out = withServer('way-back-on-server-tcp')
    const result = parse(out, fixtureParams('way-back-on-server-tcp'))
    const back = printed(out.background!.stdout, '*2')
    const sent = printed(out.stdout, '1')
    expect(table(result)).toEqual({
      'iperf.bandwidth target->peer sender': sent.bits,
      'iperf.bytes target->peer sender': 1.08 * 2 ** 30,
      'iperf.bandwidth peer->target sender': back.bits,
      'iperf.bytes peer->target sender': 874 * 2 ** 20
    })
    expect(back).toEqual({ bits: 7.23e9, bytes: '874 MBytes' })
    expect(warningsOf(result)).toEqual([
      'the way back (peer->target) is the server\'s own report from its sending end: the target did not report it (iperf said "listener bind failed: Address already in use": does another iperf server hold port 5001 on the target?); give the test a listenPort that is free on the target to have it measured where it arrives'
    ])
  })

  it('-y C: the client\'s exact line out, the server\'s text line back', () => {
    const out = withServer('way-back-on-server-tcp-csv')
    const [row] = out.stdout.trim().split('\n').map((l) => l.split(','))
    expect(table(parse(out, fixtureParams('way-back-on-server-tcp-csv')))).toEqual({
      'iperf.bandwidth target->peer sender': Number(row![8]),
      'iperf.bytes target->peer sender': Number(row![7]),
      'iperf.bandwidth peer->target sender': 6.55e9,
      'iperf.bytes peer->target sender': 802 * 2 ** 20
    })
  })

  it('without the server\'s output (or before it was read) the way back is missing and said to be', () => {
    const out = fixtureOutput('way-back-on-server-tcp')
    const result = parse(out, fixtureParams('way-back-on-server-tcp'))
    expect(Object.keys(table(result))).toEqual(['iperf.bandwidth target->peer sender', 'iperf.bytes target->peer sender'])
    expect(warningsOf(result)[0]).toMatch(/^the way back \(peer->target\) has no report/)
  })

  it("uses the client's own report of the way back when it has one, and ignores the server's", () => {
    const out = withServer('way-back-on-server-udp')
    const result = parse(out, fixtureParams('way-back-on-server-udp', { protocol: 'udp' }))
    const t = table(result)
    expect(t['iperf.bandwidth peer->target receiver']).toBe(1.06e6)
    expect(t['iperf.packets.total peer->target receiver']).toBe(92)
    expect(t['iperf.bandwidth peer->target sender']).toBeUndefined()
    expect(warningsOf(result)).toEqual([])
  })

  it("reads a UDP client whose own connection line came before its header (2.1's threads print in either order)", () => {
    const out = fixtureOutput('way-back-on-server-udp')
    expect(out.stdout.indexOf('connected with 10.201.0.2 port 5001')).toBeLessThan(out.stdout.indexOf('Client connecting to'))
    expect(table(parse(out, fixtureParams('way-back-on-server-udp', { protocol: 'udp' })))).toMatchObject({
      'iperf.bandwidth target->peer sender': 1.07e6,
      'iperf.packets.total target->peer receiver': 93
    })
  })

  it('the server step of a two-way test has the engine wait for these words, and only for them', () => {
    const server = (protocol: 'tcp' | 'udp', direction: 'both' | 'target->peer' = 'both') =>
      plan(iperfParamsSchema.parse({ protocol, direction, seconds: 3 }), { target: { os: 'linux', workDir: '/w' }, peer: { os: 'linux', workDir: '/w', address: '10.0.0.2' } }).steps[0]!
    expect(server('tcp').finalReport).toEqual({ pattern: WAY_BACK_REPORTED.tcp, withinSeconds: 18 })
    expect(server('udp').finalReport?.pattern).toBe(WAY_BACK_REPORTED.udp)
    expect(server('tcp', 'target->peer').finalReport).toBeUndefined()
    for (const [name, protocol] of [['way-back-on-server-tcp', 'tcp'], ['way-back-on-server-udp', 'udp'], ['server-side-tcp-tradeoff', 'tcp']] as const) {
      const text = name === 'server-side-tcp-tradeoff' ? fixtureOutput(name).stdout : withServer(name).background!.stdout
      expect(WAY_BACK_REPORTED[protocol].test(text), name).toBe(true)
      // cut before the last report line ends: not yet
      expect(WAY_BACK_REPORTED[protocol].test(text.slice(0, text.trimEnd().lastIndexOf('\n') + 8)), name).toBe(false)
    }
  })
})

describe('-y C of -r whose way back used another port than the one given', () => {
  it('takes a line with neither port, beside the client\'s own line to the server port, as the way back', () => {
    const out = fixtureOutput('tcp-tradeoff-csv')
    const [port, listen] = readFileSync(new URL('tcp-tradeoff-csv.ports', DIR), 'utf8').trim().split(' ').map(Number)
    const rows = out.stdout.trim().split('\n').map((l) => l.split(','))
    expect(rows[1]![4]).toBe(String(listen))
    // read with the server port only, as a run by hand with its own -L would be
    expect(table(parse(out, iperfParamsSchema.parse({ port })))).toEqual({
      'iperf.bandwidth target->peer sender': Number(rows[0]![8]),
      'iperf.bytes target->peer sender': Number(rows[0]![7]),
      'iperf.bandwidth peer->target receiver': Number(rows[1]![8]),
      'iperf.bytes peer->target receiver': Number(rows[1]![7])
    })
  })

  it('still refuses lines of which none is towards the server port', () => {
    const result = parse(fixtureOutput('tcp-tradeoff-csv'), iperfParamsSchema.parse({ port: 5001 }))
    expect(result.ok).toBe(false)
  })
})
