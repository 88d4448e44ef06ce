import type { ReactElement } from 'react'
import type { RunStatus } from '../../../../shared/model/run'
import { sweepBadgeText } from './resume-consent'

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

/** The mark of a sweep in the history: one guest measured under `combinations` setups, listed as one run. */
export function SweepBadge({ combinations, guest, domain }: { combinations: number; guest: string; domain: string }): ReactElement {
  return (
    <span className="runs-sweep-badge" title={`${guest} (domain ${domain}) measured under each combination, one step each`}>
      {sweepBadgeText(combinations)}
    </span>
  )
}
