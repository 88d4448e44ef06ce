import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Job, RunDocument } from '../../shared/model/run'
import { readRun, RUN_FILE } from '../store/run-store'

/**
 * How long a job took when it last ran, for the run estimate. A tool's own estimate of a job
 * bounded by a size (dd of 64 MiB, fio without a runtime) assumes a typical disk, so it can be off
 * by several times on a given machine; the same job on the same target in an earlier run is the
 * better guess. "The same job" is the same target (and peer), tool, kind and parameters; its time
 * is the median of its last few succeeded repetitions (startedAt to endedAt, the engine's own
 * cost included), newest runs first.
 */

/** Repetitions of one job kept per key: enough for a median that one slow repetition does not move. */
export const PAST_REPETITIONS = 5

/** Seconds a job took before, or undefined when no earlier run measured it. */
export type PastSeconds = (job: Job) => number | undefined

export function jobKey(job: Pick<Job, 'target' | 'peer' | 'tool' | 'kind' | 'params'>): string {
  return JSON.stringify([job.target, job.peer ?? null, job.tool, job.kind, canonical(job.params)])
}

/** `value` with every object's keys in order, so equal parameters give equal keys. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)])
    )
  }
  return value
}

/** Each succeeded job's seconds of one run, by job key, in run order. */
export function durationsOf(run: RunDocument): Map<string, number[]> {
  const out = new Map<string, number[]>()
  for (const job of run.jobs) {
    if (job.status !== 'succeeded' || !job.startedAt || !job.endedAt) continue
    const seconds = (Date.parse(job.endedAt) - Date.parse(job.startedAt)) / 1000
    if (!Number.isFinite(seconds) || seconds < 0) continue
    const key = jobKey(job)
    out.set(key, [...(out.get(key) ?? []), seconds])
  }
  return out
}

/** The median of the last PAST_REPETITIONS durations per key over `runs`, newest run first. */
export function pastSecondsOf(runs: readonly { createdAt: string; durations: Map<string, number[]> }[]): PastSeconds {
  const newestFirst = [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  const recent = new Map<string, number[]>()
  for (const run of newestFirst) {
    for (const [key, seconds] of run.durations) {
      const kept = recent.get(key) ?? []
      if (kept.length >= PAST_REPETITIONS) continue
      recent.set(key, [...kept, ...[...seconds].reverse().slice(0, PAST_REPETITIONS - kept.length)])
    }
  }
  return (job) => {
    const seconds = recent.get(jobKey(job))
    return seconds === undefined ? undefined : median(seconds)
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * The runs folder's job times, read once per run folder and again only when its run.json changes
 * (a run in progress): a review is asked for on every change in the wizard. An unreadable run is
 * left out (the Runs page reports it); this only makes an estimate.
 */
export class PastDurations {
  private readonly cache = new Map<string, { mtimeMs: number; createdAt: string; durations: Map<string, number[]> }>()

  constructor(private readonly runsRoot: string) {}

  async load(): Promise<PastSeconds> {
    const names = await fs.readdir(this.runsRoot).catch(() => [] as string[])
    const seen = new Set<string>()
    for (const name of names) {
      const dir = path.join(this.runsRoot, name)
      const stat = await fs.stat(path.join(dir, RUN_FILE)).catch(() => undefined)
      if (!stat) continue
      seen.add(name)
      if (this.cache.get(name)?.mtimeMs === stat.mtimeMs) continue
      try {
        const run = await readRun(dir)
        this.cache.set(name, { mtimeMs: stat.mtimeMs, createdAt: run.createdAt, durations: durationsOf(run) })
      } catch {
        this.cache.delete(name)
      }
    }
    for (const name of [...this.cache.keys()]) if (!seen.has(name)) this.cache.delete(name)
    return pastSecondsOf([...this.cache.values()])
  }
}
