/**
 * sudo refused in the middle of a run: the login's sudo rule is removed after the first job, so
 * the next steps that need root (dd's page-cache drop) are refused on sessions that had used sudo
 * (each target's session checks sudo when the run starts). The jobs fail at once, saying which
 * target, which step and what to do; the run ends by itself.
 */
import path from 'node:path'
import { existsSync, rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { createThrowawayUser, type ThrowawayUser, waitFor } from '../ssh/session-helpers'
import { expectActionable, expectCompletedKept, expectDocumentAndRawOutputs, expectEndedWithin, expectNothingLeft, scratchDir, startFaultRun } from './fault-kit'

/** dd's step limits are 120 s of grace and more; the run must end long before. */
const LIMIT_SECONDS = 120

describe('sudo refused mid-run', () => {
  let user: ThrowawayUser
  let server: SshdServer
  let scratch: ReturnType<typeof scratchDir>
  beforeAll(async () => {
    user = createThrowawayUser({ sudo: 'nopasswd' })
    server = await startSshd({ extraConfig: user.sshdConfig })
    user.authorize(server)
    scratch = scratchDir()
  })
  afterAll(async () => {
    await server?.stop()
    user?.remove()
    scratch?.remove()
  })

  it('fails the steps that need root with the reason and what to do; the job that ran before is kept', async () => {
    const plan = ComparisonPlanSchema.parse({
      name: 'sudo revoked',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      storage: { kind: 'directory', path: path.join(user.home, 'work') },
      repetitions: 2,
      schedule: { order: 'grouped' },
      tests: [{ id: 'read', tool: 'dd', params: { mode: 'read', blockSize: '64k', count: '16', dropCaches: true, fileName: 'vbfault-read' } }]
    })
    const runDir = path.join(scratch.dir, 'run')
    const targets = ['host', 'guest'].map((name, i) => ({
      name,
      role: i === 0 ? ('baseline' as const) : ('variant' as const),
      server,
      username: user.name,
      sudo: { mode: 'passwordless' } as const
    }))
    // the first job used sudo; then the rule goes, as the engine says the job finished (before the
    // next job can start: a wait for the event here could let the next job's sudo step through)
    const rule = `/etc/sudoers.d/virtbench-test-${user.name}`
    const run = await startFaultRun(plan, targets, runDir, {
      onEvent: (e) => {
        if (e.type === 'job-finished') rmSync(rule, { force: true })
      }
    })
    expect(await waitFor(() => run.events.some((e) => e.type === 'job-finished'), 60_000)).toBe(true)
    expect(existsSync(rule)).toBe(false)
    const { status } = await expectEndedWithin(run, LIMIT_SECONDS)
    expect(status).toBe('failed')

    const doc = await expectDocumentAndRawOutputs(runDir)
    expect(doc.jobs.map((j) => `${j.side}/${j.repetition}:${j.status}`)).toEqual(['host/1:succeeded', 'host/2:failed', 'guest/1:failed', 'guest/2:failed'])
    expectCompletedKept(doc, [doc.jobs[0]!.id])
    for (const [job, target] of [[doc.jobs[1]!, 'host'], [doc.jobs[2]!, 'guest'], [doc.jobs[3]!, 'guest']] as const) {
      expectActionable(job.error, target, "step 'drop-caches' of dd", /store its sudo password, then resume the run\.$/)
      expect(job.error).toContain('sudo refused it (sudo: a password is required)')
    }
    await expectNothingLeft(`vb-${doc.id}`)
  })
})
