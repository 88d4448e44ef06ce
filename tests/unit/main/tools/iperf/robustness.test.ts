import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { iperfMetrics } from '../../../../../src/main/tools/iperf/metrics'
import { parse } from '../../../../../src/main/tools/iperf/parse'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'
import { fixtureOutput, fixtureParams } from './fixtures'

const UNITS = new Map(iperfMetrics.map((m) => [m.name, m.unit]))

/** No exception; a failure with a reason, or finite values ≥ 0 in the metric table's units (loss ≤ 100 %). */
function wellFormed(result: ParseResult): boolean {
  if (!result.ok) return result.error.reason.length > 0 && typeof result.error.excerpt === 'string'
  return result.samples.every((s) => Number.isFinite(s.value) && s.value >= 0 && UNITS.get(s.metric) === s.unit && (s.metric !== 'iperf.loss' || s.value <= 100))
}

const key = (s: { metric: string; labels: Record<string, string> }) => `${s.metric} ${JSON.stringify(s.labels)}`

describe('iperf parse robustness', () => {
  it('never gives a number the whole output does not have, wherever the output is cut', () => {
    const runs: [string, ReturnType<typeof fixtureParams> | undefined][] = [
      ['study000-tcp-itb4-to-kvm2', undefined],
      ['study000-udp-itb4-to-kvm2', undefined],
      ['udp-parallel2', fixtureParams('udp-parallel2', { protocol: 'udp', direction: 'target->peer', parallel: 2 })],
      ['tcp-tradeoff-csv', fixtureParams('tcp-tradeoff-csv')],
      ['udp-tradeoff-csv', fixtureParams('udp-tradeoff-csv', { protocol: 'udp', format: 'csv' })]
    ]
    for (const [name, params] of runs) {
      const full = fixtureOutput(name)
      const expected = parse(full, params)
      expect(expected.ok, name).toBe(true)
      const whole = new Map(expected.ok ? expected.samples.map((s) => [key(s), s.value]) : [])
      for (let cut = 0; cut <= full.stdout.length; cut++) {
        const result = parse({ ...full, stdout: full.stdout.slice(0, cut) }, params)
        expect(wellFormed(result), `${name} cut at ${cut}`).toBe(true)
        // A cut output may lose samples (a direction, a Server Report) or sums, but every figure it
        // gives for one connection is the whole output's figure.
        if (result.ok) {
          for (const s of result.samples.filter((s) => s.labels.stream !== undefined || !name.includes('parallel'))) {
            if (whole.has(key(s))) expect(s.value, `${name} cut at ${cut}: ${key(s)}`).toBe(whole.get(key(s)))
            else expect(s.metric, `${name} cut at ${cut}: ${key(s)} is not in the whole output`).toMatch(/^iperf\.(loss|packets)/)
          }
        }
      }
      expect(parse({ ...full, stdout: full.stdout }, params)).toEqual(expected)
    }
  })

  it('never throws on arbitrary text, binary garbage or empty output', () => {
    const check = (out: StepOutput) => wellFormed(parse(out))
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.constantFrom(0, 1, null), (stdout, exitCode) => check({ stdout, stderr: '', exitCode })), { numRuns: 300 })
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => check({ stdout: Buffer.from(bytes).toString('latin1'), stderr: '', exitCode: 0 })), { numRuns: 300 })
    expect(parse({ stdout: '', stderr: '', exitCode: 0 }).ok).toBe(false)
  })

  it('never gives a number that cannot be, for iperf-shaped lines with any numbers in them', () => {
    const num = fc.oneof(fc.constantFrom('0', '1', '00', '1e3', '99999999999999999999', '9'.repeat(400), `${'9'.repeat(15)}.${'9'.repeat(12)}`, '0.5', '.5', '5.', 'nan', '-1', '-0.000', ''), fc.nat().map(String), fc.double().map(String))
    const unit = fc.constantFrom('Bytes', 'KBytes', 'MBytes', 'GBytes', 'TBytes', 'bits/sec', 'Kbits/sec', 'Mbits/sec', 'Gbits/sec', 'KBytes/sec', 'Xbits/sec')
    const textOut = fc
      .tuple(num, num, num, unit, num, unit, num, num, num, num)
      .map(
        ([a, b, size, su, rate, ru, jitter, lost, total, loss]) =>
          `Client connecting to peer, UDP port 5001\n[  3] local 10.0.0.2 port 40000 connected with 10.0.0.1 port 5001\n[  3] Server Report:\n[  3] ${a}-${b} sec ${size} ${su} ${rate} ${ru} ${jitter} ms ${lost}/ ${total} (${loss}%)\n`
      )
    const csvOut = fc
      .tuple(num, num, num, num, num, num, num, num, num, fc.boolean())
      .map(
        ([start, end, bytes, bps, jitter, lost, total, loss, ooo, udp]) =>
          `20110209120000,10.0.0.2,40000,10.0.0.1,5001,3,${start}-${end},${bytes},${bps}${udp ? `,${jitter},${lost},${total},${loss},${ooo}` : ''}\n`
      )
    fc.assert(fc.property(fc.oneof(textOut, csvOut), (stdout) => wellFormed(parse({ stdout, stderr: '', exitCode: 0 }))), { numRuns: 1000 })
  })

  it("refuses other tools' output with a reason", () => {
    const iperf3 = fixtureOutput('tcp-tradeoff').stdout.replace(/Client connecting to/g, 'Connecting to host')
    expect(parse({ stdout: iperf3, stderr: '', exitCode: 0 }).ok).toBe(false)
    const json = '{\n\t"start":\t{\n\t\t"connected":\t[]\n\t},\n\t"end":\t{}\n}\n'
    expect(parse({ stdout: json, stderr: '', exitCode: 0 })).toMatchObject({ ok: false, error: { reason: 'this is iperf3 output; the iperf tool reads iperf 2 (use the iperf3 tool for it)' } })
    const ping = '--- 10.1.4.122 ping statistics ---\n10 packets transmitted, 10 received, 0% packet loss, time 9001ms\n'
    expect(parse({ stdout: ping, stderr: '', exitCode: 0 })).toMatchObject({
      ok: false,
      error: { reason: 'this is not the output of an iperf 2 client: no "Client connecting to …" line and no -y C lines' }
    })
  })
})
