/**
 * User authentication for one hop. Exactly the configured method is tried, once: a wrong
 * password is one failed attempt in the server's log, never a retry storm. Secrets come in
 * through the AuthSpec (never from the environment here), are handed to ssh2 only, and never
 * appear in messages.
 */
import { createAgent, utils, type AnyAuthMethod, type ParsedKey, type Prompt } from 'ssh2'
import { capitalize, ConnectError, printable, where, type HopIdentity } from './connect-errors'
import { sha256Fingerprint } from './host-key'

export interface KeyboardInteractiveRequest {
  /** Title the server sent (often empty). */
  name: string
  instructions: string
  prompts: { prompt: string; echo: boolean }[]
}

/** Answers one round of server questions, in order; may take as long as a person needs. */
export type KeyboardInteractiveResponder = (request: KeyboardInteractiveRequest) => Promise<string[]>

export type AuthSpec =
  /** An SSH agent: `socket` or SSH_AUTH_SOCK; on Windows also 'pageant' or the OpenSSH agent pipe. */
  | { method: 'agent'; socket?: string }
  /** A private key (OpenSSH or PEM format), with its passphrase when encrypted. */
  | { method: 'key'; privateKey: Buffer; passphrase?: string }
  | { method: 'password'; password: string }
  /** Keyboard-interactive answered with a password (a single hidden prompt)... */
  | { method: 'keyboard-interactive'; password: string }
  /** ...or by a responder, e.g. a dialog that shows the server's questions. */
  | { method: 'keyboard-interactive'; respond: KeyboardInteractiveResponder }

export type AuthMethodName = 'agent' | 'key' | 'password' | 'keyboard-interactive'

/** The Windows OpenSSH agent's named pipe (the service `ssh-agent` of Windows 10+). */
export const WINDOWS_OPENSSH_AGENT_PIPE = '\\\\.\\pipe\\openssh-ssh-agent'

export interface AgentEnvironment {
  platform: NodeJS.Platform
  /** The value of SSH_AUTH_SOCK, if any. */
  sshAuthSock: string | undefined
}

export type AgentLocation =
  | { ok: true; path: string; kind: 'unix-socket' | 'windows-pipe' | 'pageant' | 'cygwin-socket' }
  | { ok: false; reason: string }

/**
 * Which agent to talk to, following ssh2's createAgent rules: on Windows 'pageant' is Pageant,
 * a `\\.\pipe\...` path is a named pipe (Windows OpenSSH's agent), any other path a Cygwin/MSYS
 * socket file; elsewhere a path is a Unix socket. Order: explicit socket, SSH_AUTH_SOCK, then on
 * Windows the OpenSSH agent pipe.
 */
export function resolveAgent(socket: string | undefined, env: AgentEnvironment): AgentLocation {
  const windows = env.platform === 'win32'
  const chosen = nonEmpty(socket) ?? nonEmpty(env.sshAuthSock) ?? (windows ? WINDOWS_OPENSSH_AGENT_PIPE : undefined)
  if (chosen === undefined) {
    return {
      ok: false,
      reason:
        'no SSH agent is configured: SSH_AUTH_SOCK is not set. Start ssh-agent and add your key with ssh-add, ' +
        'or give the agent socket path'
    }
  }
  if (chosen.toLowerCase() === 'pageant') {
    return windows
      ? { ok: true, path: 'pageant', kind: 'pageant' }
      : { ok: false, reason: 'Pageant exists only on Windows; give the path of an ssh-agent socket instead' }
  }
  if (!windows) return { ok: true, path: chosen, kind: 'unix-socket' }
  if (/^[\\/]{2}\.[\\/]pipe[\\/]/i.test(chosen)) return { ok: true, path: chosen, kind: 'windows-pipe' }
  return { ok: true, path: chosen, kind: 'cygwin-socket' }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined
}

function describeAgent(location: Extract<AgentLocation, { ok: true }>): string {
  switch (location.kind) {
    case 'pageant':
      return 'Pageant'
    case 'windows-pipe':
      return `the Windows OpenSSH agent (${location.path})`
    default:
      return `the SSH agent at ${location.path}`
  }
}

/** Hooks the connection gives the auth method: pause the stage timer while a person answers. */
export interface AuthHooks {
  pauseTimer(): void
  resumeTimer(): void
  /** Abort the attempt with this error (e.g. a question a saved password cannot answer). */
  fail(error: ConnectError): void
  /** The server asked a round of keyboard-interactive questions (to explain a failure later). */
  noteQuestions(count: number): void
}

export interface PreparedAuth {
  name: AuthMethodName
  /** The SSH protocol method this uses (what the server lists in "methods that can continue"). */
  protocolMethod: 'publickey' | 'password' | 'keyboard-interactive'
  /** Plain words for messages, e.g. `the key ssh-ed25519 SHA256:...` (never a secret). */
  description: string
  /** The single ssh2 auth attempt for `username`. */
  attempt(username: string, hooks: AuthHooks): AnyAuthMethod
}

export interface PrepareAuthInput {
  spec: AuthSpec
  hop: HopIdentity
  agentEnvironment: AgentEnvironment
}

/**
 * Checks what can be checked before connecting (the key decrypts, the agent answers and holds
 * keys), so those problems get their own clear error instead of "authentication failed".
 */
export async function prepareAuth({ spec, hop, agentEnvironment }: PrepareAuthInput): Promise<PreparedAuth> {
  switch (spec.method) {
    case 'key':
      return prepareKey(spec.privateKey, spec.passphrase, hop)
    case 'password':
      return {
        name: 'password',
        protocolMethod: 'password',
        description: 'the password',
        attempt: (username) => ({ type: 'password', username, password: spec.password })
      }
    case 'agent':
      return prepareAgent(spec.socket, hop, agentEnvironment)
    case 'keyboard-interactive':
      return 'respond' in spec ? prepareKbdResponder(spec.respond, hop) : prepareKbdPassword(spec.password, hop)
  }
}

export type KeyProblem = 'key-passphrase-needed' | 'key-passphrase-wrong' | 'key-invalid'

/** Decrypts/parses a private key; the problem code says why it cannot be used. */
export function parsePrivateKey(
  privateKey: Buffer,
  passphrase: string | undefined
): { ok: true; key: ParsedKey } | { ok: false; problem: KeyProblem; detail: string } {
  const parsed = utils.parseKey(privateKey, passphrase)
  if (parsed instanceof Error) {
    const msg = parsed.message
    if (/no passphrase given/i.test(msg)) return { ok: false, problem: 'key-passphrase-needed', detail: msg }
    if (passphrase !== undefined && /passphrase/i.test(msg)) {
      return { ok: false, problem: 'key-passphrase-wrong', detail: msg }
    }
    return { ok: false, problem: 'key-invalid', detail: msg }
  }
  const key = Array.isArray(parsed) ? (parsed[0] as ParsedKey | undefined) : parsed
  if (key === undefined || !key.isPrivateKey()) {
    return { ok: false, problem: 'key-invalid', detail: 'this is a public key, not a private key' }
  }
  return { ok: true, key }
}

function prepareKey(privateKey: Buffer, passphrase: string | undefined, hop: HopIdentity): PreparedAuth {
  const result = parsePrivateKey(privateKey, passphrase === '' ? undefined : passphrase)
  if (!result.ok) throw keyError(result.problem, result.detail, hop)
  const { key } = result
  const description = `the key ${key.type} ${sha256Fingerprint(key.getPublicSSH())}`
  return {
    name: 'key',
    protocolMethod: 'publickey',
    description,
    attempt: (username) => ({ type: 'publickey', username, key })
  }
}

function keyError(problem: KeyProblem, detail: string, hop: HopIdentity): ConnectError {
  const forWhom = `for ${where(hop)}`
  const message =
    problem === 'key-passphrase-needed'
      ? `The private key ${forWhom} is encrypted and no passphrase was given: enter the key's passphrase.`
      : problem === 'key-passphrase-wrong'
        ? `The passphrase for the private key ${forWhom} is wrong: the key could not be decrypted. Enter the passphrase again.`
        : `The private key ${forWhom} cannot be used (${detail}). Use an OpenSSH or PEM private key ` +
          `(ssh-keygen writes both; convert others with ssh-keygen -p -f <file>).`
  return new ConnectError(problem, message, { hop, stage: 'auth' })
}

async function prepareAgent(
  socket: string | undefined,
  hop: HopIdentity,
  env: AgentEnvironment
): Promise<PreparedAuth> {
  const location = resolveAgent(socket, env)
  if (!location.ok) {
    throw new ConnectError('agent-unavailable', `Cannot use an SSH agent for ${where(hop)}: ${location.reason}.`, {
      hop,
      stage: 'auth'
    })
  }
  const agentName = describeAgent(location)
  const count = await countAgentKeys(location.path).catch((error: unknown) => {
    throw new ConnectError(
      'agent-unavailable',
      `Cannot reach ${agentName} for ${where(hop)} (${(error as Error).message}): is the agent running, and is the path right?`,
      { hop, stage: 'auth', cause: error }
    )
  })
  if (count === 0) {
    throw new ConnectError(
      'agent-no-keys',
      `${capitalize(agentName)} holds no keys, so it cannot log in to ${where(hop)}: add your key with ssh-add.`,
      { hop, stage: 'auth' }
    )
  }
  return {
    name: 'agent',
    protocolMethod: 'publickey',
    description: count === 1 ? `the key in ${agentName}` : `any of the ${count} keys in ${agentName}`,
    attempt: (username) => ({ type: 'agent', username, agent: location.path })
  }
}

/** An agent that takes longer than this to list its keys is treated as unreachable. */
const AGENT_ANSWER_TIMEOUT_MS = 5000

/** How many keys the agent at `agentPath` holds (it must answer within AGENT_ANSWER_TIMEOUT_MS). */
export function countAgentKeys(agentPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no answer within ${AGENT_ANSWER_TIMEOUT_MS / 1000} s`)),
      AGENT_ANSWER_TIMEOUT_MS
    )
    createAgent(agentPath).getIdentities((err, keys) => {
      clearTimeout(timer)
      if (err) reject(err)
      else resolve(keys?.length ?? 0)
    })
  })
}

/** Servers may loop questions forever; a person never needs this many rounds. */
const MAX_KBD_ROUNDS = 10

function prepareKbdPassword(password: string, hop: HopIdentity): PreparedAuth {
  return {
    name: 'keyboard-interactive',
    protocolMethod: 'keyboard-interactive',
    description: 'the password (keyboard-interactive)',
    attempt: (username, hooks) => {
      let answered = false
      return {
        type: 'keyboard-interactive',
        username,
        prompt: (_name, _instructions, _lang, prompts, finish) => {
          hooks.noteQuestions(prompts.length)
          if (prompts.length === 0) {
            finish([])
            return
          }
          const single = prompts.length === 1 && prompts[0]?.echo !== true
          if (answered || !single) {
            hooks.fail(
              new ConnectError(
                'auth-failed',
                `${where(hop)} asked ${describePrompts(prompts)}${answered ? ' after the password' : ''}, ` +
                  'which a saved password cannot answer (two-factor login?): use interactive answers for this target.',
                { hop, stage: 'auth' }
              )
            )
            return
          }
          answered = true
          finish([password])
        }
      }
    }
  }
}

function prepareKbdResponder(respond: KeyboardInteractiveResponder, hop: HopIdentity): PreparedAuth {
  return {
    name: 'keyboard-interactive',
    protocolMethod: 'keyboard-interactive',
    description: 'keyboard-interactive answers',
    attempt: (username, hooks) => {
      let rounds = 0
      return {
        type: 'keyboard-interactive',
        username,
        prompt: (name, instructions, _lang, prompts, finish) => {
          hooks.noteQuestions(prompts.length)
          if (prompts.length === 0) {
            finish([])
            return
          }
          if (++rounds > MAX_KBD_ROUNDS) {
            hooks.fail(
              new ConnectError('auth-failed', `${where(hop)} kept asking questions (${MAX_KBD_ROUNDS} rounds): gave up.`, {
                hop,
                stage: 'auth'
              })
            )
            return
          }
          const request: KeyboardInteractiveRequest = {
            name,
            instructions,
            prompts: prompts.map((p) => ({ prompt: p.prompt, echo: p.echo === true }))
          }
          hooks.pauseTimer()
          respond(request).then(
            (answers) => {
              hooks.resumeTimer()
              if (!Array.isArray(answers) || answers.length !== prompts.length) {
                hooks.fail(
                  new ConnectError(
                    'auth-failed',
                    `The answers for ${where(hop)} do not fit the questions (${prompts.length} asked).`,
                    { hop, stage: 'auth' }
                  )
                )
                return
              }
              finish(answers)
            },
            (error: unknown) => {
              hooks.resumeTimer()
              hooks.fail(
                new ConnectError('cancelled', `Logging in to ${where(hop)} was cancelled while answering the server's questions.`, {
                  hop,
                  stage: 'auth',
                  cause: error
                })
              )
            }
          )
        }
      }
    }
  }
}

function describePrompts(prompts: Prompt[]): string {
  const shown = prompts.map((p) => JSON.stringify(printable(p.prompt, 80)))
  return prompts.length === 1 ? `the question ${shown[0]}` : `${prompts.length} questions (${shown.join(', ')})`
}
