import { describe, expect, it } from 'vitest'
import { compare } from '../../../../src/shared/compare/compare'
import type { CompareInput } from '../../../../src/shared/model/comparison'
import { mergeStepInputs } from '../../../../src/shared/sweep/expand'
import { NO_RESULTS, sweepGrid, sweepMatrices, sweepMatrixGrids, sweepTable } from '../../../../src/shared/sweep/sweep-table'

/** One step's input: the host and the guest under `label`, dd bandwidth in B/s per repetition. */
function step(label: string, host: number[], guest: number[]): CompareInput {
  const sample = (value: number) => [{ metric: 'dd.bandwidth', value, unit: 'B/s' as const, better: 'higher' as const, labels: {} }]
  return {
    baseline: 'phys',
    variants: [label],
    tests: [{ id: 'dd', title: 'dd write', aggregate: 'median' }],
    measurements: [
      ...host.map((v, i) => ({ side: 'phys', testId: 'dd', repetition: i + 1, samples: sample(v) })),
      ...guest.map((v, i) => ({ side: label, testId: 'dd', repetition: i + 1, samples: sample(v) }))
    ],
    factsOf: () => ({ category: 'storage', primary: true, source: 'tool', comparison: 'ratio', roles: [] })
  }
}

const MiB = 1024 * 1024

describe('sweep table', () => {
  const combos = [
    { label: 'cache=none, queues=1', values: { cache: 'none', queues: 1 }, comparison: compare(step('cache=none, queues=1', [100 * MiB, 101 * MiB, 99 * MiB], [50 * MiB, 51 * MiB, 49 * MiB])) },
    { label: 'cache=none, queues=2', values: { cache: 'none', queues: 2 }, comparison: compare(step('cache=none, queues=2', [100 * MiB], [80 * MiB])) },
    { label: 'cache=writeback, queues=1', values: { cache: 'writeback', queues: 1 } },
    { label: 'cache=writeback, queues=2', values: { cache: 'writeback', queues: 2 }, comparison: compare(step('cache=writeback, queues=2', [200 * MiB], [50 * MiB])) }
  ]

  it('one row per combination, the value, relative % and verdict of each primary figure (one repetition: can\'t tell); no result where a step did not measure', () => {
    const lines = sweepTable({ combos }).split('\n')
    expect(lines[0]).toMatch(/^scenario +dd write · dd\.bandwidth$/)
    expect(lines.slice(2, 6).map((l) => l.replace(/ {2,}/g, ' | '))).toEqual([
      'cache=none, queues=1 | 50.0 MiB/s 50 % (slower)',
      'cache=none, queues=2 | 80.0 MiB/s 80 % (can\'t tell)',
      'cache=writeback, queues=1 | no result',
      'cache=writeback, queues=2 | 50.0 MiB/s 25 % (can\'t tell)'
    ])
  })

  it('two factors: a matrix per figure, first factor down, second across', () => {
    const text = sweepMatrices({ combos }, ['cache', 'queues'])
    expect(text.split('\n').map((l) => l.replace(/ {2,}/g, ' | ').trim())).toEqual([
      'dd write · dd.bandwidth',
      '| queues=1 | queues=2',
      expect.stringMatching(/^─+/),
      'cache=none | 50.0 MiB/s 50 % (slower) | 80.0 MiB/s 80 % (can\'t tell)',
      'cache=writeback | no result | 50.0 MiB/s 25 % (can\'t tell)',
      ''
    ])
    expect(sweepMatrices({ combos }, ['cache'])).toBe('')
  })

  it('gives the same table as data for the results page: each cell its value with its unit and its relative %', () => {
    const grid = sweepGrid({ combos })
    expect(grid.columns.map((c) => c.title)).toEqual(['dd write · dd.bandwidth'])
    expect(grid.rows.map((r) => [r.label, r.cells[0]])).toEqual([
      ['cache=none, queues=1', { text: '50.0 MiB/s 50 % (slower)', value: '50.0 MiB/s', relativePct: 50, verdict: 'slower' }],
      ['cache=none, queues=2', { text: "80.0 MiB/s 80 % (can't tell)", value: '80.0 MiB/s', relativePct: 80, verdict: 'inconclusive' }],
      ['cache=writeback, queues=1', { text: 'no result' }],
      ['cache=writeback, queues=2', { text: "50.0 MiB/s 25 % (can't tell)", value: '50.0 MiB/s', relativePct: 25, verdict: 'inconclusive' }]
    ])
    const [matrix] = sweepMatrixGrids({ combos }, ['cache', 'queues'])
    expect(matrix).toMatchObject({ title: 'dd write · dd.bandwidth', down: 'cache', across: 'queues', acrossValues: ['1', '2'] })
    expect(matrix!.rows.map((r) => [r.value, ...r.cells.map((c) => c.text)])).toEqual([
      ['none', '50.0 MiB/s 50 % (slower)', "80.0 MiB/s 80 % (can't tell)"],
      ['writeback', 'no result', "50.0 MiB/s 25 % (can't tell)"]
    ])
    expect(sweepMatrixGrids({ combos }, ['cache'])).toEqual([])
    expect(sweepTable({ combos: [] })).toBe(`${NO_RESULTS}\n`)
  })

  it('merges the steps of one combination (interleaved rounds) with the repetitions numbered on', () => {
    const merged = mergeStepInputs([step('a', [1], [2]), step('a', [3], [4])])!
    expect(merged.measurements.map((m) => `${m.side}#${m.repetition}`)).toEqual(['phys#1', 'a#1', 'phys#2', 'a#2'])
    expect(mergeStepInputs([])).toBeUndefined()
  })
})
