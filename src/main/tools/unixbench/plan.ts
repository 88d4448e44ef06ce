import { quoteSh, shJoin } from '../../../shared/shell-quote'
import type { Plan, PlanContext, TargetFacts } from '../types'
import type { UnixbenchParams } from './params'
import { INDEX_TESTS, UNIXBENCH_TESTS, expandTests } from './tests'
import { linuxToolDir } from '../common/work-dir'

/** Where `git clone https://github.com/kdlucas/byte-unixbench.git` in the home folder puts ./Run. */
export const DEFAULT_UNIXBENCH_DIR = '~/byte-unixbench/UnixBench'
const LONG_PASSES = 10
const SHORT_PASSES = 3
/** Run syncs and sleeps 3 s before every pass. */
const PAUSE_PER_PASS_SECONDS = 3
/** Run's `make` check, the system survey and the report. */
const FIXED_SECONDS = 10
const TIMEOUT_FACTOR = 2
const TIMEOUT_GRACE_SECONDS = 600

/** A folder for sh: a leading ~ becomes "$HOME" so the shell still expands it; the rest is quoted. */
export function shellDir(path: string): string {
  if (path === '~') return '"$HOME"'
  if (path.startsWith('~/')) return `"$HOME"/${quoteSh(path.slice(2))}`
  return quoteSh(path)
}

function scratchDir(target: TargetFacts): string {
  return linuxToolDir(target, 'unixbench', 'UnixBench runs')
}

/** Passes and seconds per copies value, as Run schedules them (-i changes both pass counts). */
export function estimateSeconds(params: UnixbenchParams): number {
  const long = params.iterations ?? LONG_PASSES
  const short = params.iterations === undefined ? SHORT_PASSES : Math.max(1, Math.floor((params.iterations + 1) / 3))
  const ids = expandTests(params.tests.length > 0 ? params.tests : INDEX_TESTS)
  const perCopies = ids.reduce((sum, id) => {
    const test = UNIXBENCH_TESTS.find((x) => x.id === id)
    if (!test) return sum
    return sum + (test.repeat === 'long' ? long : short) * (test.seconds + PAUSE_PER_PASS_SECONDS)
  }, 0)
  // With no -c, Run runs once with 1 copy and once with one copy per CPU.
  const runs = params.copies.length > 0 ? params.copies.length : 2
  return Math.ceil(FIXED_SECONDS + runs * perCopies)
}

/**
 * One measured step, in the UnixBench folder: `./Run [-i n] -c <copies>... <tests>`, with
 * UB_TMPDIR (where the fs* tests write) and UB_RESULTDIR in the work directory, so the file tests
 * measure the disk under test and the reports land where cleanup finds them.
 * Study 001 is `./Run -c 1 whetstone-double dhry2reg fsdisk` (the defaults).
 */
export function plan(params: UnixbenchParams, ctx: PlanContext): Plan {
  const scratch = scratchDir(ctx.target)
  const tmp = `${scratch}/tmp`
  const results = `${scratch}/results`
  const dir = params.unixbenchDir ?? ctx.target.toolPaths?.unixbench ?? DEFAULT_UNIXBENCH_DIR
  const argv = [
    './Run',
    ...(params.iterations === undefined ? [] : ['-i', String(params.iterations)]),
    ...params.copies.flatMap((c) => ['-c', String(c)]),
    ...params.tests
  ]
  const script =
    `mkdir -p -- ${shJoin([tmp, results])} && cd -- ${shellDir(dir)} && ` +
    `UB_TMPDIR=${quoteSh(tmp)} UB_RESULTDIR=${quoteSh(results)} ${shJoin(argv)}`
  const estimate = estimateSeconds(params)
  return {
    steps: [
      {
        id: 'run',
        on: 'target',
        shell: 'sh',
        script,
        argv,
        timeoutSeconds: Math.ceil(estimate * TIMEOUT_FACTOR + TIMEOUT_GRACE_SECONDS),
        okExitCodes: [0],
        measured: true
      }
    ],
    files: [{ on: 'target', path: scratch }],
    estimatedSeconds: estimate
  }
}
