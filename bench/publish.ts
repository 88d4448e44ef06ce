/**
 * Publishing a run to the team store, against a bare COPY of the same rows:
 *
 *   npx tsx bench/publish.ts   (npm run bench:publish)
 *
 * A throwaway PostgreSQL (tests/harness/postgres.ts: Debian's binaries, 127.0.0.1, scram
 * password) and the UI benchmark's run (bench/ui-fixtures.ts: a baseline and 20 variants x 30
 * metrics, 3 repetitions each: 1,890 jobs' samples, 600 comparison cells). Each round publishes a
 * copy of the run under a new id the way `virtbench publish` does (connect, schema check, the
 * comparison computed, one transaction of 7 statements, close), then, as the peer, loads the same
 * rows (the very values the publish wrote, read back with COPY TO) into empty twins of the tables
 * with one server-side `COPY FROM` per table in one transaction on an open connection: no
 * driver, no parsing, no comparison, the least PostgreSQL needs to take these rows in.
 * Goal: median publish < 1 s. Prints each round, the medians and the ratio.
 */
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { connectTeamStore, findPassword, parseTeamStoreUrl } from '../src/main/team-store/connection'
import { publishToTeamStore } from '../src/main/team-store/publish'
import { describeRun } from '../src/main/tools/describe-run'
import { compare } from '../src/shared/compare'
import { comparisonInputOf } from '../src/shared/run-comparison'
import { PG_SUPERUSER, startPostgres } from '../tests/harness/postgres'
import { syntheticRun, VARIANTS } from './ui-fixtures'

const ROUNDS = 7
const TABLES = ['runs', 'targets', 'tests', 'jobs', 'samples', 'comparison_rows', 'raw_outputs'] as const

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

async function main(): Promise<void> {
  const pg = await startPostgres()
  // the server (nobody, when we are root) reads and writes the COPY files here
  const files = mkdtempSync(path.join(os.tmpdir(), 'vb-bench-copy-'))
  chmodSync(files, 0o777)
  if (process.getuid?.() === 0) chownSync(files, 65534, 65534)
  try {
    pg.psql('CREATE DATABASE bench')
    const url = pg.url(PG_SUPERUSER, 'bench')
    const sources = { env: { PGPASSWORD: pg.password } }
    const runDir = mkdtempSync(path.join(os.tmpdir(), 'vb-bench-run-'))
    const base = syntheticRun('bench-publish', 'Bench publish', new Date('2026-11-01T10:00:00Z'))
    const options = { raw: 'pointer' as const, author: 'bench', appVersion: 'bench' }
    // the first publish creates the schema; it is not timed
    await publishToTeamStore(url, { ...base, id: 'bench-warmup' }, runDir, options, sources)
    const samples = base.jobs.reduce((n, j) => n + j.samples.length, 0)
    console.log(`run: 1 baseline + ${VARIANTS} variants, ${base.tests.length} tests, ${base.jobs.length} jobs, ${samples} samples`)

    const address = parseTeamStoreUrl(url)
    const peer = await connectTeamStore(address, await findPassword(address, sources))
    await peer.query('CREATE SCHEMA bare')
    for (const table of TABLES) await peer.query(`CREATE TABLE bare.${table} (LIKE virtbench.${table} INCLUDING ALL)`)

    const publishMs: number[] = []
    const copyMs: number[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      const id = `bench-${round}`
      const started = performance.now()
      const status = await publishToTeamStore(url, { ...base, id }, runDir, options, sources)
      publishMs.push(performance.now() - started)
      if (status !== 'published') throw new Error(`round ${round}: ${status}`)

      // the peer's input: exactly the rows the publish wrote, as COPY files
      const column = (table: string): string => (table === 'runs' ? 'id' : 'run_id')
      for (const table of TABLES) {
        await peer.query(`COPY (SELECT * FROM virtbench.${table} WHERE ${column(table)} = '${id}') TO '${path.join(files, `${table}.copy`)}'`)
      }
      const copyStarted = performance.now()
      await peer.query('BEGIN')
      for (const table of TABLES) await peer.query(`COPY bare.${table} FROM '${path.join(files, `${table}.copy`)}'`)
      await peer.query('COMMIT')
      copyMs.push(performance.now() - copyStarted)
      await peer.query(`TRUNCATE ${TABLES.map((t) => `bare.${t}`).join(', ')}`)
      console.log(`round ${round}: publish ${publishMs.at(-1)!.toFixed(1)} ms, bare COPY ${copyMs.at(-1)!.toFixed(1)} ms`)
    }
    await peer.end()
    // where the time goes: the comparison alone (it is computed by every publish)
    const compareMs: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const started = performance.now()
      compare(comparisonInputOf(describeRun(base)))
      compareMs.push(performance.now() - started)
    }
    const p = median(publishMs)
    const c = median(copyMs)
    console.log(`publish (connect, schema check, comparison, one transaction, close): median ${p.toFixed(1)} ms; bare COPY of the same rows: median ${c.toFixed(1)} ms; ratio ${(p / c).toFixed(1)}x`)
    console.log(`of which the comparison of 600 cells alone: median ${median(compareMs).toFixed(1)} ms`)
    console.log(`goal: publish < 1000 ms: ${p < 1000 ? 'pass' : 'FAIL'}`)
    rmSync(runDir, { recursive: true, force: true })
    if (p >= 1000) process.exitCode = 1
  } finally {
    rmSync(files, { recursive: true, force: true })
    await pg.stop()
  }
}

void main()
