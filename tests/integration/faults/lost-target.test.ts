/**
 * A target lost in the middle of a job: its network link goes down (the target's sshd is in a
 * network namespace joined by a veth pair, `ip link set … down`) and comes back, or never does;
 * or its sshd is killed; or it stops reporting (the wait on it frozen with SIGSTOP), where only
 * the engine's own deadline ends the job. The job keeps running on the target (detached); the engine notices the
 * dead connection by its keepalives, reattaches when it can and otherwise gives up, and the run
 * ends by itself either way. The targets log in as a throwaway account whose shell is /bin/sh:
 * killing root's sessions here could kill its rc files midway (pyenv's rehash leaves its lock
 * behind, and every later root login waits on it).
 */
import { spawnSync } from 'node:child_process'
import { getEventListeners } from 'node:events'
import { chmodSync, existsSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BoundedOutput } from '../../../src/main/engine/bounded-output'
import { DEADLINE_MARGIN_MS, runDetached } from '../../../src/main/engine/detached'
import { scriptsDir } from '../../../src/main/resources'
import { SshSession } from '../../../src/main/ssh/session'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import type { RunDocument } from '../../../src/shared/model/run'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { startLimitedSshd, type LimitedTarget } from '../../harness/truth/limited-sshd'
import { connectClient, createThrowawayUser, pgrep, uniqueSleep, waitFor, type ThrowawayUser } from '../ssh/session-helpers'
import {
  expectActionable,
  expectCompletedKept,
  expectDocumentAndRawOutputs,
  expectEndedWithin,
  expectNothingLeft,
  scratchDir,
  startFaultRun,
  type FaultRun
} from './fault-kit'

const FIO_SECONDS = 3
/** fio's step limit: 1 s to start, the runtime, 120 s of grace (src/main/tools/fio/plan.ts). */
const FIO_LIMIT_SECONDS = 1 + FIO_SECONDS + 120

describe('a target lost during a job', () => {
  let user: ThrowawayUser
  let host: SshdServer
  let guest: LimitedTarget
  let scratch: ReturnType<typeof scratchDir>
  let marker: string

  beforeEach(async () => {
    user = createThrowawayUser()
    scratch = scratchDir()
    chmodSync(scratch.dir, 0o777)
    marker = `vblost${process.pid}${Date.now()}`
    ;[host, guest] = await Promise.all([
      startSshd({ extraConfig: user.sshdConfig }),
      startLimitedSshd({ name: 'guest', workDir: scratch.dir, network: { bitsPerSecond: 1_000_000_000 }, sshd: { extraConfig: user.sshdConfig } })
    ])
    user.authorize(host)
    user.authorize(guest.server)
    chmodSync(guest.hostWorkDir, 0o777)
  })

  afterEach(async () => {
    if (guest?.link) link(guest, 'up')
    await Promise.all([host?.stop(), guest?.stop()])
    user?.remove()
    scratch?.remove()
  })

  const start = (reattachForMs: number): Promise<FaultRun> =>
    startFaultRun(
      ComparisonPlanSchema.parse({
        name: 'lost',
        baseline: { target: 'host' },
        variants: [{ target: 'guest' }],
        storage: { kind: 'directory', path: scratch.dir },
        repetitions: 1,
        tests: [
          { id: 'dd', tool: 'dd', params: { mode: 'write', blockSize: '64k', count: '16', fileName: 'vblost-dd' } },
          { id: 'fio', tool: 'fio', params: { name: marker, rw: 'randread', bs: '4k', size: '8m', runtime: FIO_SECONDS, timeBased: true, ioengine: 'psync', direct: false } }
        ]
      }),
      [
        { name: 'host', role: 'baseline', server: host, username: user.name },
        { name: 'guest', role: 'variant', server: guest.server, username: user.name }
      ],
      path.join(scratch.dir, 'run'),
      { reattachForMs }
    )

  /** The guest's fio job (the run's last) runs on the guest. */
  const guestFioRuns = (run: FaultRun): Promise<boolean> =>
    waitFor(() => run.engine.run.jobs[3]?.status === 'running' && pgrep(`name=${marker}`).length > 0, 60_000, 50)

  it('link down and up again: the job is reattached and its result collected', async () => {
    const run = await start(60_000)
    expect(await guestFioRuns(run)).toBe(true)
    link(guest, 'down')
    const fio = run.engine.run.jobs[3]!
    const status = path.join(guest.hostWorkDir, `vb-${run.engine.run.id}-guest`, '.jobs', `${fio.id}-a1-run`, 'status')
    // the engine noticed the dead link, and the job ended on the target meanwhile
    expect(await waitFor(() => run.events.some((e) => e.type === 'job-reattached' && e.jobId === fio.id) && existsSync(status), 60_000, 50)).toBe(true)
    link(guest, 'up')
    const { status: ended } = await expectEndedWithin(run, FIO_LIMIT_SECONDS)
    expect(ended).toBe('completed')
    const doc = await expectDocumentAndRawOutputs(run.runDir)
    expectCompletedKept(
      doc,
      doc.jobs.map((j) => j.id)
    )
    expect(doc.jobs[3]!.samples.find((s) => s.metric === 'fio.read.iops')!.value).toBeGreaterThan(0)
    await expectNothingLeft(`vb-${doc.id}`)
  })

  it('link down for good: the job fails saying the target is gone and what to do; the others are kept', async () => {
    const run = await start(2000)
    expect(await guestFioRuns(run)).toBe(true)
    link(guest, 'down')
    const doc = await endedWithoutTheGuest(run)
    expect(doc.jobs[3]!.error).toMatch(/^guest is gone: the connection dropped while a job ran and could not be made again \(step 'run' of fio, /)
    // the job stops on the target by itself (fio's own runtime here; its limit at the latest)
    await expectNothingLeft(`name=${marker}`)
  })

  it('sshd killed for good: the same', async () => {
    const run = await start(2000)
    expect(await guestFioRuns(run)).toBe(true)
    await guest.server.crash()
    await endedWithoutTheGuest(run)
    await expectNothingLeft(`name=${marker}`)
  })

  it('sshd killed and back, again and again: the job is reattached each time, and no listener is left behind', async () => {
    const session = new SshSession({ label: 'host', connect: () => connectClient(host, { username: user.name, readyTimeout: 3000 }), reconnectDelaysMs: [100, 250, 500] })
    const abort = new AbortController()
    const sleep = uniqueSleep(4)
    let drops = 0
    const output = { stdout: new BoundedOutput(undefined, 1024, 1024), stderr: new BoundedOutput(undefined, 1024, 1024) }
    const running = runDetached(session, (await session.ensureScripts(scriptsDir())).remoteDir, {
      dir: path.join(scratch.dir, 'job'),
      script: `sleep ${sleep}; echo slept`,
      timeoutSeconds: 60,
      signal: abort.signal,
      output,
      onReattach: () => drops++
    })
    for (let round = 1; round <= 3; round++) {
      // the engine waits on the target again, then its connection goes
      expect(await waitFor(() => pgrep(`sleep ${sleep}`).length > 0 && pgrep('linux/job.sh (run|wait) ').length > 0, 30_000, 50)).toBe(true)
      const before = drops
      await host.crash()
      expect(await waitFor(() => drops > before, 30_000, 50)).toBe(true)
      await host.restart()
    }
    const result = await running
    await session.close()
    expect(result.status).toBe(0)
    expect(result.reattached).toBeGreaterThanOrEqual(3)
    expect((await output.stdout.close()).data.toString()).toBe('slept\n')
    expect(getEventListeners(abort.signal, 'abort')).toEqual([])
  })

  it("a target that stops reporting (its wait frozen): the engine's own deadline stops the job", async () => {
    const session = new SshSession({ label: 'host', connect: () => connectClient(host, { username: user.name, readyTimeout: 3000 }) })
    const sleep = uniqueSleep(30)
    const dir = path.join(scratch.dir, 'frozen')
    const running = runDetached(session, (await session.ensureScripts(scriptsDir())).remoteDir, {
      dir,
      script: `sleep ${sleep}`,
      timeoutSeconds: 1,
      output: { stdout: new BoundedOutput(undefined, 1024, 1024), stderr: new BoundedOutput(undefined, 1024, 1024) }
    })
    // the job runs; the wait that would stop it at its limit and report is frozen
    expect(await waitFor(() => pgrep(`sleep ${sleep}`).length > 0 && pgrep(`job.sh run ${dir} `).length > 0, 30_000, 50)).toBe(true)
    const frozen = pgrep(`job.sh run ${dir} `)
    for (const pid of frozen) process.kill(pid, 'SIGSTOP')
    try {
      const result = await running
      expect(result).toMatchObject({ status: 'timeout', stoppedBy: 'engine' })
      expect(result.interruptions).toEqual([`host did not report the end of the job within its limit of 1 s and ${DEADLINE_MARGIN_MS / 1000} s more: VirtBench stopped it`])
      await expectNothingLeft(`sleep ${sleep}`)
    } finally {
      // the engine's stop of that wait killed it already, normally
      for (const pid of pgrep(`job.sh run ${dir} `)) process.kill(pid, 'SIGCONT')
      await session.close()
    }
  })

  async function endedWithoutTheGuest(run: FaultRun): Promise<RunDocument> {
    const { status } = await expectEndedWithin(run, FIO_LIMIT_SECONDS)
    expect(status).toBe('failed')
    const doc = await expectDocumentAndRawOutputs(run.runDir)
    expect(doc.jobs.map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'failed'])
    expectCompletedKept(
      doc,
      doc.jobs.slice(0, 3).map((j) => j.id)
    )
    expectActionable(doc.jobs[3]!.error, 'guest', "step 'run' of fio", /Check that guest is up and reachable, then resume the run\.$/)
    return doc
  }
})

function link(target: LimitedTarget, state: 'up' | 'down'): void {
  const done = spawnSync('ip', ['link', 'set', target.link!.rootInterface, state], { encoding: 'utf8' })
  if (done.status !== 0) throw new Error(`ip link set ${target.link!.rootInterface} ${state} failed: ${done.stderr}`)
}
