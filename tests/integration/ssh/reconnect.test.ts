import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Client } from 'ssh2'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { SshSession } from '../../../src/main/ssh/session'
import { SessionError } from '../../../src/main/ssh/types'
import { connectAs, createThrowawayUser, type ThrowawayUser } from './session-helpers'

/**
 * Crashes sshd once the session has a command running on it, and returns when that command has
 * failed: the session has then seen its connection go, so the next command starts by reconnecting
 * (a command sent in the instant before the client sees the drop fails as connection-lost instead).
 */
async function crashUnder(session: SshSession, server: SshdServer): Promise<void> {
  const chunks: string[] = []
  const running = session.exec({ script: 'echo started; sleep 30' }, { onStdout: (c) => void chunks.push(c.toString()) }).catch(() => undefined)
  while (chunks.length === 0) await new Promise((r) => setTimeout(r, 10))
  await server.crash()
  await running
}

function accepted(server: SshdServer): number {
  return (server.logs().match(/Accepted publickey/g) ?? []).length
}

describe('a server that dies and comes back', () => {
  let server: SshdServer
  let user: ThrowawayUser

  beforeAll(async () => {
    user = createThrowawayUser()
    server = await startSshd({ extraConfig: user.sshdConfig })
    user.authorize(server)
  })
  afterAll(async () => {
    await server?.stop()
    user?.remove()
  })

  it('fails the running command clearly, then reconnects for the next one', async () => {
    const session = new SshSession({ label: 'flaky-host', connect: connectAs(server, user) })
    try {
      expect((await session.exec('echo up', { capture: { maxBytes: 10 } })).stdout?.toString()).toBe('up\n')
      const chunks: string[] = []
      const running = session.exec({ script: 'echo started; sleep 30; echo finished' }, { onStdout: (c) => void chunks.push(c.toString()) })
      const failed = running.catch((e: unknown) => e)
      while (chunks.length === 0) await new Promise((r) => setTimeout(r, 10))
      await server.crash()
      const err = await failed
      expect(err).toBeInstanceOf(SessionError)
      expect((err as SessionError).code).toBe('connection-lost')
      expect((err as SessionError).message).toMatch(/^connection to flaky-host lost while running echo started; sleep 30; echo finished/)
      expect(chunks.join('')).toBe('started\n')

      await server.restart()
      const before = accepted(server)
      const r = await session.exec('echo back', { capture: { maxBytes: 10 } })
      expect(r.stdout?.toString()).toBe('back\n')
      expect(accepted(server) - before).toBe(1)
      // and it stays on the new connection
      await session.exec('true')
      expect(accepted(server) - before).toBe(1)
    } finally {
      await session.close()
    }
  })

  it('retries the connection with backoff while the server is down', async () => {
    const session = new SshSession({ label: 'rebooting-host', connect: connectAs(server, user), reconnectDelaysMs: [250, 500, 1000, 2000] })
    try {
      await crashUnder(session, server)
      const t0 = Date.now()
      const pending = session.exec('echo after-restart', { capture: { maxBytes: 100 } })
      setTimeout(() => void server.restart(), 600)
      const r = await pending
      expect(r.stdout?.toString()).toBe('after-restart\n')
      // attempts at 0, 0.25 and 0.75 s fail; the one at 1.75 s finds the restarted server
      expect(Date.now() - t0).toBeGreaterThanOrEqual(700)
      expect(Date.now() - t0).toBeLessThan(6000)
    } finally {
      await session.close()
    }
  })

  it('gives up after the last attempt, saying how often and how long it tried', async () => {
    let attempts = 0
    const connect = connectAs(server, user)
    const session = new SshSession({
      label: 'gone-host',
      connect: (): Promise<Client> => {
        attempts++
        return connect()
      },
      reconnectDelaysMs: [50, 100]
    })
    try {
      await crashUnder(session, server)
      attempts = 0
      const err = await session.exec('true').catch((e: unknown) => e)
      expect(err).toBeInstanceOf(SessionError)
      expect((err as SessionError).code).toBe('connect-failed')
      expect((err as SessionError).message).toMatch(/^cannot connect to gone-host \(3 attempts over 0\.\d s\): connect ECONNREFUSED 127\.0\.0\.1:\d+$/)
      expect(attempts).toBe(3)
    } finally {
      await session.close()
      await server.restart()
    }
  })

  it('fails an SFTP transfer cut by the crash, leaves the old file intact, and transfers after the restart', async () => {
    const session = new SshSession({ label: 'flaky-sftp', connect: connectAs(server, user) })
    const file = `${user.home}/after-crash.bin`
    try {
      await session.writeFile(file, 'first\n')
      const big = Buffer.alloc(64 * 1024 * 1024, 0x61)
      const cut = session.writeFile(file, big).catch((e: unknown) => e)
      await new Promise((r) => setTimeout(r, 30))
      await server.crash()
      const err = await cut
      expect(err).toBeInstanceOf(SessionError)
      expect((err as SessionError).message).toMatch(/^writing .*after-crash\.bin on flaky-sftp failed: /)
      await server.restart()
      // written under a temporary name and renamed at the end: the old content is still there
      const old = await session.exec({ argv: ['cat', file] }, { capture: { maxBytes: 100 } })
      expect(old.stdout?.toString()).toBe('first\n')
      await session.writeFile(file, 'second\n')
      const r = await session.exec({ argv: ['cat', file] }, { capture: { maxBytes: 100 } })
      expect(r.stdout?.toString()).toBe('second\n')
    } finally {
      await session.close()
    }
  })
})
