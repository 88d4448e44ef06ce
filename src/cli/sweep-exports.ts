/**
 * The comparison exports of a sweep (`--comparison`, `--overhead-csv`, `--junit` of `virtbench run`
 * and `virtbench report`): every combination, each compared with the baseline measured in its own
 * steps as the sweep's table compares it (docs/export.md#a-sweep), not only the latest step.
 */
import path from 'node:path'
import { writeFileAtomic } from '../main/fs/atomic-file'
import { acceptanceText, judgeAcceptance, junitSuitesXml, type AcceptanceResult } from '../shared/criteria'
import { sweepComparisonExport, sweepComparisonInput, sweepOverheadCsv, type SweepComparisonInput } from '../shared/export/sweep-comparison'
import type { RunDocument } from '../shared/model/run'

export { sweepComparisonInput }

export const sweepComparisonJson = (input: SweepComparisonInput): string => `${JSON.stringify(sweepComparisonExport(input), null, 2)}\n`
export { sweepOverheadCsv }

/** The acceptance verdict of a sweep: each combination's criteria judged on its own comparison. */
export interface SweepVerdict {
  /** Every combination measured and every criterion of each passed. */
  passed: boolean
  combos: { label: string; result?: AcceptanceResult }[]
}

/** The sweep's verdict, or undefined when its plan has no criteria. */
export function judgeSweep(run: Pick<RunDocument, 'plan'>, input: SweepComparisonInput): SweepVerdict | undefined {
  const acceptance = run.plan.acceptance
  if (!acceptance) return undefined
  const combos = input.combos.map((c) => ({ label: c.label, ...(c.comparison ? { result: judgeAcceptance(acceptance, c.comparison) } : {}) }))
  return { passed: combos.every((c) => c.result?.passed === true), combos }
}

/**
 *   Acceptance of the sweep: FAILED (1 of 4 combinations passed; 1 not measured)
 *
 *   cache=none, io=threads: Acceptance: PASSED (2 of 2 criteria passed)
 *   PASS  1. ...
 */
export function sweepAcceptanceText(verdict: SweepVerdict): string {
  const passed = verdict.combos.filter((c) => c.result?.passed).length
  const unmeasured = verdict.combos.filter((c) => !c.result).length
  const head = `Acceptance of the sweep: ${verdict.passed ? 'PASSED' : 'FAILED'} (${passed} of ${verdict.combos.length} combination${verdict.combos.length === 1 ? '' : 's'} passed${unmeasured > 0 ? `; ${unmeasured} not measured` : ''})\n`
  const parts = verdict.combos.map((c) => (c.result ? `${c.label}: ${acceptanceText(c.result)}` : `${c.label}: not measured (no step of the sweep measured this combination)\n`))
  return [head, ...parts].join('\n')
}

/** The JUnit XML of a sweep's verdict: a suite per combination, named `<plan> · <combination>`. */
export function junitOfSweep(run: RunDocument, verdict: SweepVerdict, runDir?: string): string {
  const started = Date.parse(run.createdAt)
  const ended = Date.parse(run.endedAt ?? run.updatedAt)
  const seconds = Number.isFinite(started) && Number.isFinite(ended) ? (ended - started) / 1000 : 0
  const className = `virtbench.${run.plan.name.replace(/[^A-Za-z0-9_-]+/g, '_')}`
  const properties = { 'virtbench.run.id': run.id, 'virtbench.version': run.app.version, ...(runDir ? { 'virtbench.run.dir': runDir } : {}) }
  return junitSuitesXml(
    verdict.combos.map((c) => ({
      input: { suite: `${run.plan.name} · ${c.label}`, className, timestamp: run.createdAt, seconds: 0, properties: { ...properties, 'virtbench.sweep.combination': c.label } },
      ...(c.result ? { result: c.result } : { notJudged: `${c.label} was not measured: the sweep ended before any step of it completed` })
    })),
    seconds
  )
}

/** Prints the sweep's verdict (stdout, or stderr where stdout carries data) and writes its JUnit file when asked. */
export async function reportSweepAcceptance(
  run: RunDocument,
  verdict: SweepVerdict,
  junitFile: string | undefined,
  io: { stdout(text: string): void; stderr(text: string): void },
  options: { runDir?: string; printTo?: 'stdout' | 'stderr' } = {}
): Promise<void> {
  io[options.printTo ?? 'stdout'](`\n${sweepAcceptanceText(verdict)}`)
  if (!junitFile) return
  const file = path.resolve(junitFile)
  await writeFileAtomic(file, junitOfSweep(run, verdict, options.runDir), { fileMode: 0o666 })
  io.stderr(`JUnit: ${file}\n`)
}
