import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { withoutHistogramBins } from '../../../../../src/main/tools/fio/histogram-bins'
import { fixture } from './fixtures'

/** fio's histogram: an object of whole-number keys mapped to whole numbers. */
function isHistogram(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  return Object.entries(value).every(([key, count]) => /^\d+$/.test(key) && Number.isSafeInteger(count) && count >= 0)
}

/** The same JSON with every "bins" histogram removed, the slow and obvious way. */
function dropBins(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropBins)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, child]) => !(key === 'bins' && isHistogram(child)))
      .map(([key, child]) => [key, dropBins(child)])
  )
}

describe('withoutHistogramBins', () => {
  it("cuts every bins member out of fio's json+ report and nothing else", () => {
    const { out, json } = fixture('randrw-4k-json-plus')
    const cut = withoutHistogramBins(out.stdout)
    expect(cut).not.toContain('"bins"')
    expect(cut.length).toBeLessThan(out.stdout.length / 2)
    expect(JSON.parse(cut)).toEqual(dropBins(json))
  })

  it('leaves text without bins untouched (the same string)', () => {
    const { out } = fixture('randread-4k-libaio-qd16')
    expect(withoutHistogramBins(out.stdout)).toBe(out.stdout)
  })

  it('handles bins as the first, middle, last and only member', () => {
    expect(withoutHistogramBins('{"bins" : {"1" : 2}, "a" : 1}')).toBe('{ "a" : 1}')
    expect(withoutHistogramBins('{"a" : 1, "bins" : {"1" : 2, "3" : 4}, "b" : 2}')).toBe('{"a" : 1, "b" : 2}')
    expect(withoutHistogramBins('{"a" : 1,\n  "bins" : {\n    "1" : 2\n  }\n}')).toBe('{"a" : 1\n}')
    expect(withoutHistogramBins('{"bins":{}}')).toBe('{}')
  })

  it('leaves anything that is not exactly a bins histogram in place', () => {
    const kept = [
      '{"bins" : {"a" : {"1" : 2}}}',
      '{"bins" : {"x" : 2}}',
      '{"bins" : {"1" : "2"}}',
      '{"bins" : [1, 2]}',
      '{"bins" : 3}',
      '{"name" : "a\\"bins" , "x" : {"1" : 2}}',
      '{"name" : "\\"bins\\" : {\\"1\\" : 2}"}',
      '{"bins" : {"1" : 2'
    ]
    for (const text of kept) expect(withoutHistogramBins(text)).toBe(text)
  })

  it('agrees with removing bins after parsing, for any JSON', () => {
    const bins = fc.dictionary(fc.integer({ min: 0, max: 1e12 }).map(String), fc.integer({ min: 0, max: 1e9 }), { maxKeys: 5 })
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.dictionary(fc.oneof(fc.constant('bins'), fc.string({ maxLength: 6 })), tie('node'), { maxKeys: 4 }),
        fc.record({ bins, other: tie('node') })
      )
    })).node
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 1, 2), (v, indent) => {
        const text = JSON.stringify(v, null, indent)
        expect(JSON.parse(withoutHistogramBins(text))).toEqual(dropBins(JSON.parse(text)))
      }),
      { numRuns: 500 }
    )
  })
})
