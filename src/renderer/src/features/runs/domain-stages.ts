/**
 * The domain changes of a run as stages (docs/scenarios.md#applying-step-by-step), from the
 * run's `stage` events as src/main/scenario words them: applying a setup (the changes), the
 * restart and the wait for the guest's SSH, the checks, and the restore at the end. Pure. A
 * message this does not know is left to the run page's stage line.
 */

export type DomainStep = 'apply' | 'restart' | 'verify' | 'restore'
export type StepState = 'running' | 'done' | 'skipped' | 'failed'

export interface DomainStepView {
  step: DomainStep
  state: StepState
  /** What was said about it: the changes, the checks, why it failed. */
  detail?: string
}

/** One reconfiguration (a setup applied) or one restore of one domain. */
export interface Reconfiguration {
  kind: 'setup' | 'restore'
  domain: string
  host: string
  guest?: string
  steps: DomainStepView[]
}

const APPLYING = /^Applying the scenario of (.+) to domain (.+) on (.+)$/
const RESTORING = /^Restoring domain (.+) on (.+)$/
const RESTORED = /^Domain (.+) has its original configuration again$/
const NOT_RESTORED = /^domain (.+?) could not be restored: (.+)$/

/** The steps a setup goes through, in order. */
export const SETUP_STEPS: readonly DomainStep[] = ['apply', 'restart', 'verify']

/** The reconfigurations the stages tell of, oldest first. */
export function domainStages(stages: readonly { message: string; target?: string }[]): Reconfiguration[] {
  const out: Reconfiguration[] = []
  const latest = (domain: string): Reconfiguration | undefined => [...out].reverse().find((r) => r.domain === domain)
  const step = (r: Reconfiguration, name: DomainStep): DomainStepView => {
    let found = r.steps.find((s) => s.step === name)
    if (!found) {
      found = { step: name, state: 'running' }
      r.steps.push(found)
    }
    return found
  }
  const finishRunning = (r: Reconfiguration): void => {
    for (const s of r.steps) if (s.state === 'running') s.state = 'done'
  }

  for (const { message, target } of stages) {
    const applying = APPLYING.exec(message)
    if (applying) {
      out.push({ kind: 'setup', guest: applying[1]!, domain: applying[2]!, host: applying[3]!, steps: [{ step: 'apply', state: 'running' }] })
      continue
    }
    const restoring = RESTORING.exec(message)
    if (restoring) {
      out.push({ kind: 'restore', domain: restoring[1]!, host: restoring[2]!, ...(target ? { guest: target } : {}), steps: [{ step: 'restore', state: 'running' }] })
      continue
    }
    const restored = RESTORED.exec(message)
    if (restored) {
      const r = latest(restored[1]!)
      if (r) step(r, 'restore').state = 'done'
      continue
    }
    const failed = NOT_RESTORED.exec(message)
    if (failed) {
      const r = latest(failed[1]!)
      if (r) Object.assign(step(r, 'restore'), { state: 'failed', detail: failed[2]! })
      continue
    }
    // "<domain>: ..." from the apply and restore of one domain
    const colon = message.indexOf(': ')
    const r = colon > 0 ? latest(message.slice(0, colon)) : undefined
    if (!r) continue
    const said = message.slice(colon + 2)
    if (r.kind === 'restore') {
      step(r, 'restore').detail = said
    } else if (said === 'restarting') {
      step(r, 'apply').state = 'done'
      step(r, 'restart')
    } else if (/^verified \(/.test(said)) {
      if (!r.steps.some((s) => s.step === 'restart')) r.steps.push({ step: 'restart', state: 'skipped', detail: 'nothing to change' })
      finishRunning(r)
      r.steps.push({ step: 'verify', state: 'done', detail: said })
    } else if (r.steps.length === 1) {
      step(r, 'apply').detail = said
    }
  }
  return out
}

/** How far a reconfiguration is: its steps done (or skipped) of all it has. */
export function stepsDone(r: Reconfiguration): { done: number; total: number } {
  const total = r.kind === 'restore' ? 1 : SETUP_STEPS.length
  return { done: r.steps.filter((s) => s.state === 'done' || s.state === 'skipped').length, total }
}
