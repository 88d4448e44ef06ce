/**
 * A target whose work directory is a small loop-mounted ext4 (no blocks reserved for root) that a
 * job fills up: the job's tool fails, and job.sh cannot write the job's exit status there. Before,
 * the status file was left empty and the engine polled it forever; now the job fails at once,
 * saying the disk is full, where, and what to do, and the run goes on.
 */
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import { startLimitedSshd, type LimitedTarget } from '../../harness/truth/limited-sshd'
import { expectActionable, expectCompletedKept, expectDocumentAndRawOutputs, expectEndedWithin, expectNothingLeft, scratchDir, startFaultRun } from './fault-kit'

const DISK_BYTES = 24 * 2 ** 20
/**
 * More than the disk holds, in blocks small enough to fill its last one: dd fails with "No space
 * left on device", and not even its message or its exit status can be written after it.
 */
const FILL = { mode: 'write', blockSize: '512', count: '131072' } as const
/** dd's step limit for 64 MiB: 1 s + 64 MiB at a slow disk's 5 MiB/s + 120 s of grace (src/main/tools/dd/plan.ts). */
const DD_LIMIT_SECONDS = 1 + 64 / 5 + 120

describe('a target whose disk fills up during a job', () => {
  let host: LimitedTarget
  let guest: LimitedTarget
  let scratch: ReturnType<typeof scratchDir>

  beforeEach(async () => {
    scratch = scratchDir()
    const workDir = scratch.dir
    ;[host, guest] = await Promise.all([
      startLimitedSshd({ name: 'host', workDir }),
      // its own small disk, seen at the plan's storage path
      startLimitedSshd({ name: 'guest', workDir, disk: { imageBytes: DISK_BYTES, writeBytesPerSecond: 2 ** 30 } })
    ])
  })

  afterEach(async () => {
    await Promise.all([host?.stop(), guest?.stop()])
    scratch?.remove()
  })

  it("fails that job with the reason, keeps the others and the raw outputs, and leaves nothing behind", async () => {
    const plan = ComparisonPlanSchema.parse({
      name: 'disk full',
      baseline: { target: 'host' },
      variants: [{ target: 'guest' }],
      storage: { kind: 'directory', path: scratch.dir },
      repetitions: 1,
      tests: [{ id: 'fill', tool: 'dd', params: { ...FILL, fileName: 'vbfault-fill' } }, { id: 'after', tool: 'dd', params: { mode: 'write', blockSize: '64k', count: '16', fileName: 'vbfault-after' } }]
    })
    const runDir = path.join(scratch.dir, 'run')
    const run = await startFaultRun(
      plan,
      [
        { name: 'host', role: 'baseline', server: host.server },
        { name: 'guest', role: 'variant', server: guest.server }
      ],
      runDir
    )
    const { status } = await expectEndedWithin(run, DD_LIMIT_SECONDS)
    expect(status).toBe('failed')

    const doc = await expectDocumentAndRawOutputs(runDir)
    expect(doc.jobs.map((j) => `${j.testId}/${j.side}:${j.status}`)).toEqual(['fill/host:succeeded', 'fill/guest:failed', 'after/host:succeeded', 'after/guest:succeeded'])
    expectCompletedKept(doc, [doc.jobs[0]!.id, doc.jobs[2]!.id, doc.jobs[3]!.id])
    const full = doc.jobs[1]!
    expectActionable(full.error, 'guest', 'step write', /Free space there, or choose a storage directory with room in the plan, then resume the run\.$/)
    expect(full.error).toMatch(/^step write on guest ended, but its exit status could not be written \(it exited with 1\): .*\. The target's disk is full: /)
    expect(full.error).toContain(`${guest.workDir} on guest has 0 KiB free`)
    const step = full.steps.find((s) => s.id === 'write')!
    expect(step.exitCode).toBeNull()
    // the raw outputs of the failed step are kept too (what the full disk let dd write: nothing)
    expect(statSync(path.join(runDir, step.stderrFile!)).size).toBe(0)
    // the file that filled the disk was removed: the next job on that disk ran
    expect(readFileSync(path.join(runDir, doc.jobs[3]!.steps[0]!.stderrFile!), 'utf8')).toMatch(/records out/)
    await expectNothingLeft(`vb-${doc.id}`)
  })
})
