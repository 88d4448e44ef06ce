import { pwshJoin, quotePwsh, shJoin } from '../../../shared/shell-quote'
import type { Plan, PlanContext, RemoteStep, StepFile, TargetFacts } from '../types'
import { checkEngines, jobFileLayoutBytes, jobFileSeconds, ownJobFile, ownJobFilePath, type OwnJobFile } from './job-file'
import { WINDOWS_BAD_FILE_CHARS, checkWorkDir, commandLineArgs, ioLocation, joinPath, renderJobSection } from './job-options'
import { READ_ONLY_RW_MODES, fioSizeBytes, type FioParams } from './params'

const MIB = 2 ** 20
/** fio's start-up and report, roughly. */
const STARTUP_SECONDS = 2
/** How fast fio lays out (writes) a new data file before reading it, for the estimate. */
const LAYOUT_BYTES_PER_SECOND = 200 * MIB
/** How fast a size-bound job moves its bytes, for the estimate. */
const TYPICAL_BYTES_PER_SECOND = 100 * MIB
/** A slow disk (a busy RAID 1 of hard disks, NFS): what the timeout allows for. */
const SLOW_BYTES_PER_SECOND = 5 * MIB
/** Extra time before a step counts as hung. */
const TIMEOUT_GRACE_SECONDS = 120

const READING_MODES = new Set<string>([...READ_ONLY_RW_MODES, 'rw', 'readwrite', 'randrw'])

/** Total bytes the jobs move when size-bound (size x numjobs). */
function totalBytes(params: FioParams): number {
  return (fioSizeBytes(params.size) ?? 0) * params.numjobs
}

/** fio writes a new data file once before a job can read it; devices need no layout. */
function layoutBytes(params: FioParams): number {
  return params.device === undefined && READING_MODES.has(params.rw) ? totalBytes(params) : 0
}

/** How long the run should take: file layout, ramp time and runtime (or size at a typical disk speed). */
export function estimateSeconds(params: FioParams): number {
  const own = ownJobFile(params)
  if (own) return Math.ceil(STARTUP_SECONDS + jobFileLayoutBytes(own) / LAYOUT_BYTES_PER_SECOND + jobFileSeconds(own, TYPICAL_BYTES_PER_SECOND, true))
  const sizeBound = totalBytes(params) / TYPICAL_BYTES_PER_SECOND
  const run = params.runtime === null ? sizeBound : params.timeBased ? params.runtime : Math.min(params.runtime, sizeBound)
  return Math.ceil(STARTUP_SECONDS + layoutBytes(params) / LAYOUT_BYTES_PER_SECOND + (params.rampTime ?? 0) + run)
}

/** How long before the run counts as hung: the same at the speed of a slow disk, plus grace. */
function timeoutSeconds(params: FioParams): number {
  const own = ownJobFile(params)
  if (own) return Math.ceil(STARTUP_SECONDS + jobFileLayoutBytes(own) / SLOW_BYTES_PER_SECOND + jobFileSeconds(own, SLOW_BYTES_PER_SECOND, false) + TIMEOUT_GRACE_SECONDS)
  const fsync = params.endFsync && !params.direct ? totalBytes(params) / SLOW_BYTES_PER_SECOND : 0
  const layout = layoutBytes(params) / SLOW_BYTES_PER_SECOND
  const run = params.runtime === null ? totalBytes(params) / SLOW_BYTES_PER_SECOND : params.runtime
  return Math.ceil(STARTUP_SECONDS + layout + (params.rampTime ?? 0) + run + fsync + TIMEOUT_GRACE_SECONDS)
}

function fioExecutable(target: TargetFacts): string {
  return target.toolPaths?.fio ?? (target.os === 'windows' ? 'fio.exe' : 'fio')
}

/** Where the job file goes: next to the data files, in the work directory. */
function jobFilePath(params: FioParams, target: TargetFacts): string {
  checkWorkDir(target, false)
  if (target.os === 'windows' && WINDOWS_BAD_FILE_CHARS.test(params.name)) {
    throw new Error(`the job name "${params.name}" names the job file, and contains a character Windows does not allow in file names (< > : " | ? *)`)
  }
  return joinPath(target.os, target.workDir, `virtbench-${params.name}.fio`)
}

/**
 * The command for the target's shell. PowerShell passes on fio's exit code, or 127 (as sh does)
 * when fio.exe could not be started at all.
 */
function script(target: TargetFacts, argv: readonly string[]): string {
  if (target.os === 'windows') return `${pwshJoin(argv)}\nif ($null -eq $LASTEXITCODE) { exit 127 }\nexit $LASTEXITCODE`
  return shJoin(argv)
}

/**
 * One measured step: `fio --output-format=json <job options>` (or `<job file>`), writing into
 * the target's work directory, or onto the named raw device (as root).
 */
export function plan(params: FioParams, ctx: PlanContext): Plan {
  const own = ownJobFile(params)
  if (own) return ownJobFilePlan(own, params, ctx.target)
  const target = ctx.target
  const format = `--output-format=${params.outputFormat}`
  const location = ioLocation(params, target, params.style === 'job-file')
  const created = [...location.createdFiles]
  let argv: string[]
  const stepFiles: StepFile[] = []
  if (params.style === 'job-file') {
    const path = jobFilePath(params, target)
    stepFiles.push({ path, content: renderJobSection(params, target) })
    created.push(path)
    argv = [fioExecutable(target), format, path]
  } else {
    argv = [fioExecutable(target), format, ...commandLineArgs(params, target)]
  }
  const step: RemoteStep = {
    id: 'run',
    on: 'target',
    shell: target.os === 'windows' ? 'powershell' : 'sh',
    script: script(target, argv),
    argv,
    timeoutSeconds: timeoutSeconds(params),
    okExitCodes: [0],
    measured: true,
    ...(stepFiles.length > 0 ? { files: stepFiles } : {}),
    ...(location.device ? { sudo: true } : {})
  }
  return {
    steps: [step],
    files: created.map((path) => ({ on: 'target' as const, path })),
    estimatedSeconds: estimateSeconds(params)
  }
}

/**
 * The admin's own job file, uploaded verbatim into the work directory and run there
 * (`cd <work dir> && fio --output-format=json virtbench-own.fio`), so its relative paths stay inside.
 */
function ownJobFilePlan(own: OwnJobFile, params: FioParams, target: TargetFacts): Plan {
  checkEngines(own, target)
  const path = ownJobFilePath(target)
  const argv = [fioExecutable(target), `--output-format=${params.outputFormat}`, path]
  const enter = target.os === 'windows' ? `Set-Location -LiteralPath ${quotePwsh(target.workDir)}\n` : `${shJoin(['cd', '--', target.workDir])} && `
  const named = own.jobs.flatMap((job) => (job.onDevice ? [] : job.files.map((file) => joinPath(target.os, target.workDir, file))))
  const step: RemoteStep = {
    id: 'run',
    on: 'target',
    shell: target.os === 'windows' ? 'powershell' : 'sh',
    script: `${enter}${script(target, argv)}`,
    argv,
    timeoutSeconds: timeoutSeconds(params),
    okExitCodes: [0],
    measured: true,
    files: [{ path, content: own.text }],
    ...(own.jobs.some((job) => job.onDevice) ? { sudo: true } : {})
  }
  return {
    steps: [step],
    files: [path, ...new Set(named)].map((file) => ({ on: 'target' as const, path: file })),
    estimatedSeconds: estimateSeconds(params)
  }
}
