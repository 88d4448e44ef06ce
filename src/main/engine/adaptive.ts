import { compare } from '../../shared/compare'
import { testPrecision } from '../../shared/compare/precision'
import type { Precision } from '../../shared/model/plan'
import type { Job, RunDocument, RunTest } from '../../shared/model/run'
import { comparisonInputOf } from '../../shared/run-comparison'

/**
 * Adaptive repetitions (a plan's `precision`): after a test's planned repetitions, one more
 * interleaved round (every side once more, in the plan's order) until the 95 % interval of each
 * of its primary ratios is within ± the target, the test has its maximum of repetitions, or the
 * extra rounds would pass the run's time budget. Pure functions of the run document; the runner
 * runs the rounds.
 */

export type AdaptiveStop = NonNullable<RunTest['adaptive']>

/** The highest repetition of a test's compared jobs (the planned ones and the rounds added). */
export function repetitionsOf(run: RunDocument, testId: string): number {
  return run.jobs.filter((j) => j.testId === testId && j.kind === 'compare').reduce((n, j) => Math.max(n, j.repetition), 0)
}

/**
 * Whether the test needs another round, and if not, why it stopped. `spentSeconds` is what the
 * extra rounds have taken so far; `roundSeconds` the estimate of one more.
 */
export function nextStep(run: RunDocument, testId: string, precision: Precision, spentSeconds: number, roundSeconds: number): { more: true; message: string } | { more: false; stop: AdaptiveStop } {
  const repetitions = repetitionsOf(run, testId)
  const title = run.tests.find((t) => t.id === testId)?.title ?? testId
  const status = testPrecision(compare(comparisonInputOf(run)), testId, precision.halfWidthPct)
  const half = status.widestHalfWidthPct
  const widthText = half === undefined ? 'no interval yet' : `± ${Number(half.toFixed(1))} points`
  const stop = (stoppedBecause: AdaptiveStop['stoppedBecause'], message: string): { more: false; stop: AdaptiveStop } => ({
    more: false,
    stop: { repetitions, stoppedBecause, ...(half !== undefined ? { halfWidthPct: half } : {}), message: `${title}: ${message}` }
  })
  if (status.nothingToNarrow) return stop('no-interval', `no primary ratio to narrow (its primary figures are counts or did not succeed); stopped at ${repetitions} repetitions`)
  if (status.precise) return stop('precise', `precise after ${repetitions} repetitions: every primary interval within ${widthText} (target ± ${precision.halfWidthPct})`)
  if (lastRoundFailed(run, testId, repetitions)) return stop('failed', `the last round failed on every side; stopped at ${repetitions} repetitions with ${widthText}`)
  if (repetitions >= precision.maxRepetitions) {
    return stop('max-repetitions', `${widthText} after ${repetitions} repetitions, the most the plan allows (target ± ${precision.halfWidthPct}): read its verdicts with that width in mind`)
  }
  if (precision.budgetSeconds !== undefined && spentSeconds + roundSeconds > precision.budgetSeconds) {
    return stop(
      'budget',
      `${widthText} after ${repetitions} repetitions; another round (about ${Math.round(roundSeconds)} s) would pass the time budget of ${precision.budgetSeconds} s (${Math.round(spentSeconds)} s spent)`
    )
  }
  return { more: true, message: `${title}: ${widthText} after ${repetitions} repetitions (target ± ${precision.halfWidthPct}): adding repetition ${repetitions + 1} on every side` }
}

/** A round whose compared jobs all failed: repeating it would fail again. */
function lastRoundFailed(run: RunDocument, testId: string, repetition: number): boolean {
  const round = run.jobs.filter((j) => j.testId === testId && j.kind === 'compare' && j.repetition === repetition)
  return round.length > 0 && round.every((j) => j.status === 'failed')
}

/**
 * One more round of a test: a queued copy of each side's first compared job (same target, side,
 * peer and parameters) with the next repetition, in the order the sides ran.
 */
export function roundJobs(run: RunDocument, testId: string): Job[] {
  const repetition = repetitionsOf(run, testId) + 1
  const firsts = new Map<string, Job>()
  for (const job of run.jobs) {
    if (job.testId === testId && job.kind === 'compare' && !firsts.has(job.side)) firsts.set(job.side, job)
  }
  let next = nextJobNumber(run)
  return [...firsts.values()].map((job) => ({
    id: jobId(next++),
    testId,
    title: job.title,
    tool: job.tool,
    params: job.params,
    target: job.target,
    side: job.side,
    ...(job.peer !== undefined ? { peer: job.peer } : {}),
    kind: 'compare' as const,
    repetition,
    status: 'queued' as const,
    attempts: 0,
    ...(job.estimatedSeconds !== undefined ? { estimatedSeconds: job.estimatedSeconds } : {}),
    steps: [],
    samples: [],
    warnings: []
  }))
}

/** Puts a round right after the test's last job, so the jobs list stays in the order they ran (a later test's file reads stay after). */
export function insertRound(run: RunDocument, testId: string, round: readonly Job[]): void {
  let last = -1
  run.jobs.forEach((j, i) => {
    if (j.testId === testId) last = i
  })
  run.jobs.splice(last + 1, 0, ...round)
}

function nextJobNumber(run: RunDocument): number {
  return run.jobs.reduce((n, j) => Math.max(n, Number(/^j(\d+)$/.exec(j.id)?.[1] ?? 0)), 0) + 1
}

export function jobId(n: number): string {
  return `j${String(n).padStart(4, '0')}`
}
