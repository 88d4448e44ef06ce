/**
 * `virtbench run` with a plan that sweeps one guest (docs/scenarios.md): each step runs as a run
 * of its own under the sweep folder, the guest's domain changed before it and put back after the
 * last step (or the first that does not complete); resumed (`--resume`), its completed steps are
 * kept and the rest run; then the sweep's table (rows: combination;
 * columns: primary figures) and, for two factors, one matrix per figure.
 */
import path from 'node:path'
import type { ComparisonPlan } from '../../shared/model/plan'
import type { RunDocument } from '../../shared/model/run'
import { expandSweep, sweptFactors } from '../../shared/sweep/expand'
import { sweepCombos } from '../../shared/sweep/sweep-combos'
import { sweepMatrices, sweepTable } from '../../shared/sweep/sweep-table'
import type { RunServices, StartedRun } from '../../main/engine/start-run'
import { runSweep, SWEEP_FILE, type SweepOptions } from '../../main/scenario/sweep-run'
import { readRun, readSweep } from '../../main/store/run-store'
import type { CliIo } from '../io'
import { CRITERIA_FAILED_EXIT, reportVerdict } from '../acceptance'
import { sweepOutputs } from '../comparison-outputs'
import { writeExport } from '../write-export'

/** The files `virtbench run` was asked to write from the comparison: for a sweep, every combination's. */
export interface SweepExports {
  comparison?: string | undefined
  overheadCsv?: string | undefined
  junit?: string | undefined
}

export async function runSweepCommand(
  plan: ComparisonPlan,
  outDir: string,
  services: RunServices,
  io: CliIo,
  showProgress: (started: StartedRun) => void,
  opts: SweepOptions = {},
  exports: SweepExports = {}
): Promise<number> {
  const sweep = plan.sweep!
  let current: StartedRun | undefined
  let stopping = false
  void io.interrupted.then((why) => {
    stopping = true
    io.stderr(`\nvirtbench: ${why}: stopping the sweep (the running step is stopped, the domain put back)...\n`)
    current?.engine.cancel()
  })
  const results = await runSweep(plan, outDir, services, {
    stopped: () => stopping,
    onStep: (index, total, variant) => io.stdout(`\nSweep step ${index + 1} of ${total}: ${sweep.target} with ${variant.label}\n`),
    onStarted: (started) => {
      current = started
      showProgress(started)
    }
  }, opts)
  const runs = await Promise.all(results.map((r) => readRun(path.join(outDir, r.dir))))
  const combos = sweepCombos(sweep, results.map((r, i) => ({ label: r.label, run: runs[i]! })))
  io.stdout(`\nSweep of ${sweep.target} (${sweep.domain}), relative to ${plan.baseline.target}\n${sweepTable({ combos })}`)
  const factors = sweptFactors(sweep)
  const matrices = sweepMatrices({ combos }, factors)
  if (matrices) io.stdout(`\n${matrices}`)
  results.forEach((r, i) => io.stdout(`step ${r.dir}: ${r.status} in ${r.seconds} s${runs[i]!.error ? `: ${runs[i]!.error}` : ''}\n`))
  const complete = results.length > 0 && results.every((r) => r.status === 'completed') && !stopping && results.length === expandSweep(sweep).length * (sweep.order === 'grouped' ? 1 : plan.repetitions)
  // every combination's rows and verdict: the table's combinations above, under the sweep's document
  // as virtbench report reads it (its id, name, plan, first start and last end), from the runs read above
  const wanted = exports.comparison || exports.overheadCsv || plan.acceptance
  const read = new Map(results.map((r, i) => [path.join(outDir, r.dir), runs[i]!]))
  const document = async (): Promise<RunDocument> => (await readSweep(outDir, async (dir) => read.get(dir) ?? readRun(dir))).run()
  const outputs = wanted && results.length > 0 ? sweepOutputs(await document(), { factors, combos }) : undefined
  if (outputs && exports.comparison) await writeExport(exports.comparison, outputs.comparisonJson(), 'Comparison', io)
  if (outputs && exports.overheadCsv) await writeExport(exports.overheadCsv, outputs.overheadCsv(), 'Overhead CSV', io)
  const verdict = outputs?.verdict()
  if (verdict) await reportVerdict(verdict, exports.junit, io, { runDir: outDir })
  io.stdout(`\nSweep ${complete ? 'completed' : 'stopped'}: ${results.filter((r) => r.status === 'completed').length} of its steps completed.\nSweep record: ${path.join(outDir, SWEEP_FILE)}\n`)
  if (!complete) return 1
  return verdict && !verdict.passed ? CRITERIA_FAILED_EXIT : 0
}
