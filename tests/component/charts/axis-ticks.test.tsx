import { describe, expect, it } from 'vitest'
import { axisScale, linearAxis, logAxis, logTickFormat, niceStep } from '../../../src/renderer/src/features/charts/axis-ticks'

const MiB = 1024 * 1024

describe('nice axis ticks', () => {
  it('steps by 1, 2, 2.5 or 5 x 10^n', () => {
    expect([niceStep(10), niceStep(9), niceStep(12), niceStep(0.9), niceStep(1000), niceStep(1100), niceStep(2400)]).toEqual([2, 2, 2.5, 0.2, 200, 250, 500])
  })

  it('writes a bandwidth axis in MiB/s at round MiB/s, not at round bytes (no 238 / 477 / 715 MiB/s)', () => {
    // the axis: 954 MiB/s at most, which recharts cut at 250 MB in bytes
    const axis = linearAxis('B/s', 954 * MiB)
    expect(axis.ticks.map(axis.format)).toEqual(['0', '200 MiB/s', '400 MiB/s', '600 MiB/s', '800 MiB/s', '1000 MiB/s'])
    expect(axis.top).toBe(1000 * MiB)
    const small = linearAxis('B/s', 2.3 * 1024 * MiB)
    expect(small.ticks.map(small.format)).toEqual(['0', '0.5 GiB/s', '1 GiB/s', '1.5 GiB/s', '2 GiB/s', '2.5 GiB/s'])
  })

  it('keeps one unit per axis and tidy numbers for IOPS, bits and counts', () => {
    const iops = linearAxis('op/s', 24_000)
    expect(iops.ticks.map(iops.format)).toEqual(['0', '5k op/s', '10k op/s', '15k op/s', '20k op/s', '25k op/s'])
    const bits = linearAxis('bit/s', 9.4e9)
    expect(bits.ticks.map(bits.format)).toEqual(['0', '2 Gbit/s', '4 Gbit/s', '6 Gbit/s', '8 Gbit/s', '10 Gbit/s'])
    const quarter = linearAxis('count', 11)
    expect(quarter.ticks.map(quarter.format)).toEqual(['0', '2.5', '5', '7.5', '10', '12.5'])
    expect(axisScale('s', 0.0042)).toEqual({ factor: 1e-3, suffix: 'ms' })
  })

  it('puts a log latency axis on 1-2-5 ticks, or on decades when those are too many', () => {
    // 28 µs to 2.57 ms: the axis, which had 28 µs / 242 µs / 2.57 ms
    const axis = logAxis(28e-6, 2.57e-3)
    expect(axis.ticks).toEqual([2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3])
    expect(axis.domain).toEqual([2e-5, 5e-3])
    expect(axis.ticks.map(logTickFormat('s'))).toEqual(['20 µs', '50 µs', '100 µs', '200 µs', '500 µs', '1 ms', '2 ms', '5 ms'])
    const wide = logAxis(3e-6, 4)
    expect(wide.ticks).toEqual([1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10])
  })
})
