/**
 * A job's output that stops arriving halfway: the job has ended and its wait has sent the status
 * line and part of the output, then the process sending the rest is frozen (SIGSTOP on the target's
 * `cat`), as a hung connection that neither drops nor moves would look. The engine must take the
 * wait as stalled, drop it and fetch the output again with a new wait, not fail the job as if the
 * session had been closed. Both ways a job is started: a `job.sh run` command, and the target's
 * job server (JobAgent). Real sshd on loopback, a throwaway account whose shell is /bin/sh.
 */
import { chmodSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OutputSink } from '../../../src/main/engine/bounded-output'
import { runDetached } from '../../../src/main/engine/detached'
import { JobAgent } from '../../../src/main/engine/job-agent'
import { scriptsDir } from '../../../src/main/resources'
import { SshSession } from '../../../src/main/ssh/session'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { connectClient, createThrowawayUser, pgrep, waitFor, type ThrowawayUser } from '../ssh/session-helpers'
import { scratchDir } from './fault-kit'

/** 8 MiB: more than the SSH window and the pipes hold, so the sending `cat` is still there to freeze. */
const OUTPUT_BYTES = 8 * 1024 * 1024
const STALL_MS = 5000

/** Counts what arrives; its first write after a start waits for `release()`, which holds the stream back. */
class HeldSink implements OutputSink {
  bytes = 0
  wrong = 0
  restarts = 0
  private held: Promise<void> | undefined
  private let: (() => void) | undefined
  constructor() {
    this.hold()
  }
  hold(): void {
    this.held = new Promise((resolve) => (this.let = resolve))
  }
  release(): void {
    this.let?.()
    this.held = undefined
  }
  write(chunk: Buffer): void | Promise<void> {
    this.bytes += chunk.length
    for (const b of chunk) if (b !== 0x76 && b !== 0x0a) this.wrong++
    return this.held
  }
  restart(): void {
    this.bytes = 0
    this.wrong = 0
    this.restarts++
  }
}

describe('output that stops arriving after the status line', () => {
  let user: ThrowawayUser
  let server: SshdServer
  let session: SshSession
  let scripts: string
  let scratch: ReturnType<typeof scratchDir>

  beforeAll(async () => {
    user = createThrowawayUser()
    scratch = scratchDir()
    chmodSync(scratch.dir, 0o777)
    server = await startSshd({ extraConfig: user.sshdConfig })
    user.authorize(server)
    session = new SshSession({ label: 'host', connect: () => connectClient(server, { username: user.name, readyTimeout: 10_000 }) })
    scripts = (await session.ensureScripts(scriptsDir())).remoteDir
  }, 120_000)

  afterAll(async () => {
    await session?.close()
    await server?.stop()
    user?.remove()
    scratch?.remove()
  }, 60_000)

  it.each([
    { how: 'a job.sh run command', served: false },
    { how: 'the job server', served: true }
  ])('started by $how: the wait is taken as stalled and the whole output fetched again', async ({ served }) => {
    const dir = path.join(scratch.dir, served ? 'served' : 'command')
    const agent = served ? new JobAgent(session, `${scripts}/linux/job.sh`, { idleMs: 600_000 }) : undefined
    const stdout = new HeldSink()
    const stderr = new HeldSink()
    stderr.release()
    const sender = `cat ${dir}/stdout`
    const frozen: number[] = []
    try {
      const running = runDetached(session, scripts, {
        dir,
        script: `yes v | head -c ${OUTPUT_BYTES}`,
        timeoutSeconds: 60,
        keepBytes: 2 * OUTPUT_BYTES,
        outputStallMs: STALL_MS,
        output: { stdout, stderr },
        ...(agent ? { agent } : {})
      })
      // the status line has come and the sink holds the stream back: the target's cat waits to write
      expect(await waitFor(() => pgrep(sender).length > 0, 60_000, 20)).toBe(true)
      for (const pid of pgrep(sender)) {
        process.kill(pid, 'SIGSTOP')
        frozen.push(pid)
      }
      stdout.release()
      const result = await running
      expect(result.status).toBe(0)
      expect(result.interruptions).toContain(`the output stopped arriving for ${STALL_MS / 1000} s`)
      expect(result.reattached).toBeGreaterThanOrEqual(1)
      // the output was started over and came whole from the wait after the stall
      expect(stdout.restarts).toBeGreaterThanOrEqual(1)
      expect(stdout.bytes).toBe(OUTPUT_BYTES)
      expect(stdout.wrong).toBe(0)
    } finally {
      for (const pid of frozen) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          // gone with its channel already
        }
      }
      await agent?.close()
    }
  }, 120_000)
})
