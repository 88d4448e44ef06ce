import type { ComparisonPlan } from '../../shared/model/plan'
import { sidesOf } from './planner'
import type { RunDocument, RunEvent, RunStatus } from '../../shared/model/run'
import { sameTargetName, type Target } from '../../shared/model/target'
import type { DomainStageEvent } from '../../shared/sweep/stage-event'
import type { DecideHostKey, KnownHostsFiles } from '../ssh/connect'
import { secretKey, type SecretStore } from '../secrets/secrets'
import { openTargetSession } from '../ssh/target-session'
import type { Session, SudoMode } from '../ssh/types'
import { describeRun } from '../tools/describe-run'
import { RunFolder } from '../store/run-store'
import { peerAddressProblems } from './job-commands'
import { createRunDocument, planTargetNames, RunEngine, type EngineDeps, type EngineTarget } from './runner'

/**
 * Starting a run from a plan and the inventory, the same way for the app and the CLI: targets
 * named by the plan are looked up, their sudo passwords fetched from the secret store (kept in
 * memory only), sessions opened on first use and closed when the run ends.
 */

export interface RunServices {
  /** The inventory (saved targets, or the CLI's targets built from ssh:// URLs). */
  inventory: readonly Target[]
  secrets: SecretStore
  decideHostKey: DecideHostKey
  knownHosts: KnownHostsFiles
  openLocal: (target: Target) => Session
  scriptsDir: string
  appVersion: string
  onEvent?: (event: RunEvent) => void
  beforeJobs?: EngineDeps['beforeJobs']
  reattachForMs?: number
  /** Stream running steps' output as job-log events (the app's live log). */
  liveLog?: boolean
  /** Changes of libvirt domains around the run (src/main/scenario, docs/scenarios.md), made for each run folder. */
  domains?: (runDir: string, onStage: (message: string, target?: string, domain?: DomainStageEvent) => void, record: RecordInRun) => RunDomainChanges
  /** Whether the domains are put back when this run ends (default: always; a sweep keeps its guest changed between combinations). */
  restoreDomains?: (status: RunStatus) => boolean
}

/** Changes the run document and writes it (before the jobs, and after the run ended too). */
export type RecordInRun = (change: (doc: RunDocument) => void) => Promise<void>

/** What a run needs of the domain changes: its before-jobs work preceded by them, and the restore at its end. */
export interface RunDomainChanges {
  /** `beforeJobs` preceded by applying the plan's scenario setups (unchanged when the plan has none). */
  wrap(plan: ComparisonPlan, beforeJobs: EngineDeps['beforeJobs']): EngineDeps['beforeJobs']
  /** Puts back every domain whose original the run saved. */
  restoreAll(targets: readonly EngineTarget[], sessionOf: (name: string) => Promise<Session>): Promise<unknown>
  /** The run ended and its domains stay as changed (a sweep's next step changes them again). */
  keepAll?(): Promise<unknown>
}

export class TargetLookupError extends Error {
  override readonly name = 'TargetLookupError'
}

/** The plan's targets from the inventory, with their roles, labels, scenarios and sudo. */
export async function resolveTargets(plan: ComparisonPlan, inventory: readonly Target[], secrets: SecretStore): Promise<EngineTarget[]> {
  const out: EngineTarget[] = []
  const missing: string[] = []
  for (const name of planTargetNames(plan)) {
    const target = inventory.find((t) => sameTargetName(t.name, name))
    if (!target) {
      missing.push(name)
      continue
    }
    const sudo = await storedSudoOf(target, secrets)
    if (sudo === 'missing') {
      throw new TargetLookupError(`${target.name} needs a sudo password, and none is stored: set it on the Targets screen (or in the environment for the CLI)`)
    }
    out.push(engineTargetOf(plan, target, inventory, sudo))
  }
  if (missing.length > 0) {
    const known = inventory.map((t) => t.name).join(', ') || 'none'
    throw new TargetLookupError(
      `the plan names ${missing.map((m) => `"${m}"`).join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not among the targets (${known}). Add ${missing.length === 1 ? 'it' : 'them'} with 'virtbench targets add' or on the Targets screen.`
    )
  }
  return out
}

/** A target of the plan as the engine sees it: its side's role and label, scenario, physical host and sudo. */
export function engineTargetOf(plan: ComparisonPlan, target: Target, inventory: readonly Target[], sudo: SudoMode): EngineTarget {
  const side = sidesOf(plan).find((s) => sameTargetName(s.target, target.name))
  const variant = plan.variants.find((v) => sameTargetName(v.target, target.name))
  return {
    name: target.name,
    label: side?.label ?? target.name,
    role: side?.role ?? 'peer',
    kind: target.kind,
    ...(target.kind === 'ssh' ? { address: target.address, port: target.port, user: target.user } : {}),
    addresses: { ...target.addresses },
    ...(variant ? { scenario: variant.scenario } : {}),
    ...(target.hostId ? hostNameOf(target.hostId, inventory) : {}),
    sudo
  }
}

/** How the target's sudo works, with its stored password; 'missing' when it needs one and none is stored. */
export async function storedSudoOf(target: Target, secrets: SecretStore): Promise<SudoMode | 'missing'> {
  if (target.sudo === 'passwordless') return { mode: 'passwordless' }
  if (target.sudo !== 'password') return false
  const password = await secrets.get(secretKey(target.id, 'sudo'))
  return password === undefined ? 'missing' : { mode: 'password', password }
}

export interface StartedRun {
  engine: RunEngine
  run: RunDocument
  /** Settles when the run ended (completed, failed, cancelled); sessions are closed by then. */
  done: Promise<RunStatus>
}

/** Creates the run folder and starts the run; `folder` is where run.json and raw/ go. */
export async function startRun(plan: ComparisonPlan, folderDir: string, services: RunServices, runId?: string): Promise<StartedRun> {
  if (!services.domains && (plan.sweep || plan.variants.some((v) => v.scenario.setup))) {
    // a setup silently not applied would measure another scenario than the one named
    throw new Error('this plan changes libvirt domains (a scenario setup or a sweep), which only virtbench run --change-domains does so far (docs/scenarios.md)')
  }
  const targets = await resolveTargets(plan, services.inventory, services.secrets)
  const doc = createRunDocument(plan, targets, services.appVersion, runId)
  const unreachable = peerAddressProblems(doc.jobs, targets)
  if (unreachable.length > 0) throw new TargetLookupError(`the network tests cannot reach their peers:\n- ${unreachable.join('\n- ')}`)
  const folder = await RunFolder.create(folderDir, doc)
  return launch(folder, targets, services)
}

/** Continues a run that stopped (resume) or runs some of its jobs again (retry). */
export async function continueRun(folderDir: string, services: RunServices, only?: readonly string[]): Promise<StartedRun> {
  const folder = await RunFolder.open(folderDir)
  // a run written before VirtBench kept its metric definitions gets today's
  const described = describeRun(folder.run)
  if (described !== folder.run) {
    folder.update((doc) => {
      doc.tests = described.tests
      doc.metrics = described.metrics
    })
  }
  const targets = await resolveTargets(folder.run.plan, services.inventory, services.secrets)
  return launch(folder, targets, services, only)
}

/**
 * One host-key question at a time: the targets connect at once, and a person (a terminal prompt,
 * the app's dialog) answers one question before the next is asked.
 */
export function oneAtATime<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve()
  return (...args) => {
    const next = last.then(() => fn(...args))
    last = next.catch(() => undefined)
    return next
  }
}

/** A run's sessions: each target's opened on first use, all closed together. */
function runSessions(services: RunServices): { sessionOf: (name: string) => Promise<Session>; closeAll: () => Promise<void> } {
  const sessions = new Map<string, Session>()
  const decideHostKey = oneAtATime(services.decideHostKey)
  const sessionOf = async (name: string): Promise<Session> => {
    const key = name.toLowerCase()
    const open = sessions.get(key)
    if (open) return open
    const target = services.inventory.find((t) => sameTargetName(t.name, name))
    if (!target) throw new TargetLookupError(`${name} is not among the targets`)
    const session = openTargetSession(target, services.inventory, {
      secrets: services.secrets,
      decideHostKey,
      knownHosts: services.knownHosts,
      openLocal: services.openLocal
    })
    sessions.set(key, session)
    return session
  }
  const closeAll = async (): Promise<void> => {
    await Promise.all([...sessions.values()].map((s) => s.close().catch(() => undefined)))
  }
  return { sessionOf, closeAll }
}

/** The run folder's domain changes (services.domains), their stages told as the run's events and recorded in its run.json. */
function domainChangesOf(folder: RunFolder, services: RunServices): RunDomainChanges | undefined {
  const record: RecordInRun = (change) => {
    folder.update(change)
    return folder.flush()
  }
  return services.domains?.(folder.dir, (message, target, domain) => services.onEvent?.({ type: 'stage', runId: folder.run.id, message, ...(target ? { target } : {}), ...(domain ? { domain } : {}) }), record)
}

/**
 * Puts back the domains whose originals a run folder's run saved (in its folder, or its sweep's),
 * running nothing else: a sweep that ends between two steps (stopped, or an error) after a step
 * that kept its domain changed for the next. Recorded in that run's run.json as at a run's end.
 */
export async function restoreRunDomains(folderDir: string, services: RunServices): Promise<void> {
  const folder = await RunFolder.open(folderDir)
  const { sessionOf, closeAll } = runSessions(services)
  try {
    const targets = await resolveTargets(folder.run.plan, services.inventory, services.secrets)
    await domainChangesOf(folder, services)?.restoreAll(targets, sessionOf)
  } finally {
    await closeAll()
    await folder.close()
  }
}

function launch(folder: RunFolder, targets: EngineTarget[], services: RunServices, only?: readonly string[]): StartedRun {
  const { sessionOf, closeAll } = runSessions(services)
  // scenarios applied to libvirt domains before the jobs, and put back however the run ends
  const domains = domainChangesOf(folder, services)
  const beforeJobs = domains ? domains.wrap(folder.run.plan, services.beforeJobs) : services.beforeJobs
  const engine = new RunEngine(folder, targets, {
    session: sessionOf,
    scriptsDir: services.scriptsDir,
    appVersion: services.appVersion,
    ...(services.onEvent ? { onEvent: services.onEvent } : {}),
    ...(beforeJobs ? { beforeJobs } : {}),
    ...(services.reattachForMs !== undefined ? { reattachForMs: services.reattachForMs } : {}),
    ...(services.liveLog ? { liveLog: true } : {})
  })
  const restore = async (): Promise<unknown> =>
    domains?.restoreAll(targets, sessionOf).catch((error: unknown) =>
      services.onEvent?.({ type: 'stage', runId: folder.run.id, message: `the libvirt domains this run changed could not be put back: ${(error as Error).message}` })
    )
  const ran = engine.execute(only ? { only } : {}).then(
    async (status) => {
      if (services.restoreDomains?.(status) ?? true) await restore()
      else await domains?.keepAll?.().catch(() => undefined)
      return status
    },
    async (error: unknown) => {
      await restore()
      throw error
    }
  )
  const done = ran.finally(closeAll)
  return { engine, run: folder.run, done }
}

function hostNameOf(hostId: string, inventory: readonly Target[]): { hostName?: string } {
  const host = inventory.find((t) => t.id === hostId)
  return host ? { hostName: host.name } : {}
}
