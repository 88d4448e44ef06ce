/**
 * A throwaway PostgreSQL cluster for tests and benches: Debian's own binaries (the `postgresql`
 * package, /usr/lib/postgresql/<major>/bin), `initdb` in a fresh temp dir with scram password
 * auth, `postgres` on 127.0.0.1 and a free port, stopped by the PID this fixture spawned.
 *
 *   const pg = await startPostgres()
 *   pg.url('vbadmin')            // postgres://vbadmin@127.0.0.1:<port>/postgres (no password in it)
 *   pg.password                  // the superuser's password, for PGPASSWORD
 *   await pg.crash()             // immediate shutdown (SIGQUIT): backends die mid-transaction
 *   await pg.start()             // the same cluster again, on the same port (crash recovery)
 *   await pg.stop()
 *
 * initdb refuses root: as root, the cluster runs as `nobody` (setpriv) in a temp dir it owns.
 * `startPostgres({ tls: true })` also serves TLS with a throwaway self-signed certificate for
 * 127.0.0.1 (`certFile`, its own CA), made by openssl.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from './free-port'

export const PG_SUPERUSER = 'vbadmin'

export interface PostgresServer {
  port: number
  password: string
  /** With `tls`: the server's self-signed certificate (PEM), to give as sslrootcert. */
  certFile?: string
  /** A libpq URL without a password: `postgres://user@127.0.0.1:port/db`. */
  url(user?: string, database?: string): string
  /** Runs SQL as the superuser through psql (for setting up roles and databases); returns stdout. */
  psql(sql: string, database?: string): string
  start(): Promise<void>
  crash(): Promise<void>
  stop(): Promise<void>
}

const NOBODY = { uid: 65534, gid: 65534 }

/** The newest installed PostgreSQL's bin folder. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql'
  const majors = existsSync(root) ? readdirSync(root).filter((d) => /^\d+$/.test(d)).sort((a, b) => Number(b) - Number(a)) : []
  const found = majors.map((m) => path.join(root, m, 'bin')).find((dir) => existsSync(path.join(dir, 'initdb')))
  if (!found) throw new Error(`PostgreSQL is not installed (no ${root}/<version>/bin/initdb): install Debian's postgresql package (.ci/run does)`)
  return found
}

/** argv prefix that runs a command as the cluster's owner: nobody when we are root. */
function asOwner(): string[] {
  return process.getuid?.() === 0 ? ['setpriv', `--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups', '--'] : []
}

function runChecked(argv: string[], what: string, env: NodeJS.ProcessEnv = process.env): string {
  const [cmd, ...args] = argv
  const result = spawnSync(cmd!, args, { encoding: 'utf8', timeout: 60_000, cwd: '/', env })
  if (result.status !== 0) throw new Error(`${what} failed (${result.status ?? result.signal ?? result.error?.message}): ${result.stderr}${result.stdout}`)
  return result.stdout
}

const live = new Set<ChildProcess>()
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL')
})

export async function startPostgres(options: { tls?: boolean } = {}): Promise<PostgresServer> {
  const bin = postgresBinDir()
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vb-pg-'))
  const data = path.join(dir, 'data')
  const password = randomBytes(12).toString('hex')
  const pwfile = path.join(dir, 'pwfile')
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 })
  if (process.getuid?.() === 0) {
    chownSync(dir, NOBODY.uid, NOBODY.gid)
    chownSync(pwfile, NOBODY.uid, NOBODY.gid)
  }
  runChecked(
    [...asOwner(), path.join(bin, 'initdb'), '-D', data, '-U', PG_SUPERUSER, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C', '--no-sync'],
    'initdb'
  )
  rmSync(pwfile)
  const tlsArgs: string[] = []
  let certFile: string | undefined
  if (options.tls) {
    certFile = path.join(dir, 'server.crt')
    const keyFile = path.join(dir, 'server.key')
    runChecked(
      ['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      'openssl req'
    )
    chmodSync(keyFile, 0o600)
    if (process.getuid?.() === 0) for (const f of [keyFile, certFile]) chownSync(f, NOBODY.uid, NOBODY.gid)
    tlsArgs.push('-c', 'ssl=on', '-c', `ssl_cert_file=${certFile}`, '-c', `ssl_key_file=${keyFile}`)
  }
  const port = await freePort()
  let child: ChildProcess | undefined
  let log = ''

  const start = async (): Promise<void> => {
    if (child) return
    const [cmd, ...args] = [...asOwner(), path.join(bin, 'postgres'), '-D', data, '-h', '127.0.0.1', '-p', String(port), '-k', dir, '-c', 'fsync=off', '-c', 'max_connections=40', ...tlsArgs]
    const started = spawn(cmd!, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: '/' })
    child = started
    live.add(started)
    started.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()))
    const exited = new Promise<void>((resolve) => started.once('exit', () => resolve()))
    // ready when pg_isready says so; a postgres that exits first fails with its log
    const deadline = Date.now() + 60_000
    for (;;) {
      const ready = spawnSync(path.join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-t', '2'], { timeout: 10_000 })
      if (ready.status === 0) return
      if (started.exitCode !== null || started.signalCode !== null) throw new Error(`postgres exited while starting: ${log}`)
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 60 s: ${log}`)
      await Promise.race([exited, new Promise((r) => setTimeout(r, 100))])
    }
  }

  const signal = async (sig: NodeJS.Signals): Promise<void> => {
    const running = child
    if (!running) return
    child = undefined
    if (running.exitCode === null && running.signalCode === null) {
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()))
      running.kill(sig)
      const killTimer = setTimeout(() => running.kill('SIGKILL'), 30_000)
      await exited
      clearTimeout(killTimer)
    }
    live.delete(running)
  }

  await start()
  return {
    port,
    password,
    ...(certFile ? { certFile } : {}),
    url: (user = PG_SUPERUSER, database = 'postgres') => `postgres://${user}@127.0.0.1:${port}/${database}`,
    psql: (sql, database = 'postgres') =>
      runChecked(
        [path.join(bin, 'psql'), '-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port), '-U', PG_SUPERUSER, '-d', database, '-c', sql],
        `psql ${sql}`,
        { ...process.env, PGPASSWORD: password }
      ),
    start,
    // SIGQUIT is PostgreSQL's immediate shutdown: every backend quits at once, no checkpoint
    crash: () => signal('SIGQUIT'),
    stop: async () => {
      await signal('SIGINT')
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
