import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { SshSession } from '../../../src/main/ssh/session'
import { connectAs, createThrowawayUser, type ThrowawayUser } from './session-helpers'

function count(text: string, re: RegExp): number {
  return (text.match(re) ?? []).length
}

describe('many commands at once on one connection (sshd MaxSessions 2)', () => {
  let server: SshdServer
  let user: ThrowawayUser

  beforeAll(async () => {
    user = createThrowawayUser()
    server = await startSshd({ maxSessions: 2, extraConfig: user.sshdConfig })
    user.authorize(server)
  })
  afterAll(async () => {
    await server?.stop()
    user?.remove()
  })

  const twenty = (session: SshSession): Promise<string[]> =>
    Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const r = await session.exec({ script: `sleep 0.1; echo job-${i}` }, { capture: { maxBytes: 100 } })
        expect(r.exitCode).toBe(0)
        return r.stdout?.toString() ?? ''
      })
    )

  it('queues beyond the configured limit: all 20 complete on one connection', async () => {
    const session = new SshSession({ label: 'ms2', connect: connectAs(server, user), maxChannels: 2 })
    const logBefore = server.logs().length
    try {
      const t0 = Date.now()
      const outputs = await twenty(session)
      expect(outputs).toEqual(Array.from({ length: 20 }, (_, i) => `job-${i}\n`))
      // two at a time: at least ten rounds of 0.1 s
      expect(Date.now() - t0).toBeGreaterThanOrEqual(1000)
      expect(count(server.logs().slice(logBefore), /Accepted publickey/g)).toBe(1)
      // sshd may refuse a channel opened right after one closed (it frees sessions a moment
      // later); such refusals are retried, and the configured limit stays
      expect(session.channelLimit).toBe(2)
    } finally {
      await session.close()
    }
  })

  it('learns the server limit when configured too high (default 8): refusals wait instead of failing', async () => {
    const session = new SshSession({ label: 'ms2-default', connect: connectAs(server, user) })
    const logBefore = server.logs().length
    try {
      expect(session.channelLimit).toBe(8)
      const outputs = await twenty(session)
      expect(outputs).toEqual(Array.from({ length: 20 }, (_, i) => `job-${i}\n`))
      expect(session.channelLimit).toBe(2)
      const log = server.logs().slice(logBefore)
      // the server did refuse (that is how the limit was learned), on the one connection
      expect(log).toContain('no more sessions')
      expect(count(log, /Accepted publickey/g)).toBe(1)
      // a later burst works within the learned limit
      expect(await twenty(session)).toHaveLength(20)
      expect(session.channelLimit).toBe(2)
    } finally {
      await session.close()
    }
  })

  it('mixes commands and an SFTP transfer on the same connection', async () => {
    const session = new SshSession({ label: 'ms2-sftp', connect: connectAs(server, user), maxChannels: 2 })
    try {
      const file = `${user.home}/mixed.txt`
      const [outputs] = await Promise.all([twenty(session), session.writeFile(file, 'written while busy\n')])
      expect(outputs).toHaveLength(20)
      const r = await session.exec({ argv: ['cat', file] }, { capture: { maxBytes: 100 } })
      expect(r.stdout?.toString()).toBe('written while busy\n')
    } finally {
      await session.close()
    }
  })
})
