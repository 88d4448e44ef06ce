import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bonnieParamsSchema } from '../../../../../src/main/tools/bonnie/params'
import { parse } from '../../../../../src/main/tools/bonnie/parse'
import type { ParseResult } from '../../../../../src/main/tools/types'
import { fixture } from './fixture'

const FIXTURES = join(__dirname, '../../../../fixtures/tools')

/** A failure must say why and quote something, and carry no numbers. */
function expectFailure(result: ParseResult): void {
  expect(result.ok).toBe(false)
  if (result.ok) return
  expect(result.error.reason.length).toBeGreaterThan(10)
  expect(Object.keys(result)).toEqual(['ok', 'error'])
}

const single = fixture('q-s64-n1').stdout
const old = fixture('bonnie197-s2048-n32-q').stdout
const three = fixture('q-x3-s32-direct').stdout

describe('bonnie++ parse robustness', () => {
  it('fails with a reason on every cut of a one-run output short of its whole line', () => {
    for (const text of [single, old]) {
      const line = text.trimEnd()
      for (let cut = 0; cut < line.length; cut++) expectFailure(parse({ stdout: text.slice(0, cut), stderr: '', exitCode: 0 }))
    }
  })

  it('fails on every cut of a -x 3 output short of the third line when the params say -x 3', () => {
    const params = bonnieParamsSchema.parse({ repetitions: 3, skipPerChar: true })
    const end = three.trimEnd().length
    fc.assert(
      fc.property(fc.integer({ min: 0, max: end - 1 }), (cut) => expectFailure(parse({ stdout: three.slice(0, cut), stderr: '', exitCode: 0 }, params))),
      { numRuns: 300 }
    )
  })

  it('never throws on any text, and every sample it gives is a finite number', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.string({ maxLength: 100 }), (stdout, stderr) => {
        const result = parse({ stdout, stderr, exitCode: 0 })
        if (result.ok) expect(result.samples.every((s) => Number.isFinite(s.value))).toBe(true)
        else expect(result.error.reason).not.toBe('')
      }),
      { numRuns: 500 }
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

  it('never throws when fields of a real line are replaced by anything', () => {
    const fields = single.trim().split(',')
    fc.assert(
      fc.property(fc.integer({ min: 2, max: fields.length - 1 }), fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('9'.repeat(400), 'NaN', '-1', '1e9', 'Infinity', '+++++')), (i, value) => {
        const changed = fields.map((f, j) => (j === i ? value : f)).join(',')
        const result = parse({ stdout: changed, stderr: '', exitCode: 0 })
        if (result.ok) expect(result.samples.every((s) => Number.isFinite(s.value) && s.value >= 0)).toBe(true)
      }),
      { numRuns: 500 }
    )
  })

  it('rejects the output of other tools', () => {
    const others = [
      join(FIXTURES, 'iozone/iozone-Raz-g64M.stdout'),
      join(FIXTURES, 'unixbench/c1-i1-fsdisk.stdout'),
      join(FIXTURES, 'bonnie/refused-small-file.stderr')
    ]
    for (const file of others) expectFailure(parse({ stdout: readFileSync(file, 'utf8'), stderr: '', exitCode: 0 }))
    expectFailure(parse({ stdout: '', stderr: '', exitCode: 0 }))
    expectFailure(parse({ stdout: '{"fio version": "fio-3.33"}', stderr: '', exitCode: 0 }))
  })

  it('fails when bonnie++ was killed', () => {
    expectFailure(parse({ stdout: single, stderr: '', exitCode: null, signal: 'SIGKILL' }))
  })
})
