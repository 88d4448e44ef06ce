import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ddMetrics } from '../../../../../src/main/tools/dd/metrics'
import { ddParamsSchema } from '../../../../../src/main/tools/dd/params'
import { parse } from '../../../../../src/main/tools/dd/parse'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'
import { fixtureOutput } from './fixtures'

const UNITS = new Map(ddMetrics.map((m) => [m.name, m.unit]))
const PARAMS = ddParamsSchema.parse({ blockSize: '8k', count: '8k', timer: 'bash', direct: false })

/** Whatever the input: no exception; a failure with a reason, or finite, positive values in the metric table's units. */
function wellFormed(result: ParseResult): boolean {
  if (!result.ok) return typeof result.error.reason === 'string' && result.error.reason.length > 0 && typeof result.error.excerpt === 'string'
  return result.samples.length > 0 && result.samples.every((s) => Number.isFinite(s.value) && s.value > 0 && UNITS.get(s.metric) === s.unit)
}

function check(out: StepOutput): boolean {
  return wellFormed(parse(out)) && wellFormed(parse(out, PARAMS))
}

const PLAIN_DD = ['gnu-write-16m', 'gnu-latency-512-direct', 'gnu-null-1g', 'gnu-one-byte', 'gnu-de-locale-latency', 'gnu-partial-progress', 'constructed-busybox-transfer-line']
const OTHER_TOOLS = [
  ['ping', 'iputils-3-loopback'],
  ['ping', 'constructed-windows-4-replies'],
  ['mbw', 'all-tests-64m-n3'],
  ['sysbench', 'cpu-1thread'],
  ['sysbench', 'fileio-rndrw']
] as const

describe('dd parse robustness', () => {
  it('fails on every truncation of a dd report that cuts its transfer line, and reads the rest as before', () => {
    for (const name of PLAIN_DD) {
      const full = fixtureOutput(name)
      const complete = full.stderr.trimEnd()
      const expected = parse(full)
      for (let end = 0; end < full.stderr.length; end++) {
        const result = parse({ ...full, stderr: full.stderr.slice(0, end) })
        if (end < complete.length) expect(result.ok, `${name} cut at ${end}`).toBe(false)
        else expect(result).toEqual(expected)
        expect(wellFormed(result)).toBe(true)
      }
    }
  })

  it('never throws on arbitrary text, binary garbage or empty output', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ maxLength: 200 }), (stderr, stdout) => check({ stdout, stderr, exitCode: 0 })), { numRuns: 300 })
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.constantFrom(0, 1, null), (bytes, exitCode) =>
        check({ stdout: '', stderr: Buffer.from(bytes).toString('latin1'), exitCode })
      ),
      { numRuns: 300 }
    )
    expect(parse({ stdout: '', stderr: '', exitCode: 0 }).ok).toBe(false)
  })

  it('never gives a number that is not finite and positive, for dd-shaped lines with any numbers', () => {
    const num = fc.oneof(
      fc.constantFrom('0', '00', '1', '9999999999999999999999', '1e309', '0,0', '1.5', '1,5', 'nan', 'inf', '-1', ''),
      fc.double({ noNaN: false }).map(String),
      fc.nat().map(String)
    )
    const unit = fc.constantFrom('B', 'kB', 'KB', 'MB', 'MiB', 'GB', 'QB', 'XB', '')
    const report = fc.tuple(num, num, num, num, num, num, num, unit, fc.boolean()).map(
      ([inFull, inPart, outFull, outPart, bytes, secs, rate, u, busybox]) =>
        `${inFull}+${inPart} records in\n${outFull}+${outPart} records out\n${bytes} bytes (1 MB, 1 MiB) copied, ${secs} ${busybox ? 'seconds' : 's'}, ${rate}${busybox ? '' : ' '}${u}/s\n`
    )
    fc.assert(fc.property(report, (stderr) => check({ stdout: '', stderr, exitCode: 0 })), { numRuns: 500 })
  })

  it('never gives a number from time output with any numbers', () => {
    const num = fc.oneof(fc.constantFrom('0.000', '0', '1e3', '1,5', 'x', '99999999999999999999'), fc.double().map(String))
    const timed = fc.tuple(num, num, num, fc.nat().map(String)).map(
      ([real, user, sys, bytes]) => [`virtbench-file-bytes: ${bytes}`, `\nreal\t0m${real}s\nuser\t0m${user}s\nsys\t0m${sys}s\n`] as const
    )
    fc.assert(fc.property(timed, ([stdout, stderr]) => check({ stdout, stderr, exitCode: 0 })), { numRuns: 300 })
  })

  it("refuses other tools' output with a reason", () => {
    for (const [tool, name] of OTHER_TOOLS) {
      const dir = new URL(`../../../../fixtures/tools/${tool}/`, import.meta.url)
      const read = (ext: string) => readFileSync(new URL(`${name}.${ext}`, dir), 'utf8')
      const result = parse({ stdout: read('stdout'), stderr: read('stderr'), exitCode: 0 })
      expect(result.ok, `${tool}/${name}`).toBe(false)
      expect(wellFormed(result)).toBe(true)
    }
  })
})
