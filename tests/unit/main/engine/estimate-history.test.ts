import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { durationsOf, jobKey, PastDurations, pastSecondsOf } from '../../../../src/main/engine/estimate-history'
import { CLEANUP_SECONDS, CONNECT_SECONDS, CHECKS_SECONDS, estimateRun, expandTests, planJobs } from '../../../../src/main/engine/planner'
import { RunDocumentSchema, type Job, type RunDocument } from '../../../../src/shared/model/run'

const FIXTURE = path.join(__dirname, '../../../fixtures/runs/loopback-quick')
const recorded: RunDocument = RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(FIXTURE, 'run.json'), 'utf8')))
const seconds = (job: Job): number => (Date.parse(job.endedAt!) - Date.parse(job.startedAt!)) / 1000

const tmp = mkdtempSync(path.join(os.tmpdir(), 'vb-past-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('a job timed by its earlier runs', () => {
  it('keys a job by target, peer, tool, kind and parameters, whatever their order', () => {
    const job = recorded.jobs[0]!
    expect(jobKey({ ...job, params: Object.fromEntries(Object.entries(job.params).reverse()) })).toBe(jobKey(job))
    expect(jobKey({ ...job, target: 'other' })).not.toBe(jobKey(job))
    expect(jobKey({ ...job, params: { ...job.params, size: '32m' } })).not.toBe(jobKey(job))
  })

  it('takes each succeeded job’s seconds from its start and end', () => {
    const durations = durationsOf(recorded)
    const first = recorded.jobs[0]!
    // the recorded run: j0001 ran from 00:45:10.606 to 00:45:12.289
    expect(durations.get(jobKey(first))?.[0]).toBeCloseTo(1.683, 9)
    const timed = recorded.jobs.filter((j) => j.status === 'succeeded' && j.startedAt && j.endedAt)
    expect([...durations.values()].flat()).toHaveLength(timed.length)
  })

  it('gives the median of the newest repetitions, newest run first', () => {
    const job = recorded.jobs[0]!
    const key = jobKey(job)
    const old = { createdAt: '2026-01-01T00:00:00Z', durations: new Map([[key, [100, 100, 100, 100, 100]]]) }
    const newer = { createdAt: '2026-02-01T00:00:00Z', durations: new Map([[key, [2, 4, 3]]]) }
    // five kept: the newer run's three, then two of the old run's
    expect(pastSecondsOf([old, newer])(job)).toBe(4)
    expect(pastSecondsOf([newer])(job)).toBe(3)
    expect(pastSecondsOf([newer])({ ...job, target: 'elsewhere' })).toBeUndefined()
  })
})

describe('the estimate of a plan that ran before', () => {
  const tests = expandTests(recorded.plan)
  const planned = planJobs(recorded.plan, tests)

  it('times every job the recorded run measured by that run, the others by their tool', async () => {
    const runs = path.join(tmp, 'runs')
    cpSync(FIXTURE, path.join(runs, recorded.id), { recursive: true })
    const past = await new PastDurations(runs).load()
    const timed = planned.filter((job) => past(job) !== undefined)
    // a fresh plan of the same preset finds the run's jobs: same targets, tools and parameters
    expect(timed.length).toBeGreaterThan(0)
    const measured = new Set(recorded.jobs.filter((j) => j.status === 'succeeded').map(jobKey))
    expect(timed).toEqual(planned.filter((j) => measured.has(jobKey(j))))
    const estimate = estimateRun(recorded.plan, tests, planned, 1, past)
    expect(estimate.fromPast).toBe(timed.length)
    const expected = planned.reduce((sum, job) => {
      const same = recorded.jobs.filter((r) => r.status === 'succeeded' && jobKey(r) === jobKey(job)).map(seconds)
      return sum + (same.length > 0 ? median(same) : (job.estimatedSeconds ?? 0) + 0.05)
    }, 0)
    expect(estimate.jobsSeconds).toBeCloseTo(expected, 6)
    expect(estimate.seconds).toBe(Math.round(expected + CONNECT_SECONDS + CHECKS_SECONDS + CLEANUP_SECONDS))
  })

  it('reads a run folder again only when its run.json changed, and forgets a deleted one', async () => {
    const runs = path.join(tmp, 'runs2')
    const dir = path.join(runs, recorded.id)
    cpSync(FIXTURE, dir, { recursive: true })
    const index = new PastDurations(runs)
    const job = planned.find((j) => recorded.jobs.some((r) => r.status === 'succeeded' && jobKey(r) === jobKey(j)))!
    const before = (await index.load())(job)
    expect(before).toBeDefined()
    // every repetition of that job now took 60 s
    const changed = structuredClone(recorded)
    for (const r of changed.jobs) {
      if (jobKey(r) === jobKey(job)) r.endedAt = new Date(Date.parse(r.startedAt!) + 60_000).toISOString()
    }
    writeFileSync(path.join(dir, 'run.json'), JSON.stringify(changed))
    utimesSync(path.join(dir, 'run.json'), new Date(), new Date(Date.now() + 5000))
    expect((await index.load())(job)).toBe(60)
    rmSync(dir, { recursive: true })
    expect((await index.load())(job)).toBeUndefined()
  })
})

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}
