import { describe, expect, it } from 'vitest'
import { insertRound, nextStep, repetitionsOf, roundJobs } from '../../../../src/main/engine/adaptive'
import { expandTests, planJobs } from '../../../../src/main/engine/planner'
import { metricDefsOf, withPrimary } from '../../../../src/main/tools/describe-run'
import { ComparisonPlanSchema, type ComparisonPlanInput } from '../../../../src/shared/model/plan'
import { RUN_KIND, RUN_VERSION, type Job, type RunDocument } from '../../../../src/shared/model/run'

const SYSBENCH = { id: 'cpu', tool: 'sysbench', params: { test: 'cpu', timeSeconds: 3 } } as const

function runOf(input: Partial<ComparisonPlanInput> = {}): RunDocument {
  const plan = ComparisonPlanSchema.parse({
    name: 'p',
    baseline: { target: 'host' },
    variants: [{ target: 'guest' }],
    repetitions: 3,
    tests: [SYSBENCH, { id: 'dd', tool: 'dd', params: { blockSize: '1M', count: '16' } }],
    precision: { halfWidthPct: 2, maxRepetitions: 6 },
    ...input
  })
  const tests = expandTests(plan).map(withPrimary)
  return {
    kind: RUN_KIND,
    version: RUN_VERSION,
    id: 'r',
    name: 'p',
    status: 'running',
    createdAt: '',
    updatedAt: '',
    app: { version: 't' },
    plan,
    tests,
    targets: [
      { name: 'host', role: 'baseline', label: 'host', kind: 'local' },
      { name: 'guest', role: 'variant', label: 'guest', kind: 'local' }
    ],
    environment: {},
    preflight: [],
    jobs: planJobs(plan, tests),
    metrics: metricDefsOf(tests.map((t) => t.tool))
  }
}

/** Marks the test's jobs succeeded with events/s `host[i]` and `guest[i]` for repetition i + 1. */
function measure(run: RunDocument, testId: string, host: readonly number[], guest: readonly number[]): void {
  for (const job of run.jobs) {
    if (job.testId !== testId || job.kind !== 'compare') continue
    const value = (job.side === 'host' ? host : guest)[job.repetition - 1]
    if (value === undefined) continue
    succeed(job, value)
  }
}

function succeed(job: Job, eventsPerSecond: number): void {
  job.status = 'succeeded'
  job.samples = [{ metric: 'sysbench.cpu.events', value: eventsPerSecond, unit: 'op/s', better: 'higher', labels: { repetition: String(job.repetition) } }]
}

describe('adaptive repetitions: when to add a round', () => {
  it('stops at once when every primary interval is already within the target', () => {
    const run = runOf()
    measure(run, 'cpu', [1000, 1001, 999], [400, 401, 399.5])
    const step = nextStep(run, 'cpu', run.plan.precision!, 0, 6)
    expect(step.more).toBe(false)
    if (step.more) return
    expect(step.stop).toMatchObject({ repetitions: 3, stoppedBecause: 'precise' })
    expect(step.stop.halfWidthPct).toBeLessThan(2)
    expect(step.stop.message).toMatch(/^sysbench cpu: precise after 3 repetitions: every primary interval within ± 0\.\d points \(target ± 2\)$/)
  })

  it('adds a round while the interval is wider than the target, and says so', () => {
    const run = runOf()
    measure(run, 'cpu', [1000, 1040, 960], [400, 430, 380])
    const step = nextStep(run, 'cpu', run.plan.precision!, 0, 6)
    expect(step.more).toBe(true)
    if (step.more) expect(step.message).toMatch(/^sysbench cpu: ± \d+(\.\d)? points after 3 repetitions \(target ± 2\): adding repetition 4 on every side$/)
  })

  it('stops at the maximum of repetitions, and at the time budget, saying which', () => {
    const run = runOf({ repetitions: 6 })
    measure(run, 'cpu', [1000, 1040, 960, 1010, 990, 1000], [400, 480, 330, 450, 350, 420])
    const max = nextStep(run, 'cpu', run.plan.precision!, 0, 6)
    expect(max.more ? 'more' : max.stop.stoppedBecause).toBe('max-repetitions')
    const run3 = runOf()
    measure(run3, 'cpu', [1000, 1040, 960], [400, 430, 380])
    const budget = nextStep(run3, 'cpu', { halfWidthPct: 2, maxRepetitions: 10, budgetSeconds: 10 }, 8, 6)
    expect(budget.more).toBe(false)
    if (!budget.more) {
      expect(budget.stop.stoppedBecause).toBe('budget')
      expect(budget.stop.message).toContain('another round (about 6 s) would pass the time budget of 10 s (8 s spent)')
    }
  })

  it('stops when a whole round failed, rather than repeat a failure', () => {
    const run = runOf()
    measure(run, 'cpu', [1000, 1040], [400, 430])
    for (const job of run.jobs.filter((j) => j.testId === 'cpu' && j.repetition === 3)) job.status = 'failed'
    const step = nextStep(run, 'cpu', run.plan.precision!, 0, 6)
    expect(step.more ? 'more' : step.stop.stoppedBecause).toBe('failed')
  })

  it('has nothing to narrow in a test whose primary figures did not come back', () => {
    const run = runOf()
    const step = nextStep(run, 'dd', run.plan.precision!, 0, 6)
    expect(step.more ? 'more' : step.stop.stoppedBecause).toBe('no-interval')
  })
})

describe('adaptive repetitions: the round', () => {
  it("copies each side's job with the next repetition and new ids, and goes right after the test", () => {
    const run = runOf()
    const before = run.jobs.map((j) => j.id)
    const round = roundJobs(run, 'cpu')
    expect(round.map((j) => [j.id, j.side, j.repetition, j.status, j.kind])).toEqual([
      ['j0013', 'host', 4, 'queued', 'compare'],
      ['j0014', 'guest', 4, 'queued', 'compare']
    ])
    expect(round[0]!.params).toEqual(run.jobs[0]!.params)
    insertRound(run, 'cpu', round)
    // the cpu test's six jobs, the round, then the dd test's six
    expect(run.jobs.map((j) => j.id)).toEqual([...before.slice(0, 6), 'j0013', 'j0014', ...before.slice(6)])
    expect(repetitionsOf(run, 'cpu')).toBe(4)
    expect(repetitionsOf(run, 'dd')).toBe(3)
  })
})

describe('warm-up runs', () => {
  it('plans one per side before each test, kept apart from the compared jobs', () => {
    const run = runOf({ warmup: true, repetitions: 2 })
    expect(run.jobs.filter((j) => j.testId === 'cpu').map((j) => [j.kind, j.side, j.repetition, j.title])).toEqual([
      ['warmup', 'host', 1, 'sysbench cpu (warm-up)'],
      ['warmup', 'guest', 1, 'sysbench cpu (warm-up)'],
      ['compare', 'host', 1, 'sysbench cpu'],
      ['compare', 'guest', 1, 'sysbench cpu'],
      ['compare', 'host', 2, 'sysbench cpu'],
      ['compare', 'guest', 2, 'sysbench cpu']
    ])
    expect(repetitionsOf(run, 'cpu')).toBe(2)
  })
})
