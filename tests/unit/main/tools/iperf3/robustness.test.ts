import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { iperf3Metrics } from '../../../../../src/main/tools/iperf3/metrics'
import { parse } from '../../../../../src/main/tools/iperf3/parse'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'
import { fixtureJson, fixtureOutput } from './fixtures'

const UNITS = new Map(iperf3Metrics.map((m) => [m.name, m.unit]))
const FIXTURES = ['tcp', 'tcp-parallel2', 'tcp-reverse', 'tcp-bidir', 'tcp-bidir-parallel2', 'udp-10m', 'udp-10m-reverse', 'udp-10m-bidir', 'udp-10m-parallel2']

/** No exception; a failure with a reason, or finite values ≥ 0 in the metric table's units (loss ≤ 100 %). */
function wellFormed(result: ParseResult): boolean {
  if (!result.ok) return result.error.reason.length > 0 && typeof result.error.excerpt === 'string'
  return result.samples.every((s) => Number.isFinite(s.value) && s.value >= 0 && UNITS.get(s.metric) === s.unit && (s.metric !== 'iperf3.loss' || s.value <= 100))
}

const check = (out: StepOutput) => wellFormed(parse(out))

describe('iperf3 parse robustness', () => {
  it('fails on every truncation of the JSON, and reads the whole output as before', () => {
    for (const name of ['tcp-bidir', 'udp-10m']) {
      const full = fixtureOutput(name)
      const expected = parse(full)
      const end = full.stdout.lastIndexOf('}') + 1
      for (let cut = 0; cut <= full.stdout.length; cut++) {
        const result = parse({ ...full, stdout: full.stdout.slice(0, cut) })
        expect(wellFormed(result), `${name} cut at ${cut}`).toBe(true)
        if (cut < end) expect(result.ok, `${name} cut at ${cut}`).toBe(false)
        else expect(result).toEqual(expected)
      }
    }
  })

  it('never throws on arbitrary text, binary garbage or empty output', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.constantFrom(0, 1, null), (stdout, exitCode) => check({ stdout, stderr: '', exitCode })), { numRuns: 300 })
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => check({ stdout: Buffer.from(bytes).toString('latin1'), stderr: '', exitCode: 0 })), { numRuns: 300 })
    fc.assert(fc.property(fc.json(), (json) => check({ stdout: json, stderr: '', exitCode: 0 })), { numRuns: 300 })
    expect(parse({ stdout: '', stderr: '', exitCode: 0 }).ok).toBe(false)
  })

  it('never gives a number that cannot be, whatever value a field of a real output holds', () => {
    // Paths of every field parse() reads, in the fixtures' documents.
    const fields: [string, string[]][] = [
      ['tcp', ['end', 'sum_sent', 'bits_per_second']],
      ['tcp', ['end', 'sum_sent', 'bytes']],
      ['tcp', ['end', 'sum_sent', 'retransmits']],
      ['tcp', ['end', 'sum_received', 'bits_per_second']],
      ['tcp', ['end', 'cpu_utilization_percent', 'host_total']],
      ['tcp', ['start', 'test_start', 'reverse']],
      ['tcp', ['start', 'test_start', 'protocol']],
      ['tcp', ['end', 'sum_sent']],
      ['tcp', ['end']],
      ['tcp-bidir', ['end', 'sum_received_bidir_reverse', 'bytes']],
      ['tcp-bidir-parallel2', ['end', 'streams']],
      ['tcp-bidir-parallel2', ['end', 'streams', '2', 'sender', 'sender']],
      ['tcp-bidir-parallel2', ['end', 'streams', '3', 'receiver']],
      ['udp-10m', ['end', 'sum', 'jitter_ms']],
      ['udp-10m', ['end', 'sum', 'lost_percent']],
      ['udp-10m', ['end', 'sum', 'packets']],
      ['udp-10m-parallel2', ['end', 'streams', '1', 'udp', 'lost_packets']],
      ['udp-10m', ['error']]
    ]
    const anyValue = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-1, 0, 1, 1e308, -0, 100.5, '12', null, true, [], {}), fc.string(), fc.anything())
    fc.assert(
      fc.property(fc.constantFrom(...fields), anyValue, ([name, path], value) => {
        const json = fixtureJson(name)
        let at = json
        for (const key of path.slice(0, -1)) at = at[key]
        at[path[path.length - 1]!] = value
        return check({ stdout: JSON.stringify(json), stderr: '', exitCode: 0 })
      }),
      { numRuns: 600 }
    )
  })

  it('parses every fixture to finite, well-formed samples', () => {
    for (const name of FIXTURES) expect(wellFormed(parse(fixtureOutput(name))) && parse(fixtureOutput(name)).ok, name).toBe(true)
  })

  it("refuses other tools' output with a reason", () => {
    const fio = JSON.stringify({ 'fio version': 'fio-3.33', jobs: [{ jobname: 'x', read: { iops: 1 } }] })
    expect(parse({ stdout: fio, stderr: '', exitCode: 0 })).toMatchObject({ ok: false, error: { reason: 'this JSON is not an iperf3 result (no "start" and no "end")' } })
    const iperf2 = 'Client connecting to 10.1.4.122, TCP port 5001\n[  1] 0.0-10.0 sec  1.10 GBytes   941 Mbits/sec\n'
    expect(parse({ stdout: iperf2, stderr: '', exitCode: 0 })).toMatchObject({ ok: false, error: { reason: 'no iperf3 JSON document in the output (a complete { … } object from iperf3 -J)' } })
    const ping = '--- 10.1.4.122 ping statistics ---\n10 packets transmitted, 10 received, 0% packet loss, time 9001ms\n'
    expect(parse({ stdout: ping, stderr: '', exitCode: 0 }).ok).toBe(false)
  })
})
