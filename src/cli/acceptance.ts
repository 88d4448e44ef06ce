import path from 'node:path'
import { writeFileAtomic } from '../main/fs/atomic-file'
import { acceptanceText, judgeAcceptance, junitXml, type AcceptanceResult, type JunitInput } from '../shared/criteria'
import type { Comparison } from '../shared/model/comparison'
import type { RunDocument } from '../shared/model/run'
import type { CliIo } from './io'
import { UsageError } from './usage-error'

/** The exit status of `virtbench run` and `virtbench report --junit` when an acceptance criterion failed. */
export const CRITERIA_FAILED_EXIT = 3

/** `virtbench report --junit`'s exit status when a criterion failed (its 3 already means "no browser for --pdf"). */
export const REPORT_CRITERIA_FAILED_EXIT = 4

/** --junit needs criteria to judge: refused up front (exit 2) when the plan has none. */
export function requireCriteria(run: Pick<RunDocument, 'plan'>, where: string): void {
  if (!run.plan.acceptance) {
    throw new UsageError(`--junit writes one test case per acceptance criterion, and ${where} has none; add "acceptance": { "criteria": [...] } to the preset's plan (docs/presets.md#acceptance-criteria)`)
  }
}

/** The acceptance verdict of a run, or undefined when its plan has no criteria. */
export function judgeRun(run: RunDocument, comparison: Comparison): AcceptanceResult | undefined {
  return run.plan.acceptance ? judgeAcceptance(run.plan.acceptance, comparison) : undefined
}

/** An acceptance verdict as the CLI gives it: passed or not, its text, and its JUnit document. */
export interface Verdict {
  passed: boolean
  text: string
  junit(runDir?: string): string
}

/** Prints the verdict (on stdout, or stderr where stdout carries data) and writes the JUnit file when asked. */
export async function reportVerdict(verdict: Verdict, junitFile: string | undefined, io: Pick<CliIo, 'stdout' | 'stderr'>, options: { runDir?: string; printTo?: 'stdout' | 'stderr' } = {}): Promise<void> {
  io[options.printTo ?? 'stdout'](`\n${verdict.text}`)
  if (!junitFile) return
  const file = path.resolve(junitFile)
  await writeFileAtomic(file, verdict.junit(options.runDir), { fileMode: 0o666 })
  io.stderr(`JUnit: ${file}\n`)
}

/** A run's verdict: its text, and its JUnit document (one suite, a test case per criterion). */
export function runVerdict(run: RunDocument, result: AcceptanceResult): Verdict {
  return { passed: result.passed, text: acceptanceText(result), junit: (runDir) => junitOf(run, result, runDir) }
}

/** A run's verdict printed, and its JUnit file written when asked. */
export async function reportAcceptance(run: RunDocument, result: AcceptanceResult, junitFile: string | undefined, io: CliIo, options: { runDir?: string; printTo?: 'stdout' | 'stderr' } = {}): Promise<void> {
  await reportVerdict(runVerdict(run, result), junitFile, io, options)
}

/** The JUnit XML of a run's acceptance verdict. */
export function junitOf(run: RunDocument, result: AcceptanceResult, runDir?: string): string {
  return junitXml(result, junitInputOf(run, runDir))
}

/** A run's JUnit suite as CI servers group it: named after its plan, timed from its start to its end, its id, folder and VirtBench version. */
export function junitInputOf(run: RunDocument, runDir?: string): JunitInput {
  const started = Date.parse(run.createdAt)
  const ended = Date.parse(run.endedAt ?? run.updatedAt)
  return {
    suite: run.plan.name,
    className: `virtbench.${run.plan.name.replace(/[^A-Za-z0-9_-]+/g, '_')}`,
    timestamp: run.createdAt,
    seconds: Number.isFinite(started) && Number.isFinite(ended) ? (ended - started) / 1000 : 0,
    properties: { 'virtbench.run.id': run.id, 'virtbench.version': run.app.version, ...(runDir ? { 'virtbench.run.dir': runDir } : {}) }
  }
}
