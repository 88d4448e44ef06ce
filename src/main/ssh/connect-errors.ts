/**
 * Typed errors for opening an SSH connection, and their wording. Every message names the host and
 * port it is about, says what happened in plain words and what to try next. Secrets (passwords,
 * passphrases, key material) never appear in a message.
 */
import type { PreparedAuth } from './auth'

export type ConnectErrorCode =
  /** The TCP connection was actively refused (nothing listens on the port). */
  | 'refused'
  /** A stage (TCP connect, SSH greeting and key exchange, authentication) did not finish in time. */
  | 'timeout'
  /** The host name could not be resolved. */
  | 'dns'
  /** No route to the host or network. */
  | 'unreachable'
  /** The peer closed or reset the connection before the session was ready. */
  | 'closed'
  /** The peer does not speak SSH, or the SSH handshake failed (e.g. no common algorithm). */
  | 'protocol'
  /** The host key is not known and the decision was to reject it. */
  | 'host-key-unknown-rejected'
  /** A different key of the same type is remembered for this host. */
  | 'host-key-changed'
  /** The presented key is marked `@revoked`. */
  | 'host-key-revoked'
  /** A known_hosts file could not be read or written. */
  | 'host-key-store'
  /** The server rejected the credentials. */
  | 'auth-failed'
  /** The server does not offer the configured authentication method. */
  | 'auth-method-not-allowed'
  /** The private key is encrypted and no passphrase was given. */
  | 'key-passphrase-needed'
  /** The passphrase does not decrypt the private key. */
  | 'key-passphrase-wrong'
  /** The private key could not be read (unsupported format, not a private key, damaged). */
  | 'key-invalid'
  /** No SSH agent is configured, or the agent cannot be reached. */
  | 'agent-unavailable'
  /** The agent holds no keys. */
  | 'agent-no-keys'
  /** A jump host could not open a connection to the next hop. */
  | 'jump-failed'
  /** The connection spec itself is invalid (empty host, bad port...). */
  | 'invalid-spec'
  /** The caller cancelled the attempt. */
  | 'cancelled'

export type ConnectStage = 'tcp' | 'host-key' | 'auth' | 'ready'

/** Where an error happened: which hop of the chain, for which connection target. */
export interface HopIdentity {
  /** The name the user gave this hop (or its host). */
  label: string
  host: string
  port: number
  /** 'jump' for a jump host on the way to the target, 'target' for the final hop. */
  role: 'jump' | 'target'
  /** Label of the final target, when this hop is a jump host on the way to it. */
  targetLabel?: string
}

export interface ConnectErrorDetails {
  hop: HopIdentity
  stage: ConnectStage
  /** Fingerprints involved in a host-key error (`SHA256:...`). */
  presentedFingerprint?: string
  rememberedFingerprint?: string
  /** The original low-level error, for logs (its message never contains secrets). */
  cause?: unknown
}

export class ConnectError extends Error {
  override readonly name = 'ConnectError'
  readonly code: ConnectErrorCode
  readonly hop: HopIdentity
  readonly stage: ConnectStage
  readonly presentedFingerprint: string | undefined
  readonly rememberedFingerprint: string | undefined

  constructor(code: ConnectErrorCode, message: string, details: ConnectErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause })
    this.code = code
    this.hop = details.hop
    this.stage = details.stage
    this.presentedFingerprint = details.presentedFingerprint
    this.rememberedFingerprint = details.rememberedFingerprint
  }
}

export function isConnectError(error: unknown): error is ConnectError {
  return error instanceof ConnectError
}

/** `10.0.0.5:22`, or `[fe80::1]:22` for IPv6 literals. */
export function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
}

/** `(target 'kvm-host')` or `(jump host 'bastion' on the way to 'kvm-host')`. */
export function whoIs(hop: HopIdentity): string {
  if (hop.role === 'jump') {
    return hop.targetLabel === undefined
      ? `(jump host '${hop.label}')`
      : `(jump host '${hop.label}' on the way to '${hop.targetLabel}')`
  }
  return `(target '${hop.label}')`
}

/** `10.0.0.5:22 (target 'kvm-host')`. */
export function where(hop: HopIdentity): string {
  return `${hostPort(hop.host, hop.port)} ${whoIs(hop)}`
}

/** Node's socket error codes mapped to ours; anything else is 'closed'. */
export function socketErrorCode(errno: string | undefined): ConnectErrorCode {
  switch (errno) {
    case 'ECONNREFUSED':
      return 'refused'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return 'dns'
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
    case 'EADDRNOTAVAIL':
      return 'unreachable'
    case 'ETIMEDOUT':
      return 'timeout'
    default:
      return 'closed'
  }
}

/** The message for a failure while opening the TCP connection. */
export function socketErrorMessage(code: ConnectErrorCode, hop: HopIdentity, errno: string | undefined): string {
  const at = where(hop)
  switch (code) {
    case 'refused':
      return `Connection refused by ${hostPort(hop.host, hop.port)} ${whoIs(hop)}: is sshd running and the port right?`
    case 'dns':
      return `Cannot resolve the host name '${hop.host}' ${whoIs(hop)}${errno === 'EAI_AGAIN' ? ' (the DNS server did not answer)' : ''}: check the spelling, or use the IP address.`
    case 'unreachable':
      return `No route to ${at}${errno ? ` (${errno})` : ''}: is the host up and on a network this computer can reach?`
    case 'timeout':
      return `No answer from ${at} (the operating system gave up connecting): is the host up, and is a firewall dropping the connection?`
    default:
      return `The connection to ${at} was cut${errno ? ` (${errno})` : ''}: check the network and try again.`
  }
}

export function seconds(ms: number): string {
  const s = ms / 1000
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`
}

/** How far one hop got; decides which stage and which words a failure gets. */
export type Progress = 'tcp' | 'greeting' | 'key-exchange' | 'host-key-decision' | 'auth' | 'ready'

export function cancelledError(hop: HopIdentity, stage: ConnectStage): ConnectError {
  return new ConnectError('cancelled', `Connecting to ${where(hop)} was cancelled.`, { hop, stage })
}

/** Enough of the first bytes to quote what a non-SSH service said. */
export const MAX_HEARD = 256

/** The error for a server that answered, but not with an SSH greeting; undefined otherwise. */
export function notSshError(hop: HopIdentity, progress: Progress, heard: string): ConnectError | undefined {
  if (progress !== 'greeting' || heard === '') return undefined
  const firstLine = printable(heard.split('\n')[0] ?? '')
  return new ConnectError(
    'protocol',
    `${where(hop)} answered ${JSON.stringify(firstLine)}, which is not an SSH greeting: is this the SSH port?`,
    { hop, stage: 'host-key' }
  )
}

export function stageOf(progress: Progress): ConnectStage {
  switch (progress) {
    case 'tcp':
      return 'tcp'
    case 'greeting':
    case 'key-exchange':
    case 'host-key-decision':
      return 'host-key'
    case 'auth':
      return 'auth'
    case 'ready':
      return 'ready'
  }
}

export function timeoutError(hop: HopIdentity, progress: Progress, budgetMs: number, viaHop: HopIdentity | undefined): ConnectError {
  const s = seconds(budgetMs)
  const at = where(hop)
  let message: string
  switch (progress) {
    case 'tcp':
      message =
        viaHop === undefined
          ? `No answer from ${at} within ${s}: is the host up, is the port right, and is a firewall dropping the connection?`
          : `Jump host '${viaHop.label}' did not open a connection to ${at} within ${s}: can the jump host reach it?`
      break
    case 'greeting':
      message = `${at} accepted the connection but sent no SSH greeting within ${s}: is an SSH server listening on port ${hop.port}?`
      break
    case 'key-exchange':
    case 'host-key-decision':
      message = `The SSH key exchange with ${at} did not finish within ${s}: the server may be overloaded or the network dropping large packets.`
      break
    default:
      message = `Logging in to ${at} did not finish within ${s}: the server is slow to check the login (PAM, LDAP, DNS?).`
  }
  return new ConnectError('timeout', message, { hop, stage: stageOf(progress) })
}

export interface TranslateContext {
  hop: HopIdentity
  progress: Progress
  auth: PreparedAuth
  username: string
  authOutcome: AuthOutcome | undefined
}

/** What the server said after our one attempt failed. */
export interface AuthOutcome {
  /** "Authentications that can continue", when the server's last answer is known. */
  methodsLeft: string[] | undefined
  partial: boolean
  /** Keyboard-interactive questions the server asked during the attempt. */
  questionsAsked: number
}

/** SSH_DISCONNECT_NO_MORE_AUTH_METHODS_AVAILABLE (RFC 4253). */
const DISCONNECT_NO_MORE_AUTH_METHODS = 14

export function translateSshError(error: Error & { level?: string; code?: unknown }, ctx: TranslateContext): ConnectError {
  const { hop, progress, auth, username, authOutcome } = ctx
  const at = where(hop)
  const detail = { hop, stage: stageOf(progress), cause: error }
  if (error.level === 'client-authentication') return authError(hop, auth, username, authOutcome)
  if (error.level === 'agent') {
    return new ConnectError(
      'agent-unavailable',
      `The SSH agent failed while logging in to ${at} (${error.message}): is the agent still running?`,
      { ...detail, stage: 'auth' }
    )
  }
  if (typeof error.code === 'number') {
    if (error.code === DISCONNECT_NO_MORE_AUTH_METHODS) return authError(hop, auth, username, authOutcome)
    return new ConnectError('closed', `${at} ended the connection: ${printable(error.message)}.`, detail)
  }
  if (error.level === 'client-socket') {
    const errno = (error as NodeJS.ErrnoException).code
    const code = socketErrorCode(errno)
    return new ConnectError(code === 'closed' ? 'closed' : code, socketErrorMessage(code, hop, errno), detail)
  }
  if (error.level === 'protocol' && /before handshake/i.test(error.message)) return closedError(hop, progress, auth, username, authOutcome)
  if (error.level === 'protocol' || error.level === 'handshake') {
    return new ConnectError(
      'protocol',
      progress === 'greeting' || /identification|header/i.test(error.message)
        ? `${at} does not speak SSH (${printable(error.message)}): is this port an SSH server?`
        : `The SSH handshake with ${at} failed: ${printable(error.message)}. The server may only offer algorithms VirtBench does not support.`,
      detail
    )
  }
  if (error.level === 'client-timeout') {
    return new ConnectError('timeout', `${at} stopped answering keepalives: the connection was lost.`, detail)
  }
  return new ConnectError('protocol', `The SSH connection to ${at} failed: ${printable(error.message)}`, detail)
}

export function closedError(
  hop: HopIdentity,
  progress: Progress,
  auth: PreparedAuth,
  username: string,
  authOutcome: AuthOutcome | undefined
): ConnectError {
  const at = where(hop)
  const detail = { hop, stage: stageOf(progress) }
  switch (progress) {
    case 'tcp':
    case 'greeting':
      return new ConnectError(
        'closed',
        `${at} closed the connection before SSH started: the server may refuse this client (MaxStartups, TCP wrappers, fail2ban) or it is not an SSH server.`,
        detail
      )
    case 'host-key-decision':
      return new ConnectError(
        'closed',
        `${at} closed the connection while the host key decision was pending (sshd allows 120 s by default, LoginGraceTime): connect again.`,
        detail
      )
    case 'auth':
      if (authOutcome !== undefined) return authError(hop, auth, username, authOutcome)
      return new ConnectError('closed', `${at} closed the connection during login: check the server's log (auth.log / journalctl -u ssh).`, detail)
    default:
      return new ConnectError('closed', `${at} closed the connection during the SSH handshake: check the server's log.`, detail)
  }
}

function authError(
  hop: HopIdentity,
  auth: PreparedAuth,
  username: string,
  outcome: AuthOutcome | undefined
): ConnectError {
  const at = where(hop)
  const detail = { hop, stage: 'auth' as const }
  const offered = outcome?.methodsLeft
  if (outcome?.partial) {
    return new ConnectError(
      'auth-failed',
      `${at} accepted ${auth.description} for user '${username}' but requires another method as well ` +
        `(${offered?.join(', ') || 'none listed'}; sshd_config AuthenticationMethods): VirtBench logs in with one method.`,
      detail
    )
  }
  if (offered !== undefined && !offered.includes(auth.protocolMethod)) {
    const hint =
      auth.protocolMethod === 'password' && offered.includes('keyboard-interactive')
        ? ' Try keyboard-interactive with the same password.'
        : auth.protocolMethod === 'keyboard-interactive' && offered.includes('password')
          ? ' Try the password method.'
          : ''
    return new ConnectError(
      'auth-method-not-allowed',
      `${at} does not accept ${methodWords(auth.protocolMethod)} logins for user '${username}' (it offers: ${
        offered.join(', ') || 'nothing'
      }).${hint}`,
      detail
    )
  }
  let message: string
  switch (auth.name) {
    case 'password':
      message = `${at} rejected the password for user '${username}': check the user name and password. One attempt was made.`
      break
    case 'key':
      message = `${at} did not accept ${auth.description} for user '${username}': is its public key in ~/.ssh/authorized_keys of '${username}' on that host?`
      break
    case 'agent':
      message = `${at} did not accept ${auth.description} for user '${username}': add the right key with ssh-add, or its public key to ~/.ssh/authorized_keys on that host.`
      break
    case 'keyboard-interactive':
      message =
        outcome !== undefined && outcome.questionsAsked === 0
          ? `${at} offers keyboard-interactive login for user '${username}' but asked no questions, so nothing could be ` +
            'answered: on OpenSSH this means sshd has no keyboard-interactive back end (UsePAM no). Use password or key ' +
            'login, or set UsePAM yes on the server.'
          : `${at} rejected ${auth.description} for user '${username}': check the user name and password. One attempt was made.`
      break
  }
  return new ConnectError('auth-failed', message, detail)
}

function methodWords(method: string): string {
  switch (method) {
    case 'publickey':
      return 'key (publickey)'
    case 'password':
      return 'password'
    default:
      return method
  }
}

/** Text from a server, fit to show a person: control characters blanked, length bounded. */
export function printable(text: string, maxLength = 200): string {
  const clean = text.replace(/[\p{Cc}]/gu, ' ').trim()
  return clean.length > maxLength ? `${clean.slice(0, maxLength - 3)}...` : clean
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
