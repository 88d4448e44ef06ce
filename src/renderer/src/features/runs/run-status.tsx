import type { ReactElement } from 'react'
import type { RunStatus } from '../../../../shared/model/run'

export const RUN_STATUS_WORDS: Record<RunStatus, string> = {
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted'
}

const RUN_STATUS_SIGNS: Record<RunStatus, string> = {
  running: '▸',
  completed: '✓',
  failed: '✕',
  cancelled: '⊘',
  interrupted: '!'
}

/** A run's status as a sign and a word (never colour alone). */
export function RunStatusChip({ status }: { status: RunStatus }): ReactElement {
  return (
    <span className={`runs-status runs-status-${status}`} data-status={status}>
      {status === 'running' ? <span className="spinner runs-spinner" aria-hidden="true" /> : <span aria-hidden="true">{RUN_STATUS_SIGNS[status]}</span>}
      {RUN_STATUS_WORDS[status]}
    </span>
  )
}

/** The mark of a run whose figures come from a publication (the example comparison), naming it. */
export function PublishedBadge({ source }: { source: { title: string; citation?: string } }): ReactElement {
  return (
    <span className="runs-published" title={`Source: ${source.title}${source.citation ? ` · ${source.citation}` : ''}`}>
      published figures, not measured here
    </span>
  )
}
