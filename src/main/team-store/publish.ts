import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { compare } from '../../shared/compare'
import type { Comparison } from '../../shared/model/comparison'
import { summarizeRun, type RunDocument } from '../../shared/model/run'
import { comparisonInputOf } from '../../shared/run-comparison'
import { describeRun } from '../tools/describe-run'
import { connectTeamStore, explainPgError, findPassword, parseTeamStoreUrl, TeamStoreError, type PasswordSources, type TeamStoreAddress } from './connection'
import { migrate } from './migrations'
import { comparisonRows, insertStatement, jobRows, rawFilesOf, sampleRows, targetRows, testRows, type TableRows } from './rows'

export const RAW_MODES = ['pointer', 'copy'] as const
export type RawMode = (typeof RAW_MODES)[number]

export interface PublishOptions {
  /** `pointer`: the raw outputs stay in the run folder, the store names it (host:path) and lists the files; `copy`: their bytes go into the store too. */
  raw: RawMode
  /** Who published it (default user@host of this machine). */
  author?: string
  /** The release the run measures, for the dashboards (default: the run's name). */
  release?: string
  appVersion: string
  /** Called inside the transaction after every row is written, before COMMIT (the fault tests stop the server here). */
  beforeCommit?: () => Promise<void>
}

export type PublishStatus = 'published' | 'already-published'

export function defaultAuthor(): string {
  return `${os.userInfo().username}@${os.hostname()}`
}

/** A run that is still going, or unreadable, cannot be published: the reason, or undefined. */
export function unpublishableReason(run: RunDocument): string | undefined {
  if (run.status === 'running') return `run ${run.id} is still going; publish it when it has ended`
  if (run.source) return `run ${run.id} holds published figures (${run.source.title}), not measurements; only measured runs go to the team store`
  return undefined
}

/**
 * Writes one run in one transaction: the run (its document too, so the app can open it as it
 * was), targets with their environment, tests, jobs, every sample with its labels, the comparison
 * rows with their verdicts, and the raw outputs (pointer or copy). Idempotent by run id: a run
 * already in the store is left as it is.
 */
export async function publishRun(client: pg.Client, run: RunDocument, runDir: string, options: PublishOptions): Promise<PublishStatus> {
  const why = unpublishableReason(run)
  if (why) throw new TeamStoreError(why)
  const described = describeRun(run)
  const comparison = compare(comparisonInputOf(described))
  const raw = await rawRows(described, runDir, options.raw)
  await client.query('BEGIN')
  try {
    const inserted = await client.query(
      `INSERT INTO virtbench.runs (${RUN_COLUMNS.join(', ')})
       VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8, $9, $10, $11::text[], $12, $13, $14::jsonb, $15::jsonb)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      runRowValues(described, runDir, options)
    )
    if (inserted.rowCount === 0) {
      await client.query('ROLLBACK')
      return 'already-published'
    }
    for (const rows of childRows(described, comparison, raw)) {
      if (rows.rows.length === 0) continue
      const statement = insertStatement(rows, run.id)
      await client.query(statement.text, statement.values)
    }
    await options.beforeCommit?.()
    await client.query('COMMIT')
    return 'published'
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  }
}

/** The columns of virtbench.runs, in the order of runRowValues. */
export const RUN_COLUMNS = ['id', 'name', 'preset', 'release', 'status', 'created_at', 'ended_at', 'app_version', 'author', 'baseline', 'variants', 'raw_mode', 'raw_location', 'summary', 'document'] as const

/** The run's own row: what lists and filters read, and its whole document (already described). */
export function runRowValues(run: RunDocument, runDir: string, options: PublishOptions): unknown[] {
  const summary = summarizeRun(run)
  return [
    run.id, run.name, run.plan.name, options.release ?? run.name, run.status, run.createdAt, run.endedAt ?? null, run.app.version,
    options.author ?? defaultAuthor(), summary.baseline, summary.variants, options.raw, `${os.hostname()}:${path.resolve(runDir)}`,
    JSON.stringify(summary), JSON.stringify(run)
  ]
}

/** Every table below the run, in the order their keys need. */
export function childRows(run: RunDocument, comparison: Comparison, raw: TableRows): TableRows[] {
  return [targetRows(run), testRows(run), jobRows(run), sampleRows(run), comparisonRows(comparison), raw]
}

/** The raw outputs' rows: each file's size, and its bytes with `copy`. */
export async function rawRows(run: RunDocument, runDir: string, mode: RawMode): Promise<TableRows> {
  // all files at once: a 20-variant run points at about a thousand
  const rows = await Promise.all(
    rawFilesOf(run).map(async (file): Promise<unknown[]> => {
      const absolute = path.join(runDir, file)
      if (mode === 'copy') {
        const content = await fs.readFile(absolute).catch(() => undefined)
        return [file, content?.length ?? 0, content ?? null]
      }
      const stat = await fs.stat(absolute).catch(() => undefined)
      return [file, stat?.size ?? 0, null]
    })
  )
  return { table: 'raw_outputs', columns: [['file', 'text'], ['bytes', 'bigint'], ['content', 'bytea']], rows }
}

/** Opens the store at a URL (password from PGPASSWORD, .pgpass or the keychain), runs `work`, and closes it; errors come out as TeamStoreError. */
export async function withTeamStore<T>(url: string, sources: PasswordSources, work: (client: pg.Client, address: TeamStoreAddress) => Promise<T>): Promise<T> {
  const address = parseTeamStoreUrl(url)
  const password = await findPassword(address, sources)
  const client = await connectTeamStore(address, password)
  try {
    return await work(client, address)
  } catch (error) {
    throw explainPgError(error, address, password)
  } finally {
    await client.end().catch(() => {})
  }
}

/** Publishes one run to the store at `url`: the schema migrated (or checked) first, then the run in one transaction. */
export function publishToTeamStore(url: string, run: RunDocument, runDir: string, options: PublishOptions, sources: PasswordSources): Promise<PublishStatus> {
  return withTeamStore(url, sources, async (client, address) => {
    await migrate(client, address.display, options.appVersion)
    return publishRun(client, run, runDir, options)
  })
}
