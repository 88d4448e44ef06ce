import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pingMetrics } from '../../../../../src/main/tools/ping/metrics'
import { parse } from '../../../../../src/main/tools/ping/parse'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'
import { fixtureOutput } from './fixtures'

const UNITS = new Map(pingMetrics.map((m) => [m.name, m.unit]))

/** No exception; a failure with a reason, or finite values in the metric table's units (rtt > 0, loss within 0-100). */
function wellFormed(result: ParseResult): boolean {
  if (!result.ok) return result.error.reason.length > 0 && typeof result.error.excerpt === 'string'
  return result.samples.every(
    (s) =>
      Number.isFinite(s.value) &&
      s.value >= 0 &&
      UNITS.get(s.metric) === s.unit &&
      (s.metric !== 'ping.loss' || s.value <= 100) &&
      (!s.metric.startsWith('ping.rtt.') || s.value > 0)
  )
}

const check = (out: StepOutput) => wellFormed(parse(out))

describe('ping parse robustness', () => {
  it('fails on every truncation that cuts the statistics, and reads the rest as before', () => {
    const names = [
      'iputils-3-loopback',
      'iputils-partial-loss',
      'busybox-3-loopback',
      'iputils-100-loss',
      'constructed-windows-10-slow-link',
      'jc-freebsd12-ping6-ip',
      'jc-macos-10.14.6-ping6-ip-dup',
      'jc-macos-10.14.6-ping-ip-unreachable'
    ]
    for (const name of names) {
      const full = fixtureOutput(name)
      const complete = full.stdout.trimEnd().length
      const expected = parse(full)
      for (let end = 0; end <= full.stdout.length; end++) {
        const result = parse({ ...full, stdout: full.stdout.slice(0, end) })
        expect(wellFormed(result), `${name} cut at ${end}`).toBe(true)
        if (end < complete) expect(result.ok, `${name} cut at ${end}`).toBe(false)
        else expect(result).toEqual(expected)
      }
    }
  })

  it('never throws on arbitrary text, binary garbage or empty output', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.constantFrom(0, 1, 2, null), (stdout, exitCode) => check({ stdout, stderr: '', exitCode })), {
      numRuns: 300
    })
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => check({ stdout: Buffer.from(bytes).toString('latin1'), stderr: '', exitCode: 0 })), { numRuns: 300 })
    expect(parse({ stdout: '', stderr: '', exitCode: 0 }).ok).toBe(false)
  })

  it('never gives a number that cannot be, for ping-shaped statistics with any numbers', () => {
    const num = fc.oneof(fc.constantFrom('0', '1', '00', '1e3', '99999999999999999999', '0.5', '.5', '5.', 'nan', '-1', ''), fc.nat().map(String), fc.double().map(String))
    const unix = fc
      .tuple(num, num, num, num, num, num, num, fc.constantFrom('ms', 'us', 's'))
      .map(([tx, rx, loss, a, b, c, d, unit]) => `${tx} packets transmitted, ${rx} received, ${loss}% packet loss, time 1ms\nrtt min/avg/max/mdev = ${a}/${b}/${c}/${d} ${unit}\n`)
    const windows = fc
      .tuple(num, num, num, num, num, num, num)
      .map(([s, r, l, p, mn, mx, av]) => `    Packets: Sent = ${s}, Received = ${r}, Lost = ${l} (${p}% loss),\r\n    Minimum = ${mn}ms, Maximum = ${mx}ms, Average = ${av}ms\r\n`)
    fc.assert(fc.property(fc.oneof(unix, windows), (stdout) => check({ stdout, stderr: '', exitCode: 0 })), { numRuns: 600 })
  })

  it("refuses other tools' output with a reason", () => {
    const others = [
      ['dd', 'gnu-write-16m'],
      ['mbw', 'all-tests-64m-n3'],
      ['sysbench', 'cpu-1thread']
    ] as const
    for (const [tool, name] of others) {
      const dir = new URL(`../../../../fixtures/tools/${tool}/`, import.meta.url)
      const read = (ext: string) => readFileSync(new URL(`${name}.${ext}`, dir), 'utf8')
      const result = parse({ stdout: read('stdout'), stderr: read('stderr'), exitCode: 0 })
      expect(result.ok, `${tool}/${name}`).toBe(false)
    }
  })
})
