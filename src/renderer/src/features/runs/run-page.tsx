import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from 'react'
import type { RunDocument, RunStatus } from '../../../../shared/model/run'
import { Dialog } from '../../components/dialog'
import { EmptyState } from '../../components/empty-state'
import { useAppStore } from '../../store'
import type { LiveRun } from '../../store/runs-slice'
import { apiMessage } from '../../lib/api-message'
import { comparisonOf } from '../results/comparison-of'
import { OverheadTable } from '../results/overhead-table'
import { ResultsView } from '../results/results-view'
import { DomainStagesView } from './domain-stages-view'
import { JobTable, ProgressBar } from './job-table'
import { cachedJobView, formatDuration, formatWhen, overallProgress, type JobView } from './job-view'
import { LogView } from './log-view'
import { ResumeDialog, useDomainsToChange } from './resume-dialog'
import { endedBanner } from './run-failure'
import { PublishedBadge, RunStatusChip } from './run-status'
import './runs.css'

/** One run: live while it runs (jobs, log, the table filling in), its results after. */
export function RunPage(): ReactElement {
  const id = useAppStore((s) => s.openRunId)
  const doc = useAppStore((s) => s.openRunDoc)
  const error = useAppStore((s) => s.openRunError)
  const loadRun = useAppStore((s) => s.loadRun)
  const navigate = useAppStore((s) => s.navigate)

  useEffect(() => {
    if (id) void loadRun(id)
  }, [id, loadRun])

  if (!id) {
    return (
      <div className="page">
        <EmptyState icon="runs" title="No run open">
          <p>Open a run from the history to see its results, or start a new comparison.</p>
          <div className="toolbar">
            <button type="button" className="button button-primary" onClick={() => navigate('runs')}>
              Run history
            </button>
          </div>
        </EmptyState>
      </div>
    )
  }
  if (!doc || doc.id !== id) {
    return (
      <div className="page">
        {error?.id === id ? (
          <div className="banner banner-error" role="alert">
            <strong>Could not read run {id}.</strong> {error.message}
            <button type="button" className="button button-small" onClick={() => void loadRun(id)}>
              Try again
            </button>
          </div>
        ) : (
          <p className="muted" role="status">
            Reading the run…
          </p>
        )}
      </div>
    )
  }
  return <RunView run={doc} />
}

const EMPTY_JOBS: LiveRun['jobs'] = {}

function RunView({ run }: { run: RunDocument }): ReactElement {
  const live = useAppStore((s) => s.live[run.id])
  const active = useAppStore((s) => s.activeRuns.includes(run.id))
  const retryJobs = useAppStore((s) => s.retryJobs)
  const resumeRun = useAppStore((s) => s.resumeRun)
  const [actionError, setActionError] = useState<string>()
  const [retrying, setRetrying] = useState(false)
  const [askResume, setAskResume] = useState(false)
  const domainChanges = useDomainsToChange(run)

  // The events are newer than the document (fetched again after each job); before any event, the document says.
  const status: RunStatus = live?.status ?? (active ? 'running' : run.status)
  const running = status === 'running'
  const liveJobs = live?.jobs ?? EMPTY_JOBS
  const views = useMemo(() => run.jobs.map((job) => cachedJobView(job, liveJobs[job.id])), [run.jobs, liveJobs])
  const failed = useMemo(() => views.filter((v) => v.state === 'failed').map((v) => v.job.id), [views])

  const retry = useCallback(
    async (jobIds: string[]) => {
      setActionError(undefined)
      setRetrying(true)
      try {
        await retryJobs(run.id, jobIds)
      } catch (error) {
        setActionError(`Could not retry: ${apiMessage(error)}`)
      } finally {
        setRetrying(false)
      }
    },
    [retryJobs, run.id]
  )
  const onRetry = useCallback((jobIds: string[]) => void retry(jobIds), [retry])

  const resume = async (changeDomains: boolean): Promise<void> => {
    setAskResume(false)
    setActionError(undefined)
    try {
      await resumeRun(run.id, changeDomains ? { changeDomains } : undefined)
    } catch (error) {
      setActionError(`Could not resume: ${apiMessage(error)}`)
    }
  }
  // A sweep (or a run with a setup) goes on changing its domain only with the user's consent, asked again.
  const onResume = (): void => {
    if (domainChanges.length > 0) setAskResume(true)
    else void resume(false)
  }

  return (
    <div className="page page-full runs-run-page">
      <RunHeader run={run} status={status} failedJobs={failed} retrying={retrying} onRetry={onRetry} onResume={onResume} onError={setActionError} />
      {askResume ? <ResumeDialog run={run} changes={domainChanges} onConfirm={() => void resume(true)} onCancel={() => setAskResume(false)} /> : null}
      {actionError ? (
        <p className="banner banner-error" role="alert">
          {actionError}
        </p>
      ) : null}
      {running ? (
        <LiveRunView run={run} live={live} views={views} onRetry={onRetry} retrying={retrying} />
      ) : (
        <FinishedRunView run={run} status={status} live={live} views={views} failed={failed} onRetry={onRetry} retrying={retrying} />
      )}
    </div>
  )
}

function RunHeader({
  run,
  status,
  failedJobs,
  retrying,
  onRetry,
  onResume,
  onError
}: {
  run: RunDocument
  status: RunStatus
  failedJobs: string[]
  retrying: boolean
  onRetry: (jobIds: string[]) => void
  onResume: () => void
  onError: (message: string | undefined) => void
}): ReactElement {
  const cancelRun = useAppStore((s) => s.cancelRun)
  const exportRunJson = useAppStore((s) => s.exportRunJson)
  const deleteRun = useAppStore((s) => s.deleteRun)
  const navigate = useAppStore((s) => s.navigate)
  const openRelease = useAppStore((s) => s.openReleaseComparison)
  const [confirmCancel, setConfirmCancel] = useState(false)
  const [cancelling, setCancelling] = useState(false)
  const keepRunning = useRef<HTMLButtonElement>(null)
  const running = status === 'running'
  const baseline = run.targets.find((t) => t.role === 'baseline')?.label ?? run.plan.baseline.target
  const variants = run.targets.filter((t) => t.role === 'variant').map((t) => t.label)
  const published = run.source?.kind === 'published' ? run.source : undefined

  const cancel = async (): Promise<void> => {
    setConfirmCancel(false)
    setCancelling(true)
    onError(undefined)
    try {
      const cancelled = await cancelRun(run.id)
      if (!cancelled) onError('This run was no longer going; it may have just ended.')
    } catch (error) {
      onError(`Could not cancel: ${apiMessage(error)}`)
    } finally {
      setCancelling(false)
    }
  }

  const exportJson = async (): Promise<void> => {
    onError(undefined)
    try {
      await exportRunJson(run.id)
    } catch (error) {
      onError(`Could not export: ${apiMessage(error)}`)
    }
  }

  return (
    <header className="page-header page-header-row runs-run-header">
      <div>
        <h1>{run.name}</h1>
        <p className="lead runs-run-lead">
          <RunStatusChip status={status} />
          {published ? <PublishedBadge source={published} /> : null}
          {/* the date beside the status, on one line; the targets, which may be many, wrap after them */}
          <time className="muted runs-run-date" dateTime={run.createdAt}>
            {formatWhen(run.createdAt)}
          </time>
          <span className="runs-run-sides">
            {baseline} (baseline) vs {variants.length > 0 ? variants.join(', ') : 'no variant'}
          </span>
        </p>
      </div>
      <div className="toolbar">
        {running ? (
          <button type="button" className="button button-quiet-danger" disabled={cancelling} onClick={() => setConfirmCancel(true)}>
            {cancelling ? 'Cancelling…' : 'Cancel run'}
          </button>
        ) : (
          <>
            {failedJobs.length > 0 ? (
              <button type="button" className="button" disabled={retrying} onClick={() => onRetry(failedJobs)}>
                Retry all failed ({failedJobs.length})
              </button>
            ) : null}
            {status === 'interrupted' || status === 'cancelled' ? (
              <button type="button" className="button" onClick={onResume}>
                Resume
              </button>
            ) : null}
          </>
        )}
        {running ? null : (
          <button type="button" className="button" onClick={() => openRelease(run.id)} title={`How the figures moved since an earlier run of ${run.plan.name}`}>
            Compare with an earlier run
          </button>
        )}
        <button type="button" className="button" onClick={() => void exportJson()}>
          Export .json
        </button>
        {running ? null : (
          <button
            type="button"
            className="button button-quiet-danger"
            onClick={() => {
              deleteRun(run.id)
              navigate('runs')
            }}
          >
            Delete
          </button>
        )}
      </div>
      {confirmCancel ? (
        <Dialog
          title="Cancel this run?"
          role="alertdialog"
          size="small"
          initialFocus={keepRunning}
          onCancel={() => setConfirmCancel(false)}
          footer={
            <>
              <button ref={keepRunning} type="button" className="button" onClick={() => setConfirmCancel(false)}>
                Keep running
              </button>
              <button type="button" className="button button-danger" onClick={() => void cancel()}>
                Cancel run
              </button>
            </>
          }
        >
          <p>
            The running jobs are stopped on their targets and the queued ones never start. Jobs that have finished keep
            their results, and “Resume” runs the rest later.
          </p>
        </Dialog>
      ) : null}
    </header>
  )
}

function LiveRunView({
  run,
  live,
  views,
  onRetry,
  retrying
}: {
  run: RunDocument
  live: LiveRun | undefined
  views: JobView[]
  onRetry: (jobIds: string[]) => void
  retrying: boolean
}): ReactElement {
  const progress = overallProgress(views)
  // Before the first job of this pass (a retry's included), the stage line says what is going on.
  const started = progress.running > 0 || Object.keys(live?.jobs ?? {}).length > 0
  const findings = live?.findings.length ? live.findings : run.preflight
  const comparison = useMemo(() => comparisonOf(run), [run])
  const pendingTests = useMemo(() => {
    const withRows = new Set(comparison.rows.map((r) => r.testId))
    const unfinished = new Set(views.filter((v) => v.state === 'queued' || v.state === 'running' || v.state === 'reattaching').map((v) => v.job.testId))
    return run.tests.filter((t) => !withRows.has(t.id) && unfinished.has(t.id)).map((t) => ({ id: t.id, title: t.title }))
  }, [comparison, views, run.tests])
  const done = progress.succeeded + progress.failed + progress.cancelled
  const eta =
    progress.etaSeconds === undefined
      ? 'time left unknown (a job has no estimate)'
      : `about ${formatDuration(progress.etaSeconds)} left${run.plan.schedule.parallelTargets ? ' at most' : ''}`

  return (
    <>
      <section className="card runs-overall" aria-label="Overall progress">
        <div className="runs-overall-line">
          <ProgressBar percent={progress.percent} label="Overall progress" valueText={`${progress.percent} %, ${eta}`} />
          <span className="runs-overall-pct">{progress.percent} %</span>
        </div>
        <p className="runs-overall-text">
          <span>
            {done} of {progress.total} jobs done
          </span>
          {progress.failed > 0 ? <span className="runs-error-text">· {progress.failed} failed</span> : null}
          {progress.running > 0 ? <span>· {progress.running} running</span> : null}
          <span className="muted">· {eta}</span>
        </p>
        <p className="runs-stage muted" role="status">
          {!started && live?.stage ? (
            <>
              <span className="spinner runs-spinner" aria-hidden="true" /> {live.stage.message}
              {live.stage.target ? ` (${live.stage.target})` : ''}
            </>
          ) : (
            '\u00a0'
          )}
        </p>
        {live?.stages ? <DomainStagesView stages={live.stages} ended={live.status !== undefined && live.status !== 'running'} /> : null}
        {findings.length > 0 ? (
          <ul className="runs-findings">
            {findings.map((f, i) => (
              <li key={i} className={`runs-finding runs-finding-${f.severity}`}>
                <strong>{f.severity === 'error' ? '✕ error' : f.severity === 'warning' ? '! warning' : 'i note'}</strong>
                {f.target ? ` ${f.target}:` : ''} {f.message}
                {f.fix ? <span className="cell-note">{f.fix}</span> : null}
              </li>
            ))}
          </ul>
        ) : null}
      </section>

      <section className="card runs-jobs-card" aria-labelledby="runs-jobs-title">
        <h2 id="runs-jobs-title">Jobs</h2>
        <div className="runs-jobs-scroll">
          <JobTable run={run} views={views} running onRetry={onRetry} retrying={retrying} />
        </div>
      </section>

      <section className="card" aria-labelledby="runs-log-title">
        <h2 id="runs-log-title">Live log</h2>
        <RunLogView runId={run.id} runName={run.name} />
      </section>

      <section className="card runs-so-far" aria-labelledby="runs-so-far-title">
        <h2 id="runs-so-far-title">Results so far</h2>
        <p className="muted runs-so-far-note">
          Relative to {comparison.baseline} (100 %), from the jobs that have succeeded; rows fill in as results arrive.
        </p>
        <OverheadTable comparison={comparison} pendingTests={pendingTests} />
      </section>
    </>
  )
}

function RunLogView({ runId, runName, empty }: { runId: string; runName: string; empty?: string }): ReactElement {
  const version = useAppStore((s) => s.logTick)
  const runLog = useAppStore((s) => s.runLog)
  return <LogView lines={runLog(runId)} version={version} label={`Live log of ${runName}`} empty={empty ?? 'Output appears here as the jobs print it.'} />
}

function FinishedRunView({
  run,
  status,
  live,
  views,
  failed,
  onRetry,
  retrying
}: {
  run: RunDocument
  status: RunStatus
  live: LiveRun | undefined
  views: JobView[]
  failed: string[]
  onRetry: (jobIds: string[]) => void
  retrying: boolean
}): ReactElement {
  const runLog = useAppStore((s) => s.runLog)
  const [jobsOpen, setJobsOpen] = useState(false)
  const progress = overallProgress(views)
  const banner = endedBanner(status, live?.error ?? run.error, views)
  const hasLog = (runLog(run.id)?.length ?? 0) > 0
  return (
    <>
      {banner ? (
        <div className={`runs-ended-banner banner ${status === 'cancelled' ? 'banner-warning' : 'banner-error'}`} role="status">
          <strong>{banner.title}.</strong>
          {banner.reason ? <span className="runs-ended-reason">{banner.reason}</span> : null}
          {banner.fix ? <span className="runs-ended-fix">{banner.fix}</span> : null}
        </div>
      ) : null}
      {failed.length > 0 ? (
        <div className="banner banner-warning runs-failed-banner">
          <strong>
            {failed.length} {failed.length === 1 ? 'job' : 'jobs'} failed
          </strong>
          <span>: their results are missing from the tables below.</span>
          <button type="button" className="button button-small" disabled={retrying} onClick={() => onRetry(failed)}>
            Retry all failed
          </button>
          <button type="button" className="button button-small" onClick={() => setJobsOpen(true)}>
            Show the jobs
          </button>
        </div>
      ) : null}
      <ResultsView run={run} />
      <details className="card runs-jobs-details" open={jobsOpen} onToggle={(e) => setJobsOpen(e.currentTarget.open)}>
        <summary>
          <h2>
            Jobs <span className="muted">({jobsSummary(progress)})</span>
          </h2>
        </summary>
        <p className="muted">Each job's exact commands and raw output are under “Output”.</p>
        {/* drawn once opened: a large run's hundreds of jobs would otherwise delay its results */}
        {jobsOpen ? <JobTable run={run} views={views} running={false} onRetry={onRetry} retrying={retrying} /> : null}
        {hasLog ? (
          <div className="runs-finished-log">
            <h3>Log of this session</h3>
            <RunLogView runId={run.id} runName={run.name} />
          </div>
        ) : null}
      </details>
    </>
  )
}

function jobsSummary(p: ReturnType<typeof overallProgress>): string {
  const parts = [`${p.succeeded} done`]
  if (p.failed > 0) parts.push(`${p.failed} failed`)
  if (p.cancelled > 0) parts.push(`${p.cancelled} cancelled`)
  if (p.queued > 0) parts.push(`${p.queued} not run`)
  return `${p.total}: ${parts.join(', ')}`
}
