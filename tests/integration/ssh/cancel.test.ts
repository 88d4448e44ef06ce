import { existsSync, mkdtempSync, chmodSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { SshSession } from '../../../src/main/ssh/session'
import { connectAs, createThrowawayUser, pgrep, uniqueSleep, waitFor, type ThrowawayUser } from './session-helpers'

/**
 * Processes whose command line holds one of the given unique sleeps: the sleeps themselves and
 * the shells whose script text names them.
 */
function alive(...sleeps: string[]): number {
  return sleeps.reduce((n, s) => n + pgrep(`sleep ${s}`).length, 0)
}

/** True once every given sleep runs. */
function allRunning(...sleeps: string[]): boolean {
  return sleeps.every((s) => pgrep(`sleep ${s}`).length > 0)
}

describe('cancelling commands on a real sshd', () => {
  let server: SshdServer
  let user: ThrowawayUser
  let scratch: string

  beforeAll(async () => {
    user = createThrowawayUser()
    server = await startSshd({ maxSessions: 3, extraConfig: user.sshdConfig })
    user.authorize(server)
    scratch = mkdtempSync(path.join(os.tmpdir(), 'virtbench-cancel-'))
    chmodSync(scratch, 0o777)
  })
  afterAll(async () => {
    await server?.stop()
    user?.remove()
    rmSync(scratch, { recursive: true, force: true })
  })

  const open = (opts: { maxChannels?: number; killGraceMs?: number } = {}): SshSession =>
    new SshSession({ label: 'cancel-target', connect: connectAs(server, user), killGraceMs: 400, ...opts })

  it('stops the whole process tree: background jobs, subshells, and what ignores TERM', async () => {
    const session = open()
    const [bg, sub, stubborn, last] = [uniqueSleep(), uniqueSleep(), uniqueSleep(), uniqueSleep()]
    try {
      const ac = new AbortController()
      const running = session.exec(
        { script: `sleep ${bg} & ( sleep ${sub} ) & sh -c 'trap "" TERM; sleep ${stubborn}; :' & sleep ${last}` },
        { signal: ac.signal }
      )
      expect(await waitFor(() => allRunning(bg, sub, stubborn, last), 10_000)).toBe(true)
      const t0 = Date.now()
      ac.abort()
      const r = await running
      expect(r.cancelled).toBe(true)
      expect(r.timedOut).toBe(false)
      // TERM, then KILL after the 400 ms grace for the TERM-ignoring shell: well under 3 s
      expect(Date.now() - t0).toBeLessThan(3000)
      // when exec() returns, nothing of the group is left
      expect(alive(bg, sub, stubborn, last)).toBe(0)
      // the connection is fine afterwards
      expect((await session.exec('echo ok', { capture: { maxBytes: 10 } })).stdout?.toString()).toBe('ok\n')
    } finally {
      await session.close()
    }
  })

  it('does not run a command whose signal is already aborted', async () => {
    const session = open()
    const marker = path.join(scratch, 'ran-already-aborted')
    try {
      const r = await session.exec({ argv: ['touch', marker] }, { signal: AbortSignal.abort() })
      expect(r).toMatchObject({ cancelled: true, exitCode: null, signal: null, stdoutBytes: 0 })
      expect(existsSync(marker)).toBe(false)
    } finally {
      await session.close()
    }
  })

  it('drops a queued command that is cancelled before a channel is free', async () => {
    const session = open({ maxChannels: 1 })
    const marker = path.join(scratch, 'ran-queued')
    const blocker = uniqueSleep()
    try {
      const stopFirst = new AbortController()
      const first = session.exec({ argv: ['sleep', blocker] }, { signal: stopFirst.signal })
      expect(await waitFor(() => allRunning(blocker), 10_000)).toBe(true)
      const ac = new AbortController()
      const queued = session.exec({ argv: ['touch', marker] }, { signal: ac.signal })
      ac.abort()
      expect(await queued).toMatchObject({ cancelled: true, exitCode: null })
      stopFirst.abort()
      expect(await first).toMatchObject({ cancelled: true, signal: 'TERM' })
      expect(existsSync(marker)).toBe(false)
    } finally {
      await session.close()
    }
  })

  it('closes every channel after cancels: many cancels in a row on MaxSessions 3 leave the connection usable', async () => {
    const session = open({ maxChannels: 2 })
    try {
      for (let i = 0; i < 6; i++) {
        const s = uniqueSleep()
        const ac = new AbortController()
        const running = session.exec({ argv: ['sleep', s] }, { signal: ac.signal })
        expect(await waitFor(() => allRunning(s), 10_000)).toBe(true)
        ac.abort()
        expect((await running).cancelled).toBe(true)
        expect(alive(s)).toBe(0)
      }
      const all = await Promise.all([1, 2, 3].map((i) => session.exec({ argv: ['echo', String(i)] }, { capture: { maxBytes: 10 } })))
      expect(all.map((r) => r.stdout?.toString())).toEqual(['1\n', '2\n', '3\n'])
      expect(server.logs()).not.toContain('no more sessions')
    } finally {
      await session.close()
    }
  })

  it('cancels while every channel is busy: the kill still gets through', async () => {
    // 2 channels for commands; the server allows 3, so the kill uses the one kept for control
    const session = open({ maxChannels: 2 })
    const [a, b] = [uniqueSleep(), uniqueSleep()]
    try {
      const acA = new AbortController()
      const runA = session.exec({ script: `sleep ${a}` }, { signal: acA.signal })
      const runB = session.exec({ script: `sleep ${b}` }, { timeoutMs: 1500 })
      expect(await waitFor(() => allRunning(a, b), 10_000)).toBe(true)
      acA.abort()
      expect((await runA).cancelled).toBe(true)
      expect((await runB).timedOut).toBe(true)
      expect(alive(a, b)).toBe(0)
    } finally {
      await session.close()
    }
  })

  it('reports the exit of a command that finished just as it was cancelled', async () => {
    const session = open()
    try {
      const ac = new AbortController()
      const running = session.exec({ script: 'echo done' }, { signal: ac.signal, capture: { maxBytes: 100 } })
      setTimeout(() => ac.abort(), 0)
      const r = await running
      expect(r.stdout?.toString() === 'done\n' || r.stdoutBytes === 0).toBe(true)
      expect((await session.exec('echo next', { capture: { maxBytes: 100 } })).stdout?.toString()).toBe('next\n')
    } finally {
      await session.close()
    }
  })
})
