import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { stressNgMetrics } from '../../../../../src/main/tools/stress-ng/metrics'
import { parse } from '../../../../../src/main/tools/stress-ng/parse'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'
import { fixtureOutput, warningsOf } from './fixtures'

const UNITS = new Map(stressNgMetrics.map((m) => [m.name, m.unit]))

/** No exception; a failure with a reason, or finite values in the metric table's units. */
function wellFormed(result: ParseResult): boolean {
  if (!result.ok) return result.error.reason.length > 0 && typeof result.error.excerpt === 'string'
  return result.samples.length > 0 && result.samples.every((s) => Number.isFinite(s.value) && s.value >= 0 && UNITS.get(s.metric) === s.unit)
}

/**
 * Every cut of one stream from `from` on: a failure until `needed` characters are there, then a
 * failure or exactly the figures of the whole output (a lost row of a stressor VirtBench does not
 * read only drops the warning about it).
 */
function checkCuts(name: string, stream: 'stdout' | 'stderr', from: number, needed: number): void {
  const full = fixtureOutput(name)
  const expected = parse(full)
  expect(expected.ok).toBe(true)
  for (let end = from; end <= full[stream].length; end++) {
    const result = parse({ ...full, [stream]: full[stream].slice(0, end) } satisfies StepOutput)
    const where = `${name} ${stream} cut at ${end}`
    expect(wellFormed(result), where).toBe(true)
    if (end < needed) expect(result.ok, where).toBe(false)
    else if (result.ok && expected.ok) expect(result.samples, where).toEqual(expected.samples)
  }
}

describe('stress-ng parse robustness', () => {
  it.each(['cpu-matrixprod-1worker', 'vm-all-keep-2workers', 'cpu-vm-matrix-together', 'public-0.09.25-yaml-cpu-vm'])(
    'fails on every cut of the YAML report of %s before its closing "...", whatever the log says',
    (name) => {
      const full = fixtureOutput(name)
      // until "---" is whole, stdout is no YAML report at all: the log's table is read instead, and said so
      const start = full.stdout.indexOf('---') + 3
      const logOnly = parse({ ...full, stdout: '' })
      for (let end = 0; end < start; end++) {
        const result = parse({ ...full, stdout: full.stdout.slice(0, end) })
        if (logOnly.ok) expect(result, `cut at ${end}`).toEqual(logOnly)
        else expect(result.ok, `cut at ${end}`).toBe(false)
      }
      if (full.stderr !== '') expect(warningsOf(logOnly)).toContain("stress-ng wrote no YAML report, so the figures are its log's, rounded to two decimals")
      checkCuts(name, 'stdout', start, full.stdout.lastIndexOf('...') + 3)
    }
  )

  it.each(['log-only-cpu-brief', 'log-only-vm-full-metrics', 'public-0.13.12-vm-mmap-info-lines'])(
    'fails on every cut of the log of %s inside its metrics table',
    (name) => {
      const stderr = fixtureOutput(name).stderr
      // the end of the line of the table's last row stress-ng reads (vm's in the 0.13.12 output)
      const lastRow = [...stderr.matchAll(/^stress-ng: (?:info|metrc): +\[[0-9]+\] (?:cpu|vm) +[0-9]+ .*$/gm)].at(-1)!
      checkCuts(name, 'stderr', 0, lastRow.index + lastRow[0].length + 1)
    }
  )

  it('a log cut anywhere beside a whole YAML report gives the report’s figures or says the two disagree', () => {
    checkCuts('vm-write64-64m', 'stderr', 0, 0)
  })

  it('never throws on arbitrary text, and never turns it into figures out of nothing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.string({ maxLength: 400 }), fc.option(fc.integer({ min: 0, max: 255 })), (stdout, stderr, exitCode) => {
        const result = parse({ stdout, stderr, exitCode })
        return wellFormed(result)
      }),
      { numRuns: 500 }
    )
  })

  it('never throws on lines of real outputs shuffled and repeated', () => {
    const lines = ['cpu-matrixprod-1worker', 'vm-write64-64m', 'log-only-vm-full-metrics', 'public-0.13.12-vm-mmap-info-lines'].flatMap((n) => {
      const out = fixtureOutput(n)
      return [...out.stdout.split('\n'), ...out.stderr.split('\n')]
    })
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...lines), { maxLength: 40 }), fc.array(fc.constantFrom(...lines), { maxLength: 40 }), (out, err) =>
        wellFormed(parse({ stdout: out.join('\n'), stderr: err.join('\n'), exitCode: 0 }))
      ),
      { numRuns: 300 }
    )
  })
})
