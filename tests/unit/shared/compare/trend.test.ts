import { describe, expect, it } from 'vitest'
import { compare } from '../../../../src/shared/compare'
import { presetTrend } from '../../../../src/shared/compare/trend'
import type { Comparison } from '../../../../src/shared/model/comparison'
import { factsOf, repetitions } from './build-input'

function run(guest: number[] | undefined): Comparison {
  return compare({
    baseline: 'host',
    variants: ['guest'],
    tests: [{ id: 'cpu', title: 'sysbench cpu', aggregate: 'median' }],
    measurements: [
      ...repetitions('host', 'cpu', 'sysbench.cpu.events', [1000, 1010, 990], 'op/s', 'higher'),
      ...(guest ? repetitions('guest', 'cpu', 'sysbench.cpu.events', guest, 'op/s', 'higher') : []),
      ...repetitions('host', 'cpu', 'sysbench.cpu.latency', [1, 1, 1], 's', 'lower')
    ],
    factsOf: factsOf({ cpu: ['sysbench.cpu.events'] })
  })
}

describe('presetTrend', () => {
  it('gives one series per variant and primary figure, a point per run oldest first, with the run\'s own figure and interval', () => {
    const trend = presetTrend([
      { id: 'r3', createdAt: '2026-03-01T00:00:00.000Z', comparison: run([500, 505, 495]) },
      { id: 'r1', createdAt: '2026-01-01T00:00:00.000Z', comparison: run([1000, 1008, 992]) },
      { id: 'r2', createdAt: '2026-02-01T00:00:00.000Z', comparison: run(undefined) }
    ])
    expect(trend.map((s) => `${s.variant} ${s.metric}`)).toEqual(['guest sysbench.cpu.events'])
    const points = trend[0]!.points
    expect(points.map((p) => p.runId)).toEqual(['r1', 'r2', 'r3'])
    expect(points[0]).toMatchObject({ value: 100, verdict: 'same' })
    expect(points[0]!.ci95![0]).toBeGreaterThan(97)
    // the run whose guest gave nothing keeps its place, without a value
    expect(points[1]!.value).toBeUndefined()
    expect(points[2]).toMatchObject({ value: 50, verdict: 'slower' })
  })

  it('takes every figure with allMetrics', () => {
    const trend = presetTrend([{ id: 'r1', createdAt: '2026-01-01T00:00:00.000Z', comparison: run([1000, 1000, 1000]) }], { allMetrics: true })
    expect(trend.map((s) => s.metric)).toEqual(['sysbench.cpu.events', 'sysbench.cpu.latency'])
  })
})
