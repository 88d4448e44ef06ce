import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import type { RunDocument } from '../../shared/model/run'
import { writeFileAtomic } from '../fs/atomic-file'
import { readRun } from '../store/run-store'
import type { PasswordSources } from './connection'
import { publishToTeamStore, RAW_MODES, unpublishableReason, type PublishOptions, type PublishStatus } from './publish'

/**
 * Publishes that failed (the server down, the network cut, a password to correct), kept until
 * they go through: one file per run, `<data>/team-store/queue/<run id>.json`, written atomically,
 * removed only after the run is in the store. Publishing the same run again replaces its entry.
 */

export const QUEUE_KIND = 'virtbench.publish-queue'

export const QueueEntrySchema = z.strictObject({
  runId: z.string(),
  /** The run's folder: its run.json and raw outputs are read again at each attempt. */
  runDir: z.string(),
  /** The store's URL (never a password). */
  url: z.string(),
  raw: z.enum(RAW_MODES),
  author: z.string().optional(),
  release: z.string().optional(),
  queuedAt: z.string(),
  attempts: z.number().int().min(0),
  lastError: z.string(),
  lastAttemptAt: z.string()
})
export type QueueEntry = z.infer<typeof QueueEntrySchema>

const QueueFileSchema = z.strictObject({ kind: z.literal(QUEUE_KIND), version: z.literal(1), data: QueueEntrySchema })

export class PublishQueue {
  constructor(readonly dir: string) {}

  static inDataDir(dataDir: string): PublishQueue {
    return new PublishQueue(path.join(dataDir, 'team-store', 'queue'))
  }

  private fileOf(runId: string): string {
    if (!/^[A-Za-z0-9_-]{1,80}$/.test(runId)) throw new Error(`"${runId}" is not a run id`)
    return path.join(this.dir, `${runId}.json`)
  }

  async put(entry: QueueEntry): Promise<void> {
    await writeFileAtomic(this.fileOf(entry.runId), `${JSON.stringify({ kind: QUEUE_KIND, version: 1, data: entry }, null, 1)}\n`)
  }

  async remove(runId: string): Promise<void> {
    await fs.rm(this.fileOf(runId), { force: true })
  }

  /** Every entry, oldest first, and the files that could not be read (left where they are). */
  async list(): Promise<{ entries: QueueEntry[]; problems: string[] }> {
    const names = await fs.readdir(this.dir).catch(() => [] as string[])
    const entries: QueueEntry[] = []
    const problems: string[] = []
    for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
      const file = path.join(this.dir, name)
      try {
        entries.push(QueueFileSchema.parse(JSON.parse(await fs.readFile(file, 'utf8'))).data)
      } catch (error) {
        problems.push(`${file} is not a publish queue entry (${(error as Error).message.split('\n')[0]}); move it away or delete it`)
      }
    }
    entries.sort((a, b) => a.queuedAt.localeCompare(b.queuedAt))
    return { entries, problems }
  }
}

export interface PublishRequest {
  url: string
  run: RunDocument
  runDir: string
  options: PublishOptions
}

export type PublishOutcome = { status: PublishStatus } | { status: 'queued'; error: string; entry: QueueEntry }

/**
 * Publishes a run; when that fails, the run is queued with the reason and `status: 'queued'` is
 * returned (nothing is lost). A run that cannot be published at all (still going) is refused.
 */
export async function publishOrQueue(request: PublishRequest, queue: PublishQueue, sources: PasswordSources): Promise<PublishOutcome> {
  const why = unpublishableReason(request.run)
  if (why) throw new Error(why)
  const previous = (await queue.list()).entries.find((e) => e.runId === request.run.id)
  try {
    const status = await publishToTeamStore(request.url, request.run, request.runDir, request.options, sources)
    await queue.remove(request.run.id)
    return { status }
  } catch (error) {
    const now = new Date().toISOString()
    const entry: QueueEntry = {
      runId: request.run.id,
      runDir: path.resolve(request.runDir),
      url: request.url,
      raw: request.options.raw,
      ...(request.options.author !== undefined ? { author: request.options.author } : {}),
      ...(request.options.release !== undefined ? { release: request.options.release } : {}),
      queuedAt: previous?.queuedAt ?? now,
      attempts: (previous?.attempts ?? 0) + 1,
      lastError: (error as Error).message,
      lastAttemptAt: now
    }
    await queue.put(entry)
    return { status: 'queued', error: entry.lastError, entry }
  }
}

export interface RetryResult {
  runId: string
  url: string
  outcome: PublishOutcome | { status: 'unreadable'; error: string }
}

/** Tries every queued publish again (or those for one URL), oldest first; each one that goes through leaves the queue. */
export async function retryQueue(queue: PublishQueue, sources: PasswordSources, appVersion: string, onlyUrl?: string): Promise<RetryResult[]> {
  const results: RetryResult[] = []
  for (const entry of (await queue.list()).entries) {
    if (onlyUrl !== undefined && entry.url !== onlyUrl) continue
    let run: RunDocument
    try {
      run = await readRun(entry.runDir)
    } catch (error) {
      // kept: the folder may be on a disk that is not mounted now
      results.push({ runId: entry.runId, url: entry.url, outcome: { status: 'unreadable', error: `${(error as Error).message}; the entry stays queued in ${queue.dir}` } })
      continue
    }
    const options: PublishOptions = {
      raw: entry.raw,
      appVersion,
      ...(entry.author !== undefined ? { author: entry.author } : {}),
      ...(entry.release !== undefined ? { release: entry.release } : {})
    }
    results.push({ runId: entry.runId, url: entry.url, outcome: await publishOrQueue({ url: entry.url, run, runDir: entry.runDir, options }, queue, sources) })
  }
  return results
}
