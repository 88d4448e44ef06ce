import { useMemo, type ReactElement } from 'react'
import { ProgressBar } from './job-table'
import type { DomainStageEvent } from '../../../../shared/sweep/stage-event'
import { domainStages, SETUP_STEPS, stepsDone, type DomainStep, type Reconfiguration, type StepState } from './domain-stages'

const STEP_NAMES: Record<DomainStep, string> = {
  define: 'Define the new XML (virsh define)',
  restart: 'Restart the guest',
  ssh: 'Wait for the guest\'s SSH',
  verify: 'Verify on the host and in the guest',
  jobs: 'Run the jobs under this setup',
  restore: 'Restore the original XML, restart'
}

const STATE_WORDS: Record<StepState | 'pending' | 'stopped', { sign: string; words: string }> = {
  done: { sign: '✓', words: 'done' },
  running: { sign: '…', words: 'running' },
  skipped: { sign: '–', words: 'skipped' },
  failed: { sign: '✗', words: 'failed' },
  pending: { sign: '○', words: 'to do' },
  stopped: { sign: '■', words: 'stopped' }
}

/**
 * Each change of a libvirt domain in a run (in a sweep, each combination) as a stage with its
 * steps and progress (define, restart, SSH, verify, the jobs; the restore), read from the run's
 * structured stage events.
 */
export function DomainStagesView({ stages, ended }: { stages: readonly { message: string; domain?: DomainStageEvent }[]; ended: boolean }): ReactElement | null {
  const reconfigurations = useMemo(() => domainStages(stages), [stages])
  if (reconfigurations.length === 0) return null
  return (
    <ol className="runs-domain-stages" aria-label="Domain changes">
      {reconfigurations.map((r, i) => (
        <ReconfigurationView key={i} r={r} ended={ended} />
      ))}
    </ol>
  )
}

function ReconfigurationView({ r, ended }: { r: Reconfiguration; ended: boolean }): ReactElement {
  const { done, total } = stepsDone(r)
  const names = r.kind === 'restore' ? (['restore'] as const) : SETUP_STEPS
  const title =
    r.kind === 'restore'
      ? `Restore ${r.domain} on ${r.host}`
      : r.combination && r.step
        ? `Step ${r.step.index} of ${r.step.total}: ${r.combination} on ${r.domain} (${r.host})`
        : `${r.guest ?? r.domain}: set up ${r.domain} on ${r.host}`
  return (
    <li aria-label={title}>
      <div className="runs-overall-line">
        <strong>{title}</strong>
        <ProgressBar percent={Math.round((done / total) * 100)} label={title} valueText={`${done} of ${total} steps`} />
        <span className="muted">
          {done} of {total} steps
        </span>
      </div>
      <ul className="runs-domain-steps">
        {names.map((name) => {
          const seen = r.steps.find((s) => s.step === name)
          const state = seen ? (ended && seen.state === 'running' ? 'stopped' : seen.state) : 'pending'
          const words = STATE_WORDS[state]
          return (
            <li key={name} className={`runs-domain-step runs-domain-step-${state}`}>
              <span aria-hidden="true">{words.sign} </span>
              {STEP_NAMES[name]} <span className="muted">({words.words})</span>
              {seen?.detail ? <span className="cell-note mono">{seen.detail}</span> : null}
            </li>
          )
        })}
      </ul>
    </li>
  )
}
