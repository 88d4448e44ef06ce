/**
 * Opening an SSH connection: TCP (Nagle off), host key verification against known_hosts with a
 * person deciding about unknown keys, exactly one authentication attempt with the configured
 * method, optional jump hosts (like OpenSSH's ProxyJump), typed errors that say what to do.
 *
 *   const client = await connect(
 *     { host: '10.0.0.5', port: 22, username: 'bench', auth: { method: 'agent' }, label: 'kvm-host' },
 *     { decideHostKey, knownHosts: { userFile: '~/.ssh/known_hosts', appFile: '<dataDir>/known_hosts' } }
 *   )
 *
 * The returned ssh2 Client is ready (authenticated). Ending it also ends its jump hosts' clients.
 * connect() leaves one 'error' listener on it so a late error (e.g. keepalive timeout) never
 * crashes the process; attach your own 'error' and 'close' listeners to learn about them.
 */
import net from 'node:net'
import type { Readable } from 'node:stream'
import { Client, type AnyAuthMethod, type ConnectConfig } from 'ssh2'
import {
  prepareAuth,
  type AgentEnvironment,
  type AuthHooks,
  type AuthSpec,
  type PreparedAuth
} from './auth'
import {
  cancelledError,
  capitalize,
  closedError,
  ConnectError,
  hostPort,
  MAX_HEARD,
  notSshError,
  socketErrorCode,
  socketErrorMessage,
  stageOf,
  timeoutError,
  translateSshError,
  where,
  whoIs,
  type AuthOutcome,
  type ConnectStage,
  type HopIdentity,
  type Progress
} from './connect-errors'
import {
  hostKeyAlgorithmsFor,
  hostKeyError,
  loadKnownHosts,
  rememberHostKey,
  verifyHostKey,
  type DecideHostKey,
  type KnownHostsFiles
} from './host-key'
import { rememberedKeyTypes, type KnownHostsEntry } from './known-hosts'

export type { AuthSpec } from './auth'
export type { ConnectStage, HopIdentity } from './connect-errors'
export { ConnectError, isConnectError, type ConnectErrorCode } from './connect-errors'
export type { DecideHostKey, HostKeyDecision, HostKeyQuestion, KnownHostsFiles } from './host-key'

export interface ConnectSpec {
  host: string
  /** Default 22. */
  port?: number
  username: string
  auth: AuthSpec
  /** The hop before this one (like OpenSSH ProxyJump); chains are allowed: `jump.jump...`. */
  jump?: ConnectSpec
  /** Budget for TCP connect + SSH handshake + login of this hop, excluding time a person spends
   * deciding about a host key or answering questions. Default 20 s. */
  readyTimeoutMs?: number
  /** SSH keepalive interval once connected. Default 15 s; 0 turns keepalives off. */
  keepaliveIntervalMs?: number
  /** Unanswered keepalives before the connection is considered dead. Default 3. */
  keepaliveCountMax?: number
  /** A name for messages, e.g. the target's name. Default: the host. */
  label?: string
}

export interface StageDetail {
  hop: HopIdentity
  /** One line for a person, e.g. "Connecting to 10.0.0.5:22 (target 'kvm-host')". */
  message: string
  /** For 'host-key': the presented key. */
  keyType?: string
  fingerprint?: string
}

export type OnStage = (stage: ConnectStage, detail: StageDetail) => void

export interface ConnectOptions {
  /** Asked about every host key that is in neither known_hosts file. Never defaulted. */
  decideHostKey: DecideHostKey
  knownHosts: KnownHostsFiles
  onStage?: OnStage
  /** Aborting closes whatever is open and rejects with code 'cancelled'. */
  signal?: AbortSignal
  /** Where the agent is found. Default: this process's platform and SSH_AUTH_SOCK. */
  agentEnvironment?: Partial<AgentEnvironment>
}

export type ConnectedClient = Client

export const DEFAULT_PORT = 22
export const DEFAULT_READY_TIMEOUT_MS = 20_000
export const DEFAULT_KEEPALIVE_INTERVAL_MS = 15_000
export const DEFAULT_KEEPALIVE_COUNT_MAX = 3
/** A ProxyJump chain longer than this is a mistake (or a loop in the spec). */
export const MAX_HOPS = 8

export async function connect(spec: ConnectSpec, opts: ConnectOptions): Promise<ConnectedClient> {
  const hops = hopChain(spec)
  const targetLabel = labelOf(spec)
  const identities = hops.map((h, i) => identityOf(h, i === hops.length - 1 ? 'target' : 'jump', targetLabel))
  hops.forEach((h, i) => validateHop(h, identities[i] as HopIdentity))
  throwIfAborted(opts.signal, identities[0] as HopIdentity, 'tcp')

  const agentEnvironment: AgentEnvironment = {
    platform: opts.agentEnvironment?.platform ?? process.platform,
    sshAuthSock:
      opts.agentEnvironment && 'sshAuthSock' in opts.agentEnvironment
        ? opts.agentEnvironment.sshAuthSock
        : process.env.SSH_AUTH_SOCK
  }
  const prepared: PreparedAuth[] = []
  for (const [i, hop] of hops.entries()) {
    prepared.push(await prepareAuth({ spec: hop.auth, hop: identities[i] as HopIdentity, agentEnvironment }))
  }
  throwIfAborted(opts.signal, identities[0] as HopIdentity, 'auth')
  const entries = await loadKnownHosts(opts.knownHosts).then(
    (loaded) => loaded.entries,
    (error: unknown) => {
      throw new ConnectError(
        'host-key-store',
        `Cannot check the host key of ${where(identities[0] as HopIdentity)}: ${(error as Error).message}. Fix the file's permissions or path.`,
        { hop: identities[0] as HopIdentity, stage: 'host-key', cause: error }
      )
    }
  )

  throwIfAborted(opts.signal, identities[0] as HopIdentity, 'host-key')

  const clients: Client[] = []
  try {
    for (const [i, hop] of hops.entries()) {
      clients.push(
        await openHop({
          spec: hop,
          hop: identities[i] as HopIdentity,
          auth: prepared[i] as PreparedAuth,
          via: clients.at(-1),
          viaHop: i > 0 ? identities[i - 1] : undefined,
          entries,
          opts
        })
      )
    }
  } catch (error) {
    for (const c of clients.reverse()) c.end()
    throw error
  }
  linkLifetimes(clients)
  return clients.at(-1) as Client
}

/** Outermost jump first, the target last. */
function hopChain(spec: ConnectSpec): ConnectSpec[] {
  const chain: ConnectSpec[] = []
  for (let hop: ConnectSpec | undefined = spec; hop !== undefined; hop = hop.jump) {
    if (chain.length === MAX_HOPS || chain.includes(hop)) {
      const hopId = identityOf(spec, 'target', labelOf(spec))
      throw new ConnectError(
        'invalid-spec',
        `The jump host chain for ${where(hopId)} is longer than ${MAX_HOPS} hops or loops back on itself: check the jump host settings.`,
        { hop: hopId, stage: 'tcp' }
      )
    }
    chain.unshift(hop)
  }
  return chain
}

function labelOf(spec: ConnectSpec): string {
  return spec.label !== undefined && spec.label.trim() !== '' ? spec.label : spec.host
}

function identityOf(spec: ConnectSpec, role: 'jump' | 'target', targetLabel: string): HopIdentity {
  const hop: HopIdentity = { label: labelOf(spec), host: spec.host, port: spec.port ?? DEFAULT_PORT, role }
  if (role === 'jump') hop.targetLabel = targetLabel
  return hop
}

function validateHop(spec: ConnectSpec, hop: HopIdentity): void {
  const problem = specProblem(spec)
  if (problem !== undefined) {
    throw new ConnectError('invalid-spec', `Cannot connect ${whoIs(hop)}: ${problem}.`, { hop, stage: 'tcp' })
  }
}

/** Why a spec cannot be used, or undefined. Exported for forms that validate before connecting. */
export function specProblem(spec: ConnectSpec): string | undefined {
  if (typeof spec.host !== 'string' || spec.host.trim() === '') return 'the host is empty'
  if (/[\s\p{Cc}]/u.test(spec.host)) return `the host ${JSON.stringify(spec.host)} contains spaces or control characters`
  const port = spec.port ?? DEFAULT_PORT
  if (!Number.isInteger(port) || port < 1 || port > 65_535) return `the port ${String(port)} is not between 1 and 65535`
  if (typeof spec.username !== 'string' || spec.username === '') return 'the user name is empty'
  if (/[\p{Cc}]/u.test(spec.username)) return 'the user name contains control characters'
  const timeout = spec.readyTimeoutMs
  if (timeout !== undefined && (!Number.isFinite(timeout) || timeout <= 0)) {
    return `the connect timeout ${String(timeout)} ms must be a positive number`
  }
  const keepalive = spec.keepaliveIntervalMs
  if (keepalive !== undefined && (!Number.isFinite(keepalive) || keepalive < 0)) {
    return `the keepalive interval ${String(keepalive)} ms must be 0 (off) or positive`
  }
  const countMax = spec.keepaliveCountMax
  if (countMax !== undefined && (!Number.isInteger(countMax) || countMax < 1)) {
    return `the keepalive count ${String(countMax)} must be a positive whole number`
  }
  return undefined
}

function throwIfAborted(signal: AbortSignal | undefined, hop: HopIdentity, stage: ConnectStage): void {
  if (signal?.aborted) throw cancelledError(hop, stage)
}

/** A jump client lives as long as the connection through it; ending any one ends the chain. */
function linkLifetimes(clients: Client[]): void {
  const endAll = (): void => {
    for (const c of clients) c.end()
  }
  for (const c of clients) c.once('close', endAll)
}

interface OpenHopInput {
  spec: ConnectSpec
  hop: HopIdentity
  auth: PreparedAuth
  via: Client | undefined
  viaHop: HopIdentity | undefined
  entries: readonly KnownHostsEntry[]
  opts: ConnectOptions
}

/**
 * A time budget that can be paused while a person decides something. `onExpire` runs at most
 * once, and never after stop().
 */
class PausableDeadline {
  private remaining: number
  private startedAt = 0
  private timer: NodeJS.Timeout | undefined
  private stopped = false

  constructor(
    budgetMs: number,
    private readonly onExpire: () => void
  ) {
    this.remaining = budgetMs
    this.resume()
  }

  pause(): void {
    if (this.timer === undefined) return
    clearTimeout(this.timer)
    this.timer = undefined
    this.remaining -= Date.now() - this.startedAt
  }

  resume(): void {
    if (this.stopped || this.timer !== undefined) return
    this.startedAt = Date.now()
    this.timer = setTimeout(
      () => {
        this.timer = undefined
        if (!this.stopped) {
          this.stopped = true
          this.onExpire()
        }
      },
      Math.max(0, this.remaining)
    )
  }

  stop(): void {
    this.stopped = true
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
  }
}

function openHop(input: OpenHopInput): Promise<Client> {
  const { spec, hop, auth, via, viaHop, entries, opts } = input
  const budgetMs = spec.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS
  const stage = (name: ConnectStage, message: string, extra: Partial<StageDetail> = {}): void => {
    try {
      opts.onStage?.(name, { hop, message, ...extra })
    } catch {
      // a failing progress display must not break the connection
    }
  }

  return new Promise<Client>((resolve, reject) => {
    const client = new Client()
    let transport: net.Socket | Readable | undefined
    let progress: Progress = 'tcp'
    let settled = false
    let pendingFailure: ConnectError | undefined
    let authOutcome: AuthOutcome | undefined
    let questionsAsked = 0
    /** The first bytes the server sent, while no SSH greeting has been seen. */
    let heard = ''
    let keyToRemember: Buffer | undefined
    let verifiedKey: Buffer | undefined
    let remembering: Promise<void> = Promise.resolve()

    const cleanup = (): void => {
      deadline.stop()
      opts.signal?.removeEventListener('abort', onAbort)
    }
    const fail = (error: ConnectError): void => {
      if (settled) return
      settled = true
      cleanup()
      client.removeAllListeners('ready')
      client.end()
      destroyTransport(transport)
      reject(error)
    }
    const onAbort = (): void => fail(cancelledError(hop, stageOf(progress)))
    const deadline = new PausableDeadline(budgetMs, () =>
      fail(notSshError(hop, progress, heard) ?? timeoutError(hop, progress, budgetMs, viaHop))
    )
    opts.signal?.addEventListener('abort', onAbort, { once: true })
    if (opts.signal?.aborted) onAbort()

    const hooks: AuthHooks = {
      pauseTimer: () => deadline.pause(),
      resumeTimer: () => deadline.resume(),
      fail: (error) => {
        pendingFailure ??= error
        fail(error)
      },
      noteQuestions: (count) => {
        questionsAsked += count
      }
    }

    const startSsh = (sock: net.Socket | Readable): void => {
      if (settled) {
        destroyTransport(sock)
        return
      }
      transport = sock
      progress = 'greeting'
      let attempts = 0
      const config: ConnectConfig = {
        sock,
        username: spec.username,
        readyTimeout: 0,
        keepaliveInterval: spec.keepaliveIntervalMs ?? DEFAULT_KEEPALIVE_INTERVAL_MS,
        keepaliveCountMax: spec.keepaliveCountMax ?? DEFAULT_KEEPALIVE_COUNT_MAX,
        algorithms: { serverHostKey: hostKeyAlgorithmsFor(rememberedKeyTypes(entries, hop.host, hop.port)) },
        hostVerifier: (keyBlob: Buffer, verify: (ok: boolean) => void): void => {
          // A re-key later in the session must present the same key, and asks nobody again.
          if (verifiedKey !== undefined) {
            verify(keyBlob.equals(verifiedKey))
            return
          }
          progress = 'host-key-decision'
          deadline.pause()
          verifyHostKey({
            host: hop.host,
            port: hop.port,
            label: hop.label,
            role: hop.role,
            keyBlob,
            entries,
            decideHostKey: (question) => {
              stage('host-key', `Unknown host key ${question.keyType} ${question.fingerprint}: waiting for a decision`, {
                keyType: question.keyType,
                fingerprint: question.fingerprint
              })
              return opts.decideHostKey(question)
            }
          }).then(
            (verdict) => {
              if (settled) return
              deadline.resume()
              progress = 'key-exchange'
              if (verdict.kind === 'known') {
                stage('host-key', `Host key ${verdict.keyType} ${verdict.fingerprint} is known (${verdict.entry.file} line ${verdict.entry.line})`, {
                  keyType: verdict.keyType,
                  fingerprint: verdict.fingerprint
                })
              }
              if (verdict.kind === 'known' || verdict.kind === 'accepted') {
                verifiedKey = keyBlob
                if (verdict.kind === 'accepted' && verdict.remember) keyToRemember = keyBlob
                verify(true)
                return
              }
              pendingFailure ??= hostKeyError(verdict, hop)
              verify(false)
            },
            (error: unknown) => {
              pendingFailure ??= new ConnectError(
                'protocol',
                `Checking the host key of ${where(hop)} failed: ${(error as Error).message}`,
                { hop, stage: 'host-key', cause: error }
              )
              verify(false)
            }
          )
        },
        authHandler: (methodsLeft, partialSuccess, next): void => {
          if (attempts++ === 0) {
            next(auth.attempt(spec.username, hooks) as AnyAuthMethod)
            return
          }
          // ssh2 passes null when the failure did not come with a fresh list (e.g. after agent keys).
          authOutcome = { methodsLeft: methodsLeft ?? undefined, partial: partialSuccess === true, questionsAsked }
          next(false as never)
        }
      }

      client.on('handshake', () => {
        if (settled || progress === 'auth' || progress === 'ready') return // a re-key
        progress = 'auth'
        if (keyToRemember !== undefined) {
          const blob = keyToRemember
          keyToRemember = undefined
          remembering = rememberHostKey(opts.knownHosts.appFile, hop.host, hop.port, blob).catch((error: unknown) => {
            throw new ConnectError(
              'host-key-store',
              `The host key of ${where(hop)} was accepted but could not be saved to ${opts.knownHosts.appFile} ` +
                `(${(error as Error).message}): fix the folder's permissions, or accept the key once.`,
              { hop, stage: 'host-key', cause: error }
            )
          })
          remembering.catch(() => undefined)
        }
        stage('auth', `Logging in as ${spec.username} with ${auth.description}`)
      })
      client.on('ready', () => {
        progress = 'ready'
        remembering.then(
          () => {
            if (settled) return
            settled = true
            cleanup()
            stage('ready', `Connected to ${where(hop)}`)
            resolve(client)
          },
          (error: unknown) => fail(error as ConnectError)
        )
      })
      client.on('error', (error: Error & { level?: string; code?: unknown }) => {
        if (settled) return
        fail(
          pendingFailure ??
            notSshError(hop, progress, heard) ??
            translateSshError(error, { hop, progress, auth, username: spec.username, authOutcome })
        )
      })
      client.on('close', () => {
        if (settled) return
        fail(pendingFailure ?? notSshError(hop, progress, heard) ?? closedError(hop, progress, auth, spec.username, authOutcome))
      })

      try {
        client.connect(config)
      } catch (error) {
        fail(
          new ConnectError('protocol', `Cannot start SSH with ${where(hop)}: ${(error as Error).message}`, {
            hop,
            stage: 'tcp',
            cause: error
          })
        )
        return
      }
      // Attached after connect(): ssh2 has paused the stream, so this listener cannot swallow
      // bytes; it keeps the first bytes to tell a silent port and a non-SSH service apart.
      const noteGreeting = (chunk: Buffer): void => {
        heard += chunk.toString('latin1', 0, Math.min(chunk.length, MAX_HEARD - heard.length))
        if (/(^|\n)SSH-/.test(heard)) progress = progress === 'greeting' ? 'key-exchange' : progress
        if (progress !== 'greeting' || heard.length >= MAX_HEARD) sock.removeListener('data', noteGreeting)
      }
      sock.on('data', noteGreeting)
      stage('host-key', `Checking the host key of ${where(hop)}`)
    }

    stage(
      'tcp',
      viaHop === undefined
        ? `Connecting to ${where(hop)}`
        : `Connecting to ${where(hop)} through ${hostPort(viaHop.host, viaHop.port)}`
    )
    if (via === undefined) {
      openTcp(hop, (error, sock) => {
        if (error) fail(error)
        else startSsh(sock as net.Socket)
      }, (sock) => {
        transport = sock
      })
    } else {
      openThroughJump(via, hop, viaHop as HopIdentity, (error, stream) => {
        if (error) fail(error)
        else startSsh(stream as Readable)
      })
    }
  })
}

function destroyTransport(sock: net.Socket | Readable | undefined): void {
  if (sock !== undefined && !sock.destroyed) sock.destroy()
}

/** TCP connect with Nagle off (ssh2 leaves it on: each small request would wait ~40 ms). */
function openTcp(
  hop: HopIdentity,
  done: (error: ConnectError | undefined, sock?: net.Socket) => void,
  created: (sock: net.Socket) => void
): void {
  const sock = new net.Socket()
  created(sock)
  const onError = (error: NodeJS.ErrnoException): void => {
    const code = socketErrorCode(error.code)
    done(
      new ConnectError(code, socketErrorMessage(code, hop, error.code), { hop, stage: 'tcp', cause: error })
    )
  }
  sock.once('error', onError)
  sock.once('connect', () => {
    sock.removeListener('error', onError)
    sock.setNoDelay(true)
    done(undefined, sock)
  })
  sock.connect({ host: hop.host, port: hop.port })
}

const CHANNEL_OPEN_ADMINISTRATIVELY_PROHIBITED = 1

function openThroughJump(
  via: Client,
  hop: HopIdentity,
  viaHop: HopIdentity,
  done: (error: ConnectError | undefined, stream?: Readable) => void
): void {
  try {
    via.forwardOut('127.0.0.1', 0, hop.host, hop.port, (error, stream) => {
      if (error) {
        const reason = (error as Error & { reason?: unknown }).reason
        const why = error.message.replace(/^\(SSH\) Channel open failure: /, '')
        const advice =
          reason === CHANNEL_OPEN_ADMINISTRATIVELY_PROHIBITED
            ? 'the jump host does not allow forwarding there (sshd_config AllowTcpForwarding / PermitOpen).'
            : `can the jump host reach ${hostPort(hop.host, hop.port)}, and is sshd running there?`
        done(
          new ConnectError(
            'jump-failed',
            `Jump host '${viaHop.label}' (${hostPort(viaHop.host, viaHop.port)}) could not open a connection to ` +
              `${where(hop)}: ${why}. ${capitalize(advice)}`,
            { hop, stage: 'tcp', cause: error }
          )
        )
        return
      }
      done(undefined, stream as unknown as Readable)
    })
  } catch (error) {
    done(
      new ConnectError(
        'jump-failed',
        `Jump host '${viaHop.label}' (${hostPort(viaHop.host, viaHop.port)}) is no longer connected, so ${where(hop)} cannot be reached through it.`,
        { hop, stage: 'tcp', cause: error }
      )
    )
  }
}
