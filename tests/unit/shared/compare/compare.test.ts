import { describe, expect, it } from 'vitest'
import { compare } from '../../../../src/shared/compare'
import type { CompareInput, Measurement } from '../../../../src/shared/model/comparison'
import { factsOf, pairInput, repetitions, sample } from './build-input'

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

describe('relative %, overhead, interval and verdict', () => {
  it('compares medians by default and gives the overhead; category and primary come from the definitions', () => {
    const { row, cell } = onlyCell(pairInput([200, 190, 210], [150, 140, 160]))
    expect(row?.baseline).toMatchObject({ value: 200, median: 200, mean: 200, min: 190, max: 210, n: 3 })
    expect(cell.relativePct).toBe(75)
    expect(cell.overheadPct).toBe(25)
    expect(row).toMatchObject({ category: 'storage', primary: true, source: 'tool', comparison: 'ratio' })
    expect(cell.verdict).toBe('slower')
  })

  it('turns the ratio around where lower is better (latency)', () => {
    const { cell, row } = onlyCell(pairInput([0.001, 0.001], [0.002, 0.002], { better: 'lower', unit: 's', metric: 'fio.read.lat.mean' }))
    expect(cell.relativePct).toBeCloseTo(50, 12)
    expect(cell.overheadPct).toBeCloseTo(50, 12)
    expect(cell.ci95?.[0]).toBeCloseTo(50, 9)
    expect(cell.ci95?.[1]).toBeCloseTo(50, 9)
    expect(cell.verdict).toBe('slower')
    expect(row?.roles).toEqual(['latency'])
  })

  it('takes the best of three as study 001 does for iperf3', () => {
    const { cell, row } = onlyCell(
      pairInput([8.2e9, 8.35e9, 8.3e9], [8.4e9, 8.1e9, 8.2e9], { aggregate: 'best', unit: 'bit/s', metric: 'iperf3.received.bandwidth' })
    )
    expect(row?.baseline?.value).toBe(8.35e9)
    expect(cell.stats?.value).toBe(8.4e9)
    expect(Math.round(cell.relativePct ?? 0)).toBe(101)
    expect(cell.verdict).toBe('inconclusive')
  })

  it("says it cannot tell when Welch's interval reaches past the margin on both sides of 100 %", () => {
    const { cell } = onlyCell(pairInput([100, 100, 100], [80, 90, 100]))
    expect(cell.relativePct).toBe(90)
    // a constant baseline: the interval rests on the variant's 2 degrees of freedom (t = 4.303)
    expect(cell.ci95?.[0]).toBeLessThan(80)
    expect(cell.ci95?.[1]).toBeGreaterThan(100)
    expect(cell.verdict).toBe('inconclusive')
    expect(cell.verdictReason).toMatch(/too wide to tell: it reaches past 100 % ± 3 % and includes 100 %/)
  })

  it('says a clear difference is slower, with its interval', () => {
    const { cell } = onlyCell(pairInput([1000, 1010, 990, 1005, 995], [700, 705, 695, 710, 690]))
    expect(cell.ci95?.[0]).toBeGreaterThan(68)
    expect(cell.ci95?.[1]).toBeLessThan(72)
    expect(cell.verdict).toBe('slower')
    expect(cell.verdictReason).toMatch(/^the 95 % interval 6\d(\.\d)? % to 7\d(\.\d)? % lies below 100 %$/)
  })

  it('says same when the whole interval lies within the margin, and the margin is the plan\'s', () => {
    const input = pairInput([1000, 1004, 998, 1002, 996, 1000], [999, 1001, 1003, 997, 1000, 1002])
    const { cell } = onlyCell(input)
    expect(cell.verdict).toBe('same')
    expect(cell.verdictReason).toContain('lies within 100 % ± 3 %')
    const strict = onlyCell({ ...input, marginPct: 0.1 }).cell
    expect(strict.verdict).toBe('inconclusive')
    expect(compare({ ...input, marginPct: 0.1 }).method).toContain('± 0.1 %')
  })

  it('makes no claim with a single repetition on either side', () => {
    const { cell } = onlyCell(pairInput([100], [90, 91]))
    expect(cell.relativePct).toBe(90.5)
    expect(cell).not.toHaveProperty('ci95')
    expect(cell.verdict).toBe('inconclusive')
    expect(cell.verdictReason).toContain('one value a side cannot tell a difference from noise')
    expect(cell.flags).toEqual([])
  })

  it('gives no ratio and no interval when the baseline is zero, never NaN', () => {
    const zeroBaseline = onlyCell(pairInput([0, 0], [5, 5])).cell
    expect(zeroBaseline).not.toHaveProperty('relativePct')
    expect(zeroBaseline).not.toHaveProperty('ci95')
    expect(zeroBaseline.verdict).toBe('inconclusive')
    const sometimesZero = onlyCell(pairInput([0, 10, 10], [10, 10, 10])).cell
    expect(sometimesZero.relativePct).toBe(100)
    expect(sometimesZero).not.toHaveProperty('ci95')
  })

  it('compares counts as a difference: 0 against 0 is the same, more lost packets is slower', () => {
    const none = onlyCell(pairInput([0, 0, 0], [0, 0, 0], { unit: '%', better: 'lower', metric: 'ping.loss' }))
    expect(none.row).toMatchObject({ comparison: 'difference' })
    expect(none.cell).toMatchObject({ difference: 0, ci95: [0, 0], verdict: 'same' })
    expect(none.cell).not.toHaveProperty('relativePct')
    const single = onlyCell(pairInput([0], [0], { unit: 'count', better: 'lower', metric: 'iperf3.retransmits' }))
    expect(single.cell.verdict).toBe('same')
    const lost = onlyCell(pairInput([0, 1, 0], [40, 44, 42], { unit: 'count', better: 'lower', metric: 'iperf3.packets.lost' }))
    expect(lost.cell.difference).toBe(42)
    expect(lost.cell.verdict).toBe('slower')
    const noisy = onlyCell(pairInput([0, 25, 3], [0, 2, 40], { unit: 'count', better: 'lower', metric: 'iperf3.retransmits' }))
    expect(noisy.cell.verdict).toBe('inconclusive')
    expect(noisy.cell).not.toHaveProperty('relativePct')
  })

  it('compares a metric the run does not define as its unit suggests, never as primary', () => {
    const input = pairInput([10, 10], [5, 5], { metric: 'custom.thing', unit: 'count' })
    const { row } = onlyCell(input)
    expect(row).toMatchObject({ comparison: 'difference', primary: false })
    expect(row).not.toHaveProperty('category')
  })

  it('compares repetitions that ran interleaved pair by pair: drift over the run does not hide a difference', () => {
    // the machine changed speed through the run; the variant was always 90 % of the baseline beside it
    const input = pairInput([1000, 1500, 800, 1200], [900, 1350, 720, 1080])
    expect(onlyCell(input).cell.verdict).toBe('inconclusive')
    const paired = onlyCell({ ...input, paired: true }).cell
    expect(paired.ci95![0]).toBeCloseTo(90, 9)
    expect(paired.ci95![1]).toBeCloseTo(90, 9)
    expect(paired.verdict).toBe('slower')
  })

  /** `pairInput` with each job's start: repetition r's baseline at `starts[r - 1][0]` s, its variant at `[1]` s. */
  function timed(input: CompareInput, starts: readonly [number, number][]): CompareInput {
    return {
      ...input,
      paired: true,
      measurements: input.measurements.map((m) => ({ ...m, startedAtMs: 1_000 * starts[m.repetition - 1]![m.side === 'host' ? 0 : 1] }))
    }
  }

  it('pairs repetitions that ran in one round, as their start times show', () => {
    const input = pairInput([1000, 1500, 800, 1200], [900, 1350, 720, 1080])
    const cell = onlyCell(timed(input, [[0, 5], [10, 15], [20, 25], [30, 35]])).cell
    expect(cell.ci95).toEqual([expect.closeTo(90, 9), expect.closeTo(90, 9)])
    expect(cell.verdict).toBe('slower')
  })

  it('compares the sides as samples when a repetition was retried later, out of its round', () => {
    // the variant's repetition 2 failed and ran again after repetition 4: that pair shares no drift
    const input = pairInput([1000, 1500, 800, 1200], [900, 1350, 720, 1080])
    const welch = onlyCell(input).cell
    const retried = onlyCell(timed(input, [[0, 5], [10, 45], [20, 25], [30, 35]])).cell
    expect(retried.ci95).toEqual(welch.ci95)
    expect(retried.verdict).toBe('inconclusive')
  })

  it('compares two pairs as samples: t = 12.7 with one degree of freedom says nothing', () => {
    const input = pairInput([100, 104, 96], [40, 41.5, 39])
    const twoPairs = { ...input, paired: true, measurements: input.measurements.filter((m) => !(m.side === 'guest' && m.repetition === 3)) }
    const welch = onlyCell({ ...twoPairs, paired: false }).cell
    expect(onlyCell(twoPairs).cell.ci95).toEqual(welch.ci95)
    expect(welch.verdict).toBe('slower')
  })

  it('documents the method', () => {
    const { method, marginPct } = compare(pairInput([1], [1]))
    expect(marginPct).toBe(3)
    expect(method).toContain("Welch's t interval")
    expect(method).toContain('they are compared pair by pair')
    expect(method).toContain('within 100 % ± 3 %')
    expect(method).toContain('inconclusive otherwise, and always when a side has fewer than two values')
  })
})

describe('flags', () => {
  it('says which side has no successful repetition', () => {
    const input: CompareInput = {
      baseline: 'host',
      variants: ['vm1', 'vm2'],
      tests: [{ id: 'seq', title: '1 MiB sequential read', aggregate: 'median' }],
      measurements: [...repetitions('host', 'seq', 'fio.read.bandwidth', [1e9, 1e9], 'B/s', 'higher'), ...repetitions('vm1', 'seq', 'fio.read.bandwidth', [9e8], 'B/s', 'higher')],
      factsOf: factsOf()
    }
    const [vm1, vm2] = compare(input).rows[0]?.cells ?? []
    expect(kinds(vm1?.flags ?? [])).toEqual([])
    expect(vm2).not.toHaveProperty('stats')
    expect(vm2).not.toHaveProperty('relativePct')
    expect(kinds(vm2?.flags ?? [])).toEqual(['missing'])
    expect(vm2?.flags[0]?.message).toMatch(/^No successful repetition of 1 MiB sequential read on vm2 gave fio\.read\.bandwidth\. /)
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
      expect(cell.flags.map((f) => f.message)).toEqual([expect.stringMatching(/^No successful repetition of ping on host gave ping\.rtt\.avg/)])
      expect(cell.verdict).toBe('inconclusive')
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

  it('flags a faster verdict only, and explains it by category (one source for every display)', () => {
    const storage = onlyCell(pairInput([100, 101, 99], [130, 131, 129])).cell.flags[0]!
    expect(storage.message).toMatch(/^guest reached 130 % of host on fio\.read\.iops of the test: faster than the baseline beyond noise\./)
    expect(storage.explanation).toContain('study 002')
    expect(storage.message.endsWith(storage.explanation!)).toBe(true)
    const network = onlyCell(pairInput([1e9, 1.01e9], [1.2e9, 1.21e9], { unit: 'bit/s', metric: 'iperf3.received.bandwidth' })).cell.flags[0]?.explanation
    expect(network).toContain('never cross the wire')
    const cpu = onlyCell(pairInput([100, 101], [110, 111], { unit: 'lps', metric: 'unixbench.dhry2reg' })).cell.flags[0]?.explanation
    expect(cpu).toContain('A guest rarely computes faster than the machine it runs on')
    expect(cpu).not.toContain('cache')
  })

  it('names the guest disk cache mode in a storage explanation', () => {
    const input = { ...pairInput([100, 101, 99], [130, 131, 129]), scenarios: { guest: { cache: 'writeback' as const } } }
    expect(onlyCell(input).cell.flags[0]?.explanation).toContain("The guest disk is cache=writeback, so the host's page cache most likely answered")
  })

  it('raises no faster flag inside noise, nor on a host column of runs compared side by side', () => {
    const noise = onlyCell(pairInput([100, 100, 100], [100, 106, 107])).cell
    expect(noise.verdict).toBe('inconclusive')
    expect(kinds(noise.flags)).toEqual([])
    const host = onlyCell({ ...pairInput([100, 101, 99], [130, 131, 129]), hostColumns: ['guest'] }).cell
    expect(host.verdict).toBe('faster')
    expect(kinds(host.flags)).toEqual([])
  })

  describe('bandwidth caps', () => {
    const network = (host: number[], guest: number[], unit: 'bit/s' | 'B/s' = 'bit/s', metric = 'iperf3.received.bandwidth') =>
      onlyCell(pairInput(host, guest, { unit, metric, aggregate: 'best' })).cell

    it("flags 29.4 Mbit/s as study 001's default 30 Mbit/s EIP limit", () => {
      const cell = network([9.19e9, 9.1e9], [29.4e6, 29.1e6])
      expect(kinds(cell.flags)).toEqual(['bandwidth-cap'])
      expect(cell.flags[0]?.message).toMatch(/^guest measured 29\.4 Mbit\/s on iperf3\.received\.bandwidth of the test, just below 30 Mbit\/s: the path is probably rate-limited/)
      expect(cell.flags[0]?.message).toContain('(its 2 repetitions all read 29.1 to 29.4 Mbit/s, as steady as a limit holds them;')
      expect(cell.flags[0]?.message).toContain('lift the limit')
    })

    it('flags a 30 Mbit/s tbf read 28.7, 28.8, 28.7 Mbit/s: TCP goodput, 4.3 % below the limit', () => {
      const cell = network([9.19e9, 9.1e9, 9.15e9], [28.7e6, 28.8e6, 28.7e6])
      expect(kinds(cell.flags)).toEqual(['bandwidth-cap'])
      expect(cell.flags[0]?.message).toMatch(/^guest measured 28\.8 Mbit\/s .*, just below 30 Mbit\/s: .*its 3 repetitions all read 28\.7 to 28\.8 Mbit\/s/)
    })

    it('names no cap from a single repetition, nor from figures that wander just below a round number', () => {
      expect(kinds(network([9.19e9], [29.9e6]).flags)).toEqual([])
      // a free guest-to-guest path under TCG, once named "a 2.5 Gbit/s cap" from its 2.44 Gbit/s
      expect(kinds(onlyCell(pairInput([9.19e9, 9.1e9, 9.15e9], [2.41e9, 2.44e9, 2.47e9], { unit: 'bit/s', metric: 'iperf3.received.bandwidth' })).cell.flags)).toEqual([])
      // and figures above the limit
      expect(kinds(network([9.19e9, 9.1e9], [30.2e6, 30.3e6]).flags)).toEqual([])
    })

    it('reads no cap from a UDP test, whose sender sends at the rate asked for (iperf3 -u -b 100M: 99.99 Mbit/s)', () => {
      const input = pairInput([9.19e9, 9.1e9], [99.99e6, 99.99e6], { unit: 'bit/s', metric: 'iperf3.received.bandwidth' })
      // the same figures from a TCP test are a held cap
      expect(kinds(onlyCell(input).cell.flags)).toEqual(['bandwidth-cap'])
      const tcpFacts = input.factsOf!
      const udp: CompareInput = { ...input, factsOf: (testId, metric) => ({ ...tcpFacts(testId, metric)!, setRate: true }) }
      expect(kinds(onlyCell(udp).cell.flags)).toEqual([])
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
      expect(network([9.41e8, 9.4e8], [9.4e9, 9.3e9]).verdict).toBe('faster')
      expect(network([31e6, 31e6], [31e6, 31e6]).flags).toEqual([])
    })

    it('applies only to network bandwidth', () => {
      const disk = onlyCell(pairInput([29.4e6, 29.4e6], [29.4e6, 29.4e6], { unit: 'B/s', metric: 'fio.read.bandwidth' })).cell
      expect(disk.flags).toEqual([])
    })
  })
})

describe('disturbed repetitions', () => {
  const disturbed = (side: string, repetition: number): [string, string] => [`${side}|t|${repetition}`, `other work used ${90 + repetition} % of ${side}'s CPU time beside the tool`]

  it('names a few disturbed repetitions one by one, on the cell they fed', () => {
    const input = { ...pairInput([100, 101, 99], [40, 41, 39]), contamination: Object.fromEntries([disturbed('host', 2), disturbed('guest', 3)]) }
    const flag = onlyCell(input).cell.flags.find((f) => f.kind === 'contaminated')!
    expect(flag.message).toBe(
      "fio.read.iops of the test was disturbed: repetition 2 on host: other work used 92 % of host's CPU time beside the tool; " +
        "repetition 3 on guest: other work used 93 % of guest's CPU time beside the tool. " +
        flag.explanation
    )
  })

  it('counts many, per side, with the first as an example, so the flag stays a sentence', () => {
    const all = [1, 2, 3, 4].flatMap((r) => [disturbed('host', r), disturbed('guest', r)])
    const input = { ...pairInput([100, 101, 99, 100], [40, 41, 39, 40]), contamination: Object.fromEntries(all.slice(0, 7)) }
    const flag = onlyCell(input).cell.flags.find((f) => f.kind === 'contaminated')!
    expect(flag.message).toBe(
      "fio.read.iops of the test was disturbed: 7 of 8 repetitions (4 on host, 3 on guest), the first repetition 1 on host: " +
        "other work used 91 % of host's CPU time beside the tool. " +
        flag.explanation
    )
  })

  it('raises nothing when no repetition of the cell was disturbed', () => {
    const input = { ...pairInput([100, 101, 99], [40, 41, 39]), contamination: Object.fromEntries([['host|other-test|1', 'other work used 99 %']]) }
    expect(kinds(onlyCell(input).cell.flags)).not.toContain('contaminated')
  })
})
