/**
 * Authentication against real OpenSSH servers, one method at a time: keys (OpenSSH and PEM
 * format, encrypted), password, keyboard-interactive, and a real ssh-agent.
 */
import { execFile } from 'node:child_process'
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Client } from 'ssh2'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AuthSpec } from '../../../src/main/ssh/auth'
import { connect, ConnectError } from '../../../src/main/ssh/connect'
import { startSshAgent, type SshAgent } from '../../harness/ssh-agent'
import { startSshd, type SshdServer } from '../../harness/sshd'

const run = promisify(execFile)
const PASSWORD = 'correct horse 42'
const PASSPHRASE = 'key-passphrase-7'

let dir: string
let server: SshdServer | undefined
let agent: SshAgent | undefined
const clients: Client[] = []

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'virtbench-auth-'))
})

afterEach(async () => {
  for (const c of clients.splice(0)) c.end()
  await agent?.stop()
  agent = undefined
  await server?.stop()
  server = undefined
  await rm(dir, { recursive: true, force: true })
})

function knownHosts(s: SshdServer): { appFile: string } {
  return { appFile: path.join(dir, `known_hosts_${s.port}`) }
}

async function login(s: SshdServer, auth: AuthSpec): Promise<Client> {
  const client = await connect(
    { host: s.host, port: s.port, username: s.username, auth, label: 'lab-host', readyTimeoutMs: 10_000 },
    { decideHostKey: () => Promise.resolve('accept-once'), knownHosts: knownHosts(s), agentEnvironment: { sshAuthSock: undefined } }
  )
  clients.push(client)
  return client
}

async function loginError(s: SshdServer, auth: AuthSpec): Promise<ConnectError> {
  const error = await login(s, auth).then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(ConnectError)
  return error as ConnectError
}

function exec(client: Client, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, stream) => {
      if (err) {
        reject(err)
        return
      }
      let out = ''
      stream.on('data', (d: Buffer) => (out += d.toString()))
      stream.stderr.resume()
      stream.on('close', () => resolve(out))
    })
  })
}

/** A new user key pair, its public half authorized on the server. Returns the private key file. */
async function authorizedKey(s: SshdServer, keygenArgs: string[]): Promise<{ file: string; fingerprint: string }> {
  const file = path.join(dir, `id_${Math.random().toString(16).slice(2)}`)
  await run('ssh-keygen', ['-q', ...keygenArgs, '-C', 'extra-key', '-f', file])
  await appendFile(path.join(s.dir, 'authorized_keys'), await readFile(`${file}.pub`))
  const { stdout } = await run('ssh-keygen', ['-lf', `${file}.pub`])
  return { file, fingerprint: stdout.split(/\s+/)[1] as string }
}

function count(text: string, pattern: RegExp): number {
  return text.match(new RegExp(pattern.source, 'g'))?.length ?? 0
}

/** sshd writes its log asynchronously; give it a moment after the client is done. */
async function logsSettled(s: SshdServer, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 3000
  while (!pattern.test(s.logs()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
  await new Promise((r) => setTimeout(r, 100))
  return s.logs()
}

describe('private keys', () => {
  it('log in with the harness key and run a command', async () => {
    server = await startSshd()
    const client = await login(server, { method: 'key', privateKey: server.privateKey })
    expect((await exec(client, 'echo key-login-ok')).trim()).toBe('key-login-ok')
    expect(await logsSettled(server, /Accepted/)).toMatch(/Accepted publickey for \S+ from 127\.0\.0\.1/)
  })

  it('an encrypted OpenSSH-format key logs in with its passphrase', async () => {
    server = await startSshd()
    const key = await authorizedKey(server, ['-t', 'ed25519', '-N', PASSPHRASE])
    const privateKey = await readFile(key.file)
    expect(privateKey.toString()).toContain('BEGIN OPENSSH PRIVATE KEY')
    await login(server, { method: 'key', privateKey, passphrase: PASSPHRASE })
    expect(await logsSettled(server, /Accepted/)).toContain(`Accepted publickey for ${server.username} from 127.0.0.1`)
    expect(server.logs()).toContain(key.fingerprint)
  })

  it('an encrypted PEM-format RSA key logs in with its passphrase', async () => {
    server = await startSshd()
    const key = await authorizedKey(server, ['-t', 'rsa', '-b', '2048', '-m', 'PEM', '-N', PASSPHRASE])
    const privateKey = await readFile(key.file)
    expect(privateKey.toString()).toMatch(/BEGIN RSA PRIVATE KEY[\s\S]*Proc-Type: 4,ENCRYPTED/)
    await login(server, { method: 'key', privateKey, passphrase: PASSPHRASE })
    expect(await logsSettled(server, /Accepted/)).toContain(key.fingerprint)
  })

  it('an encrypted PEM-format ECDSA key logs in with its passphrase', async () => {
    server = await startSshd()
    const key = await authorizedKey(server, ['-t', 'ecdsa', '-m', 'PEM', '-N', PASSPHRASE])
    await login(server, { method: 'key', privateKey: await readFile(key.file), passphrase: PASSPHRASE })
    expect(await logsSettled(server, /Accepted/)).toContain(key.fingerprint)
  })

  it('a wrong passphrase is its own error, before any connection is made', async () => {
    server = await startSshd()
    const key = await authorizedKey(server, ['-t', 'ed25519', '-N', PASSPHRASE])
    const error = await loginError(server, { method: 'key', privateKey: await readFile(key.file), passphrase: 'not-it' })
    expect(error.code).toBe('key-passphrase-wrong')
    expect(error.message).toContain(`127.0.0.1:${server.port}`)
    expect(error.message).not.toContain('not-it')
    const pem = await authorizedKey(server, ['-t', 'rsa', '-b', '2048', '-m', 'PEM', '-N', PASSPHRASE])
    const pemError = await loginError(server, { method: 'key', privateKey: await readFile(pem.file), passphrase: 'not-it' })
    expect(pemError.code).toBe('key-passphrase-wrong')
    // Only the harness's own readiness probe ever connected.
    expect(count(server.logs(), /Connection from 127\.0\.0\.1/)).toBe(1)
  })

  it('a missing passphrase says the key is encrypted', async () => {
    server = await startSshd()
    const key = await authorizedKey(server, ['-t', 'ed25519', '-N', PASSPHRASE])
    const error = await loginError(server, { method: 'key', privateKey: await readFile(key.file) })
    expect(error.code).toBe('key-passphrase-needed')
    expect(error.message).toMatch(/encrypted and no passphrase was given/)
  })

  it('a key the server does not know is rejected once, naming its fingerprint', async () => {
    server = await startSshd()
    const file = path.join(dir, 'stranger')
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file])
    const fingerprint = (await run('ssh-keygen', ['-lf', `${file}.pub`])).stdout.split(/\s+/)[1] as string
    const error = await loginError(server, { method: 'key', privateKey: await readFile(file) })
    expect(error.code).toBe('auth-failed')
    expect(error.message).toContain(fingerprint)
    expect(error.message).toContain('authorized_keys')
  })

  it('something that is not a private key is reported as such', async () => {
    server = await startSshd()
    const error = await loginError(server, { method: 'key', privateKey: Buffer.from(server.hostPublicKey) })
    expect(error.code).toBe('key-invalid')
    const garbage = await loginError(server, { method: 'key', privateKey: Buffer.from('-----BEGIN NONSENSE-----\nxyz\n') })
    expect(garbage.code).toBe('key-invalid')
  })
})

describe('passwords', () => {
  it('the right password logs in', async () => {
    server = await startSshd({ password: PASSWORD })
    const client = await login(server, { method: 'password', password: PASSWORD })
    expect((await exec(client, 'echo pw-ok')).trim()).toBe('pw-ok')
    expect(await logsSettled(server, /Accepted/)).toContain(`Accepted password for ${server.username} from 127.0.0.1`)
  })

  it('a wrong password is one attempt in sshd log and a clear error without the password', async () => {
    server = await startSshd({ password: PASSWORD })
    const error = await loginError(server, { method: 'password', password: 'Tr0ub4dor&3' })
    expect(error.code).toBe('auth-failed')
    expect(error.message).toBe(
      `127.0.0.1:${server.port} (target 'lab-host') rejected the password for user '${server.username}': check the user name and password. One attempt was made.`
    )
    expect(error.message).not.toContain('Tr0ub4dor')
    const logs = await logsSettled(server, /Disconnected from authenticating user/)
    expect(count(logs, /Failed password for/)).toBe(1)
    expect(count(logs, /Failed \S+ for/)).toBe(1)
  })

  it('a server without password login says which methods it offers', async () => {
    server = await startSshd()
    const error = await loginError(server, { method: 'password', password: PASSWORD })
    expect(error.code).toBe('auth-method-not-allowed')
    expect(error.message).toContain('(it offers: publickey)')
  })
})

describe('keyboard-interactive', () => {
  const pamKbd = ['UsePAM yes', 'KbdInteractiveAuthentication yes', 'PasswordAuthentication no']

  it('answers the PAM password prompt through a responder, and shows the question to it', async () => {
    server = await startSshd({ password: PASSWORD, extraConfig: pamKbd })
    const asked: unknown[] = []
    const client = await login(server, {
      method: 'keyboard-interactive',
      respond: (request) => {
        asked.push(request)
        return Promise.resolve(request.prompts.map(() => PASSWORD))
      }
    })
    expect(asked).toEqual([{ name: '', instructions: '', prompts: [{ prompt: 'Password: ', echo: false }] }])
    expect((await exec(client, 'echo kbd-ok')).trim()).toBe('kbd-ok')
    expect(await logsSettled(server, /Accepted/)).toContain(`Accepted keyboard-interactive/pam for ${server.username}`)
  })

  it('answers with a saved password', async () => {
    server = await startSshd({ password: PASSWORD, extraConfig: pamKbd })
    await login(server, { method: 'keyboard-interactive', password: PASSWORD })
    expect(await logsSettled(server, /Accepted/)).toContain('Accepted keyboard-interactive/pam')
  })

  it('a wrong password is one failed attempt', async () => {
    server = await startSshd({ password: PASSWORD, extraConfig: pamKbd })
    const error = await loginError(server, { method: 'keyboard-interactive', password: 'nope-nope' })
    expect(error.code).toBe('auth-failed')
    expect(error.message).not.toContain('nope-nope')
    const logs = await logsSettled(server, /Disconnected from authenticating user/)
    expect(count(logs, /Failed keyboard-interactive\/pam for/)).toBe(1)
  })

  it('sshd without PAM offers keyboard-interactive but asks nothing: the error explains it', async () => {
    server = await startSshd({ password: PASSWORD, extraConfig: ['KbdInteractiveAuthentication yes', 'PasswordAuthentication no'] })
    let asked = 0
    const error = await loginError(server, {
      method: 'keyboard-interactive',
      respond: (request) => {
        asked++
        return Promise.resolve(request.prompts.map(() => PASSWORD))
      }
    })
    expect(asked).toBe(0)
    expect(error.code).toBe('auth-failed')
    expect(error.message).toContain('asked no questions')
    expect(error.message).toContain('UsePAM')
  })

  it('a server that does not offer keyboard-interactive suggests the password method', async () => {
    server = await startSshd({ password: PASSWORD })
    const error = await loginError(server, { method: 'keyboard-interactive', password: PASSWORD })
    expect(error.code).toBe('auth-method-not-allowed')
    expect(error.message).toContain('Try the password method')
  })
})

describe('ssh-agent', () => {
  it('logs in with a key held by a real ssh-agent', async () => {
    server = await startSshd()
    agent = await startSshAgent({ keyPaths: [server.privateKeyPath] })
    expect(await agent.listKeys()).toContain('ED25519')
    const client = await login(server, { method: 'agent', socket: agent.socketPath })
    expect((await exec(client, 'echo agent-ok')).trim()).toBe('agent-ok')
    expect(await logsSettled(server, /Accepted/)).toMatch(/Accepted publickey for \S+ from 127\.0\.0\.1/)
  })

  it('finds the agent through SSH_AUTH_SOCK when no socket is given', async () => {
    server = await startSshd()
    agent = await startSshAgent({ keyPaths: [server.privateKeyPath] })
    const client = await connect(
      { host: server.host, port: server.port, username: server.username, auth: { method: 'agent' } },
      {
        decideHostKey: () => Promise.resolve('accept-once'),
        knownHosts: knownHosts(server),
        agentEnvironment: { platform: 'linux', sshAuthSock: agent.socketPath }
      }
    )
    clients.push(client)
  })

  it('an empty agent is its own error, before connecting', async () => {
    server = await startSshd()
    agent = await startSshAgent()
    const error = await loginError(server, { method: 'agent', socket: agent.socketPath })
    expect(error.code).toBe('agent-no-keys')
    expect(error.message).toContain(agent.socketPath)
    expect(error.message).toContain('ssh-add')
  })

  it('an agent holding only other keys fails authentication', async () => {
    server = await startSshd()
    const file = path.join(dir, 'unrelated')
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file])
    agent = await startSshAgent({ keyPaths: [file] })
    const error = await loginError(server, { method: 'agent', socket: agent.socketPath })
    expect(error.code).toBe('auth-failed')
    expect(error.message).toContain(`did not accept the key in the SSH agent at ${agent.socketPath}`)
  })

  it('a socket with no agent behind it, and no agent configured at all, are clear errors', async () => {
    server = await startSshd()
    const missing = await loginError(server, { method: 'agent', socket: path.join(dir, 'no-agent.sock') })
    expect(missing.code).toBe('agent-unavailable')
    expect(missing.message).toContain('no-agent.sock')
    const none = await loginError(server, { method: 'agent' })
    expect(none.code).toBe('agent-unavailable')
    expect(none.message).toContain('SSH_AUTH_SOCK is not set')
  })
})
