import { shJoin } from '../../../shared/shell-quote'
import type { Plan, PlanContext, TargetFacts } from '../types'
import { MBW_TESTS, type MbwParams } from './params'

/** mbw's default number of runs per test. */
const DEFAULT_ITERATIONS = 10
/** Filling the two arrays before the tests, for the estimate. */
const TYPICAL_FILL_MIB_PER_SECOND = 2000
/** One copy of the array, for the estimate (a slow guest copies at about 2 GiB/s). */
const TYPICAL_COPY_MIB_PER_SECOND = 2000
const SLOW_COPY_MIB_PER_SECOND = 200
const STARTUP_SECONDS = 1
const TIMEOUT_GRACE_SECONDS = 60

function copies(params: MbwParams): number {
  return (params.iterations ?? DEFAULT_ITERATIONS) * (params.tests ?? MBW_TESTS).length
}

/** Filling both arrays, then every run of every test. */
export function estimateSeconds(params: MbwParams): number {
  const fill = (2 * params.sizeMiB) / TYPICAL_FILL_MIB_PER_SECOND
  return Math.ceil(STARTUP_SECONDS + fill + (copies(params) * params.sizeMiB) / TYPICAL_COPY_MIB_PER_SECOND)
}

function timeoutSeconds(params: MbwParams): number {
  return Math.ceil(STARTUP_SECONDS + ((2 + copies(params)) * params.sizeMiB) / SLOW_COPY_MIB_PER_SECOND + TIMEOUT_GRACE_SECONDS)
}

function mbwExecutable(target: TargetFacts): string {
  return target.toolPaths?.mbw ?? 'mbw'
}

/** `mbw 512` (study 001), with -n, -t and -b when given. */
export function mbwArgv(params: MbwParams, target: TargetFacts): string[] {
  const argv = [mbwExecutable(target)]
  if (params.iterations !== undefined) argv.push('-n', String(params.iterations))
  for (const test of params.tests ?? []) argv.push(`-t${MBW_TESTS.indexOf(test)}`)
  if (params.blockSizeBytes !== undefined) argv.push('-b', String(params.blockSizeBytes))
  argv.push(String(params.sizeMiB))
  return argv
}

/**
 * One measured step. Before the run it prints the first line of `mbw -h`: mbw 1.4 and later name
 * their version there, older ones (Debian 12, Ubuntu 24.04 ship 1.2.2) start with "Usage:" and
 * label MEMCPY and DUMB the wrong way round, which the parser then warns about.
 */
export function plan(params: MbwParams, ctx: PlanContext): Plan {
  const target = ctx.target
  if (target.os !== 'linux') throw new Error('mbw runs on Linux targets only')
  const argv = mbwArgv(params, target)
  const probe = `${shJoin([argv[0]!, '-h'])} 2>&1 | head -n 1`
  return {
    steps: [
      {
        id: 'run',
        on: 'target',
        shell: 'sh',
        script: `${probe}; ${shJoin(argv)}`,
        argv,
        timeoutSeconds: timeoutSeconds(params),
        okExitCodes: [0],
        measured: true
      }
    ],
    files: [],
    estimatedSeconds: estimateSeconds(params)
  }
}
