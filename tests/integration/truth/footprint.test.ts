/**
 * VirtBench's own footprint on a measured target (issue 22): while a measured step runs, nothing of
 * VirtBench's runs there (the job's wait is a shell blocked on a FIFO; the CPU counters around the
 * step are read by shell builtins), so a CPU-bound tool in a target given a set CPU quota reports
 * what the quota gives it. Known truth (tests/harness/truth/, docs/known-truth.md): the baseline
 * gets 40 % of one CPU and the guest 12 %, a share of 30 %.
 *
 * The quota itself is not exact: sysbench run on its own in the same cgroups reads 29.2 to 30.2 %
 * on this share (CFS bandwidth accounting, and whatever else the machine does). So VirtBench's
 * figure is held to that direct measurement, taken in the same test (six pairs, each pair's order
 * the reverse of the last, so drift cancels), within 1 point beyond the noise both measurements
 * show (their 95 % intervals combined), and to the set share within 1.5 points, which has no noise
 * allowance. Before issue 22, VirtBench's own processes in the guest took it to 27.7 %: both checks
 * fail on that.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { measureCpu, percentOf } from '../../harness/truth'
import { cellOf, measureAgainstTruth, primaryTotalRow, type TruthMeasurement } from '../../harness/truth-run'
import { studentTQuantile } from '../../../src/shared/compare/student-t'

const SHARE = 30
const SECONDS = 2
const PAIRS = 6
const MINUTES = 60_000

/** Mean and standard error of `values`. */
function meanAndError(values: number[]): { mean: number; error: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1)
  return { mean, error: Math.sqrt(variance / values.length) }
}

describe("VirtBench's footprint: a guest given 30 % of the baseline's CPU quota", () => {
  let measured: TruthMeasurement
  /** sysbench in the same cgroups without VirtBench, host and guest in turn: the guest's share, per pair. */
  const shares: number[] = []
  beforeAll(async () => {
    measured = await measureAgainstTruth(
      [
        { name: 'host', cpu: { percentOfOneCpu: 40 } },
        { name: 'guest', cpu: { percentOfOneCpu: 12 } }
      ],
      {
        tests: [{ id: 'cpu', tool: 'sysbench', params: { test: 'cpu', threads: 1, timeSeconds: SECONDS } }],
        repetitions: 3,
        precision: { halfWidthPct: 1, maxRepetitions: 8 }
      }
    )
    for (let i = 0; i < PAIRS; i++) {
      const [first, second] = i % 2 === 0 ? ['host', 'guest'] : ['guest', 'host']
      const a = await measureCpu(measured.lab.get(first), SECONDS)
      const b = await measureCpu(measured.lab.get(second), SECONDS)
      const [host, guest] = first === 'host' ? [a, b] : [b, a]
      shares.push(percentOf(guest, host))
    }
  }, 8 * MINUTES)
  afterAll(() => measured?.lab.stop())

  it('runs every job', () => {
    expect(measured.run.jobs.filter((j) => j.status !== 'succeeded').map((j) => `${j.id} ${j.side}: ${j.error}`)).toEqual([])
  })

  it('reports through VirtBench what sysbench reports on its own there, within 1 point beyond the noise, and the set share within 1.5', () => {
    const row = primaryTotalRow(measured.comparison, 'cpu')
    expect(row?.metric).toBe('sysbench.cpu.events')
    const cell = cellOf(row!, 'guest')
    const guest = cell.relativePct!
    const [low, high] = cell.ci95!
    // the interval's half-width back to a standard error (its quantile at the repetitions it had)
    const test = measured.run.tests.find((t) => t.id === 'cpu')!
    const repetitions = test.adaptive?.repetitions ?? test.repetitions
    const vbError = (high - low) / 2 / studentTQuantile(0.975, Math.max(1, repetitions - 1))
    const direct = meanAndError(shares)
    const allowance = studentTQuantile(0.975, PAIRS - 1) * Math.hypot(vbError, direct.error)
    const figures =
      `VirtBench ${guest.toFixed(2)} % [${low.toFixed(2)}–${high.toFixed(2)}], sysbench alone ${direct.mean.toFixed(2)} % ` +
      `± ${direct.error.toFixed(2)} (pairs ${shares.map((s) => s.toFixed(2)).join(', ')}), noise allowance ${allowance.toFixed(2)}`
    console.info(`footprint: ${figures}`)
    expect(Math.abs(guest - direct.mean), figures).toBeLessThanOrEqual(1 + allowance)
    expect(Math.abs(guest - SHARE), figures).toBeLessThanOrEqual(1.5)
  })
})
