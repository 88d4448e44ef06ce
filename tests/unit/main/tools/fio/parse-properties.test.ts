import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SampleSchema } from '../../../../../src/shared/model/sample'
import { parse } from '../../../../../src/main/tools/fio/parse'
import type { ParseResult } from '../../../../../src/main/tools/types'
import { SUCCESS_FIXTURES, fixture, fixtureOutput } from './fixtures'

function expectRefused(result: ParseResult): void {
  expect(result.ok).toBe(false)
  if (!result.ok) {
    expect(result.error.reason.length).toBeGreaterThan(10)
    expect(typeof result.error.excerpt).toBe('string')
  }
  expect('samples' in result).toBe(false)
}

const outputs = SUCCESS_FIXTURES.map((name) => ({ name, out: fixtureOutput(name) }))

describe('fio parse: properties', () => {
  it('refuses every output cut short inside the JSON report, without throwing', () => {
    fc.assert(
      fc.property(fc.constantFrom(...outputs), fc.double({ min: 0, max: 1, noNaN: true }), ({ out }, fraction) => {
        const end = out.stdout.lastIndexOf('}')
        const cut = Math.floor(fraction * end)
        expectRefused(parse({ ...out, stdout: out.stdout.slice(0, cut) }))
      }),
      { numRuns: 300 }
    )
  })

  it('refuses empty and blank output', () => {
    fc.assert(
      fc.property(fc.constantFrom('', ' ', '\n', '\r\n\t '), fc.constantFrom('', '\n'), fc.constantFrom(0, 1, null), (stdout, stderr, exitCode) => {
        expectRefused(parse({ stdout, stderr, exitCode }))
      })
    )
  })

  it('refuses binary garbage', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4000 }), fc.integer({ min: 0, max: 255 }), (bytes, exitCode) => {
        expectRefused(parse({ stdout: Buffer.from(bytes).toString('latin1'), stderr: '', exitCode }))
      }),
      { numRuns: 300 }
    )
  })

  it('refuses random text, even with braces and fio words in it', () => {
    const words = fc.constantFrom('{', '}', '\n{', '"jobs"', '"fio version"', ':', '[', ']', 'fio-3.33', 'read', 'iops', '"', ',', ' ', '\n')
    fc.assert(
      fc.property(fc.array(fc.oneof(words, fc.string()), { maxLength: 60 }), (parts) => {
        expectRefused(parse({ stdout: parts.join(''), stderr: '', exitCode: 0 }))
      }),
      { numRuns: 300 }
    )
  })

  it("refuses other tools' output and other JSON", () => {
    const others = [
      'PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.\n64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.045 ms\n',
      '1000+0 records in\n1000+0 records out\n512000 bytes (512 kB, 500 KiB) copied, 0.0413 s, 12.4 MB/s\n',
      '{\n  "start": {"version": "iperf 3.12"},\n  "intervals": [],\n  "end": {}\n}\n',
      'Version  2.00e       ------Sequential Output------ --Sequential Input- --Random-\n'
    ]
    for (const stdout of others) expectRefused(parse({ stdout, stderr: '', exitCode: 0 }))
    fc.assert(
      fc.property(fc.json(), (text) => {
        expectRefused(parse({ stdout: text, stderr: '', exitCode: 0 }))
      }),
      { numRuns: 300 }
    )
  })

  it('never throws and never gives a non-finite number when a field of a real report is replaced', () => {
    const { out, json } = fixture('randrw-64k-2jobs')
    const paths: string[][] = []
    const walk = (value: unknown, path: string[]) => {
      if (typeof value === 'object' && value !== null) {
        for (const [key, child] of Object.entries(value)) walk(child, [...path, key])
      } else paths.push(path)
    }
    walk(json, [])
    const replacement = fc.oneof(
      fc.jsonValue(),
      fc.constantFrom(-1, 0, 1e308, -1e308, 'NaN', null, [], {}, '12', true)
    )
    fc.assert(
      fc.property(fc.constantFrom(...paths), replacement, (path, value) => {
        const copy = structuredClone(json)
        let node = copy
        for (const key of path.slice(0, -1)) node = node[key]
        node[path[path.length - 1]!] = value
        const result = parse({ ...out, stdout: JSON.stringify(copy) })
        if (result.ok) {
          for (const s of result.samples) {
            expect(SampleSchema.safeParse(s).success).toBe(true)
            expect(s.value).toBeGreaterThanOrEqual(0)
          }
        } else {
          expect(result.error.reason).not.toMatch(/VirtBench could not read/)
        }
      }),
      { numRuns: 500 }
    )
  })
})
