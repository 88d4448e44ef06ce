import type pg from 'pg'
import type { TeamRunFilter, TeamRunSummary } from '../../shared/team-store-contract'
import { RunDocumentSchema, type RunDocument, type RunSummary } from '../../shared/model/run'
import { TeamStoreError } from './connection'
import { checkReadable } from './migrations'

/**
 * Reading the team's history back: run summaries filtered by preset, target, date and author,
 * and one run's document (no raw output unless asked for with `rawOutput`).
 */

const LIST_LIMIT = 500

export async function listTeamRuns(client: pg.Client, where: string, filter: TeamRunFilter): Promise<TeamRunSummary[]> {
  await checkReadable(client, where)
  const result = await client.query<{ summary: RunSummary; author: string; release: string; published_at: Date; raw_mode: string }>(
    `SELECT r.summary, r.author, r.release, r.published_at, r.raw_mode FROM virtbench.runs r
      WHERE ($1::text IS NULL OR r.preset = $1)
        AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM virtbench.targets t WHERE t.run_id = r.id AND (t.name = $2 OR t.label = $2)))
        AND ($3::timestamptz IS NULL OR r.created_at >= $3)
        AND ($4::timestamptz IS NULL OR r.created_at < $4)
        AND ($5::text IS NULL OR r.author = $5)
      ORDER BY r.created_at DESC, r.id
      LIMIT ${LIST_LIMIT}`,
    [filter.preset ?? null, filter.target ?? null, isoOrNull(filter.from), isoOrNull(filter.to), filter.author ?? null]
  )
  return result.rows.map((r) => ({
    ...r.summary,
    author: r.author,
    release: r.release,
    publishedAt: r.published_at.toISOString(),
    rawCopied: r.raw_mode === 'copy'
  }))
}

/** A date as the API took it (anything Date.parse reads), as an ISO time PostgreSQL reads the same way. */
function isoOrNull(date: string | undefined): string | null {
  return date === undefined ? null : new Date(date).toISOString()
}

export async function getTeamRun(client: pg.Client, where: string, id: string): Promise<RunDocument> {
  await checkReadable(client, where)
  const result = await client.query<{ document: unknown }>('SELECT document FROM virtbench.runs WHERE id = $1', [id])
  const row = result.rows[0]
  if (!row) throw new TeamStoreError(`the team store at ${where} has no run ${id}`)
  const checked = RunDocumentSchema.safeParse(row.document)
  if (!checked.success) {
    const first = checked.error.issues[0]
    throw new TeamStoreError(`run ${id} in the team store at ${where} is not a run document this VirtBench reads (${first?.path.join('.')}: ${first?.message})`)
  }
  return checked.data
}

/** One raw output of a run published with `copy`; a pointer-only run says where its raw outputs are. */
export async function getTeamRawOutput(client: pg.Client, where: string, id: string, file: string, limitBytes: number): Promise<{ text: string; bytes: number; truncated: boolean }> {
  await checkReadable(client, where)
  const result = await client.query<{ content: Buffer | null; bytes: string; raw_mode: string; raw_location: string }>(
    `SELECT substring(o.content FROM 1 FOR $3) AS content, o.bytes, r.raw_mode, r.raw_location
       FROM virtbench.raw_outputs o JOIN virtbench.runs r ON r.id = o.run_id WHERE o.run_id = $1 AND o.file = $2`,
    [id, file, limitBytes]
  )
  const row = result.rows[0]
  if (!row) throw new TeamStoreError(`run ${id} in the team store has no raw output ${file}`)
  if (row.content === null) throw new TeamStoreError(`run ${id} was published without its raw outputs; they are in ${row.raw_location} (${file})`)
  const bytes = Number(row.bytes)
  return { text: row.content.toString('utf8'), bytes, truncated: bytes > row.content.length }
}
