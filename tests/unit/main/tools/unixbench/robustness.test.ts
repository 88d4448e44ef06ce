import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { unixbenchParamsSchema } from '../../../../../src/main/tools/unixbench/params'
import { parse } from '../../../../../src/main/tools/unixbench/parse'
import type { ParseResult } from '../../../../../src/main/tools/types'
import { fixture } from './fixture'

const FIXTURES = join(__dirname, '../../../../fixtures/tools')

function expectFailure(result: ParseResult): void {
  expect(result.ok).toBe(false)
  if (result.ok) return
  expect(result.error.reason.length).toBeGreaterThan(10)
  expect(Object.keys(result)).toEqual(['ok', 'error'])
}

const twoSections = fixture('c1-c2-i1-whetstone-shell1-hanoi').stdout
const twoSectionParams = unixbenchParamsSchema.parse({ copies: [1, 2], tests: ['whetstone-double', 'shell1', 'hanoi'], iterations: 1 })

describe('UnixBench parse robustness', () => {
  it('fails on any cut of the report short of its last number', () => {
    const end = twoSections.trimEnd().length
    fc.assert(
      fc.property(fc.integer({ min: 0, max: end - 1 }), (cut) => expectFailure(parse({ stdout: twoSections.slice(0, cut), stderr: '', exitCode: 0 }, twoSectionParams))),
      { numRuns: 400 }
    )
    for (const name of ['c1-i1-dhry2reg', 'c1-i1-fsdisk']) {
      const text = fixture(name).stdout
      const last = text.trimEnd().length
      for (let cut = text.indexOf('Benchmark Run:'); cut < last; cut++) expectFailure(parse({ stdout: text.slice(0, cut), stderr: '', exitCode: 0 }))
    }
  })

  it('never throws on any text, and every sample is a finite number', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (stdout) => {
        const result = parse({ stdout, stderr: '', exitCode: 0 })
        if (result.ok) expect(result.samples.every((s) => Number.isFinite(s.value))).toBe(true)
      }),
      { numRuns: 500 }
    )
  })

  it('never throws when numbers of a real report are replaced by anything', () => {
    const numbers = [...twoSections.matchAll(/\d+\.\d/g)].map((m) => m.index)
    fc.assert(
      fc.property(fc.constantFrom(...numbers), fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('nan', 'inf', '-1.0', '9'.repeat(400) + '.0')), (at, value) => {
        const changed = twoSections.slice(0, at) + value + twoSections.slice(at).replace(/^\d+\.\d/, '')
        const result = parse({ stdout: changed, stderr: '', exitCode: 0 })
        if (result.ok) expect(result.samples.every((s) => Number.isFinite(s.value))).toBe(true)
      }),
      { numRuns: 400 }
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
    for (const file of ['bonnie/q-s64-n1.stdout', 'iozone/iozone-Raz-g64M.stdout']) {
      expectFailure(parse({ stdout: readFileSync(join(FIXTURES, file), 'utf8'), stderr: '', exitCode: 0 }))
    }
    expectFailure(parse({ stdout: '', stderr: '', exitCode: 0 }))
  })

  it('fails when Run was killed', () => {
    expectFailure(parse({ stdout: twoSections, stderr: '', exitCode: null, signal: 'SIGKILL' }))
  })
})
