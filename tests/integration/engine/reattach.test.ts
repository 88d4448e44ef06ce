import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startRun } from '../../../src/main/engine/start-run'
import { readRun } from '../../../src/main/store/run-store'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { pgrep, waitFor } from '../ssh/session-helpers'
import { startLab, type Lab } from './run-harness'


describe('a job whose connection drops (sshd killed in the middle of it)', () => {
  let lab: Lab

  beforeEach(async () => {
    lab = await startLab()
  })

  afterEach(async () => {
    await lab?.stop()
  })

  const planWith = (marker: string) =>
    ComparisonPlanSchema.parse({
      name: 'reattach',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      storage: { kind: 'directory', path: lab.workRoot },
      repetitions: 1,
      tests: [
        { id: 'ping', tool: 'ping', params: { count: 2, intervalSeconds: 0.2 } },
        { id: 'fio', tool: 'fio', params: { name: marker, rw: 'randread', bs: '4k', size: '8m', runtime: 4, timeBased: true, ioengine: 'psync', direct: false } }
      ]
    })

  it('is reattached when the target comes back, and finishes; no completed job is lost', async () => {
    const marker = `vbreattach${Date.now()}`
    const runDir = path.join(lab.dir, 'run')
    const started = await startRun(planWith(marker), runDir, lab.services())
    // the guest's fio job (the last job) is running: kill the guest's sshd and all its sessions
    expect(await waitFor(() => started.engine.run.jobs[3]?.status === 'running' && pgrep(`name=${marker}`).length > 0, 30_000)).toBe(true)
    await lab.guest.crash()
    // the job runs on, detached from the dead connection
    expect(pgrep(`name=${marker}`).length).toBeGreaterThan(0)
    await new Promise((r) => setTimeout(r, 800))
    await lab.guest.restart()
    expect(await started.done).toBe('completed')

    const run = await readRun(runDir)
    expect(run.jobs.map((j) => `${j.testId}/${j.side}:${j.status}`)).toEqual(['ping/host:succeeded', 'ping/guest:succeeded', 'fio/host:succeeded', 'fio/guest:succeeded'])
    const guestFio = run.jobs[3]!
    expect(guestFio.samples.find((s) => s.metric === 'fio.read.iops')!.value).toBeGreaterThan(0)
    expect(lab.events.some((e) => e.type === 'job-reattached' && e.jobId === guestFio.id)).toBe(true)
  })

  it('fails with a clear error when the target is really gone, keeping the jobs that had completed', async () => {
    const marker = `vbgone${Date.now()}`
    const runDir = path.join(lab.dir, 'run')
    const started = await startRun(planWith(marker), runDir, lab.services({ reattachForMs: 2000 }))
    expect(await waitFor(() => started.engine.run.jobs[3]?.status === 'running' && pgrep(`name=${marker}`).length > 0, 30_000)).toBe(true)
    await lab.guest.crash()
    expect(await started.done).toBe('failed')

    const run = await readRun(runDir)
    expect(run.status).toBe('failed')
    expect(run.jobs.slice(0, 3).map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
    expect(run.jobs[2]!.samples.length).toBeGreaterThan(0)
    const lost = run.jobs[3]!
    expect(lost.status).toBe('failed')
    expect(lost.error).toMatch(/^guest is gone: the connection dropped while a job ran and could not be made again/)
    // the orphaned job ends by itself on the target (its own time limit); wait for it, so that
    // nothing of this test keeps running
    expect(await waitFor(() => pgrep(`name=${marker}`).length === 0, 20_000)).toBe(true)
  })
})
