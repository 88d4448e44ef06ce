/**
 * The platform probe rides in front of a session's first command (issue 22): one channel for
 * both, the facts known from it, and commands that come meanwhile wait for them instead of
 * probing again. A first command that does not start (a shell that is no POSIX one as expected;
 * here a login whose ~/.bashrc says OS=Windows_NT, as MSYS does) runs once, after the probe on its own.
 */
import { readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Client } from 'ssh2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SshSession } from '../../../src/main/ssh/session'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { connectClient, createThrowawayUser, type ThrowawayUser } from './session-helpers'

/** A session whose connections count the channels their commands open. */
function countingSession(server: SshdServer, username?: string): { session: SshSession; commands: string[] } {
  const commands: string[] = []
  const session = new SshSession({
    label: 'folding',
    connect: async () => {
      const client = await connectClient(server, username ? { username } : {})
      const exec = client.exec.bind(client) as unknown as (command: string, ...rest: unknown[]) => Client
      ;(client as unknown as { exec: typeof exec }).exec = (command, ...rest) => {
        commands.push(command)
        return exec(command, ...rest)
      }
      return client as Client
    }
  })
  return { session, commands }
}

describe('the platform probe folded into the first command', () => {
  let server: SshdServer
  beforeAll(async () => {
    server = await startSshd()
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('runs the first command and learns the facts on one channel; the next commands use the short wrapper', async () => {
    const { session, commands } = countingSession(server)
    try {
      const first = await session.exec({ argv: ['printf', '%s\\n', 'first'] }, { capture: { maxBytes: 100 } })
      expect([first.exitCode, first.stdout?.toString()]).toEqual([0, 'first\n'])
      expect(commands).toHaveLength(1)
      const facts = await session.facts()
      expect(facts).toMatchObject({ shell: 'posix', system: os.type(), release: os.release(), homeDir: os.homedir() })
      expect(commands).toHaveLength(1)
      const second = await session.exec('echo second', { capture: { maxBytes: 100 } })
      expect(second.stdout?.toString()).toBe('second\n')
      expect(commands).toHaveLength(2)
      expect(commands[1]).not.toContain('uname')
    } finally {
      await session.close()
    }
  })

  it('lets commands that come meanwhile wait for the facts instead of probing again', async () => {
    const { session, commands } = countingSession(server)
    try {
      const results = await Promise.all(['a', 'b', 'c'].map((word) => session.exec(`echo ${word}`, { capture: { maxBytes: 100 } })))
      expect(results.map((r) => r.stdout?.toString())).toEqual(['a\n', 'b\n', 'c\n'])
      expect(commands).toHaveLength(3)
      expect(commands.filter((c) => c.includes('uname'))).toHaveLength(1)
    } finally {
      await session.close()
    }
  })

  it("checks a session's scripts in its first command: one channel for the probe and the check when they are in place", async () => {
    const user = createThrowawayUser()
    const own = await startSshd({ extraConfig: user.sshdConfig })
    user.authorize(own)
    const scripts = path.resolve(__dirname, '../../../resources/scripts')
    try {
      const first = countingSession(own, user.name)
      const put = await first.session.ensureScripts(scripts).finally(() => first.session.close())
      expect(put.uploaded).toBe(true)
      const { session, commands } = countingSession(own, user.name)
      try {
        const found = await session.ensureScripts(scripts)
        expect(found).toMatchObject({ remoteDir: put.remoteDir, uploaded: false, hash: put.hash })
        expect(found.remoteDir).toBe(`${user.home}/.cache/virtbench/${put.hash}`)
        expect(commands).toHaveLength(1)
        expect(commands[0]).toContain('uname')
        expect(await session.facts()).toMatchObject({ shell: 'posix', homeDir: user.home })
        expect(commands).toHaveLength(1)
      } finally {
        await session.close()
      }
    } finally {
      await own.stop()
      user.remove()
    }
  })

  describe('a first command that does not start', () => {
    let noisy: SshdServer
    let user: ThrowawayUser
    beforeAll(async () => {
      user = createThrowawayUser({ shell: '/bin/bash', files: { '.bashrc': 'echo bashrc-banner\nexport OS=Windows_NT\n' } })
      noisy = await startSshd({ extraConfig: user.sshdConfig })
      user.authorize(noisy)
    })
    afterAll(async () => {
      await noisy?.stop()
      user?.remove()
    })

    it('runs once, after the probe on its own, with nothing of the failed start in its output', async () => {
      const { session, commands } = countingSession(noisy, user.name)
      const counter = path.join(user.home, 'ran')
      try {
        const result = await session.exec(`echo once >> ${counter}; echo done; echo note >&2`, { capture: { maxBytes: 100 } })
        expect([result.exitCode, result.stdout?.toString(), result.stderr?.toString()]).toEqual([0, 'done\n', 'note\n'])
        expect(readFileSync(counter, 'utf8')).toBe('once\n')
        // the probing command, the probe on its own, the command again
        expect(commands).toHaveLength(3)
        expect(await session.facts()).toMatchObject({ shell: 'posix', homeDir: user.home })
      } finally {
        await session.close()
      }
    })
  })
})
