import { describe, expect, it } from 'vitest'
import { compare } from '../../../../src/shared/compare'
import { estimateInterval, ratioEstimate } from '../../../../src/shared/compare/interval'
import { compareReleases, differenceOfEstimates, releaseCounts } from '../../../../src/shared/compare/release'
import { studentTQuantile } from '../../../../src/shared/compare/student-t'
import type { Comparison, Measurement } from '../../../../src/shared/model/comparison'
import { factsOf, repetitions } from './build-input'

const TESTS = [
  { id: 'cpu', title: 'sysbench cpu', aggregate: 'median' as const },
  { id: 'net', title: 'iperf3', aggregate: 'median' as const }
]

function run(measurements: Measurement[], marginPct = 3): Comparison {
  return compare({
    baseline: 'host',
    variants: ['guest'],
    tests: TESTS,
    measurements,
    marginPct,
    factsOf: factsOf({ cpu: ['sysbench.cpu.events'], net: ['iperf3.received.bandwidth'] })
  })
}

const cpu = (side: string, values: number[]) => repetitions(side, 'cpu', 'sysbench.cpu.events', values, 'op/s', 'higher')

describe('the estimate a cell carries', () => {
  it('is the one its interval stands on (Welch on the logs): the interval is its t interval, exponentiated', () => {
    const c = run([...cpu('host', [1000, 1010, 990]), ...cpu('guest', [500, 510, 490])])
    const cell = c.rows[0]!.cells[0]!
    const e = ratioEstimate([1000, 1010, 990], [500, 510, 490], 'higher')!
    expect(cell.estimate).toEqual(e)
    // mean log ratio ln(0.5) (nearly: geometric means), df from Welch-Satterthwaite
    expect(e.mean).toBeCloseTo(Math.log(0.5), 3)
    // widened, as every interval is, to hold the median ratio (50 %) ± the same half-width
    const [low, high] = estimateInterval(e)
    const half = (high - low) / 2
    expect(cell.ci95![0]).toBeCloseTo(100 * Math.exp(Math.min(low, Math.log(0.5) - half)), 6)
    expect(cell.ci95![1]).toBeCloseTo(100 * Math.exp(Math.max(high, Math.log(0.5) + half)), 6)
  })

  it('is absent where there is no interval (one value a side)', () => {
    expect(run([...cpu('host', [1000]), ...cpu('guest', [500])]).rows[0]!.cells[0]!.estimate).toBeUndefined()
  })
})

describe('differenceOfEstimates', () => {
  it('adds the variances and gives Welch-Satterthwaite degrees of freedom (by hand)', () => {
    const d = differenceOfEstimates({ mean: Math.log(0.5), se: 0.03, df: 4 }, { mean: 0, se: 0.04, df: 2 })
    expect(d.mean).toBeCloseTo(Math.log(0.5), 12)
    expect(d.se).toBeCloseTo(0.05, 12) // sqrt(0.03² + 0.04²)
    // (0.0009 + 0.0016)² / (0.0009²/4 + 0.0016²/2) = 6.25e-6 / 1.4825e-6
    expect(d.df).toBeCloseTo(6.25e-6 / (0.0009 ** 2 / 4 + 0.0016 ** 2 / 2), 9)
  })
})

describe('compareReleases', () => {
  // the last release: the guest at 100 % of its host; this release: the guest's CPU halved
  const older = run([...cpu('host', [1000, 1010, 990]), ...cpu('guest', [1000, 1008, 992])])
  const newer = run([...cpu('host', [1002, 1012, 992]), ...cpu('guest', [501, 507, 495])])

  it('calls a halved guest "regressed" with the change at 50 % and an interval from both runs', () => {
    const release = compareReleases(older, newer)
    const cell = release.rows[0]!.cells[0]!
    expect(cell.older?.relativePct).toBeCloseTo(100, 6)
    expect(cell.newer?.relativePct).toBeCloseTo((501 / 1002) * 100, 6)
    expect(cell.changePct).toBeCloseTo(50, 6)
    expect(cell.changePoints).toBeCloseTo(-50, 6)
    expect(cell.verdict).toBe('regressed')
    // the interval by hand: the two runs' estimates combined, t at Welch-Satterthwaite df, around ln(new / old)
    const o = older.rows[0]!.cells[0]!.estimate!
    const n = newer.rows[0]!.cells[0]!.estimate!
    const se = Math.sqrt(o.se ** 2 + n.se ** 2)
    const df = (o.se ** 2 + n.se ** 2) ** 2 / (o.se ** 4 / o.df + n.se ** 4 / n.df)
    const half = studentTQuantile(0.975, df) * se
    const mean = n.mean - o.mean
    const center = Math.log(0.5)
    expect(cell.ci95![0]).toBeCloseTo(100 * Math.exp(Math.min(mean, center) - half), 6)
    expect(cell.ci95![1]).toBeCloseTo(100 * Math.exp(Math.max(mean, center) + half), 6)
    expect(cell.ci95![0]).toBeGreaterThan(45)
    expect(cell.ci95![1]).toBeLessThan(55)
    expect(cell.reason).toMatch(/^100 % → 50 %: the change's 95 % interval 4\d\.\d % to 5\d\.\d % lies below 100 %$/)
  })

  it('turns around: the older run against the newer is "improved" at 200 %', () => {
    const cell = compareReleases(newer, older).rows[0]!.cells[0]!
    expect(cell.verdict).toBe('improved')
    expect(cell.changePct).toBeCloseTo(200, 6)
  })

  it('calls a change whose whole interval is within 100 % ± the margin "unchanged", a wide one "inconclusive"', () => {
    const again = run([...cpu('host', [1001, 1011, 991]), ...cpu('guest', [1000, 1009, 993])])
    const same = compareReleases(older, again).rows[0]!.cells[0]!
    expect(same.verdict).toBe('unchanged')
    expect(same.ci95![0]).toBeGreaterThanOrEqual(97)
    expect(same.ci95![1]).toBeLessThanOrEqual(103)
    const noisy = run([...cpu('host', [1000, 1100, 900]), ...cpu('guest', [1000, 850, 1150])])
    expect(compareReleases(older, noisy).rows[0]!.cells[0]!.verdict).toBe('inconclusive')
    // the margin given (the plan's) decides: ± 0.1 point leaves the repeat run undecided
    expect(compareReleases(older, again, 0.1).rows[0]!.cells[0]!.verdict).toBe('inconclusive')
  })

  it('is inconclusive, with the reason, where a run has no interval or no figure', () => {
    const single = run([...cpu('host', [1000]), ...cpu('guest', [500])])
    const cell = compareReleases(older, single).rows[0]!.cells[0]!
    expect(cell).toMatchObject({ verdict: 'inconclusive', changePct: 50 })
    expect(cell.reason).toMatch(/^no interval in the newer run \(no interval with 1 and 1 values/)
    const withNet = run([...cpu('host', [1000, 1010, 990]), ...cpu('guest', [1000, 1008, 992]), ...repetitions('host', 'net', 'iperf3.received.bandwidth', [9e8, 9.1e8, 8.9e8], 'bit/s', 'higher'), ...repetitions('guest', 'net', 'iperf3.received.bandwidth', [9e8, 9e8, 9e8], 'bit/s', 'higher')])
    const release = compareReleases(older, withNet)
    expect(release.rows.map((r) => r.metric)).toEqual(['sysbench.cpu.events', 'iperf3.received.bandwidth'])
    expect(release.rows[1]!.cells[0]).toMatchObject({ verdict: 'inconclusive', reason: 'the older run has no such figure' })
    expect(compareReleases(withNet, older).rows[1]!.cells[0]!.reason).toBe('the newer run has no such figure')
    expect(releaseCounts(release.rows, 'guest')).toEqual({ regressed: 0, improved: 0, unchanged: 1, inconclusive: 1 })
  })

  it('compares a count as a change of its difference, worse where more is worse', () => {
    const retransmits = (guest: number[]) =>
      run([...repetitions('host', 'net', 'iperf3.retransmits', [0, 1, 0], 'count', 'lower'), ...repetitions('guest', 'net', 'iperf3.retransmits', guest, 'count', 'lower')])
    const cell = compareReleases(retransmits([0, 1, 1]), retransmits([40, 42, 44])).rows[0]!.cells[0]!
    expect(cell.changeDifference).toBe(41)
    expect(cell.verdict).toBe('regressed')
  })
})
