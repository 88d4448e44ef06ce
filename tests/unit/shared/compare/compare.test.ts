import { describe, expect, it } from 'vitest'
import { BOOTSTRAP_RESAMPLES, compare } from '../../../../src/shared/compare'
import type { CompareInput, Measurement } from '../../../../src/shared/model/comparison'
import { categoryOf, pairInput, repetitions, sample } from './build-input'

function onlyCell(input: CompareInput) {
  const comparison = compare(input)
  expect(comparison.rows).toHaveLength(1)
  const cell = comparison.rows[0]?.cells[0]
  if (!cell) throw new Error('no cell')
  return { row: comparison.rows[0], cell }
}

function kinds(flags: { kind: string }[]): string[] {
  return flags.map((f) => f.kind)
}

describe('rows', () => {
  it('orders rows by the tests of the input, then metrics and labels as first seen', () => {
    const measurements: Measurement[] = [
      {
        side: 'guest',
        testId: 'net',
        repetition: 1,
        samples: [
          sample('iperf3.received.bandwidth', 9e8, 'bit/s', 'higher', { direction: 'reverse' }),
          sample('iperf3.retransmits', 3, 'count', 'lower', { direction: 'reverse' }),
          sample('iperf3.received.bandwidth', 9e8, 'bit/s', 'higher', { direction: 'forward' })
        ]
      },
      { side: 'host', testId: 'disk', repetition: 1, samples: [sample('fio.read.iops', 100, 'op/s', 'higher')] },
      { side: 'host', testId: 'extra', repetition: 1, samples: [sample('dd.bandwidth', 100, 'B/s', 'higher')] },
      { side: 'host', testId: 'disk', repetition: 1, samples: [sample('fio.read.bandwidth', 4e5, 'B/s', 'higher')] }
    ]
    const comparison = compare({
      baseline: 'host',
      variants: ['guest'],
      tests: [
        { id: 'disk', title: 'Disk', aggregate: 'median' },
        { id: 'net', title: 'Network', aggregate: 'best' }
      ],
      measurements
    })
    expect(comparison.rows.map((r) => [r.testId, r.metric, r.labels.direction ?? ''])).toEqual([
      ['disk', 'fio.read.iops', ''],
      ['disk', 'fio.read.bandwidth', ''],
      ['net', 'iperf3.received.bandwidth', 'reverse'],
      ['net', 'iperf3.received.bandwidth', 'forward'],
      ['net', 'iperf3.retransmits', 'reverse'],
      ['extra', 'dd.bandwidth', '']
    ])
    // a test the input does not list keeps its id as title and is compared by its median
    expect(comparison.rows[5]).toMatchObject({ testTitle: 'extra', baseline: { aggregate: 'median', value: 100 } })
  })

  it('drops the repetition label and keeps values in repetition order (bonnie++ -x inside a run)', () => {
    const bonnie = (side: string, repetition: number, values: [string, number][]): Measurement => ({
      side,
      testId: 'bonnie',
      repetition,
      samples: values.map(([inner, value]) => sample('bonnie.put_block', value, 'B/s', 'higher', { repetition: inner }))
    })
    const comparison = compare({
      baseline: 'host',
      variants: ['guest'],
      tests: [{ id: 'bonnie', title: 'bonnie++', aggregate: 'mean' }],
      measurements: [
        bonnie('host', 2, [['10', 23], ['2', 22], ['1', 21]]),
        bonnie('host', 1, [['2', 12], ['1', 11]]),
        bonnie('guest', 1, [['1', 10], ['2', 10]])
      ]
    })
    expect(comparison.rows).toHaveLength(1)
    expect(comparison.rows[0]?.labels).toEqual({})
    expect(comparison.rows[0]?.baseline?.values).toEqual([11, 12, 21, 22, 23])
    expect(comparison.rows[0]?.baseline?.value).toBe(17.8)
  })

  it('keeps samples whose unit differs in separate rows rather than dividing them', () => {
    const comparison = compare({
      baseline: 'host',
      variants: ['guest'],
      tests: [{ id: 't', title: 'T', aggregate: 'median' }],
      measurements: [...repetitions('host', 't', 'x', [1], 'B/s', 'higher'), ...repetitions('guest', 't', 'x', [8], 'bit/s', 'higher')]
    })
    expect(comparison.rows).toHaveLength(2)
    expect(comparison.rows.every((r) => r.cells[0]?.relativePct === undefined)).toBe(true)
  })

  it('ignores sides that are not in the comparison and values that are not finite', () => {
    const input = pairInput([100, 100], [90, 90])
    input.measurements.push(...repetitions('someone else', 't', 'fio.read.iops', [1], 'op/s', 'higher'))
    input.measurements.push(...repetitions('guest', 't', 'fio.read.iops', [Number.NaN, Number.POSITIVE_INFINITY], 'op/s', 'higher'))
    const { cell } = onlyCell(input)
    expect(cell.stats?.values).toEqual([90, 90])
    expect(cell.relativePct).toBe(90)
  })
})

describe('relative %, overhead and interval', () => {
  it('compares medians by default and gives the overhead', () => {
    const { row, cell } = onlyCell(pairInput([200, 190, 210], [150, 140, 160]))
    expect(row?.baseline).toMatchObject({ value: 200, median: 200, mean: 200, min: 190, max: 210, n: 3 })
    expect(cell.relativePct).toBe(75)
    expect(cell.overheadPct).toBe(25)
    expect(row?.category).toBe('storage')
  })

  it('turns the ratio around where lower is better (latency)', () => {
    const { cell } = onlyCell(pairInput([0.001, 0.001], [0.002, 0.002], { better: 'lower', unit: 's', metric: 'fio.read.lat.mean' }))
    expect(cell.relativePct).toBeCloseTo(50, 12)
    expect(cell.overheadPct).toBeCloseTo(50, 12)
    expect(cell.ci95).toEqual([50, 50])
    expect(cell.withinNoise).toBe(false)
  })

  it('takes the best of three as study 001 does for iperf3', () => {
    const { cell, row } = onlyCell(
      pairInput([8.2e9, 8.35e9, 8.3e9], [8.4e9, 8.1e9, 8.2e9], { aggregate: 'best', unit: 'bit/s', metric: 'iperf3.received.bandwidth' })
    )
    expect(row?.baseline?.value).toBe(8.35e9)
    expect(cell.stats?.value).toBe(8.4e9)
    expect(Math.round(cell.relativePct ?? 0)).toBe(101)
  })

  it('gives the bootstrap interval of the ratio of medians', () => {
    // Three values resample to a median of 80 or 100 with probability 7/27 each: both tails are
    // well inside 2.5 %, so the interval is exactly [80, 100] and 100 % is inside it.
    const { cell } = onlyCell(pairInput([100, 100, 100], [80, 90, 100]))
    expect(cell.relativePct).toBe(90)
    expect(cell.ci95).toEqual([80, 100])
    expect(cell.withinNoise).toBe(true)
  })

  it('says a clear difference is not noise', () => {
    const { cell } = onlyCell(pairInput([1000, 1010, 990, 1005, 995], [700, 705, 695, 710, 690]))
    expect(cell.ci95?.[0]).toBeGreaterThan(68)
    expect(cell.ci95?.[1]).toBeLessThan(72)
    expect(cell.withinNoise).toBe(false)
  })

  it('gives no interval with a single repetition on either side', () => {
    const { cell } = onlyCell(pairInput([100], [90, 91]))
    expect(cell.relativePct).toBe(90.5)
    expect(cell).not.toHaveProperty('ci95')
    expect(cell).not.toHaveProperty('withinNoise')
  })

  it('gives no ratio and no interval when a resample or the baseline is zero, never NaN', () => {
    const zeroBaseline = onlyCell(pairInput([0, 0], [5, 5])).cell
    expect(zeroBaseline).not.toHaveProperty('relativePct')
    expect(zeroBaseline).not.toHaveProperty('ci95')
    const sometimesZero = onlyCell(pairInput([0, 10, 10], [10, 10, 10])).cell
    expect(sometimesZero.relativePct).toBe(100)
    expect(sometimesZero).not.toHaveProperty('ci95')
  })

  it('documents the method', () => {
    const { method } = compare(pairInput([1], [1]))
    expect(method).toContain('bootstrap')
    expect(method).toContain(`${BOOTSTRAP_RESAMPLES} times`)
    expect(method).toContain('2.5th to the 97.5th percentile')
  })
})

describe('flags', () => {
  it('says which side has no successful repetition', () => {
    const input: CompareInput = {
      baseline: 'host',
      variants: ['vm1', 'vm2'],
      tests: [{ id: 'seq', title: '1 MiB sequential read', aggregate: 'median' }],
      measurements: [...repetitions('host', 'seq', 'fio.read.bandwidth', [1e9, 1e9], 'B/s', 'higher'), ...repetitions('vm1', 'seq', 'fio.read.bandwidth', [9e8], 'B/s', 'higher')],
      categoryOf
    }
    const [vm1, vm2] = compare(input).rows[0]?.cells ?? []
    expect(kinds(vm1?.flags ?? [])).toEqual([])
    expect(vm2).not.toHaveProperty('stats')
    expect(vm2).not.toHaveProperty('relativePct')
    expect(kinds(vm2?.flags ?? [])).toEqual(['missing'])
    expect(vm2?.flags[0]?.message).toMatch(/^No successful repetition of 1 MiB sequential read on vm2: /)
    expect(vm2?.flags[0]?.message).toContain("Read the job's log")
  })

  it('puts a missing baseline on every cell', () => {
    const input: CompareInput = {
      baseline: 'host',
      variants: ['vm1', 'vm2'],
      tests: [{ id: 'ping', title: 'ping', aggregate: 'median' }],
      measurements: [...repetitions('vm1', 'ping', 'ping.rtt.avg', [0.0003], 's', 'lower'), ...repetitions('vm2', 'ping', 'ping.rtt.avg', [0.0004], 's', 'lower')]
    }
    const row = compare(input).rows[0]
    expect(row).not.toHaveProperty('baseline')
    for (const cell of row?.cells ?? []) {
      expect(cell.stats?.n).toBe(1)
      expect(cell).not.toHaveProperty('relativePct')
      expect(cell.flags.map((f) => f.message)).toEqual([expect.stringMatching(/^No successful repetition of ping on host: none gave ping\.rtt\.avg/)])
    }
  })

  it('shows a scenario mismatch for the whole variant and on each of its cells', () => {
    const input = pairInput([100, 100], [95, 96])
    input.variants = ['guest', 'other']
    input.mismatches = { guest: [{ message: 'The plan declares cache=none but the host runs the disk with cache=writeback' }] }
    const comparison = compare(input)
    expect(comparison.variantFlags.other).toEqual([])
    expect(kinds(comparison.variantFlags.guest ?? [])).toEqual(['scenario-mismatch'])
    const message = comparison.variantFlags.guest?.[0]?.message ?? ''
    expect(message).toMatch(/^The plan declares cache=none but the host runs the disk with cache=writeback\. The figures of guest measure/)
    expect(message).toContain("correct the plan's scenario")
    const [guest, other] = comparison.rows[0]?.cells ?? []
    expect(guest?.flags).toEqual(comparison.variantFlags.guest)
    expect(kinds(other?.flags ?? [])).toEqual(['missing'])
  })

  it('flags noise above 10 % and names the side and its cv', () => {
    const { cell } = onlyCell(pairInput([100, 101, 99], [100, 130, 80]))
    expect(kinds(cell.flags)).toEqual(['noisy'])
    // mean 103.33, stddev 25.17: cv 24.4 %
    expect(cell.flags[0]?.message).toContain('the coefficient of variation is 24.4 % on guest (3 values), above 10 %')
    const both = onlyCell(pairInput([100, 130, 80], [100, 130, 80])).cell
    expect(both.flags[0]?.message).toContain('24.4 % on host (3 values) and 24.4 % on guest (3 values)')
    expect(kinds(onlyCell(pairInput([100, 110, 90], [100, 110, 90])).cell.flags)).toEqual([])
  })

  it('words a faster-than-baseline result by category', () => {
    const storage = onlyCell(pairInput([100, 100], [130, 130])).cell.flags[0]?.message
    expect(storage).toMatch(/^guest reached 130 % of host on fio\.read\.iops of the test: faster than the baseline by more than 5 %\./)
    expect(storage).toContain('study 002')
    const network = onlyCell(pairInput([1e9, 1e9], [1.2e9, 1.2e9], { unit: 'bit/s', metric: 'iperf3.received.bandwidth' })).cell.flags[0]?.message
    expect(network).toContain('never cross the wire')
    const cpu = onlyCell(pairInput([100, 100], [110, 110], { unit: 'lps', metric: 'unixbench.dhry2reg' })).cell.flags[0]?.message
    expect(cpu).toContain('A guest rarely beats the machine it runs on')
    expect(kinds(onlyCell(pairInput([100, 100], [105, 105])).cell.flags)).toEqual([])
  })

  it('warns that a faster result inside the noise may be noise', () => {
    const { cell } = onlyCell(pairInput([100, 100, 100], [100, 106, 107]))
    expect(cell.withinNoise).toBe(true)
    expect(kinds(cell.flags)).toEqual(['faster-than-baseline'])
    expect(cell.flags[0]?.message).toContain('may also be noise')
  })

  describe('bandwidth caps', () => {
    const network = (host: number[], guest: number[], unit: 'bit/s' | 'B/s' = 'bit/s', metric = 'iperf3.received.bandwidth') =>
      onlyCell(pairInput(host, guest, { unit, metric, aggregate: 'best' })).cell

    it("flags 29.4 Mbit/s as study 001's default 30 Mbit/s EIP limit", () => {
      const cell = network([9.19e9, 9.1e9], [29.4e6, 29.1e6])
      expect(kinds(cell.flags)).toEqual(['bandwidth-cap'])
      expect(cell.flags[0]?.message).toMatch(/^guest measured 29\.4 Mbit\/s on iperf3\.received\.bandwidth of the test, just below 30 Mbit\/s: the path is probably rate-limited/)
      expect(cell.flags[0]?.message).toContain('lift the limit')
    })

    it('reads byte rates as 8 bits per byte', () => {
      const cell = network([1.2e9, 1.2e9], [98e6 / 8, 98e6 / 8], 'B/s')
      expect(cell.flags.find((f) => f.kind === 'bandwidth-cap')?.message).toContain('guest measured 98 Mbit/s')
    })

    it('puts a capped baseline on every cell', () => {
      const cell = network([0.99e9, 0.985e9], [0.98e9, 0.975e9])
      expect(kinds(cell.flags)).toEqual(['bandwidth-cap', 'bandwidth-cap'])
      expect(cell.flags[1]?.message).toMatch(/^host measured 990 Mbit\/s .* just below 1 Gbit\/s/)
    })

    it('leaves typical saturated links alone: 941 Mbit/s on 1 GbE, 9.4 Gbit/s on 10 GbE, 31 Mbit/s', () => {
      expect(network([9.41e8, 9.4e8], [9.4e9, 9.3e9]).flags).toEqual([expect.objectContaining({ kind: 'faster-than-baseline' })])
      expect(network([31e6, 31e6], [31e6, 31e6]).flags).toEqual([])
    })

    it('applies only to network bandwidth', () => {
      const disk = onlyCell(pairInput([29.4e6, 29.4e6], [29.4e6, 29.4e6], { unit: 'B/s', metric: 'fio.read.bandwidth' })).cell
      expect(disk.flags).toEqual([])
    })
  })
})

describe('the exact bootstrap interval (few repetitions are enumerated, not drawn)', () => {
  it('agrees with 40,000 random resamples, for medians and means of 3 to 6 repetitions', async () => {
    const { bootstrapRelativeInterval } = await import('../../../../src/shared/compare/bootstrap')
    const cases: [number[], number[]][] = [
      [[100, 104, 97], [90, 95, 99]],
      [[1000, 1010, 990, 1005], [700, 705, 695, 710, 690]],
      [[5.1, 5.3, 4.9, 5.0, 5.2, 5.6], [6.0, 6.3, 5.8]]
    ]
    for (const [baseline, variant] of cases) {
      for (const aggregate of ['median', 'mean'] as const) {
        const exact = bootstrapRelativeInterval({ baseline, variant, aggregate, better: 'higher', seedKey: 'k' })!
        const drawn = bootstrapRelativeInterval({ baseline, variant, aggregate, better: 'higher', seedKey: 'k', resamples: 40_000 })!
        expect(Math.abs(exact[0] - drawn[0]), `${aggregate} low`).toBeLessThan(0.02 * exact[0])
        expect(Math.abs(exact[1] - drawn[1]), `${aggregate} high`).toBeLessThan(0.02 * exact[1])
      }
    }
  })
})
