import type { ReactElement } from 'react'

export type StageStatus = 'running' | 'ok' | 'failed' | 'skipped'

export interface StageReport<Name extends string> {
  stage: Name
  status: StageStatus
  detail?: string
  elapsedMs?: number
}

type ShownStatus = StageStatus | 'waiting' | 'not-reached'

const STATUS_WORDS: Record<ShownStatus, string> = {
  running: 'running',
  ok: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  waiting: 'waiting',
  'not-reached': 'not reached'
}

/** "38 ms", "1.24 s": milliseconds under a second, seconds above. */
export function formatElapsed(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`
}

/**
 * The steps of a job as they happen: a spinner on the running one, a check with what was found
 * and how long it took, a cross with the error, and the steps not reached yet.
 */
export function StageList<Name extends string>({
  stages,
  order,
  labels,
  running,
  label
}: {
  stages: readonly StageReport<Name>[]
  order: readonly Name[]
  labels: Record<Name, string>
  /** While true, steps without a report are still to come; afterwards they were not reached. */
  running: boolean
  /** Names the list for screen readers, e.g. "Connection test of db-1". */
  label: string
}): ReactElement {
  const byName = new Map(stages.map((s) => [s.stage, s]))
  return (
    <ol className="stage-list" aria-label={label}>
      {order.map((name) => {
        const report = byName.get(name)
        const status: ShownStatus = report?.status ?? (running ? 'waiting' : 'not-reached')
        return (
          <li key={name} className={`stage stage-${status}`} data-stage={name} data-status={status}>
            <StageIcon status={status} />
            <span className="stage-name">
              {labels[name]}
              <span className="visually-hidden">: {STATUS_WORDS[status]}</span>
            </span>
            <span className="stage-detail">{report?.detail ?? (status === 'running' ? 'in progress…' : '')}</span>
            <span className="stage-time">{report?.elapsedMs !== undefined ? formatElapsed(report.elapsedMs) : ''}</span>
          </li>
        )
      })}
    </ol>
  )
}

function StageIcon({ status }: { status: ShownStatus }): ReactElement {
  if (status === 'running') return <span className="stage-icon spinner" aria-hidden="true" />
  const path =
    status === 'ok'
      ? 'M5 12.5l4.5 4.5L19 7.5'
      : status === 'failed'
        ? 'M6.5 6.5l11 11M17.5 6.5l-11 11'
        : status === 'skipped'
          ? 'M6 12h12'
          : 'M12 12h.01'
  return (
    <svg className="stage-icon" width={18} height={18} viewBox="0 0 24 24" aria-hidden="true">
      <path d={path} fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}
