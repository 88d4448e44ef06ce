/**
 * OpenSSH known_hosts files: parsing, host matching and appending, following sshd(8)'s
 * "SSH_KNOWN_HOSTS FILE FORMAT" section and OpenSSH's own hostfile.c behaviour:
 *
 *   [@revoked|@cert-authority] host-patterns key-type base64-key [comment]
 *
 * - host patterns: comma list with `*` / `?` wildcards and `!` negation (a negated match makes
 *   the whole line not apply); `[host]:port` for non-22 ports; matched case-insensitively.
 * - hashed names `|1|base64(salt)|base64(HMAC-SHA1(salt, name))`, one name per line.
 * - `@cert-authority` lines are kept but have no effect here (host certificates are not used).
 * - comments, blank lines and malformed lines are skipped (malformed ones reported as problems).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { writeFileAtomic } from '../fs/atomic-file'

export type KnownHostsMarker = 'revoked' | 'cert-authority'

export type HostField =
  | { kind: 'patterns'; patterns: string[] }
  | { kind: 'hashed'; salt: Buffer; hash: Buffer }

export interface KnownHostsEntry {
  /** The file the entry came from (for messages), as given to the parser. */
  file: string
  /** 1-based line number. */
  line: number
  marker: KnownHostsMarker | undefined
  hosts: HostField
  /** The key type written on the line, e.g. `ssh-ed25519`. */
  keyType: string
  /** The decoded public key blob (its embedded type equals `keyType`). */
  keyBlob: Buffer
}

export interface KnownHostsProblem {
  file: string
  line: number
  reason: string
}

export interface ParsedKnownHosts {
  entries: KnownHostsEntry[]
  problems: KnownHostsProblem[]
}

const HASH_MAGIC = '|1|'
const SHA1_BYTES = 20

export function parseKnownHosts(text: string, file: string): ParsedKnownHosts {
  const entries: KnownHostsEntry[] = []
  const problems: KnownHostsProblem[] = []
  const lines = text.split('\n')
  lines.forEach((raw, index) => {
    const result = parseLine(raw.replace(/\r$/, ''), file, index + 1)
    if (result === undefined) return
    if ('reason' in result) problems.push(result)
    else entries.push(result)
  })
  return { entries, problems }
}

function parseLine(raw: string, file: string, line: number): KnownHostsEntry | KnownHostsProblem | undefined {
  const text = raw.replace(/^[ \t]+/, '')
  if (text === '' || text.startsWith('#')) return undefined
  const fields = text.split(/[ \t]+/)
  const problem = (reason: string): KnownHostsProblem => ({ file, line, reason })

  let marker: KnownHostsMarker | undefined
  if (fields[0]?.startsWith('@')) {
    const word = fields.shift() as string
    if (word === '@revoked') marker = 'revoked'
    else if (word === '@cert-authority') marker = 'cert-authority'
    else return problem(`unknown marker ${quote(word)}`)
  }
  const [hostText, keyType, base64] = fields
  if (hostText === undefined || hostText === '') return problem('no host names')
  if (keyType === undefined || keyType.startsWith('#')) return problem('no key type after the host names')
  if (/^\d+$/.test(keyType)) return problem('old SSH protocol 1 key (not supported by SSH 2)')
  if (base64 === undefined || base64.startsWith('#')) return problem(`no key after the key type ${quote(keyType)}`)

  const hosts = parseHostField(hostText)
  if (hosts === undefined) return problem(`malformed hashed host name ${quote(hostText)}`)
  const keyBlob = decodeBase64Strict(base64)
  if (keyBlob === undefined) return problem(`the key is not valid base64: ${quote(base64)}`)
  const blobType = keyTypeOfBlob(keyBlob)
  if (blobType !== keyType) {
    return problem(`the key says it is ${quote(blobType ?? 'unreadable')} but the line says ${quote(keyType)}`)
  }
  return { file, line, marker, hosts, keyType, keyBlob }
}

function parseHostField(text: string): HostField | undefined {
  if (!text.startsWith('|')) return { kind: 'patterns', patterns: text.split(',').filter((p) => p !== '') }
  if (!text.startsWith(HASH_MAGIC)) return undefined
  const [saltText, hashText, extra] = text.slice(HASH_MAGIC.length).split('|')
  if (saltText === undefined || hashText === undefined || extra !== undefined) return undefined
  const salt = decodeBase64Strict(saltText)
  const hash = decodeBase64Strict(hashText)
  if (salt === undefined || hash === undefined || salt.length !== SHA1_BYTES || hash.length !== SHA1_BYTES) {
    return undefined
  }
  return { kind: 'hashed', salt, hash }
}

function decodeBase64Strict(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return undefined
  const buf = Buffer.from(text, 'base64')
  return buf.length === 0 ? undefined : buf
}

/** The key type string at the start of an SSH public key blob, or undefined if unreadable. */
export function keyTypeOfBlob(blob: Buffer): string | undefined {
  if (blob.length < 4) return undefined
  const len = blob.readUInt32BE(0)
  if (len === 0 || len > 64 || 4 + len > blob.length) return undefined
  const type = blob.subarray(4, 4 + len).toString('latin1')
  return /^[\x21-\x7e]+$/.test(type) ? type : undefined
}

/** The name OpenSSH looks up: `host` for port 22, else `[host]:port`, lowercased. */
export function knownHostsName(host: string, port: number): string {
  const lower = host.toLowerCase()
  return port === 22 ? lower : `[${lower}]:${port}`
}

/** OpenSSH wildcard match: `*` any run of characters, `?` exactly one; case-insensitive. */
export function matchWildcard(name: string, pattern: string): boolean {
  const s = name.toLowerCase()
  const p = pattern.toLowerCase()
  let si = 0
  let pi = 0
  let starPi = -1
  let starSi = 0
  while (si < s.length) {
    if (pi < p.length && (p[pi] === '?' || p[pi] === s[si])) {
      si++
      pi++
    } else if (pi < p.length && p[pi] === '*') {
      starPi = pi++
      starSi = si
    } else if (starPi !== -1) {
      pi = starPi + 1
      si = ++starSi
    } else {
      return false
    }
  }
  while (pi < p.length && p[pi] === '*') pi++
  return pi === p.length
}

/** A comma-list match: true if some pattern matches and no negated (`!`) pattern does. */
export function matchPatternList(name: string, patterns: readonly string[]): boolean {
  let positive = false
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!')
    if (!matchWildcard(name, negated ? pattern.slice(1) : pattern)) continue
    if (negated) return false
    positive = true
  }
  return positive
}

export function hashHostName(name: string, salt: Buffer): Buffer {
  return createHmac('sha1', salt).update(name).digest()
}

/** `|1|salt|hash` for `name` (the form `ssh-keygen -H` writes), with a fresh random salt. */
export function hashedHostField(name: string, salt: Buffer = randomBytes(SHA1_BYTES)): string {
  return `${HASH_MAGIC}${salt.toString('base64')}|${hashHostName(name, salt).toString('base64')}`
}

/** Does this entry apply to `name` (as produced by knownHostsName)? */
export function entryMatchesName(entry: Pick<KnownHostsEntry, 'hosts'>, name: string): boolean {
  const { hosts } = entry
  if (hosts.kind === 'patterns') return matchPatternList(name, hosts.patterns)
  return timingSafeEqual(hashHostName(name, hosts.salt), hosts.hash)
}

export type KnownHostStatus =
  | { status: 'known'; entry: KnownHostsEntry }
  | { status: 'unknown' }
  /** A key is remembered for this host but the presented key is not among them. */
  | { status: 'changed'; remembered: KnownHostsEntry[] }
  | { status: 'revoked'; entry: KnownHostsEntry }

/**
 * OpenSSH's rule (hostfile.c check_hostkeys_by_key_or_type): among the entries that apply to the
 * host, a revoked entry equal to the key wins; then an equal key means known; any other
 * remembered key means changed; nothing means unknown. `@cert-authority` entries are ignored.
 */
export function checkKnownHost(
  entries: readonly KnownHostsEntry[],
  host: string,
  port: number,
  keyBlob: Buffer
): KnownHostStatus {
  const name = knownHostsName(host, port)
  const applicable = entries.filter((e) => e.marker !== 'cert-authority' && entryMatchesName(e, name))
  const revoked = applicable.find((e) => e.marker === 'revoked' && e.keyBlob.equals(keyBlob))
  if (revoked) return { status: 'revoked', entry: revoked }
  const plain = applicable.filter((e) => e.marker === undefined)
  const same = plain.find((e) => e.keyBlob.equals(keyBlob))
  if (same) return { status: 'known', entry: same }
  if (plain.length > 0) return { status: 'changed', remembered: plain }
  return { status: 'unknown' }
}

/** Key types remembered (unmarked) for a host, in file order, without duplicates. */
export function rememberedKeyTypes(entries: readonly KnownHostsEntry[], host: string, port: number): string[] {
  const name = knownHostsName(host, port)
  const types = entries
    .filter((e) => e.marker === undefined && entryMatchesName(e, name))
    .map((e) => e.keyType)
  return [...new Set(types)]
}

/** One known_hosts line in OpenSSH's format: `name type base64` (what `ssh` itself appends). */
export function formatKnownHostsLine(host: string, port: number, keyBlob: Buffer): string {
  const type = keyTypeOfBlob(keyBlob)
  if (type === undefined) throw new Error('formatKnownHostsLine: the key blob has no readable key type')
  return `${knownHostsName(host, port)} ${type} ${keyBlob.toString('base64')}`
}

/** Reads and parses a known_hosts file; a missing file is an empty one. Other errors are thrown. */
export async function readKnownHostsFile(file: string): Promise<ParsedKnownHosts> {
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], problems: [] }
    throw error
  }
  return parseKnownHosts(text, file)
}

/** Appends run one after another per file, so two accepted keys never overwrite each other. */
const appendQueues = new Map<string, Promise<void>>()

/**
 * Appends a line to a known_hosts file atomically: the new content goes to a temp file in the
 * same folder (mode 0600), is fsynced and renamed over the file, so a reader sees the old file or
 * the new one, never half a line. The folder is created (mode 0700) if missing.
 */
export function appendKnownHostsLine(file: string, line: string): Promise<void> {
  if (/[\r\n]/.test(line)) return Promise.reject(new Error('appendKnownHostsLine: the line contains a line break'))
  const previous = appendQueues.get(file) ?? Promise.resolve()
  const next = previous.catch(() => undefined).then(() => appendNow(file, line))
  appendQueues.set(file, next)
  const cleanup = (): void => {
    if (appendQueues.get(file) === next) appendQueues.delete(file)
  }
  next.then(cleanup, cleanup)
  return next
}

async function appendNow(file: string, line: string): Promise<void> {
  let existing = ''
  try {
    existing = await fs.readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n'
  await writeFileAtomic(file, `${existing}${separator}${line}\n`, { dirMode: 0o700 })
}

function quote(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}...` : text
  return JSON.stringify(short)
}
