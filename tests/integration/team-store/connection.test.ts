import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectTeamStore, findPassword, parseTeamStoreUrl, pgpassLookup, TEAM_STORE_SECRET } from '../../../src/main/team-store/connection'
import { MemorySecretStore } from '../../../src/main/secrets/secrets'
import { PG_SUPERUSER, startPostgres, type PostgresServer } from '../../harness/postgres'

/**
 * Where the store is and how VirtBench logs in: the URL's rules, the password's sources in order,
 * and TLS as libpq's sslmode says, against two real clusters (one serving TLS with a throwaway
 * self-signed certificate, one without).
 */

let dir: string
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vb-team-conn-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the team store URL', () => {
  it('reads user, host, port, database and sslmode, with libpq defaults', () => {
    expect(parseTeamStoreUrl('postgres://qa@db.example.org/bench')).toEqual({ host: 'db.example.org', port: 5432, user: 'qa', database: 'bench', sslmode: 'prefer', display: 'qa@db.example.org/bench' })
    expect(parseTeamStoreUrl('postgresql://q%40a@[::1]:6432/b%20c?sslmode=verify-full&sslrootcert=/etc/ca.pem')).toMatchObject({
      host: '::1',
      port: 6432,
      user: 'q@a',
      database: 'b c',
      sslmode: 'verify-full',
      sslrootcert: '/etc/ca.pem'
    })
  })

  it('refuses what it cannot use, saying what to give instead', () => {
    expect(() => parseTeamStoreUrl('postgres://qa:pw@db/bench')).toThrow(/holds a password, which would end up in shell history.*PGPASSWORD, a ~\/\.pgpass line or the app/)
    expect(() => parseTeamStoreUrl('mysql://qa@db/bench')).toThrow('must start with postgres:// (it starts with mysql://)')
    expect(() => parseTeamStoreUrl('postgres://db/bench')).toThrow('names no user; give postgres://USER@db/bench')
    expect(() => parseTeamStoreUrl('postgres://qa@db')).toThrow('names no database; give postgres://qa@db/DATABASE')
    expect(() => parseTeamStoreUrl('postgres://qa@db/x?sslmode=sometimes')).toThrow('sslmode=sometimes is not one of disable, allow, prefer, require, verify-ca, verify-full')
    expect(() => parseTeamStoreUrl('postgres://qa@db/x?password=pw')).toThrow('parameter "password" is not supported')
    expect(() => parseTeamStoreUrl('db.example.org')).toThrow('is not a URL; give the team store as postgres://USER@HOST[:PORT]/DATABASE')
  })
})

describe('the password', () => {
  const address = parseTeamStoreUrl('postgres://qa@127.0.0.1:5433/bench')

  it('comes from PGPASSWORD, then .pgpass, then the keychain', async () => {
    const pgpass = path.join(dir, 'pgpass-order')
    writeFileSync(pgpass, 'localhost:5433:bench:qa:from-file\n', { mode: 0o600 })
    const secrets = new MemorySecretStore()
    await secrets.set(TEAM_STORE_SECRET, 'from-keychain')
    expect(await findPassword(address, { env: { PGPASSWORD: 'from-env', PGPASSFILE: pgpass }, secrets })).toEqual({ password: 'from-env', from: 'PGPASSWORD' })
    expect(await findPassword(address, { env: { PGPASSFILE: pgpass }, secrets })).toEqual({ password: 'from-file', from: pgpass })
    expect(await findPassword(address, { env: { PGPASSFILE: path.join(dir, 'none') }, secrets })).toEqual({ password: 'from-keychain', from: 'the keychain' })
    expect(await findPassword(address, { env: {}, homeDir: dir })).toBeUndefined()
  })

  it("reads .pgpass as libpq does: wildcards, escapes, the first match, and never a file others can read", async () => {
    const file = path.join(dir, 'pgpass-rules')
    writeFileSync(file, ['# comment', 'other:*:*:*:nope', '127.0.0.1:*:bench:qa:a\\:b\\\\c:d', '*:*:*:*:fallback', ''].join('\n'), { mode: 0o600 })
    expect(await pgpassLookup(file, address)).toBe('a:b\\c:d')
    expect(await pgpassLookup(file, parseTeamStoreUrl('postgres://x@h/y'))).toBe('fallback')
    const open = path.join(dir, 'pgpass-open')
    writeFileSync(open, '*:*:*:*:secret\n', { mode: 0o644 })
    expect(await pgpassLookup(open, address)).toBeUndefined()
  })
})

describe('TLS as sslmode says, against real servers', () => {
  let tls: PostgresServer
  let plain: PostgresServer

  beforeAll(async () => {
    ;[tls, plain] = await Promise.all([startPostgres({ tls: true }), startPostgres()])
  }, 120_000)
  afterAll(async () => {
    await Promise.all([tls?.stop(), plain?.stop()])
  })

  async function sslOf(server: PostgresServer, query: string): Promise<boolean> {
    const address = parseTeamStoreUrl(`${server.url(PG_SUPERUSER)}${query}`)
    const client = await connectTeamStore(address, { password: server.password, from: 'PGPASSWORD' })
    try {
      return (await client.query<{ ssl: boolean }>('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows[0]!.ssl
    } finally {
      await client.end()
    }
  }

  it('uses TLS when the server offers it (prefer, the default), and goes on without when it does not', async () => {
    expect(await sslOf(tls, '')).toBe(true)
    expect(await sslOf(plain, '')).toBe(false)
    expect(await sslOf(tls, '?sslmode=disable')).toBe(false)
  })

  it('insists on TLS with require, and checks the certificate with verify-full', async () => {
    expect(await sslOf(tls, '?sslmode=require')).toBe(true)
    expect(await sslOf(tls, `?sslmode=verify-full&sslrootcert=${encodeURIComponent(tls.certFile!)}`)).toBe(true)
    await expect(sslOf(plain, '?sslmode=require')).rejects.toThrow(/TLS failed .*check sslmode and sslrootcert/)
    // a certificate no CA we trust signed
    await expect(sslOf(tls, '?sslmode=verify-ca')).rejects.toThrow(/TLS failed \(self[- ]signed certificate/)
  })
})
