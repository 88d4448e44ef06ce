import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sysbenchMetrics } from '../../../../../src/main/tools/sysbench/metrics'
import { metricDefFinder } from '../../../../../src/shared/model/metric-def'
import { parse } from '../../../../../src/main/tools/sysbench/parse'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'
import { fixtureOutput } from './fixtures'

const findDef = metricDefFinder(sysbenchMetrics)

/** The unit of the metric table entry of a sample (its name, or the `<percentile>` pattern it is an instance of). */
function unitOf(metric: string) {
  return findDef(metric)?.unit
}

/** No exception; a failure with a reason, or finite, positive values in the metric table's units. */
function wellFormed(result: ParseResult): boolean {
  if (!result.ok) return result.error.reason.length > 0 && typeof result.error.excerpt === 'string'
  return result.samples.length > 0 && result.samples.every((s) => Number.isFinite(s.value) && s.value > 0 && unitOf(s.metric) === s.unit)
}

const check = (out: StepOutput) => wellFormed(parse(out))

describe('sysbench parse robustness', () => {
  it.each(['cpu-1thread', 'memory-write-1k', 'memory-oper-none', 'fileio-rndrw', 'fileio-seqwr'])(
    'fails on every truncation of %s before its last line, and reads the rest as before',
    (name) => {
      const full = fixtureOutput(name)
      const complete = full.stdout.trimEnd().length
      const expected = parse(full)
      expect(expected.ok).toBe(true)
      for (let end = 0; end <= full.stdout.length; end++) {
        const result = parse({ ...full, stdout: full.stdout.slice(0, end) })
        expect(wellFormed(result), `${name} cut at ${end}`).toBe(true)
        if (end < complete) expect(result.ok, `${name} cut at ${end}`).toBe(false)
        else expect(result).toEqual(expected)
      }
    }
  )

  it('never throws on arbitrary text, binary garbage or empty output', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (stdout) => check({ stdout, stderr: '', exitCode: 0 })), { numRuns: 300 })
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => check({ stdout: Buffer.from(bytes).toString('latin1'), stderr: '', exitCode: 0 })), { numRuns: 300 })
  })

  it('never gives a number that cannot be, when the numbers of a real report are replaced by anything', () => {
    const templates = ['cpu-1thread', 'memory-read-1m-rnd', 'fileio-rndrw', 'fileio-seqrd'].map((n) => fixtureOutput(n).stdout)
    const num = fc.oneof(fc.constantFrom('0', '0.00', '-1', 'nan', 'inf', '1e400', '99999999999999999999.99', '', '1,5'), fc.double().map(String), fc.nat().map(String))
    const report = fc.tuple(fc.constantFrom(...templates), fc.infiniteStream(num)).map(([text, values]) => text.replace(/[0-9]+(?:\.[0-9]+)?/g, () => values.next().value))
    fc.assert(fc.property(report, (stdout) => check({ stdout, stderr: '', exitCode: 0 })), { numRuns: 400 })
  })

  it("refuses other tools' output with a reason", () => {
    for (const [tool, name] of [['dd', 'gnu-write-16m'], ['ping', 'iputils-3-loopback'], ['mbw', 'all-tests-64m-n3']] as const) {
      const dir = new URL(`../../../../fixtures/tools/${tool}/`, import.meta.url)
      const read = (ext: string) => readFileSync(new URL(`${name}.${ext}`, dir), 'utf8')
      expect(parse({ stdout: read('stdout'), stderr: read('stderr'), exitCode: 0 }).ok, `${tool}/${name}`).toBe(false)
    }
  })
})
