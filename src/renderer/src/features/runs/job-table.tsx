import { Fragment, memo, useCallback, useEffect, useState, type ReactElement } from 'react'
import { formatValue } from '../../../../shared/format'
import type { Job, RunDocument, StepRecord } from '../../../../shared/model/run'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'
import { formatDuration, formatWhen, repetitionOf, STATE_SIGNS, STATE_WORDS, whereOf, type JobView } from './job-view'

const COLUMNS = 6

/**
 * One row per job: state, test, where it ran, repetition, progress with ETA (or its time once
 * ended), and per row "Retry" for a failed job and "Output" for its exact commands and raw output.
 */
export function JobTable({
  run,
  views,
  running,
  onRetry,
  retrying
}: {
  run: RunDocument
  views: readonly JobView[]
  /** While the run goes on, jobs cannot be retried (the engine refuses). */
  running: boolean
  onRetry: (jobIds: string[]) => void
  retrying: boolean
}): ReactElement {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set())
  const toggle = useCallback(
    (jobId: string) =>
      setExpanded((current) => {
        const next = new Set(current)
        if (next.has(jobId)) next.delete(jobId)
        else next.add(jobId)
        return next
      }),
    []
  )
  const retry = useCallback((jobId: string) => onRetry([jobId]), [onRetry])

  return (
    <table className="data-table runs-jobs">
      <caption className="visually-hidden">Jobs of {run.name}</caption>
      <thead>
        <tr>
          <th scope="col" className="runs-col-state">
            State
          </th>
          <th scope="col" className="runs-col-test">
            Test
          </th>
          <th scope="col" className="runs-col-target">
            Target
          </th>
          <th scope="col" className="runs-col-rep">
            Rep.
          </th>
          <th scope="col" className="runs-col-progress">
            {running ? 'Progress' : 'Time'}
          </th>
          <th scope="col" className="runs-col-actions">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {views.map((view) => (
          <Fragment key={view.job.id}>
            <JobRow
              view={view}
              where={whereOf(view.job, run)}
              repetition={repetitionOf(view.job, run)}
              expanded={expanded.has(view.job.id)}
              onToggle={toggle}
              onRetry={retry}
              retryBlocked={running || retrying}
              running={running}
            />
            {expanded.has(view.job.id) ? (
              <tr className="runs-job-detail-row" id={`job-detail-${view.job.id}`}>
                <td colSpan={COLUMNS}>
                  <JobDetail runId={run.id} view={view} />
                </td>
              </tr>
            ) : null}
          </Fragment>
        ))}
      </tbody>
    </table>
  )
}

const JobRow = memo(function JobRow({
  view,
  where,
  repetition,
  expanded,
  onToggle,
  onRetry,
  retryBlocked,
  running
}: {
  view: JobView
  where: string
  repetition: string
  expanded: boolean
  onToggle: (jobId: string) => void
  onRetry: (jobId: string) => void
  retryBlocked: boolean
  running: boolean
}): ReactElement {
  const { job, state } = view
  const canRetry = state === 'failed' || state === 'cancelled'
  return (
    <tr className={`runs-job runs-job-${state}`} data-job={job.id} data-state={state}>
      <td className="runs-col-state">
        <JobState view={view} />
      </td>
      <th scope="row" className="runs-cell-test" title={job.title}>
        <span className="runs-test-title">
          {job.title}
          <span className="runs-job-id mono">{job.id}</span>
        </span>
      </th>
      <td className="runs-cell-text" title={where}>
        {where}
      </td>
      <td className="runs-col-rep">{repetition}</td>
      <td className="runs-col-progress">{running || state === 'running' || state === 'reattaching' ? <JobProgress view={view} /> : <JobOutcome view={view} />}</td>
      <td className="runs-col-actions row-actions">
        {canRetry ? (
          <button
            type="button"
            className="button button-small"
            aria-disabled={retryBlocked ? 'true' : undefined}
            title={retryBlocked ? 'A job can be retried once the run has ended (or been cancelled).' : undefined}
            aria-label={`Retry ${job.id} ${job.title} on ${job.side}, repetition ${job.repetition}`}
            onClick={() => {
              if (!retryBlocked) onRetry(job.id)
            }}
          >
            Retry
          </button>
        ) : null}
        <button
          type="button"
          className="button button-small"
          aria-expanded={expanded}
          aria-controls={expanded ? `job-detail-${job.id}` : undefined}
          aria-label={`Output of ${job.id} ${job.title} on ${job.side}, repetition ${job.repetition}`}
          onClick={() => onToggle(job.id)}
        >
          Output {expanded ? '▴' : '▾'}
        </button>
      </td>
    </tr>
  )
})

function JobState({ view }: { view: JobView }): ReactElement {
  const { state } = view
  return (
    <span className={`runs-state runs-state-${state}`} title={view.message ?? view.error}>
      {state === 'running' ? <span className="spinner runs-spinner" aria-hidden="true" /> : <span aria-hidden="true">{STATE_SIGNS[state]}</span>}
      {STATE_WORDS[state]}
    </span>
  )
}

function JobProgress({ view }: { view: JobView }): ReactElement {
  const { state, percent, etaSeconds } = view
  const text =
    state === 'queued'
      ? 'waiting'
      : state === 'reattaching'
        ? (view.message ?? 'connection lost, reattaching')
        : [percent !== undefined ? `${percent} %` : undefined, etaSeconds !== undefined ? `${formatDuration(etaSeconds)} left` : undefined]
            .filter(Boolean)
            .join(' · ') || 'no estimate'
  if (state === 'succeeded' || state === 'failed' || state === 'cancelled') return <JobOutcome view={view} />
  return (
    <span className="runs-progress-cell">
      <ProgressBar percent={state === 'queued' ? 0 : percent} label={`Progress of ${view.job.id}`} valueText={text} />
      <span className="runs-progress-text" title={text}>
        {text}
      </span>
    </span>
  )
}

function JobOutcome({ view }: { view: JobView }): ReactElement {
  if (view.state === 'queued') return <span className="muted">not run</span>
  const time = view.elapsedSeconds !== undefined ? formatDuration(view.elapsedSeconds) : undefined
  if (view.error) {
    return (
      <span className="runs-progress-text runs-error-text" title={view.error}>
        {view.error}
      </span>
    )
  }
  return <span className="runs-progress-text">{time ?? '—'}</span>
}

/** A bar with its value for screen readers; without a percent it shows as indeterminate. */
export function ProgressBar({ percent, label, valueText }: { percent: number | undefined; label: string; valueText?: string }): ReactElement {
  const value = percent === undefined ? undefined : Math.max(0, Math.min(100, percent))
  return (
    <span
      className={value === undefined ? 'runs-progress runs-progress-unknown' : 'runs-progress'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={valueText}
    >
      <span className="runs-progress-fill" style={{ width: `${value ?? 0}%` }} />
    </span>
  )
}

/** A job's record: what ran where (the exact commands), how it ended, and its raw output. */
function JobDetail({ runId, view }: { runId: string; view: JobView }): ReactElement {
  const { job } = view
  return (
    <div className="runs-job-detail">
      <dl className="facts runs-job-facts">
        <dt>Job</dt>
        <dd>
          <span className="mono">{job.id}</span> · {job.tool} · {job.kind === 'compare' ? 'compared with the baseline' : `${job.kind} (a table of its own)`}
        </dd>
        <dt>Attempts</dt>
        <dd>{job.attempts}</dd>
        {job.startedAt ? (
          <>
            <dt>Started</dt>
            <dd>{formatWhen(job.startedAt)}</dd>
          </>
        ) : null}
        {view.elapsedSeconds !== undefined ? (
          <>
            <dt>Took</dt>
            <dd>
              {formatDuration(view.elapsedSeconds)}
              {job.estimatedSeconds !== undefined ? <span className="muted"> (estimated {formatDuration(job.estimatedSeconds)})</span> : null}
            </dd>
          </>
        ) : null}
        <dt>Samples</dt>
        <dd>{job.samples.length}</dd>
      </dl>
      {view.error ? <p className="runs-error-text runs-job-error">{view.error}</p> : null}
      {view.logTail ? (
        <>
          <h4>Last lines of output</h4>
          <pre className="runs-pre">{view.logTail}</pre>
        </>
      ) : null}
      {job.warnings.length > 0 ? (
        <ul className="runs-warnings">
          {job.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      ) : null}
      {job.steps.length === 0 ? (
        <p className="muted">The exact commands and raw output appear here once the job has run.</p>
      ) : (
        job.steps.map((step) => <StepDetail key={step.id} runId={runId} job={job} step={step} />)
      )}
    </div>
  )
}

function StepDetail({ runId, job, step }: { runId: string; job: Job; step: StepRecord }): ReactElement {
  const how = [step.measured ? 'measured' : undefined, step.background ? 'in the background' : undefined].filter(Boolean).join(', ')
  const exit =
    step.error ??
    (step.signal ? `ended by signal ${step.signal}` : step.exitCode !== undefined && step.exitCode !== null ? `exit code ${step.exitCode}` : undefined)
  return (
    <section className="runs-step" aria-label={`Step ${step.id} of ${job.id}`}>
      <h4>
        Step <span className="mono">{step.id}</span> on {step.on}
        {how ? <span className="muted"> ({how})</span> : null}
        {exit ? <span className={step.error || (step.exitCode ?? 0) !== 0 ? 'runs-error-text' : 'muted'}> · {exit}</span> : null}
      </h4>
      <pre className="runs-pre runs-command" aria-label={`Command of step ${step.id}`}>
        <code>{step.command}</code>
      </pre>
      {step.stdoutFile ? <RawOutput key={step.stdoutFile} runId={runId} file={step.stdoutFile} label="stdout" /> : null}
      {step.stderrFile ? <RawOutput key={step.stderrFile} runId={runId} file={step.stderrFile} label="stderr" /> : null}
    </section>
  )
}

type Raw = { text: string; bytes: number; truncated: boolean } | { error: string }

/** A raw output file of the run (runs:raw), read when shown. */
function RawOutput({ runId, file, label }: { runId: string; file: string; label: string }): ReactElement {
  const api = useAppStore((s) => s.api)
  const [raw, setRaw] = useState<Raw | undefined>()
  useEffect(() => {
    if (!api) return
    let live = true
    api.invoke('runs:raw', { id: runId, file }).then(
      (answer) => {
        if (live) setRaw(answer)
      },
      (error: unknown) => {
        if (live) setRaw({ error: apiMessage(error) })
      }
    )
    return () => {
      live = false
    }
  }, [api, runId, file])

  return (
    <div className="runs-raw">
      <p className="runs-raw-head">
        <span className="runs-raw-label">{label}</span> <span className="mono muted">{file}</span>
        {raw && 'bytes' in raw ? (
          <span className="muted">
            {' '}
            · {formatValue(raw.bytes, 'B')}
            {raw.truncated ? ', only the beginning is shown here' : ''}
          </span>
        ) : null}
      </p>
      {raw === undefined ? (
        <p className="muted">Reading…</p>
      ) : 'error' in raw ? (
        <p className="runs-error-text">Could not read {file}: {raw.error}</p>
      ) : raw.text === '' ? (
        <p className="muted">(empty)</p>
      ) : (
        <pre className="runs-pre runs-raw-text" tabIndex={0} aria-label={`${label} of ${file}`}>
          {raw.text}
        </pre>
      )}
    </div>
  )
}
