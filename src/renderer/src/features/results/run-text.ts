import type { JobStatus, RunDocument, RunStatus } from '../../../../shared/model/run'

/** Words of a run's summary: dates, durations, statuses, job counts, where the figures come from. */

const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' })

/** "21 Nov 2026, 00:45:06" in the user's locale; the ISO text when it is not a date. */
export function dateTimeText(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date)
}

/** "4 min 12 s", "1 h 3 min", "38 s". */
export function durationText(fromIso: string, toIso: string): string | undefined {
  const ms = new Date(toIso).getTime() - new Date(fromIso).getTime()
  if (!Number.isFinite(ms) || ms < 0) return undefined
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s} s`
  const min = Math.floor(s / 60)
  if (min < 60) return `${min} min ${s % 60} s`
  return `${Math.floor(min / 60)} h ${min % 60} min`
}

export const RUN_STATUS_TEXT: Record<RunStatus, string> = {
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  interrupted: 'Interrupted'
}

export type JobCounts = Record<JobStatus, number> & { total: number }

export function jobCounts(run: Pick<RunDocument, 'jobs'>): JobCounts {
  const counts: JobCounts = { total: run.jobs.length, queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 }
  for (const job of run.jobs) counts[job.status]++
  return counts
}

/** "48 jobs: 48 succeeded", "12 jobs: 9 succeeded, 2 failed, 1 queued". */
export function jobCountsText(counts: JobCounts): string {
  const order: JobStatus[] = ['succeeded', 'failed', 'cancelled', 'running', 'queued']
  const parts = order.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}`)
  const total = `${counts.total} ${counts.total === 1 ? 'job' : 'jobs'}`
  return parts.length > 0 ? `${total}: ${parts.join(', ')}` : total
}
