import { execFile } from 'node:child_process'
import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { importSshConfig } from '../../../src/main/ssh/ssh-config'
import { startSshAgent, type SshAgent } from '../../harness/ssh-agent'

/**
 * A Host without IdentityFile is imported to log in as OpenSSH would: the agent's keys when a
 * running agent holds some (unless IdentitiesOnly or IdentityAgent none keep them out), otherwise
 * the first of ssh's default identity files (~/.ssh/id_rsa, id_ecdsa, id_ed25519, ...). Real
 * ssh-keygen keys and a real ssh-agent.
 */

const run = promisify(execFile)
let home: string
let sshDir: string
let agent: SshAgent | undefined

const CONFIG = [
  'Host plain',
  '  HostName 10.0.0.1',
  'Host only',
  '  HostName 10.0.0.2',
  '  IdentitiesOnly yes',
  'Host noagent',
  '  HostName 10.0.0.3',
  '  IdentityAgent none',
  'Host named',
  '  HostName 10.0.0.4',
  '  IdentityFile ~/.ssh/work_key',
  ''
].join('\n')

async function keygen(name: string, type: 'ecdsa' | 'ed25519'): Promise<string> {
  const file = path.join(sshDir, name)
  await run('ssh-keygen', ['-q', '-t', type, '-N', '', '-f', file], { timeout: 20_000 })
  return file
}

async function authOf(env: Record<string, string | undefined>): Promise<{ auth: Record<string, unknown>; warnings: string[] }> {
  const result = await importSshConfig({ homeDir: home, localUser: 'alice', env })
  return {
    auth: Object.fromEntries(result.candidates.map((c) => [c.name, c.auth])),
    warnings: result.warnings.map((w) => `${w.line}: ${w.message}`)
  }
}

beforeAll(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'vb-default-identity-'))
  sshDir = path.join(home, '.ssh')
  await fs.mkdir(sshDir, { mode: 0o700 })
  await fs.writeFile(path.join(sshDir, 'config'), CONFIG)
  await keygen('work_key', 'ed25519')
})
afterEach(async () => {
  await agent?.stop()
  agent = undefined
})
afterAll(async () => {
  await fs.rm(home, { recursive: true, force: true })
})

describe('importing a Host that names no IdentityFile', () => {
  it('with no default key and no agent: stays on the agent and says what is missing', async () => {
    const { auth, warnings } = await authOf({})
    expect(auth.plain).toEqual({ method: 'agent' })
    expect(auth.named).toEqual({ method: 'key', keyPath: path.join(sshDir, 'work_key'), hasPassphrase: false })
    expect(warnings[0]).toBe(
      '1: plain: no IdentityFile, no SSH agent with keys is running, and none of ~/.ssh/id_rsa, ~/.ssh/id_ecdsa, ~/.ssh/id_ed25519, ~/.ssh/id_dsa is a private key; ' +
        'imported to log in with the SSH agent (start one with your key, or choose a key file or password for it)'
    )
    expect(warnings[1]).toContain('only: no IdentityFile, IdentitiesOnly is set, and none of')
    expect(warnings[2]).toContain('noagent: no IdentityFile, IdentityAgent is none, and none of')
    expect(warnings).toHaveLength(3)
  })

  it('uses the first default identity in ssh order, and names the others ssh would also try', async () => {
    const ed25519 = await keygen('id_ed25519', 'ed25519')
    const ecdsa = await keygen('id_ecdsa', 'ecdsa')
    try {
      const { auth, warnings } = await authOf({})
      for (const host of ['plain', 'only', 'noagent']) expect(auth[host], host).toEqual({ method: 'key', keyPath: ecdsa, hasPassphrase: false })
      expect(warnings[0]).toBe(`1: plain: no IdentityFile and no SSH agent with keys is running: ssh would try id_ecdsa, id_ed25519 in turn; VirtBench uses the first, ${ecdsa}`)
      expect(warnings).toHaveLength(3)
    } finally {
      await fs.rm(ecdsa)
      await fs.rm(ed25519)
    }
  })

  it('uses a running agent that holds keys, except where IdentitiesOnly or IdentityAgent none keep it out', async () => {
    const ed25519 = await keygen('id_ed25519', 'ed25519')
    try {
      agent = await startSshAgent({ keyPaths: [path.join(sshDir, 'work_key')] })
      const { auth, warnings } = await authOf({ SSH_AUTH_SOCK: agent.socketPath })
      expect(auth.plain).toEqual({ method: 'agent' })
      expect(auth.only).toEqual({ method: 'key', keyPath: ed25519, hasPassphrase: false })
      expect(auth.noagent).toEqual({ method: 'key', keyPath: ed25519, hasPassphrase: false })
      expect(auth.named).toEqual({ method: 'key', keyPath: path.join(sshDir, 'work_key'), hasPassphrase: false })
      expect(warnings).toEqual([])
    } finally {
      await fs.rm(ed25519)
    }
  })

  it('treats an agent that holds no key like no agent', async () => {
    const ed25519 = await keygen('id_ed25519', 'ed25519')
    try {
      agent = await startSshAgent()
      const { auth } = await authOf({ SSH_AUTH_SOCK: agent.socketPath })
      expect(auth.plain).toEqual({ method: 'key', keyPath: ed25519, hasPassphrase: false })
    } finally {
      await fs.rm(ed25519)
    }
  })
})
