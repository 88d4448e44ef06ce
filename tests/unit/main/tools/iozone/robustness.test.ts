import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parse } from '../../../../../src/main/tools/iozone/parse'
import type { ParseResult } from '../../../../../src/main/tools/types'
import { fixture } from './fixture'

const FIXTURES = join(__dirname, '../../../../fixtures/tools')

function expectFailure(result: ParseResult): void {
  expect(result.ok).toBe(false)
  if (result.ok) return
  expect(result.error.reason.length).toBeGreaterThan(10)
  expect(Object.keys(result)).toEqual(['ok', 'error'])
}

const study = fixture('iozone-Raz-g64M').stdout
const crossover = fixture('iozone-Ra-g32M').stdout

describe('iozone parse robustness', () => {
  it('fails on any cut of a run inside its report (short of the last value)', () => {
    for (const text of [study, crossover]) {
      const start = text.indexOf('Excel output is below:')
      const end = text.trimEnd().length
      fc.assert(
        fc.property(fc.integer({ min: 0, max: end - 1 }), (cut) => {
          // Cuts at a line end between rows or blocks are caught by the main table, except after the last block.
          expectFailure(parse({ stdout: text.slice(0, cut), stderr: '', exitCode: 0 }))
        }),
        { numRuns: 400, examples: [[start], [start + 30], [end - 1]] }
      )
    }
  })

  it('never throws on any text, and every sample is a positive finite number', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (stdout) => {
        const result = parse({ stdout, stderr: '', exitCode: 0 })
        if (result.ok) expect(result.samples.every((s) => Number.isFinite(s.value) && s.value > 0)).toBe(true)
      }),
      { numRuns: 500 }
    )
  })

  it('never throws when report cells are replaced by anything', () => {
    const lines = study.split('\n')
    const rowLines = lines.flatMap((l, i) => (/^"\d+"\s/.test(l) ? [i] : []))
    fc.assert(
      fc.property(fc.constantFrom(...rowLines), fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('9'.repeat(40), '-1', '1e9', '0', 'NaN')), (at, value) => {
        const changed = lines.map((l, i) => (i === at ? l.replace(/\s\d+\s/, ` ${value} `) : l)).join('\n')
        const result = parse({ stdout: changed, stderr: '', exitCode: 0 })
        if (result.ok) expect(result.samples.every((s) => Number.isFinite(s.value) && s.value > 0)).toBe(true)
      }),
      { numRuns: 300 }
    )
  })

  it('rejects binary garbage', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (bytes) => {
        expectFailure(parse({ stdout: Buffer.from(bytes).toString('latin1'), stderr: '', exitCode: 0 }))
      }),
      { numRuns: 300 }
    )
  })

  it('rejects the output of other tools and empty output', () => {
    for (const file of ['bonnie/q-s64-n1.stdout', 'bonnie/table-s32-direct.stdout', 'unixbench/c1-i1-dhry2reg.stdout']) {
      expectFailure(parse({ stdout: readFileSync(join(FIXTURES, file), 'utf8'), stderr: '', exitCode: 0 }))
    }
    expectFailure(parse({ stdout: '', stderr: '', exitCode: 0 }))
  })

  it('fails when iozone was killed', () => {
    expectFailure(parse({ stdout: study, stderr: '', exitCode: null, signal: 'SIGTERM' }))
  })
})
