import { existsSync, promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { defaultDataDir } from '../../main/data-dir'
import { PlanError } from '../../main/engine/planner'
import { continueRun, startRun, TargetLookupError, type RunServices } from '../../main/engine/start-run'
import { consentNeeded, runDomainsOf } from '../../main/scenario/run-domains'
import { runSweepCommand } from './run-sweep'
import { runOutputs } from '../comparison-outputs'
import { writeExport } from '../write-export'
import { firstStepRun, readSweepRecord, sweepFolderOf } from '../../main/scenario/sweep-run'
import { beforeJobsInstalling, standardBeforeJobs } from '../../main/engine/before-jobs'
import { beforeJobsWithToolSources } from '../../main/engine/tool-provision'
import type { ToolArchive } from '../../main/tools/provision'
import { checkToolArchives, toolArchivesOfOptions, ToolArchiveError, toolSourcesOf } from '../../main/engine/tool-archives'
import { comparisonTable, diskActivityText, networkMatrixText, networkStudyText, simultaneousText } from '../../main/report/text-table'
import { studyDiskActivity } from '../../shared/studies/disk-activity'
import { networkMatrices, simultaneousTables } from '../../shared/network-tables'
import { networkStudies } from '../../shared/studies/network-study'
import { absoluteSurfaces, surfaceMaps } from '../../shared/studies/surface-maps'
import { surfaceGridsText, surfaceText } from '../../shared/studies/surface-text'
import { bonnieStudies, bonnieStudyText } from '../../shared/studies/bonnie-study'
import { hasStudy001Tables, study001Tables, study001Text } from '../../shared/studies/study001-tables'
import { study002Charts, study002Text } from '../../shared/studies/study002'
import { runJobFiles, runJobFilesText } from '../../shared/fio-job-file'
import { scriptsDir } from '../../main/resources'
import { openLocalSession } from '../../main/ssh/open-local'
import { EnvSecretStore, PromptSecretStore, SecretStoreChain } from '../../main/secrets/secrets'
import { TargetsStore } from '../../main/store/targets-store'
import { readRun, RUN_FILE } from '../../main/store/run-store'
import { PresetError, readPresetFile } from '../../main/presets/presets'
import { isPackId } from '../../main/tools/packs'
import { compare } from '../../shared/compare'
import { precisionAdvice } from '../../shared/compare/precision'
import { formatPct } from '../../shared/format'
import { ComparisonPlanSchema, type ComparisonPlan, type ComparisonPlanInput, type CustomTest } from '../../shared/model/plan'
import type { Job, RunDocument, RunEvent } from '../../shared/model/run'
import { NewTargetSchema, TargetSchema, type Target } from '../../shared/model/target'
import { comparisonInputOf } from '../../shared/run-comparison'
import { hostKeyQuestionOf } from '../../main/api/host-key-decisions'
import { knownHostsFiles } from '../../main/ssh/host-key'
import { decideOnTerminal } from '../host-key-prompt'
import type { CliCommand, CliIo } from '../io'
import { UsageError } from '../usage-error'
import { CRITERIA_FAILED_EXIT, judgeRun, reportAcceptance, reportVerdict, requireCriteria } from '../acceptance'

const USAGE = `Usage: virtbench run <preset.json> --out DIR [options]
       virtbench run --baseline NAME=ssh://USER@HOST[:PORT] --variant NAME=ssh://USER@HOST[:PORT] [--variant ...]
                     --pack PACK [--quick] [--identity KEYFILE] [--repeat N] --out DIR [options]

Runs a comparison: every test on the baseline (100 %) and on each variant, as many times as asked,
then prints the overhead table. The run document goes to DIR/run.json with every raw output in
DIR/raw/; DIR must be empty or new.

With a preset, its targets are looked up by name among the saved targets ('virtbench targets').
Without one, targets are given as ssh:// URLs (NAME=local for this computer) and log in with
--identity or the SSH agent; they are not saved.

Options:
  --out DIR                  where the run document and raw outputs go (required)
  --baseline NAME=URL        the machine that is 100 % (usually the physical host)
  --variant NAME=URL         a guest to compare (repeat for more)
  --identity FILE            private key for the URL targets (default: the SSH agent)
  --pack ID                  the tests: ${'cloud-acceptance, block-dd, cluster-fio, seq-dd or kvm-storage'} ('virtbench packs')
  --quick                    the pack's quick form (small sizes, seconds per test)
  --repeat N                 repetitions of each test (default: the preset's, else 3); with --precision,
                             the least each test gets
  --precision POINTS         add repetitions (one round on every side at a time) until the 95 %
                             interval of each primary figure's relative % is within ± POINTS
  --max-repetitions N        with --precision: never more repetitions of a test (default 10)
  --budget SECONDS           with --precision: the time the extra rounds may take in all
  --warmup                   run each test once on each target first; kept, never counted
  --margin POINTS            a result within 100 % ± POINTS (its whole interval) is "same"
                             (default: the preset's, else 3)
  --accept-new-host-keys     accept and remember host keys not seen before (fingerprints are printed)
  --work-dir DIR             where tests write on the targets (default: the preset's, else ~/virtbench-work);
                             each run works in DIR/vb-<run id>-<target>/ and removes it at the end
  --install-missing          install the tools preflight finds missing, with each target's package
                             manager (through its sudo), then check again; without it they are
                             listed with the command to run
  --all-metrics              print every metric in the table, not only the primary ones
  --idle-seconds N           how long preflight's idle check samples each target (0 to 60; default:
                             the preset's, else 1 in quick form, else 3); 0 skips the check
  --reconnect-wait SECONDS   how long a job whose target dropped its connection waits for it to
                             come back before it fails (default 600, within the job's own time
                             limit); the rest of the run goes on either way
  --resume DIR               continue the run in DIR (a crash, Ctrl+C, failed jobs): every job that did
                             not succeed runs again; URL targets log in with --identity or the agent.
                             Libvirt domains the run changed are put back as the run folder saved them.
                             A sweep's folder (or one of its steps') continues the sweep: completed
                             steps are kept, the rest run (with --change-domains)
  --change-domains           let VirtBench change the libvirt domains of the plan's scenario setups
                             (restarting the guests); the originals are saved in the run folder and
                             put back when the run ends, however it ends (docs/scenarios.md)
  --data-dir DIR             where targets and known hosts are kept (default: the app's folder)
  --junit FILE               the acceptance criteria's verdict as JUnit XML, one test case per
                             criterion (the preset must have "acceptance" criteria); a sweep's
                             are judged per combination, a test suite each
  --comparison FILE          the comparison as JSON when the run ends (as virtbench report --comparison);
                             a sweep's has every combination
  --overhead-csv FILE        the same rows as CSV (as virtbench report --overhead-csv)
  --tool-archive TOOL=FILE   bring a tool from this computer to targets without internet: its source
                             archive (built there with the target's compiler) or a program built for
                             the targets; iozone or unixbench (repeat for both). Cached on each target
                             by its SHA-256, so the next run reuses it (docs/tools-offline.md)
  --tool-sha256 TOOL=HEX     the SHA-256 the --tool-archive file must have (else: a pinned release's,
                             or the file's own, recorded in the run)
  --fio-job-file FILE        also run your own fio job file (with a preset or a pack, or alone); it is
                             checked before anything runs (no exec_*, paths inside the work directory,
                             sizes given), run as written in the work directory, and kept in the run

When the plan has acceptance criteria, their verdicts are printed after the table.

Exit status: 0 every job succeeded (and every acceptance criterion passed); 1 some failed or the
run was stopped (results are kept); 2 a usage error, or preflight found a problem (nothing ran);
3 every job succeeded but an acceptance criterion failed.`

export const runCommand: CliCommand = {
  name: 'run',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      options: {
        out: { type: 'string' },
        baseline: { type: 'string' },
        variant: { type: 'string', multiple: true },
        identity: { type: 'string' },
        pack: { type: 'string' },
        quick: { type: 'boolean' },
        repeat: { type: 'string' },
        precision: { type: 'string' },
        'max-repetitions': { type: 'string' },
        budget: { type: 'string' },
        warmup: { type: 'boolean' },
        margin: { type: 'string' },
        'accept-new-host-keys': { type: 'boolean' },
        'all-metrics': { type: 'boolean' },
        'work-dir': { type: 'string' },
        'install-missing': { type: 'boolean' },
        'change-domains': { type: 'boolean' },
        resume: { type: 'string' },
        'reconnect-wait': { type: 'string' },
        'idle-seconds': { type: 'string' },
        'data-dir': { type: 'string' },
        junit: { type: 'string' },
        comparison: { type: 'string' },
        'overhead-csv': { type: 'string' },
        'tool-archive': { type: 'string', multiple: true },
        'tool-sha256': { type: 'string', multiple: true },
        'fio-job-file': { type: 'string' }
      },
      strict: true,
      allowPositionals: true
    })
    const resumeDir = values.resume ? path.resolve(values.resume) : undefined
    if (resumeDir && (values.out || positionals.length > 0 || values.pack)) {
      throw new UsageError('--resume DIR continues the run in DIR: give no preset, --out or --pack with it')
    }
    if (!values.out && !resumeDir) throw new UsageError('say where the run goes with --out DIR')
    const outDir = resumeDir ?? path.resolve(values.out!)
    if (!resumeDir) await checkOutDir(outDir)
    const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : defaultDataDir(io.env)
    const repeat = values.repeat === undefined ? undefined : parseRepeat(values.repeat)
    const reconnectWait = values['reconnect-wait'] === undefined ? undefined : parseReconnectWait(values['reconnect-wait'])
    const idleSeconds = values['idle-seconds'] === undefined ? undefined : parseIdleSeconds(values['idle-seconds'])
    if (idleSeconds !== undefined && resumeDir) {
      throw new UsageError('--idle-seconds sets a new run\'s idle check: a resumed run keeps its plan (and skips the check when it passed in the last 10 minutes)')
    }

    if (resumeDir && values['fio-job-file'] !== undefined) throw new UsageError('--fio-job-file adds a test to a new run: a resumed run keeps its plan')
    const ownFio = values['fio-job-file'] === undefined ? undefined : await ownJobFileTest(values['fio-job-file'])
    let plan: ComparisonPlan
    let inventory: Target[]
    if (positionals.length > 1) throw new UsageError('give one preset file')
    const workDir = values['work-dir']
    if (workDir !== undefined && !workDir.startsWith('/') && !workDir.startsWith('~/')) {
      throw new UsageError(`--work-dir must be an absolute path on the targets (or start with ~/), not "${workDir}"`)
    }
    // a sweep resumes as a whole, from its folder or from one of its steps' (docs/scenarios.md)
    const sweepDir = resumeDir ? sweepFolderOf(resumeDir) : undefined
    if (sweepDir) {
      const sweep = await readSweepRecord(sweepDir).catch((error: unknown) => {
        throw new UsageError(`cannot resume the sweep in ${sweepDir}: ${(error as Error).message}`)
      })
      plan = sweep.plan
      const saved = await new TargetsStore(dataDir).list()
      // the targets as the first step's run saw them (a URL target is not saved)
      const first = await firstStepRun(sweepDir)
      inventory = first ? resumeInventory(first, saved, values.identity) : saved
    } else if (resumeDir) {
      const previous = await readRun(resumeDir).catch((error: unknown) => {
        throw new UsageError(`cannot resume ${resumeDir}: ${(error as Error).message}`)
      })
      plan = previous.plan
      inventory = resumeInventory(previous, await new TargetsStore(dataDir).list(), values.identity)
    } else if (positionals[0]) {
      if (values.baseline || values.variant || values.pack) throw new UsageError('give either a preset file or --baseline/--variant/--pack, not both')
      plan = await readPreset(positionals[0], repeat)
      if (ownFio) plan = { ...plan, tests: [...plan.tests, ownFio] }
      inventory = await new TargetsStore(dataDir).list()
    } else {
      const built = buildAdHoc(values, repeat, ownFio)
      plan = built.plan
      inventory = built.targets
    }

    if (workDir !== undefined) plan = { ...plan, storage: { kind: 'directory', path: workDir } }
    if (idleSeconds !== undefined) plan = { ...plan, idleSeconds }
    if (!resumeDir) plan = withStatistics(plan, values)
    const advice = plan.precision ? precisionAdvice(plan.precision.halfWidthPct, plan.equivalenceMarginPct) : undefined
    if (advice && !resumeDir) io.stderr(`Note: ${advice}\n`)
    const domainRefusal = consentNeeded(plan, '--change-domains')
    if (domainRefusal && !resumeDir && values['change-domains'] !== true) throw new UsageError(domainRefusal)
    if (values.junit !== undefined) requireCriteria({ plan }, resumeDir ? `the run in ${resumeDir}` : 'the plan')
    for (const [option, file] of [['--junit', values.junit], ['--comparison', values.comparison], ['--overhead-csv', values['overhead-csv']]] as const) {
      if (file === '-') throw new UsageError(`${option} needs a file name: standard output carries the progress and the table`)
    }
    const listTargets = (): Target[] => inventory
    const archives = await toolArchives(values['tool-archive'] ?? [], values['tool-sha256'] ?? [])
    const env = new EnvSecretStore(listTargets, io.env)
    const secrets = io.terminal ? new SecretStoreChain([env, new PromptSecretStore(listTargets, io.terminal.input, io.terminal.output)]) : env
    const acceptNew = values['accept-new-host-keys'] === true
    const progress = new ProgressPrinter(io)
    let started
    try {
      const services: RunServices = {
        inventory,
        secrets,
        decideHostKey: (q) => decideOnTerminal({ requestId: 'cli', ...hostKeyQuestionOf(q) }, acceptNew, io),
        knownHosts: knownHostsFiles(io.env.HOME ?? os.homedir(), dataDir),
        openLocal: (target) => openLocalSession(target.name),
        scriptsDir: scriptsDir(),
        appVersion: __APP_VERSION__,
        onEvent: (event) => progress.on(event),
        ...(reconnectWait !== undefined ? { reattachForMs: reconnectWait * 1000 } : {}),
        domains: runDomainsOf(values['change-domains'] === true),
        beforeJobs: beforeJobsWithToolSources(
          toolSourcesOf(archives, inventory),
          values['install-missing'] === true ? beforeJobsInstalling : standardBeforeJobs
        )
      }
      if (plan.sweep && (!resumeDir || sweepDir)) {
        const exports = { comparison: values.comparison, overheadCsv: values['overhead-csv'], junit: values.junit }
        const sweepExit = await runSweepCommand(plan, sweepDir ?? outDir, services, io, (step) => progress.follow(step.run.jobs), { resume: sweepDir !== undefined }, exports)
        progress.finish()
        return sweepExit
      }
      started = resumeDir ? await continueRun(resumeDir, services) : await startRun(plan, outDir, services)
    } catch (error) {
      if (error instanceof PlanError || error instanceof TargetLookupError) throw new UsageError(error.message)
      throw error
    }
    progress.follow(started.run.jobs)
    let stopping = false
    void io.interrupted.then((why) => {
      stopping = true
      io.stderr(`\nvirtbench: ${why}: stopping the run (running jobs are stopped, test files removed)...\n`)
      started.engine.cancel()
    })
    const status = await started.done
    progress.finish()
    const run = started.engine.run
    const runFile = path.join(outDir, RUN_FILE)
    if (run.error && run.jobs.every((j) => j.status !== 'succeeded' && j.status !== 'failed')) {
      const blocking = run.preflight.filter((f) => f.severity === 'error')
      if (blocking.length > 0) {
        io.stderr(`virtbench: preflight found ${blocking.length} problem${blocking.length === 1 ? '' : 's'} (listed above); nothing ran. Fix ${blocking.length === 1 ? 'it' : 'them'} and run again.\n`)
      } else {
        io.stderr(`virtbench: ${run.error}\n`)
      }
      io.stdout(`Run document: ${runFile}\n`)
      const unjudged = judgeRun(run, compare(comparisonInputOf(run)))
      if (unjudged && values.junit !== undefined) await reportAcceptance(run, unjudged, values.junit, io, { runDir: outDir })
      return blocking.length > 0 ? 2 : 1
    }
    const comparison = compare(comparisonInputOf(run))
    io.stdout(`\n${comparisonTable(comparison, { allMetrics: values['all-metrics'] === true })}`)
    const adaptive = run.tests.flatMap((t) => (t.adaptive ? [t.adaptive.message] : []))
    if (adaptive.length > 0) io.stdout(`\nAdaptive repetitions\n${adaptive.map((m) => `- ${m}`).join('\n')}\n`)
    const matrices = networkMatrices(run)
    if (matrices.length > 0) io.stdout(`\nNetwork matrix\n${networkMatrixText(matrices)}`)
    const studies = networkStudies(run)
    if (studies.length > 0) io.stdout(`\nNetwork by kind of machine and path (study 001's tables)\n${networkStudyText(studies)}`)
    const together = simultaneousTables(run)
    if (together.length > 0) io.stdout(`\nSimultaneous clients\n${simultaneousText(together)}`)
    const surfaces = surfaceMaps(comparison)
    if (surfaces.length > 0) {
      io.stdout(`\niozone sub-tests (heat maps in the app and the PDF)\n${surfaceText(surfaces)}`)
      io.stdout(`\niozone per machine and relative, file size x record size\n${surfaceGridsText(absoluteSurfaces(comparison), surfaces)}`)
    }
    const bonnie = bonnieStudies(run, comparison)
    if (bonnie.length > 0) io.stdout(`\nbonnie++ per machine (study 000's table)\n${bonnieStudyText(bonnie)}`)
    const study001 = study001Tables(run, comparison)
    if (hasStudy001Tables(study001)) io.stdout(`\nCPU, memory and fio per machine (study 001's tables)\n${study001Text(study001)}`)
    const study002 = study002Charts(run, comparison)
    if (study002.length > 0) io.stdout(`\nBlock device throughput and latency per machine (study 002's bars)\n${study002Text(study002, comparison.baseline)}\n`)
    const atop = studyDiskActivity(run)
    if (atop.length > 0) io.stdout(`\nDisk activity of the guests and their hosts (host monitor, as atop shows it)\n${diskActivityText(atop)}`)
    const jobFiles = runJobFiles(run.tests)
    if (jobFiles.length > 0) io.stdout(`\nfio job files, as run (kept in the run document)\n${runJobFilesText(jobFiles)}`)
    const failed = run.jobs.filter((j) => j.status === 'failed')
    for (const job of failed) io.stdout(`failed: ${job.id} ${job.title} on ${job.side} (repetition ${job.repetition}): ${job.error ?? 'no reason'}\n`)
    const outputs = runOutputs(run, comparison)
    if (values.comparison) await writeExport(values.comparison, outputs.comparisonJson(), 'Comparison', io)
    if (values['overhead-csv']) await writeExport(values['overhead-csv'], outputs.overheadCsv(), 'Overhead CSV', io)
    const acceptance = outputs.verdict()
    if (acceptance) await reportVerdict(acceptance, values.junit, io, { runDir: outDir })
    io.stdout(`\nRun ${status}: ${run.jobs.filter((j) => j.status === 'succeeded').length} of ${run.jobs.length} jobs succeeded.\nRun document: ${runFile}\n`)
    if (status !== 'completed' || stopping) return 1
    return acceptance && !acceptance.passed ? CRITERIA_FAILED_EXIT : 0
  }
}

async function checkOutDir(dir: string): Promise<void> {
  if (!existsSync(dir)) return
  const stat = await fs.stat(dir)
  if (!stat.isDirectory()) throw new UsageError(`--out ${dir} is a file; give a directory`)
  const entries = await fs.readdir(dir)
  if (entries.length > 0) {
    throw new UsageError(`--out ${dir} is not empty${entries.includes(RUN_FILE) ? ' (it holds another run)' : ''}; give a new or empty directory so no run is overwritten`)
  }
}

interface StatisticsValues {
  precision?: string | undefined
  'max-repetitions'?: string | undefined
  budget?: string | undefined
  warmup?: boolean | undefined
  margin?: string | undefined
}

/** The plan with the command line's precision, warm-up and margin (each checked as the plan's schema checks it). */
function withStatistics(plan: ComparisonPlan, values: StatisticsValues): ComparisonPlan {
  const number = (name: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined
    const n = Number(text)
    if (text.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number, not "${text}"`)
    return n
  }
  const precision = number('precision', values.precision)
  const max = number('max-repetitions', values['max-repetitions'])
  const budget = number('budget', values.budget)
  const margin = number('margin', values.margin)
  if (precision === undefined && (max !== undefined || budget !== undefined)) throw new UsageError('--max-repetitions and --budget go with --precision POINTS')
  const input = {
    ...plan,
    ...(precision !== undefined
      ? { precision: { halfWidthPct: precision, ...(max !== undefined ? { maxRepetitions: max } : {}), ...(budget !== undefined ? { budgetSeconds: budget } : {}) } }
      : {}),
    ...(values.warmup ? { warmup: true } : {}),
    ...(margin !== undefined ? { equivalenceMarginPct: margin } : {})
  }
  const checked = ComparisonPlanSchema.safeParse(input)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    const option = { precision: '--precision / --max-repetitions / --budget', equivalenceMarginPct: '--margin' }[String(issue?.path[0])] ?? String(issue?.path.join('.'))
    throw new UsageError(`${option}: ${issue?.message ?? 'not valid'}`)
  }
  return checked.data
}

/** --tool-archive TOOL=FILE and --tool-sha256 TOOL=HEX, paired by tool and each file checked, as the app's runs:start checks them. */
async function toolArchives(archives: readonly string[], checksums: readonly string[]): Promise<ToolArchive[]> {
  try {
    return await checkToolArchives(toolArchivesOfOptions(archives, checksums))
  } catch (error) {
    if (error instanceof ToolArchiveError) throw new UsageError(error.message.startsWith('--') ? error.message : `--tool-archive: ${error.message}`)
    throw error
  }
}

function parseRepeat(text: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new UsageError(`--repeat must be a whole number from 1 to 100, not "${text}"`)
  return n
}

function parseReconnectWait(text: string): number {
  const n = Number(text)
  if (!/^\d+$/.test(text) || n > 86_400) throw new UsageError(`--reconnect-wait must be a whole number of seconds from 0 to 86400, not "${text}"`)
  return n
}

function parseIdleSeconds(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 60) throw new UsageError(`--idle-seconds must be a whole number of seconds from 0 to 60 (0 skips the idle check), not "${text}"`)
  return Number(text)
}

async function readPreset(file: string, repeat: number | undefined): Promise<ComparisonPlan> {
  let preset
  try {
    preset = await readPresetFile(file)
  } catch (error) {
    if (error instanceof PresetError) {
      // the usage line is one line: the problems follow the sentence that introduces them
      const lead = error.message.split('\n')[0]!.replace(/:$/, '')
      const problems = error.problems.length > 0 ? `: ${error.problems.join('; ')}` : ''
      throw new UsageError(`${lead}${problems} (docs/presets.md describes the format)`)
    }
    throw error
  }
  return repeat === undefined ? preset.plan : { ...preset.plan, repetitions: repeat }
}

interface AdHocValues {
  baseline?: string | undefined
  variant?: string[] | undefined
  identity?: string | undefined
  pack?: string | undefined
  quick?: boolean | undefined
}

/** A plan and throwaway targets from --baseline/--variant URLs and --pack. */
function buildAdHoc(values: AdHocValues, repeat: number | undefined, ownFio?: CustomTest): { plan: ComparisonPlan; targets: Target[] } {
  if (!values.baseline) throw new UsageError('give a preset file, or --baseline NAME=ssh://USER@HOST[:PORT]')
  if (!values.variant || values.variant.length === 0) throw new UsageError('give at least one --variant NAME=ssh://USER@HOST[:PORT]')
  if (!values.pack && !ownFio) throw new UsageError('choose the tests with --pack (see virtbench packs) or --fio-job-file FILE')
  if (values.pack !== undefined && !isPackId(values.pack)) throw new UsageError(`there is no pack "${values.pack}" (see virtbench packs)`)
  const pack = values.pack !== undefined && isPackId(values.pack) ? values.pack : undefined
  const now = new Date().toISOString()
  const identity = values.identity ? path.resolve(values.identity) : undefined
  if (identity && !existsSync(identity)) throw new UsageError(`--identity ${identity} does not exist`)
  const targets = [values.baseline, ...values.variant].map((spec, i) => targetFromSpec(spec, i === 0 ? 'host' : 'guest', identity, `cli-${i}`, now))
  const input: ComparisonPlanInput = {
    name: `${targets[0]!.name} vs ${targets.slice(1).map((t) => t.name).join(', ')} (${[pack, ownFio?.title].filter(Boolean).join(' + ')}${values.quick ? ', quick' : ''})`,
    baseline: { target: targets[0]!.name },
    variants: targets.slice(1).map((t) => ({ target: t.name })),
    tests: [...(pack ? [{ pack, form: values.quick ? ('quick' as const) : ('full' as const) }] : []), ...(ownFio ? [ownFio] : [])],
    ...(repeat !== undefined ? { repetitions: repeat } : {})
  }
  const checked = ComparisonPlanSchema.safeParse(input)
  if (!checked.success) throw new UsageError(checked.error.issues[0]?.message ?? 'invalid plan')
  return { plan: checked.data, targets }
}

/** --fio-job-file FILE as a test: the file's text, checked with the plan's tests (docs/cli.md). */
async function ownJobFileTest(file: string): Promise<CustomTest> {
  const text = await fs.readFile(path.resolve(file), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--fio-job-file: cannot read ${path.resolve(file)} (${error.code ?? error.message}); give the path of a fio job file on this computer`)
  })
  return { id: 'fio-job-file', title: 'fio job file', tool: 'fio', params: { jobFile: text } }
}

/**
 * The targets of a run being resumed: saved targets by name; a target the run reached through an
 * ssh:// URL (not saved) is rebuilt from the run document, logging in with --identity or the agent.
 */
function resumeInventory(run: RunDocument, saved: Target[], identity: string | undefined): Target[] {
  const now = new Date().toISOString()
  const key = identity ? path.resolve(identity) : undefined
  const out = [...saved]
  run.targets.forEach((t, i) => {
    if (out.some((s) => s.name.toLowerCase() === t.name.toLowerCase())) return
    const role = t.role === 'baseline' ? 'host' : 'guest'
    const spec = t.kind === 'local' ? `${t.name}=local` : `${t.name}=ssh://${encodeURIComponent(t.user ?? '')}@${t.address?.includes(':') ? `[${t.address}]` : t.address}:${t.port ?? 22}`
    out.push(targetFromSpec(spec, role, key, `resume-${i}`, now))
  })
  return out
}

function targetFromSpec(spec: string, role: 'host' | 'guest', identity: string | undefined, id: string, now: string): Target {
  const eq = spec.indexOf('=')
  if (eq <= 0) throw new UsageError(`"${spec}" is not NAME=ssh://USER@HOST[:PORT] (or NAME=local)`)
  const name = spec.slice(0, eq)
  const where = spec.slice(eq + 1)
  let input: unknown
  if (where === 'local') {
    input = { kind: 'local', name, role }
  } else {
    let url: URL
    try {
      url = new URL(where)
    } catch {
      throw new UsageError(`${name}: "${where}" is not a URL like ssh://USER@HOST:PORT`)
    }
    if (url.protocol !== 'ssh:') throw new UsageError(`${name}: "${where}" must start with ssh://`)
    if (url.pathname && url.pathname !== '/' && url.pathname !== '') throw new UsageError(`${name}: "${where}" has a path; give ssh://USER@HOST:PORT only`)
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
    input = {
      kind: 'ssh',
      name,
      role,
      address: host,
      ...(url.port ? { port: Number(url.port) } : {}),
      user: decodeURIComponent(url.username) || os.userInfo().username,
      auth: identity ? { method: 'key', keyPath: identity } : { method: 'agent' }
    }
  }
  const checked = NewTargetSchema.safeParse(input)
  if (!checked.success) {
    const first = checked.error.issues[0]
    throw new UsageError(`${name}: ${first?.path.join('.') ? `${first.path.join('.')}: ` : ''}${first?.message ?? 'invalid target'}`)
  }
  return TargetSchema.parse({ ...checked.data, id, createdAt: now, updatedAt: now })
}

/**
 * Progress lines: a bar redrawn in place on a terminal, one line per event otherwise. Each job is
 * counted as `[n/total]` over the whole run: n counts the jobs done before this process began (a
 * resumed run's kept jobs) and then the jobs in the order they start here.
 */
class ProgressPrinter {
  private jobs: Job[] = []
  /** The run's jobs that were done before this process began (not queued when it took the run on). */
  private kept = 0
  private readonly tty: boolean
  private drawn = false
  private readonly ordinal = new Map<string, number>()

  constructor(private readonly io: CliIo) {
    this.tty = io.stdoutIsTty === true
  }

  on(event: RunEvent): void {
    switch (event.type) {
      case 'stage':
        this.line(`${event.message}`)
        break
      case 'finding':
        this.line(`${event.finding.severity}: ${event.finding.message}${event.finding.fix ? ` ${event.finding.fix}` : ''}${event.finding.command ? `\n  ${event.finding.command}` : ''}`)
        break
      case 'run-started':
        this.line(`Running ${event.jobs} job${event.jobs === 1 ? '' : 's'}.`)
        break
      case 'jobs-added':
        // a round of adaptive repetitions: its 'stage' line said why
        break
      case 'job-started':
        if (!this.ordinal.has(event.jobId)) this.ordinal.set(event.jobId, this.kept + this.ordinal.size + 1)
        if (!this.tty) this.line(`${this.prefix(event.jobId)} started${event.estimatedSeconds ? ` (about ${Math.round(event.estimatedSeconds)} s)` : ''}`)
        else this.bar(event.jobId, 0, event.estimatedSeconds)
        break
      case 'job-progress':
        if (this.tty) this.bar(event.jobId, event.percent ?? 0, event.etaSeconds, event.elapsedSeconds)
        break
      case 'job-reattached':
        this.line(`${this.prefix(event.jobId)} connection lost; reattaching (${event.message})`)
        break
      case 'job-finished': {
        const what = event.status === 'succeeded' ? `ok (${event.samples} values)` : `${event.status}${event.error ? `: ${event.error}` : ''}`
        this.line(`${this.prefix(event.jobId)} ${what}`)
        if (event.logTail && event.status === 'failed') this.line(event.logTail.split('\n').map((l) => `    ${l}`).join('\n'))
        break
      }
      case 'run-finished':
        break
    }
  }

  /**
   * Follows a run that has just begun (or a sweep's step): `jobs` is the engine's own list, which
   * adaptive repetitions extend as the run goes; the jobs it holds that are not queued now are kept
   * from before (a resume runs the others).
   */
  follow(jobs: Job[]): void {
    this.jobs = jobs
    this.kept = jobs.filter((j) => j.status !== 'queued').length
    this.ordinal.clear()
  }

  finish(): void {
    if (this.drawn) this.io.stdout('\n')
    this.drawn = false
  }

  private prefix(jobId: string): string {
    const job = this.jobs.find((j) => j.id === jobId)
    const total = this.jobs.length
    const count = `[${String(this.ordinal.get(jobId) ?? '?').padStart(String(total).length)}/${total}]`
    return job ? `${count} ${job.title} on ${job.side}${job.peer ? ` → ${job.peer}` : ''} #${job.repetition}` : `${count} ${jobId}`
  }

  private bar(jobId: string, percent: number, eta?: number, elapsed?: number): void {
    const width = 24
    const filled = Math.round((Math.min(100, Math.max(0, percent)) / 100) * width)
    const text = `${this.prefix(jobId)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${formatPct(percent)}${eta !== undefined ? ` eta ${Math.round(eta)} s` : ''}${elapsed !== undefined ? ` (${Math.round(elapsed)} s)` : ''}`
    this.io.stdout(`\r\x1b[2K${text}`)
    this.drawn = true
  }

  private line(text: string): void {
    if (this.drawn) this.io.stdout('\r\x1b[2K')
    this.drawn = false
    this.io.stdout(`${text}\n`)
  }
}
