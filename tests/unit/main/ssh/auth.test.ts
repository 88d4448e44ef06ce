import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parsePrivateKey, prepareAuth, resolveAgent, WINDOWS_OPENSSH_AGENT_PIPE } from '../../../../src/main/ssh/auth'
import { ConnectError, type HopIdentity } from '../../../../src/main/ssh/connect-errors'

const run = promisify(execFile)
const PASSPHRASE = 'unit-passphrase'
const hop: HopIdentity = { label: 'kvm-host', host: '10.0.0.5', port: 22, role: 'target' }

describe('resolveAgent', () => {
  const linux = { platform: 'linux' as const, sshAuthSock: undefined }
  const windows = { platform: 'win32' as const, sshAuthSock: undefined }

  it('on Linux and macOS: the given socket, else SSH_AUTH_SOCK, else a clear reason', () => {
    expect(resolveAgent('/tmp/a.sock', { ...linux, sshAuthSock: '/tmp/env.sock' })).toEqual({ ok: true, path: '/tmp/a.sock', kind: 'unix-socket' })
    expect(resolveAgent(undefined, { ...linux, sshAuthSock: '/tmp/env.sock' })).toEqual({ ok: true, path: '/tmp/env.sock', kind: 'unix-socket' })
    expect(resolveAgent('  ', { platform: 'darwin', sshAuthSock: '/private/tmp/launchd/Listeners' })).toEqual({
      ok: true,
      path: '/private/tmp/launchd/Listeners',
      kind: 'unix-socket'
    })
    const none = resolveAgent(undefined, { ...linux, sshAuthSock: '' })
    expect(none.ok).toBe(false)
    expect(!none.ok && none.reason).toMatch(/SSH_AUTH_SOCK is not set/)
  })

  it('Pageant is only for Windows', () => {
    const result = resolveAgent('pageant', linux)
    expect(result.ok).toBe(false)
    expect(!result.ok && result.reason).toMatch(/only on Windows/)
  })

  it('on Windows: Pageant by name, named pipes, Cygwin sockets, and the OpenSSH agent pipe by default', () => {
    expect(resolveAgent('pageant', windows)).toEqual({ ok: true, path: 'pageant', kind: 'pageant' })
    expect(resolveAgent('Pageant', windows)).toEqual({ ok: true, path: 'pageant', kind: 'pageant' })
    expect(resolveAgent(undefined, windows)).toEqual({ ok: true, path: WINDOWS_OPENSSH_AGENT_PIPE, kind: 'windows-pipe' })
    expect(WINDOWS_OPENSSH_AGENT_PIPE).toBe('\\\\.\\pipe\\openssh-ssh-agent')
    expect(resolveAgent('//./pipe/my-agent', windows)).toEqual({ ok: true, path: '//./pipe/my-agent', kind: 'windows-pipe' })
    expect(resolveAgent(undefined, { ...windows, sshAuthSock: '\\\\.\\pipe\\custom' })).toEqual({
      ok: true,
      path: '\\\\.\\pipe\\custom',
      kind: 'windows-pipe'
    })
    expect(resolveAgent('C:\\cygwin\\tmp\\ssh-abc\\agent.123', windows)).toEqual({
      ok: true,
      path: 'C:\\cygwin\\tmp\\ssh-abc\\agent.123',
      kind: 'cygwin-socket'
    })
  })
})

describe('private keys', () => {
  let dir: string
  const keys: Record<string, Buffer> = {}

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'virtbench-authkeys-'))
    const make = async (name: string, args: string[]): Promise<void> => {
      const file = path.join(dir, name)
      await run('ssh-keygen', ['-q', ...args, '-f', file])
      keys[name] = await readFile(file)
      keys[`${name}.pub`] = await readFile(`${file}.pub`)
    }
    await Promise.all([
      make('plain_openssh', ['-t', 'ed25519', '-N', '']),
      make('enc_openssh', ['-t', 'ed25519', '-N', PASSPHRASE]),
      make('plain_pem', ['-t', 'rsa', '-b', '2048', '-m', 'PEM', '-N', '']),
      make('enc_pem', ['-t', 'ecdsa', '-m', 'PEM', '-N', PASSPHRASE])
    ])
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  function key(name: string): Buffer {
    const k = keys[name]
    if (k === undefined) throw new Error(`no key ${name}`)
    return k
  }

  it('reads plain and encrypted keys in OpenSSH and PEM format', () => {
    expect(parsePrivateKey(key('plain_openssh'), undefined)).toMatchObject({ ok: true, key: { type: 'ssh-ed25519' } })
    expect(parsePrivateKey(key('enc_openssh'), PASSPHRASE)).toMatchObject({ ok: true, key: { type: 'ssh-ed25519' } })
    expect(parsePrivateKey(key('plain_pem'), undefined)).toMatchObject({ ok: true, key: { type: 'ssh-rsa' } })
    expect(parsePrivateKey(key('enc_pem'), PASSPHRASE)).toMatchObject({ ok: true, key: { type: 'ecdsa-sha2-nistp256' } })
  })

  it('tells a missing passphrase from a wrong one, in both formats', () => {
    expect(parsePrivateKey(key('enc_openssh'), undefined)).toMatchObject({ ok: false, problem: 'key-passphrase-needed' })
    expect(parsePrivateKey(key('enc_pem'), undefined)).toMatchObject({ ok: false, problem: 'key-passphrase-needed' })
    expect(parsePrivateKey(key('enc_openssh'), 'wrong')).toMatchObject({ ok: false, problem: 'key-passphrase-wrong' })
    expect(parsePrivateKey(key('enc_pem'), 'wrong')).toMatchObject({ ok: false, problem: 'key-passphrase-wrong' })
  })

  it('refuses public keys and garbage as invalid', () => {
    expect(parsePrivateKey(key('plain_openssh.pub'), undefined)).toMatchObject({ ok: false, problem: 'key-invalid' })
    expect(parsePrivateKey(Buffer.from('not a key'), undefined)).toMatchObject({ ok: false, problem: 'key-invalid' })
    expect(parsePrivateKey(Buffer.alloc(0), undefined)).toMatchObject({ ok: false, problem: 'key-invalid' })
  })

  it('prepareAuth turns key problems into ConnectErrors that name the target and never the passphrase', async () => {
    const agentEnvironment = { platform: 'linux' as const, sshAuthSock: undefined }
    const wrong = await prepareAuth({ spec: { method: 'key', privateKey: key('enc_openssh'), passphrase: 'hunter2-secret' }, hop, agentEnvironment }).catch(
      (e: unknown) => e
    )
    expect(wrong).toBeInstanceOf(ConnectError)
    expect((wrong as ConnectError).code).toBe('key-passphrase-wrong')
    expect((wrong as ConnectError).message).toContain("10.0.0.5:22 (target 'kvm-host')")
    expect((wrong as ConnectError).message).not.toContain('hunter2')
    const needed = await prepareAuth({ spec: { method: 'key', privateKey: key('enc_pem') }, hop, agentEnvironment }).catch((e: unknown) => e)
    expect((needed as ConnectError).code).toBe('key-passphrase-needed')
  })

  it('describes a usable key by its public fingerprint, as ssh-keygen -lf prints it', async () => {
    const prepared = await prepareAuth({
      spec: { method: 'key', privateKey: key('plain_openssh') },
      hop,
      agentEnvironment: { platform: 'linux', sshAuthSock: undefined }
    })
    const { stdout } = await run('ssh-keygen', ['-lf', path.join(dir, 'plain_openssh.pub')])
    expect(prepared.description).toBe(`the key ssh-ed25519 ${stdout.split(/\s+/)[1]}`)
    expect(prepared.protocolMethod).toBe('publickey')
  })

  it('an agent that is not configured is a clear error before connecting', async () => {
    const error = await prepareAuth({ spec: { method: 'agent' }, hop, agentEnvironment: { platform: 'linux', sshAuthSock: undefined } }).catch(
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(ConnectError)
    expect((error as ConnectError).code).toBe('agent-unavailable')
    expect((error as ConnectError).message).toBe(
      "Cannot use an SSH agent for 10.0.0.5:22 (target 'kvm-host'): no SSH agent is configured: SSH_AUTH_SOCK is not set. " +
        'Start ssh-agent and add your key with ssh-add, or give the agent socket path.'
    )
  })
})

describe('keyboard-interactive answers', () => {
  const agentEnvironment = { platform: 'linux' as const, sshAuthSock: undefined }

  function harness() {
    const events: string[] = []
    const failures: ConnectError[] = []
    const hooks = {
      pauseTimer: () => events.push('pause'),
      resumeTimer: () => events.push('resume'),
      fail: (error: ConnectError) => failures.push(error),
      noteQuestions: (count: number) => events.push(`asked ${count}`)
    }
    return { events, failures, hooks }
  }

  type PromptFn = (name: string, instructions: string, lang: string, prompts: { prompt: string; echo?: boolean }[], finish: (answers: string[]) => void) => void

  async function promptOf(spec: Parameters<typeof prepareAuth>[0]['spec'], hooks: ReturnType<typeof harness>['hooks']): Promise<PromptFn> {
    const prepared = await prepareAuth({ spec, hop, agentEnvironment })
    const method = prepared.attempt('bench', hooks) as unknown as { type: string; username: string; prompt: PromptFn }
    expect(method.type).toBe('keyboard-interactive')
    expect(method.username).toBe('bench')
    return method.prompt
  }

  it('a saved password answers one hidden prompt, once; empty rounds are answered empty', async () => {
    const h = harness()
    const prompt = await promptOf({ method: 'keyboard-interactive', password: 's3cret' }, h.hooks)
    const answers: string[][] = []
    prompt('', '', '', [], (a) => answers.push(a))
    prompt('', '', '', [{ prompt: 'Password: ', echo: false }], (a) => answers.push(a))
    expect(answers).toEqual([[], ['s3cret']])
    prompt('', '', '', [{ prompt: 'Password: ', echo: false }], (a) => answers.push(a))
    expect(answers).toHaveLength(2)
    expect(h.failures.map((f) => f.message)).toEqual([
      "10.0.0.5:22 (target 'kvm-host') asked the question \"Password:\" after the password, which a saved password cannot answer (two-factor login?): use interactive answers for this target."
    ])
  })

  it('a saved password does not answer visible or several questions', async () => {
    const h = harness()
    const prompt = await promptOf({ method: 'keyboard-interactive', password: 's3cret' }, h.hooks)
    prompt('', '', '', [{ prompt: 'Verification code:\u0007', echo: true }], () => expect.fail('must not answer'))
    prompt('', '', '', [{ prompt: 'Password:' }, { prompt: 'OTP:' }], () => expect.fail('must not answer'))
    expect(h.failures.map((f) => f.code)).toEqual(['auth-failed', 'auth-failed'])
    expect(h.failures[0]?.message).toContain('the question "Verification code:"')
    expect(h.failures[1]?.message).toContain('2 questions ("Password:", "OTP:")')
    expect(h.failures.some((f) => f.message.includes('s3cret'))).toBe(false)
  })

  it('a responder sees each round, and the connect timer pauses while it answers', async () => {
    const h = harness()
    const seen: unknown[] = []
    const prompt = await promptOf(
      {
        method: 'keyboard-interactive',
        respond: (request) => {
          seen.push(request)
          return Promise.resolve(['alice', '123456'])
        }
      },
      h.hooks
    )
    const answers = await new Promise<string[]>((resolve) =>
      prompt('Login', 'Two steps', '', [{ prompt: 'User:', echo: true }, { prompt: 'Code:', echo: false }], resolve)
    )
    expect(answers).toEqual(['alice', '123456'])
    expect(seen).toEqual([{ name: 'Login', instructions: 'Two steps', prompts: [{ prompt: 'User:', echo: true }, { prompt: 'Code:', echo: false }] }])
    expect(h.events).toEqual(['asked 2', 'pause', 'resume'])
  })

  it('a responder giving the wrong number of answers, or giving up, fails the attempt clearly', async () => {
    const h = harness()
    const wrongCount = await promptOf({ method: 'keyboard-interactive', respond: () => Promise.resolve(['only one']) }, h.hooks)
    wrongCount('', '', '', [{ prompt: 'a' }, { prompt: 'b' }], () => expect.fail('must not answer'))
    const givingUp = await promptOf({ method: 'keyboard-interactive', respond: () => Promise.reject(new Error('closed')) }, h.hooks)
    givingUp('', '', '', [{ prompt: 'a' }], () => expect.fail('must not answer'))
    await new Promise((r) => setTimeout(r, 10))
    expect(h.failures.map((f) => f.code)).toEqual(['auth-failed', 'cancelled'])
    expect(h.failures[0]?.message).toBe("The answers for 10.0.0.5:22 (target 'kvm-host') do not fit the questions (2 asked).")
  })
})
