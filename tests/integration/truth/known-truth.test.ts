/**
 * Proof against a known truth (issue 21): VirtBench measures targets whose speed the test sets
 * (a CPU quota, a disk throttle, a network rate limit; tests/harness/truth/, docs/known-truth.md)
 * and must report the truth: a guest given 40 % of the baseline's limit comes out at 40 % ± 3
 * points with the verdict "slower", and a twin of the baseline (the same limits) comes out "same"
 * (its whole interval within 100 % ± 5: the plans' margin, wide enough for the ± 2 points the
 * adaptive repetitions stop at; tests/harness/truth-run.ts).
 * The truth comes from the limits, so this holds on a loaded machine. `npm run bench:truth` prints
 * the same cases as a table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cellOf, measureAgainstTruth, primaryTotalRow, TRUTH_CASES, TRUTH_PCT, type TruthMeasurement } from '../../harness/truth-run'

/** How close VirtBench must come, in points of relative %. */
const TOLERANCE_POINTS = 3
const MINUTES = 60_000

describe.each(TRUTH_CASES)('known truth: $limit', (truthCase) => {
  let measured: TruthMeasurement
  beforeAll(async () => {
    measured = await measureAgainstTruth(truthCase.specs, truthCase.plan)
  }, 8 * MINUTES)
  afterAll(() => measured?.lab.stop())

  it('runs every job and leaves adaptive repetitions a reason to stop', () => {
    expect(measured.run.jobs.filter((j) => j.status !== 'succeeded').map((j) => `${j.id} ${j.side}: ${j.error}`)).toEqual([])
    for (const test of measured.run.tests) expect(test.adaptive?.stoppedBecause, test.adaptive?.message).toMatch(/^(precise|max-repetitions)$/)
  })

  it.each(truthCase.tests)('$what: the guest at 40 % ± 3 points and slower, the twin the same', ({ testId, metric }) => {
    const row = primaryTotalRow(measured.comparison, testId)
    expect(row?.metric, `the one primary row of ${testId}`).toBe(metric)
    const guest = cellOf(row!, 'guest')
    const twin = cellOf(row!, 'twin')
    expect(guest.relativePct, `${metric}: guest at ${guest.relativePct} %`).toBeGreaterThanOrEqual(TRUTH_PCT - TOLERANCE_POINTS)
    expect(guest.relativePct).toBeLessThanOrEqual(TRUTH_PCT + TOLERANCE_POINTS)
    expect(guest.verdict, guest.verdictReason).toBe('slower')
    // the interval the verdict stands on contains the truth
    expect(guest.ci95![0]).toBeLessThanOrEqual(TRUTH_PCT + TOLERANCE_POINTS)
    expect(guest.ci95![1]).toBeGreaterThanOrEqual(TRUTH_PCT - TOLERANCE_POINTS)
    expect(twin.verdict, `${metric}: twin at ${twin.relativePct} %: ${twin.verdictReason}`).toBe('same')
  })
})
