import { quoteSh, shJoin } from '../../../shared/shell-quote'
import type { Plan, PlanContext, RemoteStep, TargetFacts } from '../types'
import { sysbenchSizeBytes, type SysbenchParams } from './params'

const MIB = 2 ** 20
const STARTUP_SECONDS = 1
/** Writing the fileio test files, for the estimate. */
const TYPICAL_BYTES_PER_SECOND = 200 * MIB
/** A slow disk: what the prepare step's timeout allows for. */
const SLOW_BYTES_PER_SECOND = 5 * MIB
/** sysbench waits for the events in flight when the time is up; slow I/O can take a while. */
const TIMEOUT_GRACE_SECONDS = 120

function fileBytes(params: SysbenchParams): number {
  return params.test === 'fileio' ? (sysbenchSizeBytes(params.fileTotalSize) ?? 0) : 0
}

/** The run, plus writing and removing the test files for fileio. */
export function estimateSeconds(params: SysbenchParams): number {
  const fileSteps = params.test === 'fileio' ? fileBytes(params) / TYPICAL_BYTES_PER_SECOND + 2 * STARTUP_SECONDS : 0
  return Math.ceil(STARTUP_SECONDS + params.timeSeconds + fileSteps)
}

function sysbenchExecutable(target: TargetFacts): string {
  return target.toolPaths?.sysbench ?? 'sysbench'
}

/** The options of one test, in sysbench 1.0 syntax. */
function testOptions(params: SysbenchParams): string[] {
  switch (params.test) {
    case 'cpu':
      return [`--cpu-max-prime=${params.cpuMaxPrime}`]
    case 'memory':
      return [
        `--memory-block-size=${params.memoryBlockSize}`,
        `--memory-total-size=${params.memoryTotalSize}`,
        `--memory-oper=${params.memoryOper}`,
        `--memory-access-mode=${params.memoryAccessMode}`
      ]
    case 'fileio': {
      const options = [...fileSetOptions(params), `--file-block-size=${params.fileBlockSize}`, `--file-test-mode=${params.fileTestMode}`]
      if (params.fileExtraFlags !== 'none') options.push(`--file-extra-flags=${params.fileExtraFlags}`)
      return options
    }
  }
}

/** What prepare, run and cleanup must agree on: the size and number of the test files. */
function fileSetOptions(params: SysbenchParams): string[] {
  return [`--file-total-size=${params.fileTotalSize}`, `--file-num=${params.fileNum}`]
}

/** `sysbench <test> --threads=N --time=S <test options> run`. */
export function runArgv(params: SysbenchParams, target: TargetFacts): string[] {
  return [sysbenchExecutable(target), params.test, `--threads=${params.threads}`, `--time=${params.timeSeconds}`, ...testOptions(params), 'run']
}

function step(id: string, script: string, argv: string[], timeoutSeconds: number, measured: boolean): RemoteStep {
  const s: RemoteStep = { id, on: 'target', shell: 'sh', script, argv, timeoutSeconds: Math.ceil(timeoutSeconds), okExitCodes: [0] }
  if (measured) s.measured = true
  return s
}

/** fileio: prepare writes test_file.0 … test_file.N-1 in the work directory, run measures, cleanup removes them. */
function fileioSteps(params: SysbenchParams, target: TargetFacts): RemoteStep[] {
  const cd = `cd ${quoteSh(target.workDir)} && `
  const exe = sysbenchExecutable(target)
  const prepare = [exe, 'fileio', ...fileSetOptions(params), 'prepare']
  const run = runArgv(params, target)
  const cleanup = [exe, 'fileio', ...fileSetOptions(params), 'cleanup']
  const writeSeconds = STARTUP_SECONDS + fileBytes(params) / SLOW_BYTES_PER_SECOND + TIMEOUT_GRACE_SECONDS
  return [
    step('prepare', cd + shJoin(prepare), prepare, writeSeconds, false),
    step('run', cd + shJoin(run), run, STARTUP_SECONDS + params.timeSeconds + TIMEOUT_GRACE_SECONDS, true),
    step('cleanup', cd + shJoin(cleanup), cleanup, TIMEOUT_GRACE_SECONDS, false)
  ]
}

function testFiles(params: SysbenchParams, target: TargetFacts): Plan['files'] {
  const dir = target.workDir.replace(/\/+$/, '')
  return Array.from({ length: params.fileNum }, (_, i) => ({ on: 'target' as const, path: `${dir}/test_file.${i}` }))
}

/**
 * cpu and memory: one measured `sysbench … run`. fileio: prepare, run and cleanup in the
 * target's work directory, with the test files listed for cleanup.
 */
export function plan(params: SysbenchParams, ctx: PlanContext): Plan {
  const target = ctx.target
  if (target.os !== 'linux') throw new Error('sysbench runs on Linux targets only')
  if (params.test === 'fileio') {
    if (!target.workDir.startsWith('/')) throw new Error(`the work directory must be an absolute path, not "${target.workDir}"`)
    return { steps: fileioSteps(params, target), files: testFiles(params, target), estimatedSeconds: estimateSeconds(params) }
  }
  const argv = runArgv(params, target)
  return {
    steps: [step('run', shJoin(argv), argv, STARTUP_SECONDS + params.timeSeconds + TIMEOUT_GRACE_SECONDS, true)],
    files: [],
    estimatedSeconds: estimateSeconds(params)
  }
}
