/**
 * The domain changes of a run as stages (docs/scenarios.md#applying-step-by-step), from the
 * structured `domain` of the run's `stage` events (src/shared/sweep/stage-event.ts): defining the
 * new XML, the restart, the wait for the guest's SSH, the checks, the jobs under that setup, and
 * the restore at the end. The CLI prints the same events' messages. Pure.
 */
import { DOMAIN_STAGE_KINDS, type DomainStageEvent, type DomainStageKind, type DomainStageStatus } from '../../../../shared/sweep/stage-event'

export type DomainStep = DomainStageKind
export type StepState = DomainStageStatus

export interface DomainStepView {
  step: DomainStep
  state: StepState
  /** What was said about it: the changes, the checks, why it failed. */
  detail?: string
}

/** One reconfiguration (a setup applied, in a sweep one combination) or one restore of one domain. */
export interface Reconfiguration {
  kind: 'setup' | 'restore'
  domain: string
  host: string
  guest?: string
  /** The sweep's combination, and which step of the sweep it is. */
  combination?: string
  step?: { index: number; total: number }
  steps: DomainStepView[]
}

/** The steps a setup goes through, in order. */
export const SETUP_STEPS: readonly DomainStep[] = DOMAIN_STAGE_KINDS.filter((k) => k !== 'restore')

function reconfigurationOf(e: DomainStageEvent, kind: Reconfiguration['kind']): Reconfiguration {
  return {
    kind,
    domain: e.domain,
    host: e.host ?? '',
    ...(e.guest ? { guest: e.guest } : {}),
    ...(e.combination ? { combination: e.combination } : {}),
    ...(e.step ? { step: e.step } : {}),
    steps: []
  }
}

/** Sets `e`'s step in `r`; the steps before it that were still running are done (a skipped change skips the restart and its wait). */
function advance(r: Reconfiguration, e: DomainStageEvent): void {
  const order = r.kind === 'restore' ? (['restore'] as const) : SETUP_STEPS
  const at = order.indexOf(e.kind)
  const skipped = r.steps.some((s) => s.step === 'define' && s.state === 'skipped')
  for (const name of order.slice(0, Math.max(0, at))) {
    const seen = r.steps.find((s) => s.step === name)
    if (seen?.state === 'running') seen.state = 'done'
    else if (!seen && e.status !== 'failed') r.steps.push({ step: name, state: skipped && (name === 'restart' || name === 'ssh') ? 'skipped' : 'done' })
  }
  const found = r.steps.find((s) => s.step === e.kind)
  const view = { step: e.kind, state: e.status, ...(e.detail ?? found?.detail ? { detail: e.detail ?? found?.detail } : {}) }
  if (found) Object.assign(found, view)
  else r.steps.push(view)
  r.steps.sort((a, b) => order.indexOf(a.step) - order.indexOf(b.step))
}

/** The reconfigurations the stages tell of, oldest first. */
export function domainStages(stages: readonly { message: string; domain?: DomainStageEvent }[]): Reconfiguration[] {
  const out: Reconfiguration[] = []
  const latest = (domain: string, kind: Reconfiguration['kind']): Reconfiguration | undefined => out.findLast((r) => r.domain === domain && r.kind === kind)
  for (const { domain: e } of stages) {
    if (!e) continue
    if (e.kind === 'restore') {
      const setup = latest(e.domain, 'setup')
      const jobs = setup?.steps.find((s) => s.step === 'jobs' && s.state === 'running')
      if (jobs) jobs.state = 'done'
      let r = latest(e.domain, 'restore')
      // "Restoring domain X" starts a restore; its later words belong to the same one
      if (!r || (e.status === 'running' && r.steps[0]?.state !== 'running')) {
        r = reconfigurationOf(e, 'restore')
        out.push(r)
      }
      advance(r, e)
      continue
    }
    let r = latest(e.domain, 'setup')
    if (!r || (e.kind === 'define' && e.status === 'running')) {
      r = reconfigurationOf(e, 'setup')
      out.push(r)
    }
    advance(r, e)
  }
  return out
}

/** How far a reconfiguration is: its steps done (or skipped) of all it has. */
export function stepsDone(r: Reconfiguration): { done: number; total: number } {
  const total = r.kind === 'restore' ? 1 : SETUP_STEPS.length
  return { done: r.steps.filter((s) => s.state === 'done' || s.state === 'skipped').length, total }
}
