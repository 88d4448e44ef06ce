import type { Flag } from '../../shared/model/comparison'
import type { TargetEnvironment } from '../../shared/model/environment'
import type { ComparisonPlan } from '../../shared/model/plan'
import type { Finding, RunDocument } from '../../shared/model/run'
import type { ScenarioMismatch } from '../../shared/model/scenario'
import { TOOLS } from '../tools/registry'
import type { ToolId } from '../tools/types'
import { sameMachineFlag, virtualBaselineFlag } from '../../shared/run-comparison'
import { checkScenario } from './environment/scenario-check'
import { evaluatePreflight, installOffers, runInstall, serverPortsByTarget, type PreflightTarget } from './preflight'
import { runTargetChecks } from './target-checks'
import type { BeforeJobsContext, BeforeJobsResult, EngineTarget } from './runner'
import { largestNeed } from './working-set'

/** Seconds of CPU sampling for the idle gate, unless the plan says. */
export const IDLE_SECONDS = 3
/** The same for a plan whose tests are all quick pack forms: a quick run is not worth 3 s of waiting. */
export const QUICK_IDLE_SECONDS = 1
/** A retry or resume this soon after the targets were found idle does not sample them again. */
export const IDLE_FRESH_MS = 10 * 60_000

/** The idle gate's seconds for a plan: its own `idleSeconds`, else 1 in quick form, else 3. */
export function idleSecondsOf(plan: ComparisonPlan): number {
  if (plan.idleSeconds !== undefined) return plan.idleSeconds
  const quick = plan.tests.every((t) => 'pack' in t && t.form === 'quick')
  return quick ? QUICK_IDLE_SECONDS : IDLE_SECONDS
}

/**
 * The targets a retry or resume need not sample again: checked by this run less than
 * IDLE_FRESH_MS before `now` (their environment's capture time) and found idle then (no
 * `not-idle` finding, and no check that failed to run there), by a check that sampled them (not
 * one that skipped it: `idle-skipped`, so a chain of retries samples every other time). Empty for
 * a new run.
 */
export function idleJustPassed(run: Pick<RunDocument, 'environment' | 'preflight'>, now: number): Set<string> {
  const passed = new Set<string>()
  for (const [name, env] of Object.entries(run.environment)) {
    const at = Date.parse(env?.capturedAt ?? '')
    if (!Number.isFinite(at) || now - at < 0 || now - at > IDLE_FRESH_MS) continue
    const doubtful = run.preflight.some((f) => f.target === name && (f.code === 'not-idle' || f.code === 'idle-skipped' || f.code === 'unreachable' || f.code === 'preflight-incomplete'))
    if (!doubtful) passed.add(name)
  }
  return passed
}

/**
 * What runs on the targets before the first job: preflight checks that every job can run there
 * (tools, space, filesystem, device, memory, idleness), and the environment of each target is
 * recorded; on a physical host with libvirt, each guest's real disk setup is read and compared
 * with the scenario the plan declares.
 */
export async function standardBeforeJobs(ctx: BeforeJobsContext): Promise<BeforeJobsResult> {
  return beforeJobs(ctx, {})
}

/**
 * The same, and with `installMissing` the tools preflight found missing are installed with the
 * target's package manager (through its sudo) before the checks run again. Only when the user
 * said so: `virtbench run --install-missing`, or the app's install button.
 */
export function beforeJobsInstalling(ctx: BeforeJobsContext): Promise<BeforeJobsResult> {
  return beforeJobs(ctx, { installMissing: true })
}

async function beforeJobs(ctx: BeforeJobsContext, opts: { installMissing?: boolean }): Promise<BeforeJobsResult> {
  const { run, signal } = ctx
  const storage = run.plan.storage
  const testsByTarget = new Map<string, Set<string>>()
  const toolsByTarget = new Map<string, Set<ToolId>>()
  for (const job of run.jobs) {
    if (job.status !== 'queued') continue
    const add = (name: string, tool: ToolId): void => {
      toolsByTarget.set(name, (toolsByTarget.get(name) ?? new Set()).add(tool))
    }
    // a ping needs nothing on the machine it pings; a server tool runs on the peer too
    add(job.target, job.tool)
    const network = TOOLS[job.tool].network
    if (job.peer && network && network.peerRuns === 'server') add(job.peer, job.tool)
    testsByTarget.set(job.target, (testsByTarget.get(job.target) ?? new Set()).add(job.testId))
  }

  // the guests whose domain XML each physical host reads with its environment
  const domainsOf = new Map<string, { guest: string; domain: string }[]>()
  const hostOfGuests = ctx.targets.find((t) => t.role === 'baseline')
  for (const t of ctx.targets) {
    const domain = t.scenario?.domain
    if (!domain) continue
    const host = (t.hostName && ctx.targets.find((h) => h.name === t.hostName)) || hostOfGuests
    if (!host || host === t) continue
    domainsOf.set(host.name, [...(domainsOf.get(host.name) ?? []), { guest: t.name, domain }])
  }

  // 1. preflight, the environment, the idle gate and the servers' ports: one command per target, every target at once
  const serverPorts = serverPortsByTarget(run.jobs.filter((j) => j.status === 'queued'))
  const idle = idleSecondsOf(run.plan)
  const idlePassed = idleJustPassed(run, Date.now())
  const checkAll = () => Promise.all(
    ctx.targets.map(async (t) => {
      const session = ctx.sessions.get(t.name)
      const tools = [...(toolsByTarget.get(t.name) ?? [])]
      if (!session) {
        const why = `${t.name} was not connected`
        return { target: t, facts: { unreachable: why }, environment: { capturedAt: new Date().toISOString(), notes: [`${t.name}: the environment could not be read: ${why}`] } }
      }
      const workDir = ctx.workDirs.get(t.name) ?? '~'
      const checks = await runTargetChecks(session, ctx.scriptsDir, {
        preflight: {
          scriptsDir: ctx.scriptsDir,
          dir: workDir,
          ...(storage.kind === 'device' && t.role !== 'peer' && testsByTarget.has(t.name) ? { device: storage.path } : {}),
          tools,
          idleSeconds: idlePassed.has(t.name) ? 0 : idle,
          ports: (serverPorts.get(t.name) ?? []).map((s) => s.port),
          ...(t.sudo ? { sudo: t.sudo } : {})
        },
        environment: { workDir, domains: (domainsOf.get(t.name) ?? []).map((d) => d.domain) }
      }, signal)
      return { target: t, ...checks }
    })
  )
  let probes = await checkAll()
  const asPreflightTargets = (): PreflightTarget[] => probes.map(({ target, facts }) => {
    const testIds = testsByTarget.get(target.name)
    const need = testIds ? largestNeed(run.tests.filter((test) => testIds.has(test.id))) : undefined
    return {
      name: target.name,
      role: target.role,
      facts,
      tools: [...(toolsByTarget.get(target.name) ?? [])],
      servers: serverPorts.get(target.name) ?? [],
      ...(need ? { storage: need } : {})
    }
  })
  let preflightTargets = asPreflightTargets()
  if (opts.installMissing) {
    const offers = installOffers(preflightTargets)
    for (const offer of offers) {
      const target = ctx.targets.find((t) => t.name === offer.target)
      const session = target && ctx.sessions.get(target.name)
      if (!target || !session) continue
      ctx.onStage?.(`Installing ${offer.tool} on ${target.name}: ${offer.command}`, target.name)
      const result = await runInstall(session, offer.plan, target.sudo, { signal })
      ctx.onStage?.(result.ok ? `Installed ${offer.tool} on ${target.name}` : `Installing ${offer.tool} on ${target.name} failed: ${result.error ?? 'no reason given'}`, target.name)
    }
    if (offers.length > 0) {
      probes = await checkAll()
      preflightTargets = asPreflightTargets()
    }
  }
  const findings: Finding[] = evaluatePreflight({ targets: preflightTargets, storage }).filter((f) => f.code !== 'tool-present')
  for (const name of idlePassed) {
    if (idle === 0 || !ctx.targets.some((t) => t.name === name)) continue
    const at = run.environment[name]?.capturedAt ?? ''
    findings.push({ severity: 'info', target: name, code: 'idle-skipped', message: `${name} was not sampled for idleness again: this run found it idle at ${at}.` })
  }

  // tools found off PATH (UnixBench's folder) are where the plans look for them
  const toolPaths: Record<string, Partial<Record<ToolId, string>>> = {}
  for (const { target, facts } of probes) {
    if ('unreachable' in facts) continue
    const unixbench = facts.tools.unixbench
    if (unixbench?.found && unixbench.path) toolPaths[target.name] = { unixbench: unixbench.path }
  }

  // 2. the environment of each target; the physical host also read its guests' domain XML
  const environment: Record<string, TargetEnvironment & { scenarioMismatches?: ScenarioMismatch[] }> = {}
  for (const { target, environment: env } of probes) environment[target.name] = env

  // 3. is the baseline the physical host it should be, and are two targets one machine?
  findings.push(...baselineSanity(ctx.targets, environment))

  // 4. declared scenario vs what the host says
  for (const [hostName, guests] of domainsOf) {
    const hostEnv = environment[hostName]
    for (const { guest, domain } of guests) {
      const detected = hostEnv?.guests?.[domain]
      const scenario = ctx.targets.find((t) => t.name === guest)?.scenario
      if (!detected || !scenario) continue
      if (detected.error) {
        findings.push({
          severity: 'warning',
          target: hostName,
          code: 'domain-unreadable',
          message: `${hostName} could not describe the guest domain ${domain} (${detected.error}), so ${guest}'s declared setup is not checked.`,
          fix: `Check the domain name in ${guest}'s scenario, and that the login user on ${hostName} may run virsh (the libvirt group).`
        })
        continue
      }
      const mismatches = checkScenario(scenario, detected.disks, { guest })
      if (mismatches.length === 0) continue
      environment[guest] = { ...(environment[guest] ?? { capturedAt: new Date().toISOString() }), scenarioMismatches: mismatches }
      for (const m of mismatches) {
        findings.push({ severity: 'warning', target: guest, code: 'scenario-mismatch', message: m.message, fix: `Correct the scenario of ${guest}, or the guest's configuration, so the report says what was measured.` })
      }
    }
  }
  return { environment, findings, toolPaths }
}

/**
 * What makes a comparison compare nothing: a baseline that is itself a virtual machine (every
 * relative % is then guest against guest), and two targets that are one running system (the same
 * machine id and boot id: two logins or SSH servers of one machine). Warnings, not errors: a
 * guest-vs-guest or loopback comparison can be what the person wants, and the results keep saying it.
 */
export function baselineSanity(targets: readonly EngineTarget[], environment: Record<string, TargetEnvironment | undefined>): Finding[] {
  const baseline = targets.find((t) => t.role === 'baseline')
  if (!baseline) return []
  const baselineEnv = environment[baseline.name]
  const flags: { target: string; flag: Flag | undefined }[] = [
    { target: baseline.name, flag: virtualBaselineFlag(baseline.label, baselineEnv) },
    ...targets
      .filter((t) => t !== baseline && t.role !== 'peer')
      .map((t) => ({ target: t.name, flag: sameMachineFlag(baseline.label, baselineEnv, t.label, environment[t.name]) }))
  ]
  return flags.flatMap(({ target, flag }) => (flag ? [warningOf(target, flag)] : []))
}

/** A flag the results will show, as the preflight warning it is before the run: what was seen, then what to do. */
function warningOf(target: string, flag: Flag): Finding {
  const seen = flag.explanation ? flag.message.slice(0, flag.message.length - flag.explanation.length).trim() : flag.message
  return { severity: 'warning', target, code: flag.kind, message: seen, fix: flag.explanation ?? '' }
}
