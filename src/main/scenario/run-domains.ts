/**
 * A run's domain changes: before the jobs, each variant whose scenario has a `setup` gets it
 * applied to its libvirt domain (through its physical host's session) and verified; after the
 * run, whatever its ending (completed, failed, cancelled), every domain whose original was saved
 * in the run folder is put back. A resumed run finds the originals its crashed predecessor saved
 * and restores them too. Changing a domain needs the user's consent (`--change-domains`);
 * restoring one does not.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { ComparisonPlan } from '../../shared/model/plan'
import type { Finding, RunDomain } from '../../shared/model/run'
import type { DomainSetup } from '../../shared/model/scenario'
import { expandSweep, sweepSteps } from '../../shared/sweep/expand'
import type { DomainStageEvent, DomainStageKind } from '../../shared/sweep/stage-event'
import type { BeforeJobsContext, BeforeJobsResult, EngineTarget } from '../engine/runner'
import type { RecordInRun, RunDomainChanges, RunServices } from '../engine/start-run'
import { writeFileAtomic } from '../fs/atomic-file'
import { RUN_FILE } from '../store/run-store'
import type { Session } from '../ssh/types'
import { applyDomainSetup, checkDomainSetups, markRestored, originalXmlPath, restoreDomain, savedOriginals, type Applied, type StageMark } from './apply'
import { describeChanges } from './domain-edit'
import { ScenarioError, type DomainHost } from './virsh'

/** The folder of a run folder where the original domain XMLs are kept. */
export const DOMAINS_DIR = 'domains'
/** A sweep folder's record of its steps. */
export const SWEEP_FILE = 'sweep.json'

export interface DomainTask {
  guest: string
  /** The variant's label (in a sweep's step: the combination). */
  label: string
  domain: string
  setup: DomainSetup
}

/** Where a run folder's originals are: its own `domains`, or its sweep's when it is a step of one (`../sweep.json`). */
export function domainsDirOf(runDir: string): string {
  const sweepDir = path.dirname(runDir)
  return existsSync(path.join(sweepDir, SWEEP_FILE)) ? path.join(sweepDir, DOMAINS_DIR) : path.join(runDir, DOMAINS_DIR)
}

/** The variants of a plan whose domain VirtBench changes. */
export function domainTasksOf(plan: ComparisonPlan): DomainTask[] {
  return plan.variants.flatMap((v) => (v.scenario.setup && v.scenario.domain ? [{ guest: v.target, label: v.label ?? v.target, domain: v.scenario.domain, setup: v.scenario.setup }] : []))
}

/** The sentence that refuses a plan changing domains without consent; undefined when none is needed. */
export function consentNeeded(plan: ComparisonPlan, consent: string): string | undefined {
  const tasks = domainTasksOf(plan)
  if (tasks.length === 0 && !plan.sweep) return undefined
  const named = [...tasks.map((t) => `${t.domain} (${t.guest})`), ...(plan.sweep ? [`${plan.sweep.domain} (${plan.sweep.target}, swept)`] : [])]
  return (
    `the plan changes the libvirt domain${named.length === 1 ? '' : 's'} ${named.join(', ')} on the physical host: ` +
    `VirtBench saves the original XML in the run folder, applies each scenario with a restart of the guest, and puts the original back at the end. ` +
    `Give ${consent} to allow it.`
  )
}

/** The physical host of a guest: its host in the inventory, else the baseline. */
export function physicalHostOf(targets: readonly EngineTarget[], guest: string): EngineTarget | undefined {
  const target = targets.find((t) => t.name === guest)
  const host = (target?.hostName && targets.find((t) => t.name === target.hostName)) || targets.find((t) => t.role === 'baseline')
  return host && host !== target ? host : undefined
}

export type BeforeJobs = (ctx: BeforeJobsContext) => Promise<BeforeJobsResult>

/** RunServices.domains: each run keeps its originals in its folder (or its sweep's); `consent` allows changes. */
export function runDomainsOf(consent: boolean): NonNullable<RunServices['domains']> {
  return (runDir, onStage, record) => new RunDomains(domainsDirOf(runDir), consent, onStage, { runDir, record })
}

/** Where a run keeps each variant's XML diff: `<run folder>/scenario/<domain>.diff`. */
export const DIFFS_DIR = 'scenario'

/** The combinations of the sweep a step belongs to (`../sweep.json`), to check them all before the first change. */
function sweepSetupsOf(runDir: string): { label: string; setup: DomainSetup }[] {
  const file = path.join(path.dirname(runDir), SWEEP_FILE)
  if (!existsSync(file)) return []
  const { plan } = JSON.parse(readFileSync(file, 'utf8')) as { plan: ComparisonPlan }
  return plan.sweep ? expandSweep(plan.sweep).map((v) => ({ label: v.label, setup: v.setup })) : []
}

/** Which step of its sweep a run folder is (from its name, `NN-...`, and `../sweep.json`); undefined outside a sweep. */
function sweepStepOf(runDir: string): { index: number; total: number } | undefined {
  const file = path.join(path.dirname(runDir), SWEEP_FILE)
  const index = Number(/^(\d+)-/.exec(path.basename(runDir))?.[1])
  if (!existsSync(file) || !Number.isInteger(index)) return undefined
  const { plan } = JSON.parse(readFileSync(file, 'utf8')) as { plan: ComparisonPlan }
  return plan.sweep ? { index, total: sweepSteps(expandSweep(plan.sweep).length, plan.repetitions, plan.sweep.order).length } : undefined
}

/** The stage a ScenarioError stopped at, as the run view names it. */
const FAILED_STAGE: Record<ScenarioError['stage'], DomainStageKind> = { read: 'define', validate: 'define', apply: 'define', restart: 'restart', boot: 'ssh', verify: 'verify', restore: 'restore' }

export class RunDomains implements RunDomainChanges {
  /** The run folder and its document, when the outcomes are recorded (a run started by start-run). */
  private readonly run: { runDir: string; record: RecordInRun } | undefined

  constructor(
    /** Where the originals are kept: `<run folder>/domains`, or a sweep's own. */
    private readonly dir: string,
    private readonly consent: boolean,
    private readonly onStage: (message: string, target?: string, domain?: DomainStageEvent) => void = () => undefined,
    run?: { runDir: string; record: RecordInRun }
  ) {
    this.run = run
    this.sweepStep = run ? sweepStepOf(run.runDir) : undefined
  }

  /** Which step of its sweep this run is; undefined outside a sweep. */
  private readonly sweepStep: { index: number; total: number } | undefined

  /** Says what is being done, in words and as a structured stage of `entry`'s domain (`label`: the variant's). */
  private say(message: string, entry: { domain: string; host: string; guest: string; label?: string }, mark: StageMark): void {
    const combination = this.sweepStep && entry.label ? { combination: entry.label, step: this.sweepStep } : {}
    this.onStage(message, entry.guest || undefined, { ...mark, domain: entry.domain, host: entry.host, ...(entry.guest ? { guest: entry.guest } : {}), ...combination })
  }

  /** `inner` preceded by the domain changes, so that preflight and the environment see the scenario as measured. */
  wrap(plan: ComparisonPlan, inner: BeforeJobs | undefined): BeforeJobs | undefined {
    if (domainTasksOf(plan).length === 0) return inner
    return async (ctx) => {
      const findings = await this.applyAll(ctx)
      const rest = inner ? await inner(ctx) : {}
      return { ...rest, findings: [...findings, ...(rest.findings ?? [])] }
    }
  }

  /** Records what happened to `domain` in run.json (one entry per domain, changed in place). */
  private async note(entry: { domain: string; host: string; guest: string }, change: Partial<Pick<RunDomain, 'apply' | 'restore'>>): Promise<void> {
    await this.run?.record((doc) => {
      const list = (doc.domains ??= [])
      const found = list.find((d) => d.domain === entry.domain && d.host === entry.host)
      // a resumed run finds its combination in force: the change that put it there, now verified, stays the record
      const earlier = found?.apply
      const resumed = (earlier?.status === 'changing' || earlier?.status === 'applied') && change.apply?.status === 'unchanged'
      if (found) Object.assign(found, resumed ? { ...change, apply: { ...earlier, status: 'applied', at: change.apply!.at } } : change)
      else list.push({ ...entry, ...change })
    })
  }

  private originalFile(domain: string): string | undefined {
    return this.run ? path.relative(this.run.runDir, originalXmlPath(this.dir, domain)) : undefined
  }

  private async applyAll(ctx: BeforeJobsContext): Promise<Finding[]> {
    const tasks = domainTasksOf(ctx.run.plan)
    if (tasks.length === 0) return []
    const refusal = consentNeeded(ctx.run.plan, 'consent to change domains (virtbench run --change-domains, or the review step\'s checkbox)')
    if (!this.consent && refusal) throw new ScenarioError('validate', refusal)
    const findings: Finding[] = []
    for (const task of tasks) {
      const host = physicalHostOf(ctx.targets, task.guest)
      const hostSession = host && ctx.sessions.get(host.name)
      const guestSession = ctx.sessions.get(task.guest)
      if (!host || !hostSession) throw new ScenarioError('read', `${task.guest}'s domain ${task.domain} cannot be changed: the plan has no physical host for it (set the guest's host in the inventory, or make the host the baseline)`)
      if (!guestSession) throw new ScenarioError('read', `${task.guest} was not connected, so its domain ${task.domain} was not changed`)
      const domainHost: DomainHost = { label: host.name, session: hostSession, sudo: host.sudo }
      const entry = { domain: task.domain, host: host.name, guest: task.guest }
      const said = { ...entry, label: task.label }
      this.say(`Applying the scenario of ${task.guest} to domain ${task.domain} on ${host.name}`, said, { kind: 'define', status: 'running', detail: task.label })
      let diffFile: string | undefined
      let changes: string[] = []
      try {
        // a sweep's first step checks every combination before the domain changes at all
        const combos = this.run && !savedOriginals(this.dir).some((o) => o.domain === task.domain) ? sweepSetupsOf(this.run.runDir) : []
        if (combos.length > 1) await checkDomainSetups(domainHost, task.domain, combos)
        const applied = await applyDomainSetup(domainHost, task.domain, task.setup, { label: task.guest, session: guestSession }, {
          originalsDir: this.dir,
          onStage: (m, mark) => (mark ? this.say(m, said, mark) : ctx.onStage?.(m, task.guest)),
          onEdited: async (edit) => {
            changes = edit.changes.map((c) => `${c.what}: ${c.from} -> ${c.to}`)
            if (!this.run || edit.changes.length === 0) return
            diffFile = `${DIFFS_DIR}/${encodeURIComponent(task.domain)}.diff`
            await writeFileAtomic(path.join(this.run.runDir, diffFile), edit.diff)
            await this.note(entry, { apply: { status: 'changing', at: new Date().toISOString(), changes, diffFile } })
          },
          ...(ctx.signal ? { signal: ctx.signal } : {})
        })
        await this.note(entry, { apply: { status: applied.changes.length > 0 ? 'applied' : 'unchanged', at: new Date().toISOString(), changes, ...(diffFile ? { diffFile } : {}) } })
        findings.push(appliedFinding(task, applied))
        this.say(`${task.guest} is measured with ${task.label}`, said, { kind: 'jobs', status: 'running', detail: task.label })
      } catch (error) {
        const details = error instanceof ScenarioError ? error.details : undefined
        this.say(`${task.domain}: ${(error as Error).message}`, said, { kind: error instanceof ScenarioError ? FAILED_STAGE[error.stage] : 'define', status: 'failed', detail: (error as Error).message })
        await this.note(entry, {
          apply: { status: 'failed', at: new Date().toISOString(), changes, ...(diffFile ? { diffFile } : {}), error: (error as Error).message, ...(details ? { details } : {}) }
        })
        throw error
      }
    }
    return findings
  }

  /** Puts back every domain whose original this run folder holds; returns the failures as sentences. */
  async restoreAll(targets: readonly EngineTarget[], sessionOf: (name: string) => Promise<Session>): Promise<string[]> {
    const errors: string[] = []
    for (const saved of savedOriginals(this.dir)) {
      const guest = targets.find((t) => t.scenario?.domain === saved.domain)
      const host = targets.find((t) => t.name === saved.host) ?? (guest ? physicalHostOf(targets, guest.name) : undefined)
      const entry = { domain: saved.domain, host: host?.name ?? saved.host, guest: guest?.name ?? '' }
      const originalFile = this.originalFile(saved.domain)
      const label = this.taskOf(saved.domain)?.label
      const said = { ...entry, ...(label ? { label } : {}) }
      try {
        if (!host) throw new Error(`its host ${saved.host} is not a target of this run`)
        this.say(`Restoring domain ${saved.domain} on ${host.name}`, said, { kind: 'restore', status: 'running' })
        await restoreDomain({ label: host.name, session: await sessionOf(host.name), sudo: host.sudo }, saved, guest ? { label: guest.name, session: await sessionOf(guest.name) } : undefined, {
          onStage: (m, mark) => (mark ? this.say(m, said, mark) : this.onStage(m, guest?.name))
        })
        await markRestored(this.dir, saved.domain)
        await this.note(entry, { restore: { status: 'restored', at: new Date().toISOString(), ...(originalFile ? { originalFile } : {}) } })
        this.say(`Domain ${saved.domain} has its original configuration again`, said, { kind: 'restore', status: 'done' })
      } catch (error) {
        const message = `domain ${saved.domain} could not be restored: ${(error as Error).message}. Its original XML is ${originalXmlPath(this.dir, saved.domain)}: virsh define it on ${saved.host}.`
        await this.note(entry, { restore: { status: 'failed', at: new Date().toISOString(), error: message, ...(originalFile ? { originalFile } : {}) } }).catch(() => undefined)
        this.say(message, said, { kind: 'restore', status: 'failed', detail: (error as Error).message })
        errors.push(message)
      }
    }
    return errors
  }

  /** The variant this run measured under `domain` (its plan's): its guest and label, for the stages. */
  private taskOf(domain: string): DomainTask | undefined {
    if (!this.run) return undefined
    const file = path.join(this.run.runDir, RUN_FILE)
    if (!existsSync(file)) return undefined
    const { plan } = JSON.parse(readFileSync(file, 'utf8')) as { plan: ComparisonPlan }
    return domainTasksOf(plan).find((t) => t.domain === domain)
  }

  /** A sweep step that completed leaves its domain changed for the next step: recorded as kept. */
  async keepAll(): Promise<void> {
    for (const saved of savedOriginals(this.dir)) {
      const task = this.taskOf(saved.domain)
      this.say(`Domain ${saved.domain} keeps ${task?.label ?? 'its setup'} for the next step of the sweep`, { domain: saved.domain, host: saved.host, guest: task?.guest ?? '', ...(task ? { label: task.label } : {}) }, { kind: 'jobs', status: 'done' })
      const originalFile = this.originalFile(saved.domain)
      await this.run?.record((doc) => {
        for (const d of doc.domains ?? []) {
          if (d.domain === saved.domain) d.restore = { status: 'kept', at: new Date().toISOString(), ...(originalFile ? { originalFile } : {}) }
        }
      })
    }
  }
}

/** The info finding of an applied setup: what changed, the restart and SSH times, each check with what was seen. */
function appliedFinding(task: DomainTask, applied: Applied): Finding {
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`
  const { restartMs, bootMs, verifyMs } = applied.timings
  const changed = applied.changes.length > 0 ? `${describeChanges(applied.changes)}; restarted in ${seconds(restartMs)}, SSH after ${seconds(bootMs)} more` : 'nothing to change'
  return {
    severity: 'info',
    target: task.guest,
    code: 'scenario-applied',
    message: `domain ${task.domain}: ${changed}; verified in ${seconds(verifyMs)} (${applied.checks.map((c) => `${c.where} ${c.what} ${c.seen}`).join(', ')}).`
  }
}
