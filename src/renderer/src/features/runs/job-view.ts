import type { Job, RunDocument } from '../../../../shared/model/run'
import type { LiveJob, LiveJobState } from '../../store/runs-slice'

/**
 * What the run page shows of each job: the run document's record, overlaid with what the live
 * events said since (progress, a reattach, a failure before the document was fetched again).
 */

export interface JobView {
  job: Job
  state: LiveJobState
  /** 0-100 while it runs (from the estimate), 100 once it ended; absent when unknown. */
  percent?: number
  etaSeconds?: number
  elapsedSeconds?: number
  /** Why it is reattaching. */
  message?: string
  error?: string
  /** The last lines of output of a failed job. */
  logTail?: string
}

export const STATE_WORDS: Record<LiveJobState, string> = {
  queued: 'queued',
  running: 'running',
  reattaching: 'reattaching',
  succeeded: 'done',
  failed: 'failed',
  cancelled: 'cancelled'
}

/** A sign per state, so the state never rests on colour alone. */
export const STATE_SIGNS: Record<LiveJobState, string> = {
  queued: '○',
  running: '▸',
  reattaching: '↻',
  succeeded: '✓',
  failed: '✕',
  cancelled: '⊘'
}

export const ENDED_STATES: ReadonlySet<LiveJobState> = new Set(['succeeded', 'failed', 'cancelled'])

const NO_LIVE: LiveJob = { state: 'queued' }
const views = new WeakMap<Job, WeakMap<LiveJob, JobView>>()

/** jobView, the same object for the same job record and live state (so memoized rows skip). */
export function cachedJobView(job: Job, live: LiveJob | undefined): JobView {
  let byLive = views.get(job)
  if (!byLive) {
    byLive = new WeakMap()
    views.set(job, byLive)
  }
  const key = live ?? NO_LIVE
  let view = byLive.get(key)
  if (!view) {
    view = jobView(job, live)
    byLive.set(key, view)
  }
  return view
}

export function jobView(job: Job, live: LiveJob | undefined): JobView {
  const state = live?.state ?? job.status
  const view: JobView = { job, state }
  if (ENDED_STATES.has(state)) {
    if (state === 'succeeded') view.percent = 100
    const error = live?.error ?? job.error
    if (error && state !== 'succeeded') view.error = error
    if (live?.logTail) view.logTail = live.logTail
    // The document's timings, unless it predates this attempt (it is fetched again shortly).
    const docIsCurrent = live?.attempt === undefined || live.attempt <= job.attempts
    const elapsed = (docIsCurrent ? secondsBetween(job.startedAt, job.endedAt) : undefined) ?? live?.elapsedSeconds
    if (elapsed !== undefined) view.elapsedSeconds = elapsed
    return view
  }
  if (state === 'queued') return view
  if (live?.elapsedSeconds !== undefined) view.elapsedSeconds = live.elapsedSeconds
  const estimate = live?.estimatedSeconds ?? job.estimatedSeconds
  if (live?.percent !== undefined) view.percent = live.percent
  else if (estimate && view.elapsedSeconds !== undefined) view.percent = Math.min(99, Math.round((view.elapsedSeconds / estimate) * 100))
  if (live?.etaSeconds !== undefined) view.etaSeconds = live.etaSeconds
  else if (estimate && view.elapsedSeconds !== undefined) view.etaSeconds = Math.max(0, Math.round(estimate - view.elapsedSeconds))
  if (state === 'reattaching' && live?.message) view.message = live.message
  return view
}

/** Where a job ran: its side, with the peer of a network job ("host → guest"). */
export function whereOf(job: Job, run: RunDocument): string {
  if (!job.peer) return job.side
  const peer = run.targets.find((t) => t.name === job.peer)?.label ?? job.peer
  return job.kind === 'compare' ? `${job.side} (peer ${peer})` : `${job.side} → ${peer}`
}

/** "2 of 3" */
export function repetitionOf(job: Job, run: RunDocument): string {
  const test = run.tests.find((t) => t.id === job.testId)
  return test ? `${job.repetition} of ${test.repetitions}` : String(job.repetition)
}

export interface OverallProgress {
  total: number
  succeeded: number
  failed: number
  cancelled: number
  running: number
  queued: number
  /** 0-100, weighted by the jobs' estimates when every job has one, else by count. */
  percent: number
  /** Time left, when every unfinished job has an estimate. */
  etaSeconds?: number
}

export function overallProgress(views: readonly JobView[]): OverallProgress {
  const count = (states: LiveJobState[]): number => views.filter((v) => states.includes(v.state)).length
  const weighted = views.every((v) => v.job.estimatedSeconds !== undefined && v.job.estimatedSeconds > 0)
  let done = 0
  let all = 0
  let eta: number | undefined = 0
  for (const v of views) {
    const weight = weighted ? (v.job.estimatedSeconds ?? 1) : 1
    all += weight
    if (ENDED_STATES.has(v.state)) done += weight
    else if (v.state !== 'queued') done += (weight * Math.min(99, v.percent ?? 0)) / 100
    if (eta === undefined || ENDED_STATES.has(v.state)) continue
    if (v.state === 'queued') eta = v.job.estimatedSeconds !== undefined ? eta + v.job.estimatedSeconds : undefined
    else eta = v.etaSeconds !== undefined ? eta + v.etaSeconds : undefined
  }
  const progress: OverallProgress = {
    total: views.length,
    succeeded: count(['succeeded']),
    failed: count(['failed']),
    cancelled: count(['cancelled']),
    running: count(['running', 'reattaching']),
    queued: count(['queued']),
    percent: all > 0 ? Math.floor((done / all) * 100) : 0
  }
  if (eta !== undefined) progress.etaSeconds = eta
  return progress
}

/** "45 s", "3 min 20 s", "1 h 05 min": a time for people (an estimate, not a measurement). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  if (s < 60) return `${s} s`
  if (s < 3600) {
    const rest = s % 60
    return rest === 0 ? `${Math.floor(s / 60)} min` : `${Math.floor(s / 60)} min ${rest} s`
  }
  const minutes = Math.round(s / 60)
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}

export function secondsBetween(start: string | undefined, end: string | undefined): number | undefined {
  if (!start || !end) return undefined
  const ms = Date.parse(end) - Date.parse(start)
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : undefined
}

/** "21 Nov 2026, 00:45": a run's date as people read it, in their own time zone. */
export function formatWhen(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return date.toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })
}
