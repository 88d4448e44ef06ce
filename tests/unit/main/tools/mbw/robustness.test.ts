import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mbwMetrics } from '../../../../../src/main/tools/mbw/metrics'
import { mbwParamsSchema, type MbwParams } from '../../../../../src/main/tools/mbw/params'
import { parse } from '../../../../../src/main/tools/mbw/parse'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'
import { fixtureOutput } from './fixtures'

const UNITS = new Map(mbwMetrics.map((m) => [m.name, m.unit]))

/** No exception; a failure with a reason, or finite, positive values in the metric table's units. */
function wellFormed(result: ParseResult): boolean {
  if (!result.ok) return result.error.reason.length > 0 && typeof result.error.excerpt === 'string'
  return result.samples.length > 0 && result.samples.every((s) => Number.isFinite(s.value) && s.value > 0 && UNITS.get(s.metric) === s.unit)
}

const check = (out: StepOutput) => wellFormed(parse(out))

describe('mbw parse robustness', () => {
  const cases: [string, MbwParams | undefined][] = [
    ['all-tests-64m-n3', undefined],
    ['all-tests-64m-n3', mbwParamsSchema.parse({ sizeMiB: 64, iterations: 3 })],
    ['all-tests-16m-n2-no-probe', undefined],
    ['memcpy-only-32m-quiet', mbwParamsSchema.parse({ sizeMiB: 32, iterations: 4, tests: ['memcpy'] })],
    ['mcblock-64k-blocks', mbwParamsSchema.parse({ sizeMiB: 32, iterations: 2, tests: ['mcblock'], blockSizeBytes: 65536 })]
  ]

  it.each(cases)('fails on every truncation of %s before its last AVG line is complete (params: %o)', (name, params) => {
    const full = fixtureOutput(name)
    const complete = full.stdout.trimEnd().length
    const expected = parse(full, params)
    expect(expected.ok).toBe(true)
    for (let end = 0; end <= full.stdout.length; end++) {
      const result = parse({ ...full, stdout: full.stdout.slice(0, end) }, params)
      expect(wellFormed(result), `${name} cut at ${end}`).toBe(true)
      if (end < complete) expect(result.ok, `${name} cut at ${end}`).toBe(false)
      else expect(result).toEqual(expected)
    }
  })

  it('never throws on arbitrary text, binary garbage or empty output', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (stdout) => check({ stdout, stderr: '', exitCode: 0 })), { numRuns: 300 })
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => check({ stdout: Buffer.from(bytes).toString('latin1'), stderr: '', exitCode: 0 })), { numRuns: 300 })
  })

  it('never gives a number that cannot be, for mbw-shaped lines with any numbers', () => {
    const num = fc.oneof(fc.constantFrom('0.00000', '0.00001', '1.0', 'inf', '-inf', 'nan', '-nan', '1e5', '99999999999999999.999', ''), fc.double().map(String), fc.nat().map((n) => `${n}.000`))
    const line = fc
      .tuple(fc.constantFrom('0', '1', 'AVG'), fc.constantFrom('MEMCPY', 'DUMB', 'MCBLOCK'), num, num, num)
      .map(([run, method, elapsed, mib, copy]) => `${run}\tMethod: ${method}\tElapsed: ${elapsed}\tMiB: ${mib}\tCopy: ${copy} MiB/s`)
    fc.assert(fc.property(fc.array(line, { maxLength: 6 }), (lines) => check({ stdout: lines.join('\n'), stderr: '', exitCode: 0 })), { numRuns: 500 })
  })

  it("refuses other tools' output with a reason", () => {
    for (const [tool, name] of [['dd', 'gnu-write-16m'], ['ping', 'iputils-3-loopback'], ['sysbench', 'memory-write-1k']] as const) {
      const dir = new URL(`../../../../fixtures/tools/${tool}/`, import.meta.url)
      const read = (ext: string) => readFileSync(new URL(`${name}.${ext}`, dir), 'utf8')
      expect(parse({ stdout: read('stdout'), stderr: read('stderr'), exitCode: 0 }).ok, `${tool}/${name}`).toBe(false)
    }
  })
})

describe('mbw lines that measured nothing', () => {
  it('refuses a copy of 0 MiB at 0 MiB/s (found by the property above, seed -509040598) instead of giving a bandwidth of 0', () => {
    const result = parse({ stdout: '0\tMethod: MEMCPY\tElapsed: 0.000\tMiB: 0.000\tCopy: 0.00000 MiB/s', stderr: '', exitCode: 0 })
    expect(result).toEqual({
      ok: false,
      error: { reason: 'MEMCPY run 0: a copy of 0 MiB is not something mbw measures, so the output is damaged', excerpt: '0\tMethod: MEMCPY\tElapsed: 0.000\tMiB: 0.000\tCopy: 0.00000 MiB/s' }
    })
  })
})
