import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { secretKey, type SecretStore } from '../secrets/secrets'

/**
 * Where the team store is and how to log in to it. The URL is a libpq URL without a password
 * (`postgres://USER@HOST[:PORT]/DB[?sslmode=...]`); the password comes from PGPASSWORD, a
 * `.pgpass` file or the keychain, never from the URL, a preset or a command line.
 */

/** What went wrong, in words a person can act on; `transient` failures (server down, network cut) are worth retrying. */
export class TeamStoreError extends Error {
  override readonly name = 'TeamStoreError'
  constructor(
    message: string,
    readonly transient = false
  ) {
    super(message)
  }
}

export const SSL_MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const
export type SslMode = (typeof SSL_MODES)[number]

export interface TeamStoreAddress {
  host: string
  port: number
  user: string
  database: string
  sslmode: SslMode
  sslrootcert?: string
  /** `user@host:port/db`, for messages (never a password). */
  display: string
}

/** The keychain entry of the team store's password (a fixed pseudo-target of the SecretStore). */
export const TEAM_STORE_SECRET = secretKey('team-store', 'password')

/** Reads a team store URL; a password in it, another scheme or an unknown sslmode is refused with the reason. */
export function parseTeamStoreUrl(text: string): TeamStoreAddress {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new TeamStoreError(`"${text}" is not a URL; give the team store as postgres://USER@HOST[:PORT]/DATABASE`)
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new TeamStoreError(`the team store URL must start with postgres:// (it starts with ${url.protocol}//); give postgres://USER@HOST[:PORT]/DATABASE`)
  }
  if (url.password !== '') {
    throw new TeamStoreError(
      'the team store URL holds a password, which would end up in shell history, process lists and logs; remove it from the URL and give it in PGPASSWORD, a ~/.pgpass line or the app (saved in the keychain)'
    )
  }
  const user = decodeURIComponent(url.username)
  if (user === '') throw new TeamStoreError(`the team store URL names no user; give postgres://USER@${url.host}${url.pathname}`)
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''))
  if (database === '') throw new TeamStoreError(`the team store URL names no database; give postgres://${user}@${url.host}/DATABASE`)
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (host === '') throw new TeamStoreError('the team store URL names no host; give postgres://USER@HOST/DATABASE')
  const port = url.port === '' ? 5432 : Number(url.port)
  const sslmode = url.searchParams.get('sslmode') ?? 'prefer'
  if (!(SSL_MODES as readonly string[]).includes(sslmode)) throw new TeamStoreError(`sslmode=${sslmode} is not one of ${SSL_MODES.join(', ')} (as in libpq)`)
  for (const key of url.searchParams.keys()) {
    if (key !== 'sslmode' && key !== 'sslrootcert') throw new TeamStoreError(`the team store URL's parameter "${key}" is not supported; only sslmode and sslrootcert are`)
  }
  const sslrootcert = url.searchParams.get('sslrootcert') ?? undefined
  return { host, port, user, database, sslmode: sslmode as SslMode, ...(sslrootcert ? { sslrootcert } : {}), display: `${user}@${url.host}/${database}` }
}

export interface PasswordSources {
  env: NodeJS.ProcessEnv
  /** The keychain (the app's SecretStore); absent in the CLI. */
  secrets?: SecretStore
  homeDir?: string
}

export interface FoundPassword {
  password: string
  /** Where it came from, for messages: "PGPASSWORD", "/root/.pgpass", "the keychain". */
  from: string
}

/** The password for an address: PGPASSWORD, then the .pgpass file (PGPASSFILE or ~/.pgpass), then the keychain. */
export async function findPassword(address: TeamStoreAddress, sources: PasswordSources): Promise<FoundPassword | undefined> {
  const fromEnv = sources.env.PGPASSWORD
  if (fromEnv) return { password: fromEnv, from: 'PGPASSWORD' }
  const file = sources.env.PGPASSFILE ?? path.join(sources.homeDir ?? os.homedir(), '.pgpass')
  const fromFile = await pgpassLookup(file, address)
  if (fromFile !== undefined) return { password: fromFile, from: file }
  const fromKeychain = await sources.secrets?.get(TEAM_STORE_SECRET)
  if (fromKeychain) return { password: fromKeychain, from: 'the keychain' }
  return undefined
}

/** The password of the first matching line of a .pgpass file (libpq's rules: `*` matches anything, `\:` and `\\` escape); a file others can read is ignored, as libpq does. */
export async function pgpassLookup(file: string, address: TeamStoreAddress): Promise<string | undefined> {
  let text: string
  try {
    const stat = await fs.stat(file)
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) return undefined
    text = await fs.readFile(file, 'utf8')
  } catch {
    return undefined
  }
  const wanted = [address.host, String(address.port), address.database, address.user]
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.startsWith('#')) continue
    const fields = splitPgpassLine(line)
    if (fields.length < 5) continue
    if (wanted.every((value, i) => fields[i] === '*' || fields[i] === value || (i === 0 && fields[i] === 'localhost' && value === '127.0.0.1'))) {
      return fields.slice(4).join(':')
    }
  }
  return undefined
}

function splitPgpassLine(line: string): string[] {
  const fields: string[] = []
  let current = ''
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (c === '\\' && i + 1 < line.length) current += line[++i]
    else if (c === ':' && fields.length < 4) {
      fields.push(current)
      current = ''
    } else current += c
  }
  fields.push(current)
  return fields
}

/** Every wait has a deadline: connecting, and each statement. */
const CONNECT_TIMEOUT_MS = 10_000
const STATEMENT_TIMEOUT_MS = 120_000

function sslOf(address: TeamStoreAddress, ca: string | undefined, withTls: boolean): pg.ClientConfig['ssl'] {
  if (!withTls) return false
  if (address.sslmode === 'verify-full') return { rejectUnauthorized: true, ...(ca ? { ca } : {}) }
  // verify-ca: the chain is checked, the host name is not (libpq's meaning)
  if (address.sslmode === 'verify-ca') return { rejectUnauthorized: true, checkServerIdentity: () => undefined, ...(ca ? { ca } : {}) }
  return { rejectUnauthorized: false }
}

/**
 * Opens a connection. TLS as libpq's sslmode says: `prefer` (the default) and `allow` use TLS
 * when the server offers it and go on without when it does not; `require` insists; `verify-ca`
 * and `verify-full` check the certificate (against `sslrootcert` when given).
 */
export async function connectTeamStore(address: TeamStoreAddress, password: FoundPassword | undefined): Promise<pg.Client> {
  const ca = address.sslrootcert ? await fs.readFile(address.sslrootcert, 'utf8').catch(() => {
    throw new TeamStoreError(`cannot read sslrootcert ${address.sslrootcert}; give the CA certificate's path`)
  }) : undefined
  const attempt = async (withTls: boolean): Promise<pg.Client> => {
    const client = new pg.Client({
      host: address.host,
      port: address.port,
      user: address.user,
      database: address.database,
      ...(password ? { password: password.password } : {}),
      ssl: sslOf(address, ca, withTls),
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: STATEMENT_TIMEOUT_MS,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      application_name: 'virtbench'
    })
    // an error after connecting (the server going away) is seen by the query under way
    client.on('error', () => {})
    try {
      await client.connect()
      return client
    } catch (error) {
      await client.end().catch(() => {})
      throw error
    }
  }
  try {
    if (address.sslmode === 'disable') return await attempt(false)
    try {
      return await attempt(true)
    } catch (error) {
      if ((address.sslmode === 'prefer' || address.sslmode === 'allow') && /does not support SSL/i.test((error as Error).message)) return await attempt(false)
      throw error
    }
  } catch (error) {
    throw explainPgError(error, address, password)
  }
}

const TRANSIENT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300'])

/** A driver or server error as a TeamStoreError saying what happened, where, and what to do. */
export function explainPgError(error: unknown, address: TeamStoreAddress, password?: FoundPassword): TeamStoreError {
  if (error instanceof TeamStoreError) return error
  const e = error as { code?: string; message?: string }
  const message = e.message ?? String(error)
  const code = e.code ?? ''
  const where = `PostgreSQL at ${address.display}`
  if (code === '28P01') {
    return new TeamStoreError(`${where} refused the password for user "${address.user}" (from ${password?.from ?? 'nowhere'}): correct it in ${password?.from ?? 'PGPASSWORD, ~/.pgpass or the app'} and publish again`)
  }
  if (/client password must be a string|password authentication|no password/i.test(message) && !password) {
    return new TeamStoreError(`${where} asks for a password and none was found: set PGPASSWORD, add "${address.host}:${address.port}:${address.database}:${address.user}:PASSWORD" to ~/.pgpass (mode 0600), or save it in the app's Settings`)
  }
  if (code === '28000') return new TeamStoreError(`${where} does not let user "${address.user}" in (${message}): ask its administrator for an entry in pg_hba.conf`)
  if (code === '3D000') return new TeamStoreError(`${where}: the database "${address.database}" does not exist; create it (createdb ${address.database}) or correct the URL`)
  if (code === '42501') {
    return new TeamStoreError(
      `${where}: user "${address.user}" may not create VirtBench's tables (${message}); ask the database's owner to run GRANT CREATE ON DATABASE "${address.database}" TO "${address.user}", or to publish once so the tables exist`
    )
  }
  if (code === 'ENOTFOUND') return new TeamStoreError(`cannot find the host "${address.host}" of the team store (DNS): correct the URL`, true)
  if (TRANSIENT_CODES.has(code) || /Connection terminated|not queryable|timeout expired|terminating connection|the database system is/i.test(message)) {
    return new TeamStoreError(`cannot reach ${where} (${code || message}): check that the server runs and that this machine can reach ${address.host}:${address.port}`, true)
  }
  if (/SSL|certificate/i.test(message)) return new TeamStoreError(`${where}: TLS failed (${message}); check sslmode and sslrootcert in the URL`)
  return new TeamStoreError(`${where}: ${message}${code ? ` (${code})` : ''}`)
}
