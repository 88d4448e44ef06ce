import type { PreflightReport } from '../../shared/catalog-contract'
import type { TargetEnvironment } from '../../shared/model/environment'
import type { ComparisonPlan } from '../../shared/model/plan'
import type { Finding, RunDocument } from '../../shared/model/run'
import type { DetectedDiskSetup } from '../../shared/model/scenario'
import { sameTargetName, type Target } from '../../shared/model/target'
import { standardBeforeJobs } from '../engine/before-jobs'
import { workRootOf } from '../engine/job-commands'
import { PlanError } from '../engine/planner'
import { createRunDocument, planTargetNames, type EngineTarget } from '../engine/runner'
import { engineTargetOf, storedSudoOf, type RunServices } from '../engine/start-run'
import { openTargetSession } from '../ssh/target-session'
import type { Session } from '../ssh/types'

/**
 * Preflight without a run (plans:preflight): connects to the plan's targets as a run would, runs
 * the same checks and environment capture a run does before its first job (standardBeforeJobs),
 * and answers with the findings and what each target is. No job runs; nothing is written but the
 * work directory the checks create when it is missing (where the run writes anyway). A target that
 * cannot be reached or found is an error finding, never a failure of the call.
 */

/** What preflight needs: a run's services, less what only a run uses, and a way to stop it. */
export type PreflightServices = Omit<RunServices, 'onEvent' | 'reattachForMs' | 'liveLog'> & { signal?: AbortSignal }

type TargetRow = PreflightReport['targets'][number]

export async function preflightPlan(plan: ComparisonPlan, svc: PreflightServices): Promise<PreflightReport> {
  const findings: Finding[] = []
  const resolved: { target: Target; engine: EngineTarget }[] = []
  const rows = new Map<string, TargetRow>()
  for (const name of planTargetNames(plan)) {
    const target = svc.inventory.find((t) => sameTargetName(t.name, name))
    if (!target) {
      rows.set(name.toLowerCase(), { name, reachable: false })
      findings.push({
        severity: 'error',
        target: name,
        code: 'unknown-target',
        message: `The plan names ${name}, which is not among the targets.`,
        fix: `Add ${name} on the Targets screen, or choose another target in the plan.`
      })
      continue
    }
    const sudo = await storedSudoOf(target, svc.secrets)
    if (sudo === 'missing') {
      findings.push({
        severity: 'error',
        target: target.name,
        code: 'sudo-password-missing',
        message: `${target.name} needs a sudo password, and none is stored, so the run cannot start.`,
        fix: `Set ${target.name}'s sudo password on the Targets screen.`
      })
    }
    rows.set(target.name.toLowerCase(), { name: target.name, reachable: false })
    resolved.push({ target, engine: engineTargetOf(plan, target, svc.inventory, sudo === 'missing' ? false : sudo) })
  }

  let run: RunDocument
  try {
    run = createRunDocument(plan, resolved.map((r) => r.engine), svc.appVersion, 'preflight')
  } catch (error) {
    if (!(error instanceof PlanError)) throw error
    for (const problem of error.problems) findings.push({ severity: 'error', code: 'plan-invalid', message: `The plan cannot run: ${problem}.`, fix: 'Correct the test named above (the review step shows each problem at its field).' })
    return { findings, targets: [...rows.values()] }
  }

  const sessions = new Map<string, Session>()
  try {
    const reached = await Promise.all(resolved.map((r) => connect(r, svc, sessions, findings)))
    const reachable = resolved.filter((_, i) => reached[i] !== undefined)
    const workDirs = new Map<string, string>()
    reachable.forEach((r) => {
      const home = reached[resolved.indexOf(r)]?.homeDir ?? '~'
      workDirs.set(r.engine.name, workRootOf(plan.storage, home))
      const row = rows.get(r.target.name.toLowerCase())
      if (row) row.reachable = true
    })
    const before = await (svc.beforeJobs ?? standardBeforeJobs)({
      run,
      targets: reachable.map((r) => r.engine),
      sessions: new Map([...sessions].filter(([name]) => workDirs.has(name))),
      workDirs,
      scriptsDir: svc.scriptsDir,
      signal: svc.signal ?? new AbortController().signal
    })
    findings.push(...(before.findings ?? []))
    const environment = (before.environment ?? {}) as Record<string, TargetEnvironment | undefined>
    for (const r of reachable) {
      const row = rows.get(r.target.name.toLowerCase())
      if (!row) continue
      const env = environment[r.engine.name]
      const facts = reached[resolved.indexOf(r)]
      const os = env?.os ?? r.target.os?.name ?? facts?.system
      if (os) row.os = os
      if (env?.virtualization) row.virtualization = env.virtualization
      const detected = detectedDiskOf(r.engine, resolved.map((x) => x.engine), environment)
      if (detected) row.detected = detected
    }
  } finally {
    await Promise.all([...sessions.values()].map((s) => s.close().catch(() => undefined)))
  }
  return { findings, targets: [...rows.values()] }
}

/** Opens the target's session and reads its facts; an unreachable target becomes an error finding. */
async function connect(
  r: { target: Target; engine: EngineTarget },
  svc: PreflightServices,
  sessions: Map<string, Session>,
  findings: Finding[]
): Promise<{ homeDir: string; system: string } | undefined> {
  const session = openTargetSession(
    r.target,
    svc.inventory,
    { secrets: svc.secrets, decideHostKey: svc.decideHostKey, knownHosts: svc.knownHosts, openLocal: svc.openLocal },
    undefined,
    { retryConnect: false }
  )
  sessions.set(r.engine.name, session)
  try {
    const facts = await session.facts()
    if (facts.shell !== 'posix') {
      findings.push({
        severity: 'error',
        target: r.target.name,
        code: 'unsupported-os',
        message: `${r.target.name} runs ${facts.system}: runs measure Linux and other POSIX targets for now.`,
        fix: `Choose another target in place of ${r.target.name}.`
      })
      return undefined
    }
    return { homeDir: facts.homeDir, system: facts.system }
  } catch (error) {
    findings.push({
      severity: 'error',
      target: r.target.name,
      code: 'unreachable',
      message: `${r.target.name} (${r.engine.role}) cannot be reached: ${(error as Error).message}`,
      fix: `Check that ${r.target.name} is running and that its address, port, user and key are right (Targets, Test connection), then run the checks again.`
    })
    return undefined
  }
}

/**
 * For a guest with a libvirt domain in its scenario: what its physical host (its host in the
 * inventory, else the baseline) says of its first disk in the domain XML, as the scenario check reads it.
 */
export function detectedDiskOf(
  guest: Pick<EngineTarget, 'name' | 'scenario' | 'hostName'>,
  targets: readonly Pick<EngineTarget, 'name' | 'role'>[],
  environment: Record<string, TargetEnvironment | undefined>
): TargetRow['detected'] {
  const domain = guest.scenario?.domain
  if (!domain) return undefined
  const host = (guest.hostName && targets.find((t) => t.name === guest.hostName)) || targets.find((t) => t.role === 'baseline')
  if (!host || host.name === guest.name) return undefined
  const disk: DetectedDiskSetup | undefined = environment[host.name]?.guests?.[domain]?.disks[0]
  if (!disk) return undefined
  return {
    ...(disk.cache !== undefined ? { cache: disk.cache } : {}),
    ...(disk.io !== undefined ? { io: disk.io } : {}),
    ...(disk.queues !== undefined ? { queues: disk.queues } : {}),
    ...(disk.bus !== undefined ? { bus: disk.bus } : {}),
    ...(disk.source !== undefined ? { source: disk.source } : {})
  }
}
