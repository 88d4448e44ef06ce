import type { Job, RunStatus } from '../../../../shared/model/run'
import type { JobView } from './job-view'

/** What the banner of an ended run says: how it ended, why, and what to do next. */
export interface EndedBanner {
  title: string
  /** The run's own error, or the first failed job's (its test, target and message). */
  reason?: string
  fix?: string
}

const ENDED_WORDS: Partial<Record<RunStatus, string>> = {
  failed: 'This run failed',
  cancelled: 'This run was cancelled',
  interrupted: 'This run was interrupted (VirtBench stopped while it ran); “Resume” runs every job that did not succeed'
}

const RETRY = 'then “Retry all failed”'

/** Causes people can act on, recognised in a job's error, and what to do about each. */
const KNOWN_CAUSES: Array<{ pattern: RegExp; fix: (where: string, server: string) => string }> = [
  {
    pattern: /address already in use|unable to start listener|bind failed/i,
    fix: (_where, server) => `A program on ${server} already listens on the port the test needs (often an iperf3 server left running): stop it or give the test another port, ${RETRY}.`
  },
  {
    pattern: /unable to connect to (?:the )?server|no route to host|connect failed: (?:connection timed out|no route)/i,
    fix: (_where, server) => `The client could not reach the server on ${server}: check that no firewall there (or between) drops the test's port (iperf3 5201, iperf 2 5001 unless the test sets another), ${RETRY}.`
  },
  { pattern: /no space left/i, fix: (where) => `Free space in the work directory on ${where} (or give the run a smaller size), ${RETRY}.` },
  {
    pattern: /connection (?:was )?(?:lost|dropped|refused)|ECONNRESET|ECONNREFUSED|EHOSTUNREACH|timed out/i,
    fix: (where) => `Check that ${where} is up and reachable over SSH (“Test connection” on the Targets page), ${RETRY}.`
  },
  { pattern: /permission denied|sudo/i, fix: (where) => `Give the login on ${where} the rights the test needs (see the job's Output for the command), ${RETRY}.` }
]

const GENERIC_FIX = `“Show the jobs”, then the job's “Output”, has its exact command and raw output; fix the cause, ${RETRY}.`

/** The banner of an ended run; undefined when it completed without an error. */
export function endedBanner(status: RunStatus, runError: string | undefined, views: readonly JobView[]): EndedBanner | undefined {
  const words = ENDED_WORDS[status]
  if (!words && !runError) return undefined
  const title = words ?? 'The run ended with an error'
  const first = views.find((v) => v.state === 'failed' && v.error !== undefined && v.error !== 'cancelled')
  const fixFor = (error: string): string => KNOWN_CAUSES.find((c) => c.pattern.test(error))?.fix(...placesOf(first?.job)) ?? GENERIC_FIX
  if (runError) {
    if (runError.startsWith('preflight found')) return { title, reason: runError, fix: 'Each problem says what to do; fix them, then start the comparison again.' }
    return status === 'failed' ? { title, reason: runError, fix: fixFor(runError) } : { title, reason: runError }
  }
  if (status !== 'failed') return { title }
  if (!first?.error) return { title, fix: GENERIC_FIX }
  return { title, reason: `${first.job.title} on ${first.job.target} failed first: ${first.error}`, fix: fixFor(first.error) }
}

/** Where a job failed (the step that says so, else its target) and where its server ran (a background step). */
function placesOf(job: Job | undefined): [string, string] {
  if (!job) return ['the target', 'the server side target']
  const where = job.steps.find((s) => s.error !== undefined)?.on ?? job.target
  return [where, job.steps.find((s) => s.background)?.on ?? where]
}
