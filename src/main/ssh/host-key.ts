/**
 * Host key verification for one hop: look the presented key up in the user's and the app's
 * known_hosts files, and decide known / unknown / changed / revoked. An unknown key is never
 * accepted silently: the injected `decideHostKey` is asked and the connection waits for it.
 */
import { createHash } from 'node:crypto'
import path from 'node:path'
import { ConnectError, hostPort, where, whoIs, type HopIdentity } from './connect-errors'
import {
  appendKnownHostsLine,
  checkKnownHost,
  formatKnownHostsLine,
  keyTypeOfBlob,
  readKnownHostsFile,
  type KnownHostsEntry,
  type KnownHostsProblem
} from './known-hosts'

export type HostKeyDecision = 'accept-once' | 'accept-and-remember' | 'reject'

/** What a person needs to decide about a host key nobody has seen before. */
export interface HostKeyQuestion {
  host: string
  port: number
  /** e.g. `ssh-ed25519` */
  keyType: string
  /** `SHA256:...`, as `ssh-keygen -lf` and `ssh` print it. */
  fingerprint: string
  /** The name of the hop the user gave (or its host). */
  label: string
  /** 'jump' when the key belongs to a jump host on the way to the target. */
  role: 'jump' | 'target'
}

export type DecideHostKey = (question: HostKeyQuestion) => Promise<HostKeyDecision>

export interface KnownHostsFiles {
  /** The user's OpenSSH known_hosts (read only), e.g. ~/.ssh/known_hosts. Absent: not consulted. */
  userFile?: string
  /** VirtBench's own known_hosts (read, and appended to on 'accept-and-remember'). */
  appFile: string
}

/** The user's ~/.ssh/known_hosts (read only) and VirtBench's own, in its data folder. */
export function knownHostsFiles(homeDir: string, dataDir: string): KnownHostsFiles {
  return { userFile: path.join(homeDir, '.ssh', 'known_hosts'), appFile: path.join(dataDir, 'known_hosts') }
}

/** `SHA256:<base64 without padding>` of the key blob, exactly as `ssh-keygen -lf` prints it. */
export function sha256Fingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`
}

/** ssh2's host key algorithm names, strongest first (ssh2's own default order). */
const DEFAULT_HOST_KEY_ALGORITHMS = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'rsa-sha2-512',
  'rsa-sha2-256',
  'ssh-rsa'
] as const

export type HostKeyAlgorithm = (typeof DEFAULT_HOST_KEY_ALGORITHMS)[number]

function algorithmsForKeyType(keyType: string): HostKeyAlgorithm[] {
  if (keyType === 'ssh-rsa') return ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa']
  return DEFAULT_HOST_KEY_ALGORITHMS.filter((a) => a === keyType)
}

/**
 * The host key algorithms to offer, with the types already remembered for this host first (as
 * OpenSSH does), so a host known by its RSA key is not asked for its ed25519 key, which would
 * look like a changed key.
 */
export function hostKeyAlgorithmsFor(rememberedTypes: readonly string[]): HostKeyAlgorithm[] {
  const preferred = rememberedTypes.flatMap(algorithmsForKeyType)
  return [...new Set([...preferred, ...DEFAULT_HOST_KEY_ALGORITHMS])]
}

export interface LoadedKnownHosts {
  entries: KnownHostsEntry[]
  problems: KnownHostsProblem[]
}

/** Reads both files (missing files are empty). Throws a plain Error naming the file otherwise. */
export async function loadKnownHosts(files: KnownHostsFiles): Promise<LoadedKnownHosts> {
  const paths = [files.userFile, files.appFile].filter((p): p is string => p !== undefined)
  const parsed = await Promise.all(
    paths.map(async (file) => {
      try {
        return await readKnownHostsFile(file)
      } catch (error) {
        throw new Error(`cannot read the known hosts file ${file}: ${(error as Error).message}`, { cause: error })
      }
    })
  )
  return {
    entries: parsed.flatMap((p) => p.entries),
    problems: parsed.flatMap((p) => p.problems)
  }
}


export type HostKeyVerdict =
  | { kind: 'known'; keyType: string; fingerprint: string; entry: KnownHostsEntry }
  | { kind: 'accepted'; keyType: string; fingerprint: string; remember: boolean }
  | { kind: 'rejected'; keyType: string; fingerprint: string; reason: 'decided' | 'decider-failed' }
  | { kind: 'changed'; keyType: string; fingerprint: string; remembered: RememberedKey[] }
  | { kind: 'revoked'; keyType: string; fingerprint: string; entry: KnownHostsEntry }
  | { kind: 'malformed' }

export interface RememberedKey {
  keyType: string
  fingerprint: string
  file: string
  line: number
}

export interface VerifyHostKeyInput {
  host: string
  port: number
  label: string
  role: 'jump' | 'target'
  keyBlob: Buffer
  entries: readonly KnownHostsEntry[]
  decideHostKey: DecideHostKey
}

export async function verifyHostKey(input: VerifyHostKeyInput): Promise<HostKeyVerdict> {
  const { host, port, label, role, keyBlob, entries, decideHostKey } = input
  const keyType = keyTypeOfBlob(keyBlob)
  if (keyType === undefined) return { kind: 'malformed' }
  const fingerprint = sha256Fingerprint(keyBlob)
  const status = checkKnownHost(entries, host, port, keyBlob)
  switch (status.status) {
    case 'known':
      return { kind: 'known', keyType, fingerprint, entry: status.entry }
    case 'revoked':
      return { kind: 'revoked', keyType, fingerprint, entry: status.entry }
    case 'changed':
      return {
        kind: 'changed',
        keyType,
        fingerprint,
        remembered: status.remembered.map((e) => ({
          keyType: e.keyType,
          fingerprint: sha256Fingerprint(e.keyBlob),
          file: e.file,
          line: e.line
        }))
      }
    case 'unknown':
      break
  }
  let decision: HostKeyDecision
  try {
    decision = await decideHostKey({ host, port, keyType, fingerprint, label, role })
  } catch {
    return { kind: 'rejected', keyType, fingerprint, reason: 'decider-failed' }
  }
  if (decision === 'accept-once') return { kind: 'accepted', keyType, fingerprint, remember: false }
  if (decision === 'accept-and-remember') return { kind: 'accepted', keyType, fingerprint, remember: true }
  return { kind: 'rejected', keyType, fingerprint, reason: 'decided' }
}

/** Appends the key to the app's known_hosts in OpenSSH format (`[host]:port type base64`). */
export function rememberHostKey(appFile: string, host: string, port: number, keyBlob: Buffer): Promise<void> {
  return appendKnownHostsLine(appFile, formatKnownHostsLine(host, port, keyBlob))
}

/** The `ssh-keygen -R` argument that removes the old entry for this host. */
export function knownHostsRemoveHint(host: string, port: number, file: string): string {
  const name = port === 22 ? host : `[${host}]:${port}`
  return `ssh-keygen -R '${name}' -f '${file}'`
}

/**
 * The error for a host key that is not accepted, in the spirit of OpenSSH's "REMOTE HOST
 * IDENTIFICATION HAS CHANGED" warning, in plain words, with both fingerprints.
 */
export function hostKeyError(
  verdict: Exclude<HostKeyVerdict, { kind: 'known' } | { kind: 'accepted' }>,
  hop: HopIdentity
): ConnectError {
  const at = where(hop)
  const detail = { hop, stage: 'host-key' as const }
  switch (verdict.kind) {
    case 'malformed':
      return new ConnectError('protocol', `${at} sent a host key VirtBench cannot read: not connected.`, detail)
    case 'rejected':
      return new ConnectError(
        'host-key-unknown-rejected',
        verdict.reason === 'decided'
          ? `The host key of ${at} (${verdict.keyType} ${verdict.fingerprint}) was not accepted, so VirtBench did not connect. ` +
              'Compare the fingerprint with the one the host shows (ssh-keygen -lf /etc/ssh/ssh_host_*_key.pub) before accepting it.'
          : `The host key of ${at} (${verdict.keyType} ${verdict.fingerprint}) could not be confirmed (asking for a decision failed), ` +
              'so VirtBench did not connect.',
        { ...detail, presentedFingerprint: verdict.fingerprint }
      )
    case 'revoked':
      return new ConnectError(
        'host-key-revoked',
        `The host key of ${at} (${verdict.keyType} ${verdict.fingerprint}) is marked @revoked in ${verdict.entry.file} ` +
          `line ${verdict.entry.line}: VirtBench refuses it and did not connect. The host needs a new key; ask its administrator.`,
        { ...detail, presentedFingerprint: verdict.fingerprint }
      )
    case 'changed': {
      const first = verdict.remembered[0]
      const remembered = verdict.remembered
        .map((r) => `${r.keyType} ${r.fingerprint} (${r.file} line ${r.line})`)
        .join('; ')
      const removal = [...new Set(verdict.remembered.map((r) => r.file))]
        .map((file) => knownHostsRemoveHint(hop.host, hop.port, file))
        .join(' and ')
      return new ConnectError(
        'host-key-changed',
        `WARNING: THE HOST KEY OF ${hostPort(hop.host, hop.port)} HAS CHANGED ${whoIs(hop)} ` +
          '(OpenSSH calls this "REMOTE HOST IDENTIFICATION HAS CHANGED"). ' +
          'Someone could be intercepting this connection (a man-in-the-middle attack), or the host was reinstalled ' +
          `or its key replaced. Remembered: ${remembered}. Presented now: ${verdict.keyType} ${verdict.fingerprint}. ` +
          'VirtBench did not connect. If the change is expected, confirm the new fingerprint with the host\'s ' +
          `administrator, remove the old entry (${removal}) and connect again.`,
        {
          ...detail,
          presentedFingerprint: verdict.fingerprint,
          ...(first === undefined ? {} : { rememberedFingerprint: first.fingerprint })
        }
      )
    }
  }
}
