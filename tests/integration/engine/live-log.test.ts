import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRun } from '../../../src/main/engine/start-run'
import { readRun } from '../../../src/main/store/run-store'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { startLab, type Lab } from './run-harness'

describe('the live log of running steps (job-log events)', () => {
  let lab: Lab
  beforeAll(async () => {
    lab = await startLab()
  })
  afterAll(async () => {
    await lab?.stop()
  })

  it("streams each step's output while it runs and ends exactly as the raw files kept in the run folder", async () => {
    const plan = ComparisonPlanSchema.parse({
      name: 'live',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      storage: { kind: 'directory', path: lab.workRoot },
      repetitions: 1,
      tests: [
        { id: 'dd', tool: 'dd', params: { blockSize: '64k', count: '64' } },
        { id: 'fio', tool: 'fio', params: { name: 'r', rw: 'randread', bs: '4k', size: '8m', runtime: 2, timeBased: true, ioengine: 'psync', direct: false } }
      ]
    })
    const runDir = path.join(lab.dir, 'run-live')
    lab.events.length = 0
    const started = await startRun(plan, runDir, { ...lab.services(), liveLog: true })
    expect(await started.done).toBe('completed')
    const run = await readRun(runDir)
    for (const job of run.jobs) {
      const logs = lab.events.filter((e) => e.type === 'job-log' && e.jobId === job.id)
      const text = (stream: 'stdout' | 'stderr') =>
        logs
          .filter((e) => e.type === 'job-log' && e.stream === stream)
          .map((e) => (e.type === 'job-log' ? e.text : ''))
          .join('')
      const raw = (key: 'stdoutFile' | 'stderrFile') =>
        job.steps
          .filter((s) => !s.background && s[key])
          .map((s) => readFileSync(path.join(runDir, s[key]!), 'utf8'))
          .join('')
      expect(text('stdout'), job.id).toBe(raw('stdoutFile'))
      expect(text('stderr'), job.id).toBe(raw('stderrFile'))
      expect(text('stdout').length + text('stderr').length).toBeGreaterThan(0)
      // every line of a job comes before the job's end
      const finished = lab.events.findIndex((e) => e.type === 'job-finished' && e.jobId === job.id)
      expect(lab.events.findLastIndex((e) => e.type === 'job-log' && e.jobId === job.id)).toBeLessThan(finished)
    }
  })
})
