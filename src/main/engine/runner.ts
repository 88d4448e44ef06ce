import { randomBytes } from 'node:crypto'
import type { ComparisonPlan } from '../../shared/model/plan'
import type { CpuWindow, Finding, Job, RunDocument, RunEvent, RunStatus, RunTarget, StepRecord } from '../../shared/model/run'
import { RUN_KIND, RUN_VERSION } from '../../shared/model/run'
import type { Scenario } from '../../shared/model/scenario'
import { quoteSh } from '../../shared/shell-quote'
import type { Session, SudoMode } from '../ssh/types'
import type { RunFolder } from '../store/run-store'
import { metricDefsOf, withPrimary } from '../tools/describe-run'
import { TOOLS, testCategories } from '../tools/registry'
import type { AnyBenchmarkTool, PeerFacts, Plan, RemoteStep, StepOutput, TargetFacts, ToolId } from '../tools/types'
import { BoundedOutput, type KeptOutput } from './bounded-output'
import { JobAgent } from './job-agent'
import { DEFAULT_KEEP_BYTES, diskNote, makeJobDirs, readJobCounters, runDetached, setUpRunDir, statusProblem, type DetachedResult, type JobCounters } from './detached'
import { followLog } from './live-log'
import { startDiskMonitor, type DiskMonitor } from './monitor/monitor'
import { pickDevices, summarize } from './monitor/diskstats'
import { HOST_MONITOR_CODES, hostMonitorFindings, hostsToMonitor, openMonitorHost, unreachedHostWarning } from './monitor/monitor-hosts'
import { peerAddressOf, runDirOf, workRootOf } from './job-commands'
import { insertRound, nextStep, repetitionsOf, roundJobs } from './adaptive'
import { CPU_SNAPSHOT_SCRIPT, cpuSnapshotOf, cpuWindowOf, disturbance, toolCpuSecondsOf, type CpuSnapshot } from './contamination'
import { expandTests, planJobs, sidesOf } from './planner'

/**
 * The runner: runs a run's jobs on their targets, one at a time by default, each detached on the
 * target (a dropped connection is reattached), keeps every raw output, parses the measured step,
 * writes the run document as it goes, and always removes what the tests wrote.
 */

/** A target of the run as the engine needs it: resolved from the inventory (or the CLI). */
export interface EngineTarget {
  name: string
  label: string
  role: RunTarget['role']
  kind: 'ssh' | 'local'
  address?: string
  port?: number
  user?: string
  addresses: { private?: string; public?: string }
  scenario?: Scenario
  /** For a guest: the name of its physical host (from the inventory), when known. */
  hostName?: string
  /** How steps that need root get it (with the password, when one is needed; never stored). */
  sudo: SudoMode
}

export interface EngineDeps {
  /** An open session to the named target (the caller caches and closes them). */
  session(name: string): Promise<Session>
  /** The local resources/scripts directory. */
  scriptsDir: string
  appVersion: string
  onEvent?: (event: RunEvent) => void
  /** Sample /proc/diskstats on the target (and its physical host) during storage tests (default true). */
  monitor?: boolean
  /** Tools that replace the registry's (the engine benchmark measures itself with a no-op tool). */
  tools?: Partial<Record<ToolId, AnyBenchmarkTool>>
  /** How long to keep trying to reach a target that dropped during a job (default 10 minutes). */
  reattachForMs?: number
  /** Seconds between progress events of a running job (default 1). */
  progressEverySeconds?: number
  /** Bytes of each step's stdout and stderr kept: all of a shorter output, else its first and last halves (default 4 MiB). */
  outputKeepBytes?: number
  /** Stream each running step's output as job-log events (the app's live log; off for the CLI and the bench). */
  liveLog?: boolean
  /**
   * Start steps through one job server per target (`job.sh serve`, job-agent.ts; default true);
   * false: each step as a `job.sh run` command of its own (the engine benchmark's peer).
   */
  jobServer?: boolean
  /**
   * Work that runs on each target before the jobs (environment capture, preflight): the runner
   * stores what it returns. Errors it throws fail the run before any job.
   */
  beforeJobs?: (ctx: BeforeJobsContext) => Promise<BeforeJobsResult>
}

export interface BeforeJobsResult {
  environment?: RunDocument['environment']
  findings?: Finding[]
  /** Tools found off PATH, per target name (UnixBench's folder). */
  toolPaths?: Record<string, Partial<Record<ToolId, string>>>
}

export interface BeforeJobsContext {
  run: RunDocument
  targets: readonly EngineTarget[]
  sessions: ReadonlyMap<string, Session>
  /** The work directory of each target (absolute). */
  workDirs: ReadonlyMap<string, string>
  /** The local resources/scripts directory. */
  scriptsDir: string
  signal: AbortSignal
  /** Tells the run's watchers what is happening (an install, a check). */
  onStage?: (message: string, target?: string) => void
}

export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-')
  return `${stamp}-${randomBytes(3).toString('hex')}`
}

/** A new run document for `plan` (tests expanded, jobs queued); throws PlanError on bad tests. */
export function createRunDocument(plan: ComparisonPlan, targets: readonly EngineTarget[], appVersion: string, id = newRunId()): RunDocument {
  const tests = expandTests(plan).map(withPrimary)
  const now = new Date().toISOString()
  return {
    kind: RUN_KIND,
    version: RUN_VERSION,
    id,
    name: plan.name,
    status: 'running',
    createdAt: now,
    updatedAt: now,
    app: { version: appVersion },
    plan,
    tests,
    targets: targets.map((t) => ({
      name: t.name,
      role: t.role,
      label: t.label,
      kind: t.kind,
      ...(t.address ? { address: t.address } : {}),
      ...(t.port ? { port: t.port } : {}),
      ...(t.user ? { user: t.user } : {}),
      ...(t.scenario && Object.keys(t.scenario).length > 0 ? { scenario: t.scenario } : {})
    })),
    environment: {},
    preflight: [],
    jobs: planJobs(plan, tests),
    metrics: metricDefsOf(tests.map((t) => t.tool))
  }
}

/** The targets a plan needs, in order: baseline, variants, then a separate network peer. */
export function planTargetNames(plan: ComparisonPlan): string[] {
  const names = sidesOf(plan).map((s) => s.target)
  if (plan.network.peer && !names.some((n) => n.toLowerCase() === plan.network.peer!.toLowerCase())) names.push(plan.network.peer)
  return names
}

interface TargetState {
  target: EngineTarget
  session: Session
  scripts: string
  /** Expanded storage root (`~/virtbench-work` made absolute). */
  root: string
  /** `<root>/vb-<run id>-<target>`: test files and job folders of this run on this target. */
  runDir: string
  facts: TargetFacts
  /** The addresses the machine has (`ip -o addr`, `hostname -I`), read once when a server needs them. */
  localAddresses?: Promise<Set<string>>
  /** Its job server (`job.sh serve`), started with its first job and ended with the run. */
  agent?: JobAgent
}

/** Addresses in `ip -o addr show` lines (`inet 10.0.0.5/24`) and `hostname -I`'s list, lower case. */
export function localAddressesIn(text: string): Set<string> {
  const found = new Set<string>()
  for (const m of text.matchAll(/\binet6?\s+([0-9A-Fa-f:.]+)\//g)) found.add(m[1]!.toLowerCase())
  const lastLine = text.trimEnd().split('\n').pop() ?? ''
  if (!/\binet/.test(lastLine)) for (const token of lastLine.split(/\s+/)) if (isIpLiteral(token)) found.add(token.toLowerCase())
  return found
}

function isIpLiteral(value: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(value) || (/^[0-9A-Fa-f:]+$/.test(value) && value.includes(':'))
}

const LOG_TAIL_LINES = 15
/** The most of a server's output held as text while waiting for a line in it. */
const OUTPUT_WATCH_CHARS = 256 * 1024
const READY_TIMEOUT_MS = 15_000

export class RunEngine {
  private readonly states = new Map<string, TargetState>()
  private readonly abort = new AbortController()
  private readonly targetsByName: Map<string, EngineTarget>
  private filesLastUsed = new Map<string, number>()
  /** Physical hosts named by guests and not targets of the run: a monitoring-only session, or why there is none (by lower-case name). */
  private readonly monitorHosts = new Map<string, { session: Session } | { problem: string }>()

  constructor(
    private readonly folder: RunFolder,
    targets: readonly EngineTarget[],
    private readonly deps: EngineDeps
  ) {
    this.targetsByName = new Map(targets.map((t) => [t.name.toLowerCase(), t]))
  }

  get run(): RunDocument {
    return this.folder.run
  }

  /** Stops the run: running jobs are stopped on their targets, queued ones never start. */
  cancel(): void {
    this.abort.abort()
  }

  /**
   * Runs the queued jobs (all of them for a new run; the failed and unfinished ones on resume;
   * `only` for a retry), then cleans up. Resolves with the run's final status.
   */
  async execute(opts: { only?: readonly string[] } = {}): Promise<RunStatus> {
    const signal = this.abort.signal
    const runId = this.run.id
    this.folder.update((doc) => {
      doc.status = 'running'
      delete doc.error
      delete doc.endedAt
      for (const job of doc.jobs) {
        const wanted = opts.only ? opts.only.includes(job.id) : job.status !== 'succeeded'
        if (wanted && job.status !== 'queued') resetJob(job)
      }
    })
    const pending = this.run.jobs.filter((j) => j.status === 'queued' && (!opts.only || opts.only.includes(j.id)))
    this.emit({ type: 'run-started', runId, jobs: pending.length })
    let failure: string | undefined
    try {
      await this.prepareTargets(pending, signal)
      const hostFindings = await this.openMonitorHosts(pending)
      if (this.run.plan.storage.kind === 'device' && !this.deps.beforeJobs) {
        throw new Error(`the plan writes to the raw device ${this.run.plan.storage.path}: it runs only after preflight has checked that device on every target`)
      }
      if (this.deps.beforeJobs) {
        this.stage('Checking the targets and recording their environment')
        const before = await this.deps.beforeJobs({
          run: this.run,
          targets: [...this.targetsByName.values()],
          sessions: new Map([...this.states.values()].map((s) => [s.target.name, s.session] as const)),
          workDirs: new Map([...this.states.values()].map((s) => [s.target.name, s.runDir])),
          scriptsDir: this.deps.scriptsDir,
          signal,
          onStage: (message, target) => this.stage(message, target)
        })
        for (const [name, paths] of Object.entries(before.toolPaths ?? {})) {
          const state = this.states.get(name.toLowerCase())
          if (state) state.facts = { ...state.facts, toolPaths: { ...state.facts.toolPaths, ...paths } }
        }
        this.folder.update((doc) => {
          Object.assign(doc.environment, before.environment ?? {})
          doc.preflight = before.findings ?? doc.preflight
        })
        for (const finding of before.findings ?? []) this.emit({ type: 'finding', runId, finding })
        this.recordFindings(hostFindings)
        const blocking = (before.findings ?? []).filter((f) => f.severity === 'error')
        if (blocking.length > 0) throw new PreflightFailed(blocking)
      } else {
        this.recordFindings(hostFindings)
      }
      this.filesLastUsed = this.lastUseOfFiles(pending)
      await this.makeJobDirsAhead(pending)
      await this.runScheduled(pending, signal)
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error)
    } finally {
      await this.cleanup()
    }
    const status = finalStatus(this.run.jobs, signal.aborted, failure)
    this.folder.update((doc) => {
      doc.status = status
      doc.endedAt = new Date().toISOString()
      if (failure) doc.error = failure
      if (signal.aborted) {
        for (const job of doc.jobs) if (job.status === 'queued') job.status = 'cancelled'
      }
    })
    await this.folder.close()
    this.emit({ type: 'run-finished', runId, status, ...(failure ? { error: failure } : {}) })
    return status
  }

  // ---- targets -----------------------------------------------------------------------------

  private async prepareTargets(jobs: readonly Job[], signal: AbortSignal): Promise<void> {
    const names = new Set<string>(planTargetNames(this.run.plan))
    for (const job of jobs) {
      names.add(job.target)
      if (job.peer) names.add(job.peer)
    }
    // every target at once: connecting and setting up are round trips, and targets do not wait for each other
    const targets = [...names].map((name) => {
      const target = this.targetsByName.get(name.toLowerCase())
      if (!target) throw new Error(`the plan names ${name}, which is not a target of this run`)
      return target
    })
    if (signal.aborted) throw new Error('cancelled')
    const prepared = await Promise.allSettled(targets.map((target) => this.prepareTarget(target)))
    // in the plan's order, so the sessions and the first failure named are the same every time
    // (the targets that were set up are kept, so that cleanup removes their folders)
    for (const result of prepared) if (result.status === 'fulfilled') this.states.set(result.value.target.name.toLowerCase(), result.value)
    const failed = prepared.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
  }

  private async prepareTarget(target: EngineTarget): Promise<TargetState> {
    this.stage(`Connecting to ${target.name}`, target.name)
    const session = await this.deps.session(target.name)
    // the scripts' check first: a new session folds its platform probe into it (one round trip for both)
    const { remoteDir } = await session.ensureScripts(this.deps.scriptsDir)
    const facts = await session.facts()
    if (facts.shell !== 'posix') {
      throw new Error(`${target.name} runs ${facts.system}: the engine runs jobs on Linux and other POSIX targets for now`)
    }
    const storage = this.run.plan.storage
    const root = workRootOf(storage, facts.homeDir)
    const runDir = runDirOf(root, this.run.id, target.name)
    const setup = await setUpRunDir(session, remoteDir, { root, runDir, runId: this.run.id, sudo: target.sudo, deviceStorage: storage.kind === 'device' })
    for (const dir of setup.swept) this.stage(`Removed leftovers of an earlier run on ${target.name}: ${dir}`, target.name)
    if (setup.error !== undefined) {
      throw new Error(`cannot create the work directory ${runDir} on ${target.name}: ${setup.error}. Choose a writable directory in the plan's storage.`)
    }
    // a VirtBench killed during this run (resumed now) left its job running: it would measure beside the new one
    for (const dir of setup.stopped) this.stage(`Stopped a job that an earlier VirtBench left running on ${target.name}: ${dir}`, target.name)
    return {
      target,
      session,
      scripts: remoteDir,
      root,
      runDir,
      facts: { os: 'linux', workDir: runDir, scriptsDir: remoteDir }
    }
  }

  /**
   * Opens a monitoring-only session to each physical host that a guest with storage tests names
   * and that is not a target of the run; says in preflight findings which hosts are monitored and why.
   */
  private async openMonitorHosts(pending: readonly Job[]): Promise<Finding[]> {
    if (this.deps.monitor === false) return []
    const storage = new Set(pending.filter((j) => this.isStorageJob(j)).map((j) => j.target.toLowerCase()))
    const guests = [...this.states.values()].filter((s) => storage.has(s.target.name.toLowerCase())).map((s) => s.target)
    const pairs = hostsToMonitor(guests, (name) => this.states.has(name.toLowerCase()))
    const toOpen = [...new Set(pairs.monitored.filter((p) => !p.inRun).map((p) => p.host))].filter((h) => !this.monitorHosts.has(h.toLowerCase()))
    for (const host of toOpen) this.stage(`Connecting to ${host} to monitor its disks`, host)
    const opened = await Promise.all(toOpen.map(async (host) => [host, await openMonitorHost(this.deps.session, host)] as const))
    for (const [host, outcome] of opened) this.monitorHosts.set(host.toLowerCase(), outcome)
    const problems = new Map([...this.monitorHosts].flatMap(([host, o]) => ('problem' in o ? [[host, o.problem] as const] : [])))
    return hostMonitorFindings(pairs, problems)
  }

  private isStorageJob(job: Job): boolean {
    const tool = this.toolOf(job.tool)
    const params = tool.params.safeParse(job.params)
    return params.success && testCategories(tool, params.data).includes('storage')
  }

  /** Adds the findings about monitored hosts to the run's preflight (replacing those of an earlier start of this run). */
  private recordFindings(findings: readonly Finding[]): void {
    this.folder.update((doc) => {
      doc.preflight = [...doc.preflight.filter((f) => !HOST_MONITOR_CODES.includes(f.code)), ...findings]
    })
    for (const finding of findings) this.emit({ type: 'finding', runId: this.run.id, finding })
  }

  private stateOf(name: string): TargetState {
    const state = this.states.get(name.toLowerCase())
    if (!state) throw new Error(`${name} was not prepared`)
    return state
  }

  /** Removes this run's folder on every target (test files, job folders). */
  private async cleanup(): Promise<void> {
    await Promise.all([...this.states.values()].map((s) => s.agent?.close()))
    await Promise.all(
      [...this.states.values()].map(async (s) => {
        try {
          await s.session.exec({ script: `rm -rf -- ${quoteSh(s.runDir)}` }, { timeoutMs: 120_000, sudo: this.run.plan.storage.kind === 'device' ? s.target.sudo : false })
        } catch (error) {
          this.stage(`Could not remove ${s.runDir} on ${s.target.name} (${(error as Error).message}); the next run there removes it`, s.target.name)
        }
      })
    )
  }

  // ---- jobs --------------------------------------------------------------------------------

  /** The jobs in the plan's schedule; with a plan's precision, each test's planned jobs and then its extra rounds. */
  private async runScheduled(pending: readonly Job[], signal: AbortSignal): Promise<void> {
    const runJobs = (jobs: readonly Job[]): Promise<void> => (this.run.plan.schedule.parallelTargets ? this.runParallel(jobs, signal) : this.runInOrder(jobs, signal))
    const precision = this.run.plan.precision
    if (!precision) return runJobs(pending)
    const byTest = new Map<string, Job[]>()
    for (const job of pending) byTest.set(job.testId, [...(byTest.get(job.testId) ?? []), job])
    let spentSeconds = 0
    for (const [testId, jobs] of byTest) {
      await runJobs(jobs)
      if (!this.run.jobs.some((j) => j.testId === testId && j.kind === 'compare')) continue
      for (;;) {
        if (signal.aborted) {
          this.folder.update((doc) => {
            const test = doc.tests.find((t) => t.id === testId)
            if (test) test.adaptive = { repetitions: repetitionsOf(doc, testId), stoppedBecause: 'cancelled', message: `${test.title}: cancelled` }
          })
          return
        }
        const round = roundJobs(this.run, testId)
        const roundSeconds = round.reduce((s, j) => s + (j.estimatedSeconds ?? 0), 0)
        const step = nextStep(this.run, testId, precision, spentSeconds, roundSeconds)
        if (!step.more) {
          this.folder.update((doc) => {
            const test = doc.tests.find((t) => t.id === testId)
            if (test) test.adaptive = step.stop
          })
          this.stage(step.stop.message)
          break
        }
        this.stage(step.message)
        this.folder.update((doc) => insertRound(doc, testId, round))
        // the round's jobs in run.json before any of them ends (the journal then names jobs it has)
        await this.folder.flush()
        this.filesLastUsed = this.lastUseOfFiles(this.run.jobs.filter((j) => j.status === 'queued'))
        await this.makeJobDirsAhead(round)
        this.emit({ type: 'jobs-added', runId: this.run.id, jobIds: round.map((j) => j.id) })
        const started = Date.now()
        await runJobs(round)
        spentSeconds += (Date.now() - started) / 1000
      }
    }
  }

  private async runParallel(jobs: readonly Job[], signal: AbortSignal): Promise<void> {
    // jobs of one target in order; targets side by side; network jobs (two machines) after
    const single = new Map<string, Job[]>()
    const network: Job[] = []
    for (const job of jobs) {
      if (job.peer) network.push(job)
      else single.set(job.target, [...(single.get(job.target) ?? []), job])
    }
    await Promise.all([...single.values()].map(async (list) => {
      for (const job of list) await this.runJob(job, signal)
    }))
    await this.runInOrder(network, signal)
  }

  /** One job after the other, except that the jobs of a group (simultaneous clients) run together. */
  private async runInOrder(jobs: readonly Job[], signal: AbortSignal): Promise<void> {
    for (let i = 0; i < jobs.length; i++) {
      const group = jobs[i]!.group
      if (group === undefined) {
        await this.runJob(jobs[i]!, signal)
        continue
      }
      let end = i
      while (end + 1 < jobs.length && jobs[end + 1]!.group === group) end++
      await Promise.all(jobs.slice(i, end + 1).map((job) => this.runJob(job, signal)))
      i = end
    }
  }

  private async runJob(job: Job, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return
    const runId = this.run.id
    const attempt = job.attempts + 1
    const started = Date.now()
    this.folder.update(() => {
      job.status = 'running'
      job.attempts = attempt
      job.startedAt = new Date(started).toISOString()
      job.steps = []
      job.samples = []
      job.warnings = []
      delete job.error
      delete job.endedAt
      delete job.contamination
    })
    this.emit({ type: 'job-started', runId, jobId: job.id, attempt, ...(job.estimatedSeconds !== undefined ? { estimatedSeconds: job.estimatedSeconds } : {}) })
    const ticker = this.progressTicker(job, started)
    let logTail: string | undefined
    try {
      const outcome = await this.executeSteps(job, attempt, signal)
      logTail = outcome.logTail
      this.folder.update(() => {
        job.samples = outcome.samples
        job.warnings = [...job.warnings, ...outcome.warnings]
        job.status = outcome.status
        if (outcome.error) job.error = outcome.error
      })
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      this.folder.update(() => {
        job.status = signal.aborted ? 'cancelled' : 'failed'
        job.error = signal.aborted ? 'cancelled' : message
      })
    } finally {
      clearInterval(ticker)
    }
    // durable before the run moves on: a crash from here keeps the job
    await this.folder.endJob(job, () => (job.endedAt = new Date().toISOString()))
    this.emit({
      type: 'job-finished',
      runId,
      jobId: job.id,
      status: job.status,
      ...(job.error ? { error: job.error } : {}),
      ...(logTail && job.status === 'failed' ? { logTail } : {}),
      samples: job.samples.length
    })
  }

  private progressTicker(job: Job, started: number): NodeJS.Timeout {
    const every = (this.deps.progressEverySeconds ?? 1) * 1000
    const timer = setInterval(() => {
      const elapsed = (Date.now() - started) / 1000
      const estimate = job.estimatedSeconds
      this.emit({
        type: 'job-progress',
        runId: this.run.id,
        jobId: job.id,
        elapsedSeconds: round1(elapsed),
        ...(estimate && estimate > 0
          ? { percent: Math.min(99, Math.round((elapsed / estimate) * 100)), etaSeconds: Math.max(0, Math.round(estimate - elapsed)) }
          : {})
      })
    }, every)
    timer.unref()
    return timer
  }

  private async executeSteps(
    job: Job,
    attempt: number,
    signal: AbortSignal
  ): Promise<{ status: Job['status']; samples: Job['samples']; warnings: string[]; error?: string; logTail?: string }> {
    const tool = this.toolOf(job.tool)
    const target = this.stateOf(job.target)
    const peer = job.peer ? this.stateOf(job.peer) : undefined
    const peerFacts: PeerFacts | undefined = peer ? { ...peer.facts, address: peerAddressOf(peer.target, target.target.scenario, job.network) } : undefined
    const params = peer && peerFacts ? await this.boundToAddress(job, tool.params.parse(job.params), peer, peerFacts.address) : tool.params.parse(job.params)
    const plan: Plan = tool.plan(params, { target: target.facts, ...(peerFacts ? { peer: peerFacts } : {}) })
    const servers: RunningServer[] = []
    let measured: MeasuredStep | undefined
    let background: StepOutput['background']
    let failure: string | undefined
    let logTail: string | undefined
    const prefix = `${job.id}-a${attempt}`
    try {
      for (const step of plan.steps) {
        if (signal.aborted) break
        const where = step.on === 'peer' && peer ? peer : target
        for (const file of step.files ?? []) await where.session.writeFile(file.path, file.content)
        if (step.background) {
          const server = await this.startServer(where, step, prefix, signal)
          servers.push(server)
          this.folder.update(() => job.steps.push(server.record))
          if (server.record.error) {
            failure = server.record.error
            break
          }
          continue
        }
        const record: StepRecord = { id: step.id, on: where.target.name, command: step.script, startedAt: new Date().toISOString(), ...(step.measured ? { measured: true } : {}) }
        this.folder.update(() => job.steps.push(record))
        const monitors = step.measured && testCategories(tool, params).includes('storage') ? await this.startMonitors(job, where, step.timeoutSeconds, signal) : []
        // the target's own counters are read by job.sh just before and after the step (no round trip); its physical host's here
        const hostBefore = step.measured ? await this.cpuSnapshots(this.contaminationMachines(where).filter((m) => m !== where)) : []
        const startedAt = Date.now()
        const { result, stdout: keptOut, stderr: keptErr } = await this.runDetachedStep(job, tool.name, step, where, record, prefix, monitors, signal)
        if (step.measured) await this.recordContamination(job, where, { startedAt, endedAt: Date.now() }, hostBefore, jobDirOf(where, prefix, step), result.counters)
        const exitCode = typeof result.status === 'number' ? result.status : null
        const failed = exitCode === null || !step.okExitCodes.includes(exitCode)
        const problem = statusProblem(result, step.timeoutSeconds, where.target.name)
        const disk = failed ? diskNote(result, where.target.name, jobDirOf(where, prefix, step)) : ''
        this.folder.update(() => {
          record.exitCode = exitCode
          if (problem) record.error = `${problem}${disk}`
          for (const note of droppedNotes(step.id, { stdout: keptOut, stderr: keptErr })) job.warnings.push(note)
        })
        if (result.status === 'cancelled') break
        const stdout = keptOut.data.toString('utf8')
        const stderr = keptErr.data.toString('utf8')
        logTail = tailLines(stdout, stderr)
        const stepFailure = (): string =>
          `step ${step.id} on ${where.target.name} ${problem ?? `exited with ${exitCode}`}: ${firstLine(stderr) || firstLine(stdout) || 'no output'}${disk}`
        if (step.measured) {
          measured = { stdout, stderr, exitCode, step, ...(problem ? { problem: stepFailure() } : disk ? { diskNote: disk } : {}) }
        } else if (failed) {
          failure = stepFailure()
          break
        }
      }
      // a server that reports the last part of the test itself (iperf 2's way back) is given the time to
      if (measured && !measured.problem && !signal.aborted) for (const server of servers) await server.reported()
    } finally {
      for (const server of servers) {
        const said = await server.stop()
        background ??= said
        this.folder.update(() => undefined)
      }
      await this.removeTestFiles(job, plan)
    }
    if (signal.aborted) return { status: 'cancelled', samples: [], warnings: [], error: 'cancelled' }
    if (failure) return { status: 'failed', samples: [], warnings: [], error: failure, ...(logTail ? { logTail } : {}) }
    if (!measured) return { status: 'failed', samples: [], warnings: [], error: 'the measured step did not run' }
    const parsed = tool.parse({ stdout: measured.stdout, stderr: measured.stderr, exitCode: measured.exitCode, ...(background ? { background } : {}) }, params)
    if (measured.problem) {
      return { status: 'failed', samples: [], warnings: parsed.ok ? parsed.warnings : [], error: measured.problem, ...(logTail ? { logTail } : {}) }
    }
    const exitOk = measured.exitCode !== null && measured.step.okExitCodes.includes(measured.exitCode)
    if (!parsed.ok) {
      const how = measured.exitCode === null ? 'did not finish' : `exited with ${measured.exitCode}`
      return {
        status: 'failed',
        samples: [],
        warnings: [],
        error: `${tool.name} ${how}: ${parsed.error.reason}${parsed.error.excerpt ? ` ("${parsed.error.excerpt}")` : ''}${measured.diskNote ?? ''}`,
        ...(logTail ? { logTail } : {})
      }
    }
    if (!exitOk) {
      return {
        status: 'failed',
        samples: parsed.samples,
        warnings: parsed.warnings,
        error: `${tool.name} exited with ${measured.exitCode ?? 'no status'}: ${firstLine(measured.stderr) || 'no message'}${measured.diskNote ?? ''}`,
        ...(logTail ? { logTail } : {})
      }
    }
    const samples = parsed.samples.map((s) => ({ ...s, labels: { ...s.labels, repetition: String(job.repetition) } }))
    return { status: 'succeeded', samples, warnings: parsed.warnings }
  }

  /**
   * Host monitor: /proc/diskstats sampled every second on the machine running a storage test and
   * on its physical host (a target of the run, or a saved host with a monitoring-only session),
   * as study 004 read atop on the host. A host that could not be reached is a warning of the job.
   */
  private async startMonitors(job: Job, where: TargetState, timeoutSeconds: number, signal: AbortSignal): Promise<{ name: string; monitor: DiskMonitor }[]> {
    if (this.deps.monitor === false) return []
    const machines: { name: string; session: Session }[] = [{ name: where.target.name, session: where.session }]
    const hostName = where.target.hostName
    const host = hostName ? this.states.get(hostName.toLowerCase()) : undefined
    const monitorOnly = hostName && !host ? this.monitorHosts.get(hostName.toLowerCase()) : undefined
    if (host && host !== where) machines.push({ name: host.target.name, session: host.session })
    if (hostName && monitorOnly && 'session' in monitorOnly) machines.push({ name: hostName, session: monitorOnly.session })
    if (hostName && monitorOnly && 'problem' in monitorOnly) this.folder.update(() => job.warnings.push(unreachedHostWarning(hostName, monitorOnly.problem)))
    const started = machines.map((m) => ({
      name: m.name,
      monitor: startDiskMonitor(m.session, { scriptsDir: this.deps.scriptsDir, intervalSeconds: 1, maxSeconds: timeoutSeconds + 60, signal })
    }))
    // the first snapshot is the start of the measured window
    await Promise.all(started.map((s) => Promise.race([s.monitor.ready, sleep(5000)])))
    return started
  }

  /** The machines that a job's contamination is read on: where it runs, and its physical host when the run has a session there. */
  private contaminationMachines(where: TargetState): TargetState[] {
    const host = where.target.hostName ? this.states.get(where.target.hostName.toLowerCase()) : undefined
    return host && host !== where ? [where, host] : [where]
  }

  /** /proc/stat and the load on each machine just before a measured step (never fails a job: a machine that cannot tell is left out). */
  private async cpuSnapshots(machines: readonly TargetState[]): Promise<{ state: TargetState; snapshot: CpuSnapshot }[]> {
    const read = async (state: TargetState): Promise<{ state: TargetState; snapshot: CpuSnapshot } | undefined> => {
      const result = await state.session.exec({ script: CPU_SNAPSHOT_SCRIPT }, { capture: { maxBytes: 8192 }, timeoutMs: 15_000 }).catch(() => undefined)
      const snapshot = result ? cpuSnapshotOf((result.stdout ?? Buffer.alloc(0)).toString('utf8'), Date.now()) : undefined
      return snapshot ? { state, snapshot } : undefined
    }
    const found = await Promise.all(machines.map(read))
    return found.filter((f): f is { state: TargetState; snapshot: CpuSnapshot } => f !== undefined)
  }

  /**
   * The CPU windows of a measured step, and whether something disturbed it (the comparison flags
   * it): the target's from the counters job.sh read around the step (`cpu-before`, `cpu-after`,
   * and the tool's `times`), sent as the last line of the wait's stderr (or read from the job's
   * folder when a wait ended without them), its physical host's from a snapshot now against `hostBefore`.
   */
  private async recordContamination(
    job: Job,
    where: TargetState,
    at: { startedAt: number; endedAt: number },
    hostBefore: { state: TargetState; snapshot: CpuSnapshot }[],
    jobDir: string,
    sent: JobCounters | undefined
  ): Promise<void> {
    const own = async (): Promise<CpuWindow | undefined> => {
      const counters = sent ?? (await readJobCounters(where.session, jobDir))
      const before = cpuSnapshotOf(counters.before, at.startedAt)
      const after = cpuSnapshotOf(counters.after, at.endedAt)
      return before && after ? cpuWindowOf(where.target.name, before, after, toolCpuSecondsOf(counters.times)) : undefined
    }
    const windows = await Promise.all([
      own(),
      ...hostBefore.map(async ({ state, snapshot }) => {
        const result = await state.session.exec({ script: CPU_SNAPSHOT_SCRIPT }, { capture: { maxBytes: 8192 }, timeoutMs: 15_000 }).catch(() => undefined)
        const after = cpuSnapshotOf((result?.stdout ?? Buffer.alloc(0)).toString('utf8'), Date.now())
        return after ? cpuWindowOf(state.target.name, snapshot, after) : undefined
      })
    ])
    const kept = windows.filter((w): w is CpuWindow => w !== undefined)
    if (kept.length === 0) return
    const disturbed = disturbance(kept)
    this.folder.update(() => {
      job.contamination = { windows: kept, ...(disturbed ? { disturbed } : {}) }
    })
  }

  private async collectMonitors(job: Job, prefix: string, monitors: { name: string; monitor: DiskMonitor }[]): Promise<void> {
    const activity: NonNullable<Job['monitor']> = []
    for (const { name, monitor } of monitors) {
      const out = await monitor.stop()
      await this.folder.writeRaw(`${prefix}-diskstats-${name.replace(/[^A-Za-z0-9._-]/g, '_')}.txt`, Buffer.from(out.raw))
      if (out.error) {
        this.folder.update(() => job.warnings.push(`host monitor on ${name}: ${out.error}`))
        continue
      }
      for (const device of pickDevices(out.snapshots)) {
        const summary = summarize(out.snapshots, device, name)
        if (summary.ok) activity.push(summary.activity)
      }
    }
    if (activity.length > 0) this.folder.update(() => (job.monitor = activity))
  }

  /**
   * Runs one step detached on its machine with its output streamed to the run folder's raw files,
   * which are kept however the step ends (a target that is gone keeps what had arrived).
   */
  private async runDetachedStep(
    job: Job,
    toolName: string,
    step: RemoteStep,
    where: TargetState,
    record: StepRecord,
    prefix: string,
    monitors: { name: string; monitor: DiskMonitor }[],
    signal: AbortSignal
  ): Promise<{ result: DetachedResult; stdout: KeptOutput; stderr: KeptOutput }> {
    const dir = jobDirOf(where, prefix, step)
    const output = await this.openOutput(prefix, step.id)
    const live = this.deps.liveLog
      ? followLog(where.session, where.scripts, dir, (stream, text) => this.emit({ type: 'job-log', runId: this.run.id, jobId: job.id, stream, text }))
      : undefined
    let result: DetachedResult
    let kept: { stdout: KeptOutput; stderr: KeptOutput }
    try {
      result = await runDetached(where.session, where.scripts, {
        dir,
        script: step.script,
        timeoutSeconds: step.timeoutSeconds,
        what: `step '${step.id}' of ${toolName}`,
        ...(step.sudo && where.target.sudo ? { sudo: where.target.sudo } : {}),
        signal,
        output,
        ...(this.deps.jobServer === false ? {} : { agent: this.jobServerOf(where) }),
        keepBytes: this.keepBytes(),
        ...(this.deps.reattachForMs !== undefined ? { reattachForMs: this.deps.reattachForMs } : {}),
        onReattach: (message) => this.emit({ type: 'job-reattached', runId: this.run.id, jobId: job.id, message })
      })
    } finally {
      kept = await closeOutput(output)
      await live?.finish({ stdout: kept.stdout.data, stderr: kept.stderr.data })
      if (monitors.length > 0) await this.collectMonitors(job, prefix, monitors)
      this.folder.update(() => {
        record.endedAt = new Date().toISOString()
        record.stdoutFile = kept.stdout.file
        record.stderrFile = kept.stderr.file
      })
    }
    return { result, ...kept }
  }

  /** The target's job server, made with its first step (its command starts with the first request). */
  private jobServerOf(where: TargetState): JobAgent {
    where.agent ??= new JobAgent(where.session, `${where.scripts}/linux/job.sh`)
    return where.agent
  }

  private keepBytes(): number {
    return this.deps.outputKeepBytes ?? DEFAULT_KEEP_BYTES
  }

  /** A step's stdout and stderr, each kept in the run folder's raw files with its first and last halves. */
  private async openOutput(prefix: string, stepId: string): Promise<{ stdout: BoundedOutput; stderr: BoundedOutput }> {
    const half = Math.floor(this.keepBytes() / 2)
    const open = async (stream: 'stdout' | 'stderr'): Promise<BoundedOutput> =>
      new BoundedOutput(await this.folder.openRaw(`${prefix}-${stepId}.${stream}`), half, half)
    // both at once: each is a round trip to the file system's threads, on every job's way to its target
    const [stdout, stderr] = await Promise.all([open('stdout'), open('stderr')])
    return { stdout, stderr }
  }

  /** Starts a server step (plain exec, stopped after the measured step) and waits until it is ready. */
  private async startServer(where: TargetState, step: RemoteStep, prefix: string, signal: AbortSignal): Promise<RunningServer> {
    const control = new AbortController()
    const onAbort = (): void => control.abort()
    signal.addEventListener('abort', onAbort, { once: true })
    const record: StepRecord = { id: step.id, on: where.target.name, command: step.script, background: true, startedAt: new Date().toISOString() }
    const output = await this.openOutput(prefix, step.id)
    const said = new OutputWatch()
    const running = where.session.exec(
      { script: step.script },
      {
        signal: control.signal,
        timeoutMs: step.timeoutSeconds * 1000,
        onStdout: (chunk) => {
          said.push(chunk)
          return output.stdout.write(chunk)
        },
        onStderr: (chunk) => {
          said.push(chunk)
          return output.stderr.write(chunk)
        },
        ...(step.sudo && where.target.sudo ? { sudo: where.target.sudo } : {})
      }
    )
    running.catch(() => undefined)
    const ended = running.then(
      () => undefined,
      () => undefined
    )
    const first = step.readyPattern ? await said.until(step.readyPattern, READY_TIMEOUT_MS, ended) : 'matched'
    if (first !== 'matched') {
      const result = await running.catch((e: unknown) => e)
      const why =
        result instanceof Error
          ? result.message
          : `it ${first === 'late' ? `did not say it was ready within ${READY_TIMEOUT_MS / 1000} s` : 'ended before it was ready'}: ${firstLine(said.text) || 'no output'}`
      record.error = `the ${step.id} on ${where.target.name} did not start: ${why}`
    }
    const reported = async (): Promise<void> => {
      if (step.finalReport) await said.until(step.finalReport.pattern, step.finalReport.withinSeconds * 1000, ended)
    }
    const stop = async (): Promise<{ stdout: string; stderr: string }> => {
      control.abort()
      signal.removeEventListener('abort', onAbort)
      const result = await running.catch(() => undefined)
      const kept = await closeOutput(output)
      this.folder.update(() => {
        record.endedAt = new Date().toISOString()
        if (result) {
          record.exitCode = result.exitCode
          record.signal = result.signal
        }
        record.stdoutFile = kept.stdout.file
        record.stderrFile = kept.stderr.file
      })
      return { stdout: kept.stdout.data.toString('utf8'), stderr: kept.stderr.data.toString('utf8') }
    }
    return { record, reported, stop }
  }

  /**
   * For each file a queued job's plan names (per tool and target), the index of the last job that
   * names it: a job removes its files only when no later job reads them (study 004's cat reads the
   * file dd wrote). Planned once per run, after the targets are known.
   */
  private lastUseOfFiles(jobs: readonly Job[]): Map<string, number> {
    const lastUse = new Map<string, number>()
    for (const { job, plan } of this.plansAhead(jobs)) {
      const index = this.run.jobs.indexOf(job)
      for (const f of plan.files) lastUse.set(fileKey(job, f.path), index)
    }
    return lastUse
  }

  /** The plans of jobs that plan without their peer, as they will run (a network job's plan needs its peer's address: left out). */
  private plansAhead(jobs: readonly Job[]): { job: Job; plan: Plan }[] {
    const planned: { job: Job; plan: Plan }[] = []
    for (const job of jobs) {
      try {
        const tool = this.toolOf(job.tool)
        planned.push({ job, plan: tool.plan(tool.params.parse(job.params), { target: this.stateOf(job.target).facts }) })
      } catch {
        // a job that cannot plan without its peer
      }
    }
    return planned
  }

  /**
   * Makes the job folders of the coming jobs' detached steps on each target ahead, one command per
   * target (a run starts once what it can: job.sh then starts no mkdir per job). A raw-device
   * plan's folders are made through sudo, so there job.sh makes each one as before.
   */
  private async makeJobDirsAhead(jobs: readonly Job[]): Promise<void> {
    if (this.run.plan.storage.kind === 'device') return
    const byMachine = new Map<TargetState, string[]>()
    for (const { job, plan } of this.plansAhead(jobs)) {
      const target = this.stateOf(job.target)
      const names = byMachine.get(target) ?? []
      for (const step of plan.steps) if (!step.background && !(step.on === 'peer' && job.peer)) names.push(jobDirNameOf(`${job.id}-a${job.attempts + 1}`, step))
      byMachine.set(target, names)
    }
    await Promise.all([...byMachine].map(([state, names]) => makeJobDirs(state.session, `${state.runDir}/.jobs`, names)))
  }

  /** Removes the files a job's plan created, unless a later job on the same target reads them. */
  private async removeTestFiles(job: Job, plan: Plan): Promise<void> {
    const index = this.run.jobs.indexOf(job)
    const byMachine = new Map<TargetState, string[]>()
    for (const file of plan.files) {
      const state = file.on === 'peer' && job.peer ? this.stateOf(job.peer) : this.stateOf(job.target)
      if (!file.path.startsWith(`${state.runDir}/`)) continue
      if ((this.filesLastUsed.get(fileKey({ tool: job.tool, target: state.target.name }, file.path)) ?? -1) > index) continue
      byMachine.set(state, [...(byMachine.get(state) ?? []), file.path])
    }
    for (const [state, paths] of byMachine) {
      await state.session
        .exec({ script: `rm -rf -- ${paths.map(quoteSh).join(' ')}` }, { timeoutMs: 60_000, sudo: this.run.plan.storage.kind === 'device' ? state.target.sudo : false })
        .catch(() => undefined)
    }
  }

  /**
   * A server on the peer listens on the address its client was given (study 001:
   * `iperf3 -s --bind 10.127.100.3`), so the test measures the chosen path (private/VPC or EIP)
   * and not another interface. An address the peer does not have (a cloud EIP is NAT'd to its
   * private address) cannot be bound: the server then listens on all addresses, and the job says so.
   */
  private async boundToAddress(job: Job, params: unknown, peer: TargetState, address: string): Promise<unknown> {
    const network = this.toolOf(job.tool).network
    const bound = network && network.bindServer ? network.bindServer(params as Record<string, unknown>, address) : undefined
    if (!bound) return params
    const local = await this.localAddressesOf(peer)
    if (local.has(address.toLowerCase())) return bound
    if (isIpLiteral(address)) {
      const note = `${address} is not an address of ${peer.target.name} (a NAT'd public address?): its ${job.tool} server listened on all its addresses`
      this.folder.update(() => {
        if (!job.warnings.includes(note)) job.warnings.push(note)
      })
    }
    return params
  }

  private async localAddressesOf(state: TargetState): Promise<Set<string>> {
    state.localAddresses ??= state.session
      .exec({ script: 'ip -o addr show 2>/dev/null; echo; hostname -I 2>/dev/null; true' }, { capture: { maxBytes: 256 * 1024 }, timeoutMs: 15_000 })
      .then((result) => localAddressesIn((result.stdout ?? Buffer.alloc(0)).toString('utf8')))
      .catch(() => new Set<string>())
    return state.localAddresses
  }

  private toolOf(id: ToolId): AnyBenchmarkTool {
    return this.deps.tools?.[id] ?? TOOLS[id]
  }

  private stage(message: string, target?: string): void {
    this.emit({ type: 'stage', runId: this.run.id, message, ...(target ? { target } : {}) })
  }

  private emit(event: RunEvent): void {
    try {
      this.deps.onEvent?.(event)
    } catch {
      // a watcher's bug never stops a run
    }
  }
}

export class PreflightFailed extends Error {
  override readonly name = 'PreflightFailed'
  constructor(readonly findings: Finding[]) {
    super(`preflight found ${findings.length} problem${findings.length === 1 ? '' : 's'}:\n${findings.map((f) => `- ${f.message}${f.fix ? ` ${f.fix}` : ''}`).join('\n')}`)
  }
}

function fileKey(job: Pick<Job, 'tool' | 'target'>, path: string): string {
  return `${job.tool}:${job.target.toLowerCase()}:${path}`
}

function resetJob(job: Job): void {
  job.status = 'queued'
  job.steps = []
  job.samples = []
  job.warnings = []
  delete job.error
  delete job.startedAt
  delete job.endedAt
}

function finalStatus(jobs: readonly Job[], cancelled: boolean, failure: string | undefined): RunStatus {
  if (cancelled) return 'cancelled'
  if (failure) return 'failed'
  return jobs.every((j) => j.status === 'succeeded') ? 'completed' : 'failed'
}

/** The first line of `text` that is not blank, trimmed to 300 characters; read from the start only (an output can be megabytes). */
function firstLine(text: string): string {
  for (let at = 0; at < text.length; ) {
    const end = text.indexOf('\n', at)
    const line = text.slice(at, end < 0 ? text.length : end).trim()
    if (line !== '') return line.slice(0, 300)
    if (end < 0) break
    at = end + 1
  }
  return ''
}

/** The last LOG_TAIL_LINES lines of stdout and stderr one after the other, found from their ends (an output can be megabytes). */
function tailLines(stdout: string, stderr: string): string {
  const last = (text: string, n: number): string[] => {
    const lines: string[] = []
    let end = text.trimEnd().length
    while (lines.length < n && end > 0) {
      const start = text.lastIndexOf('\n', end - 1) + 1
      lines.unshift(text.slice(start, end))
      end = start - 1
    }
    return lines
  }
  const fromErr = last(stderr, LOG_TAIL_LINES)
  return [...last(stdout, LOG_TAIL_LINES - fromErr.length), ...fromErr].join('\n')
}

/** A measured step that ran: its output, and why it failed however it parses (a timeout, a full disk). */
interface MeasuredStep {
  stdout: string
  stderr: string
  exitCode: number | null
  step: RemoteStep
  problem?: string
  /** Added to a failure's message: the target's disk was full when the step ended. */
  diskNote?: string
}

/** A background step (a network test's server) while the measured step runs. */
interface RunningServer {
  record: StepRecord
  /** Waits (with the step's own limit) for the report a server prints after the measured step ended. */
  reported(): Promise<void>
  /** Stops it; what it printed (as kept in the raw files). */
  stop(): Promise<{ stdout: string; stderr: string }>
}

/**
 * The output of a running command as text (its last 256 KiB), and waits for a pattern in it with a
 * deadline: a server's ready line, its final report.
 */
class OutputWatch {
  private seen = ''
  private readonly waiting = new Set<() => void>()

  get text(): string {
    return this.seen
  }

  push(chunk: Buffer): void {
    this.seen += chunk.toString('utf8')
    if (this.seen.length > OUTPUT_WATCH_CHARS) this.seen = this.seen.slice(-OUTPUT_WATCH_CHARS / 2)
    for (const check of this.waiting) check()
  }

  /** Resolves when the text matches `pattern`, when `ended` settles first, or after `ms`. */
  until(pattern: RegExp, ms: number, ended: Promise<unknown>): Promise<'matched' | 'ended' | 'late'> {
    return new Promise((resolve) => {
      const finish = (how: 'matched' | 'ended' | 'late'): void => {
        this.waiting.delete(check)
        clearTimeout(timer)
        resolve(how)
      }
      const check = (): void => {
        if (pattern.test(this.seen)) finish('matched')
      }
      const timer = setTimeout(() => finish('late'), ms)
      this.waiting.add(check)
      void ended.then(() => finish('ended'))
      check()
    })
  }
}

/** Ends a step's two outputs at once (each is its tail, then the file's close). */
async function closeOutput(output: { stdout: BoundedOutput; stderr: BoundedOutput }): Promise<{ stdout: KeptOutput; stderr: KeptOutput }> {
  const [stdout, stderr] = await Promise.all([output.stdout.close(), output.stderr.close()])
  return { stdout, stderr }
}

function jobDirOf(where: TargetState, prefix: string, step: RemoteStep): string {
  return `${where.runDir}/.jobs/${jobDirNameOf(prefix, step)}`
}

function jobDirNameOf(prefix: string, step: Pick<RemoteStep, 'id'>): string {
  return `${prefix}-${step.id}`
}

/** A warning for each stream of a step whose middle was left out. */
function droppedNotes(stepId: string, kept: Record<'stdout' | 'stderr', KeptOutput>): string[] {
  return (['stdout', 'stderr'] as const)
    .filter((stream) => kept[stream].droppedBytes > 0)
    .map(
      (stream) =>
        `step ${stepId} printed ${kept[stream].bytes} bytes on ${stream}: ${kept[stream].droppedBytes} bytes in the middle were left out, its first and last ones are in ${kept[stream].file ?? 'the raw file'}`
    )
}

function round1(n: number): number {
  return Math.round(n * 10) / 10
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}
