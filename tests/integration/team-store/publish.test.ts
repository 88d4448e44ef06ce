import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../../../src/cli/main'
import type { CliIo } from '../../../src/cli/io'
import { PublishQueue, publishOrQueue, retryQueue } from '../../../src/main/team-store/queue'
import { compare } from '../../../src/shared/compare'
import type { RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { describeRun } from '../../../src/main/tools/describe-run'
import { freePort } from '../../harness/free-port'
import { PG_SUPERUSER, startPostgres, type PostgresServer } from '../../harness/postgres'
import { startLab, type Lab } from '../engine/run-harness'
import { DD_TESTS, makeRun, PING_TESTS } from './team-store-fixture'

/**
 * Publishing to a real PostgreSQL (a throwaway cluster, scram passwords) runs made by the real
 * engine against two loopback sshd: the rows, idempotence, a server killed in the middle of a
 * publish, a schema from the future, and each bad input with its message.
 */

let pg: PostgresServer
let lab: Lab
let dir: string
let dd: { run: RunDocument; dir: string }
let ping: { run: RunDocument; dir: string }

beforeAll(async () => {
  ;[pg, lab] = await Promise.all([startPostgres(), startLab()])
  dir = mkdtempSync(path.join(os.tmpdir(), 'vb-team-'))
  dd = await makeRun(lab, path.join(dir, 'runs'), 'team-dd', 'storage-check', DD_TESTS)
  ping = await makeRun(lab, path.join(dir, 'runs'), 'team-ping', 'net-check', PING_TESTS)
}, 180_000)

afterAll(async () => {
  await Promise.all([pg?.stop(), lab?.stop()])
  rmSync(dir, { recursive: true, force: true })
})

async function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { HOME: dir, PGPASSWORD: pg.password, ...env },
    interrupted: new Promise(() => {})
  }
  const code = await runCli(args, io)
  return { code, stdout, stderr }
}

const count = (db: string, table: string, runId: string): number => Number(pg.psql(`SELECT count(*) FROM virtbench.${table} WHERE run_id = '${runId}'`, db).trim())
const countRuns = (db: string, runId: string): number => Number(pg.psql(`SELECT count(*) FROM virtbench.runs WHERE id = '${runId}'`, db).trim())

function expectedRows(run: RunDocument): Record<string, number> {
  const comparison = compare(comparisonInputOf(describeRun(run)))
  return {
    targets: run.targets.length,
    tests: run.tests.length,
    jobs: run.jobs.length,
    samples: run.jobs.reduce((n, j) => n + j.samples.length, 0),
    comparison_rows: comparison.rows.reduce((n, r) => n + r.cells.length, 0)
  }
}

function expectPublished(db: string, run: RunDocument): void {
  expect(countRuns(db, run.id)).toBe(1)
  for (const [table, rows] of Object.entries(expectedRows(run))) expect(count(db, table, run.id), table).toBe(rows)
}

describe('virtbench publish', () => {
  it('writes a real run whole, and a second publish changes nothing', async () => {
    pg.psql('CREATE DATABASE team_a')
    const url = pg.url(PG_SUPERUSER, 'team_a')
    const first = await cli(['publish', dd.dir, '--to', url, '--data-dir', path.join(dir, 'data-a'), '--author', 'qa@ci', '--release', '2026.11'])
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toContain(`team-dd: published to ${url}`)
    expect(expectedRows(dd.run).samples).toBeGreaterThan(0)
    expectPublished('team_a', dd.run)
    // the samples are the run's own values, and the comparison rows its verdicts
    const firstSample = dd.run.jobs[0]!.samples[0]!
    expect(Number(pg.psql(`SELECT value FROM virtbench.samples WHERE run_id = 'team-dd' AND job_id = '${dd.run.jobs[0]!.id}' AND ordinal = 0`, 'team_a'))).toBe(firstSample.value)
    const comparison = compare(comparisonInputOf(describeRun(dd.run)))
    const primary = comparison.rows.find((r) => r.primary && r.comparison === 'ratio')!
    const cell = primary.cells[0]!
    const fromView = pg.psql(`SELECT relative_pct || '|' || verdict || '|' || preset || '|' || release FROM virtbench.primary_relative WHERE run_id = 'team-dd' AND metric = '${primary.metric}'`, 'team_a').trim()
    expect(fromView).toBe(`${cell.relativePct}|${cell.verdict}|storage-check|2026.11`)
    expect(pg.psql("SELECT author || ' ' || raw_mode FROM virtbench.runs WHERE id = 'team-dd'", 'team_a').trim()).toBe('qa@ci pointer')
    expect(pg.psql('SELECT max(version) FROM virtbench.schema_version', 'team_a').trim()).toBe('1')

    const again = await cli(['publish', dd.dir, '--to', url, '--data-dir', path.join(dir, 'data-a')])
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('team-dd: already in')
    expectPublished('team_a', dd.run)
  })

  it('publishes a run once when two publishers send it at the same time to a new store (one migration, one copy)', async () => {
    pg.psql('CREATE DATABASE team_race')
    const url = pg.url(PG_SUPERUSER, 'team_race')
    const sources = { env: { PGPASSWORD: pg.password } }
    const send = (data: string) =>
      publishOrQueue({ url, run: ping.run, runDir: ping.dir, options: { raw: 'pointer', appVersion: 'test' } }, PublishQueue.inDataDir(path.join(dir, data)), sources)
    const outcomes = await Promise.all([send('data-race-1'), send('data-race-2')])
    expect(outcomes.map((o) => (o.status === 'queued' ? o.error : o.status)).sort()).toEqual(['already-published', 'published'])
    expect(pg.psql('SELECT count(*) FROM virtbench.schema_version', 'team_race').trim()).toBe('1')
    expectPublished('team_race', ping.run)
  })

  it('copies the raw outputs with --raw copy, byte for byte', async () => {
    pg.psql('CREATE DATABASE team_raw')
    const url = pg.url(PG_SUPERUSER, 'team_raw')
    const result = await cli(['publish', path.join(ping.dir, 'run.json'), '--to', url, '--raw', 'copy', '--data-dir', path.join(dir, 'data-raw')])
    expect(result.code, result.stderr).toBe(0)
    const files = readdirSync(path.join(ping.dir, 'raw'))
    expect(Number(pg.psql("SELECT count(*) FROM virtbench.raw_outputs WHERE run_id = 'team-ping' AND content IS NOT NULL", 'team_raw'))).toBeGreaterThan(0)
    const step = ping.run.jobs[0]!.steps.find((s) => s.stdoutFile)!
    const md5 = pg.psql(`SELECT md5(content) FROM virtbench.raw_outputs WHERE run_id = 'team-ping' AND file = '${step.stdoutFile}'`, 'team_raw').trim()
    const { createHash } = await import('node:crypto')
    const { readFileSync } = await import('node:fs')
    expect(md5).toBe(createHash('md5').update(readFileSync(path.join(ping.dir, step.stdoutFile!))).digest('hex'))
    expect(files.length).toBeGreaterThan(0)
  })

  it('leaves nothing half-written when the server dies in the middle of a publish, and the queue publishes it after the restart', async () => {
    pg.psql('CREATE DATABASE team_crash')
    const url = pg.url(PG_SUPERUSER, 'team_crash')
    const queue = PublishQueue.inDataDir(path.join(dir, 'data-crash'))
    const sources = { env: { PGPASSWORD: pg.password }, homeDir: dir }
    try {
      const outcome = await publishOrQueue(
        { url, run: dd.run, runDir: dd.dir, options: { raw: 'pointer', appVersion: 'test', beforeCommit: () => pg.crash() } },
        queue,
        sources
      )
      expect(outcome.status).toBe('queued')
      expect(outcome.status === 'queued' && outcome.error).toMatch(/cannot reach PostgreSQL at vbadmin@127\.0\.0\.1:\d+\/team_crash .*check that the server runs/)
      expect((await queue.list()).entries.map((e) => [e.runId, e.attempts])).toEqual([['team-dd', 1]])

      // while the server is down, a retry fails and keeps the entry
      const whileDown = await retryQueue(queue, sources, 'test')
      expect(whileDown.map((r) => r.outcome.status)).toEqual(['queued'])
      expect((await queue.list()).entries[0]!.attempts).toBe(2)
    } finally {
      await pg.start()
    }
    expect(countRuns('team_crash', 'team-dd')).toBe(0)
    expect(Number(pg.psql('SELECT count(*) FROM virtbench.samples', 'team_crash'))).toBe(0)

    const after = await retryQueue(queue, sources, 'test')
    expect(after.map((r) => [r.runId, r.outcome.status])).toEqual([['team-dd', 'published']])
    expect((await queue.list()).entries).toEqual([])
    expectPublished('team_crash', dd.run)
  })

  it('refuses a store whose schema is newer than it knows, naming both versions', async () => {
    pg.psql('CREATE DATABASE team_future')
    const url = pg.url(PG_SUPERUSER, 'team_future')
    expect((await cli(['publish', dd.dir, '--to', url, '--data-dir', path.join(dir, 'data-future')])).code).toBe(0)
    pg.psql("INSERT INTO virtbench.schema_version (version, app_version) VALUES (7, '9.0.0')", 'team_future')
    const refused = await cli(['publish', ping.dir, '--to', url, '--data-dir', path.join(dir, 'data-future')])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('has schema version 7, newer than this VirtBench knows (1)')
    expect(refused.stderr).toContain('upgrade VirtBench')
    expect(countRuns('team_future', 'team-ping')).toBe(0)
  })

  it('says what to do about a wrong password, an unreachable host, missing rights and a password in the URL', async () => {
    pg.psql('CREATE DATABASE team_locked')
    pg.psql("CREATE ROLE reader LOGIN PASSWORD 'reader-pass'")
    const data = ['--data-dir', path.join(dir, 'data-bad')]

    const wrong = await cli(['publish', dd.dir, '--to', pg.url(PG_SUPERUSER, 'team_locked'), ...data], { PGPASSWORD: 'not-it' })
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain(`refused the password for user "${PG_SUPERUSER}" (from PGPASSWORD): correct it in PGPASSWORD`)

    const port = await freePort()
    const down = await cli(['publish', dd.dir, '--to', `postgres://${PG_SUPERUSER}@127.0.0.1:${port}/team_locked`, ...data])
    expect(down.code).toBe(1)
    expect(down.stderr).toContain(`cannot reach PostgreSQL at ${PG_SUPERUSER}@127.0.0.1:${port}/team_locked (ECONNREFUSED)`)
    expect(down.stderr).toContain("'virtbench publish --retry' publishes it")

    const locked = await cli(['publish', dd.dir, '--to', pg.url('reader', 'team_locked'), ...data], { PGPASSWORD: 'reader-pass' })
    expect(locked.code).toBe(1)
    expect(locked.stderr).toContain(`user "reader" may not create VirtBench's tables`)
    expect(locked.stderr).toContain('GRANT CREATE ON DATABASE "team_locked" TO "reader"')

    const withPassword = await cli(['publish', dd.dir, '--to', `postgres://${PG_SUPERUSER}:secret@127.0.0.1:${pg.port}/team_locked`, ...data])
    expect(withPassword.code).toBe(2)
    expect(withPassword.stderr).toContain('the team store URL holds a password, which would end up in shell history')
    expect(withPassword.stderr).not.toContain('secret')

    // each failed publish of a valid run waits in the queue; the refused URL queued nothing
    const queued = await new PublishQueue(path.join(dir, 'data-bad', 'team-store', 'queue')).list()
    expect(queued.entries.map((e) => e.runId)).toEqual(['team-dd'])
    expect(queued.entries[0]!.attempts).toBe(3)
  })

  it('reads the password from a .pgpass file, and the queue goes out with the next publish to the store', async () => {
    pg.psql('CREATE DATABASE team_pgpass')
    const pgpass = path.join(dir, 'pgpass')
    writeFileSync(pgpass, `# team store\n127.0.0.1:${pg.port}:team_pgpass:${PG_SUPERUSER}:${pg.password}\n`, { mode: 0o600 })
    const url = pg.url(PG_SUPERUSER, 'team_pgpass')
    const data = ['--data-dir', path.join(dir, 'data-pgpass')]
    // without a password the publish is queued
    const none = await cli(['publish', ping.dir, '--to', url, ...data], { PGPASSWORD: '', PGPASSFILE: path.join(dir, 'missing') })
    expect(none.code).toBe(1)
    expect(none.stderr).toContain('asks for a password and none was found: set PGPASSWORD')
    const ok = await cli(['publish', dd.dir, '--to', url, ...data], { PGPASSWORD: '', PGPASSFILE: pgpass })
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toContain('team-dd: published')
    expect(ok.stdout).toContain('queued earlier: team-ping: published')
    expectPublished('team_pgpass', ping.run)
    expectPublished('team_pgpass', dd.run)
  })
})
