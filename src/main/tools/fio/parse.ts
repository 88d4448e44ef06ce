import { findJsonObject } from '../common/json-text'
import { parseFailure, parseSuccess } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { describeErrno } from './errno'
import { everyJobFailed, noReport, someJobsFailed } from './failures'
import { withoutHistogramBins } from './histogram-bins'
import type { FioParams } from './params'
import { ReportProblem, isFioReport, readFioReport, type DirectionResult, type FioReport, type JobResult } from './report'
import { jobSamples, type SampleLayout } from './samples'

/** At most this many of fio's own notes and warnings are passed on. */
const MAX_NOTES = 10
const MAX_NOTE_LENGTH = 300

/**
 * Reads fio's `--output-format=json` (or `json+`) report, from fio 2.0.10 (its first JSON) to
 * 3.x, with any notes fio printed before or after it.
 *
 * Samples without `labels.job` are totals over all jobs: iops, bandwidth, bytes and I/O counts
 * added up, mean latencies weighted by each job's I/O count, minimum of minimums and maximum of
 * maximums. With one job (or group_reporting) the total is that job's own report, percentiles
 * and standard deviations included. With several jobs each also gets its own samples, labelled
 * with its name (`name#0`, `name#1`... when names repeat, numbered like fio's data files).
 * When some jobs failed and others ran, the ones that ran are given each on its own, with a
 * warning per failed job. Reports from before fio 2.1.14 have no I/O counts (total_ios): those,
 * and the totals that need them, are left out with a warning.
 */
export function parse(out: StepOutput, _params?: FioParams): ParseResult {
  try {
    return parseOutput(out)
  } catch (error) {
    return parseFailure(`VirtBench could not read this fio output (${String(error)}); please report this with the output attached`, out.stdout)
  }
}

function parseOutput(out: StepOutput): ParseResult {
  if (out.signal) {
    return parseFailure(
      `fio was stopped by ${out.signal} before it finished, so its report (if any) covers only part of the run; run the test again, with a longer timeout if the step timed out`,
      out.stderr || out.stdout
    )
  }
  const stripped = withoutHistogramBins(out.stdout)
  let source = stripped
  let found = findJsonObject(stripped)
  if (!found && stripped !== out.stdout) {
    source = out.stdout
    found = findJsonObject(source)
  }
  if (!found) return noReport(out)
  if (!isFioReport(found.value)) {
    return parseFailure(
      'this JSON is not a fio report: it has no "fio version" and "jobs"; check that the output comes from fio --output-format=json',
      source,
      found.start
    )
  }
  const version = found.value['fio version']
  let report: FioReport
  try {
    report = readFioReport(found.value)
  } catch (error) {
    if (error instanceof ReportProblem) return reportProblem(error, version)
    throw error
  }
  const notes = fioNotes([source.slice(0, found.start), source.slice(found.end), out.stderr])
  if (report.jobs.length === 0) return parseFailure("fio's report lists no jobs", source, found.start)

  const labels = jobLabels(report.jobs)
  const failed = report.jobs.filter((job) => job.error !== 0)
  const ran = report.jobs.filter((job) => job.error === 0)
  if (ran.every((job) => job.directions.length === 0)) {
    if (failed.length > 0) return everyJobFailed(failed, labels, notes, source, found.start)
    return parseFailure(
      "fio's jobs did no I/O (every read, write and trim count is 0); check the job's size, runtime and rw options",
      source,
      found.start
    )
  }

  const failures = failed.length > 0 ? someJobsFailed(failed, report.jobs.length, labels, notes) : { warnings: [], quoted: [] }
  const warnings = notes.filter((line) => !failures.quoted.includes(line)).map((line) => `fio printed: ${line}`)
  warnings.push(...failures.warnings)
  if (failed.length === 0 && out.exitCode !== null && out.exitCode !== 0) {
    warnings.push(`fio exited with code ${out.exitCode} although every job in its report finished without an error`)
  }
  const layout = sampleLayout(report, failed.length > 0)
  warnings.push(...jobWarnings(ran, labels, report.version), ...layoutWarnings(ran, layout, report.jobs.length))
  warnings.push(...missingIoCounts(ran, layout, report.version))
  return parseSuccess(jobSamples(ran, labels, layout), warnings)
}

/** A report that lacks a field VirtBench needs, or has one fio never writes. */
function reportProblem(problem: ReportProblem, version: string): ParseResult {
  if (problem.missing) {
    const { field, where } = problem.missing
    return parseFailure(
      `${version}'s JSON report has no "${field}" in ${where}, which VirtBench needs; fio 2.0.10 (its first JSON report) to 3.x write it. ` +
        `Run the test with one of those versions, or report this with the output attached if ${version} is one of them`,
      problem.offending
    )
  }
  return parseFailure(`fio's JSON report (${version}) is not in the shape fio writes: ${problem.message}`, problem.offending)
}

/** Lines fio printed outside its report (notes, warnings, errors), once each. */
function fioNotes(parts: readonly string[]): string[] {
  const seen = new Set<string>()
  for (const part of parts) {
    for (const raw of part.split(/\r?\n/)) {
      const line = raw.trim()
      if (line !== '' && seen.size < MAX_NOTES) seen.add(line.length > MAX_NOTE_LENGTH ? `${line.slice(0, MAX_NOTE_LENGTH)}…` : line)
    }
  }
  return [...seen]
}

/** A label per job: its name, numbered from 0 (`virt#0`, `virt#1`) where several share it. */
function jobLabels(jobs: readonly JobResult[]): string[] {
  const base = jobs.map((job) => job.name ?? `job ${job.index + 1}`)
  const counts = new Map<string, number>()
  for (const name of base) counts.set(name, (counts.get(name) ?? 0) + 1)
  const next = new Map<string, number>()
  const used = new Set<string>()
  return base.map((name, index) => {
    let label = name
    if ((counts.get(name) ?? 0) > 1) {
      const n = next.get(name) ?? 0
      next.set(name, n + 1)
      label = `${name}#${n}`
    }
    if (used.has(label) || (label !== name && counts.has(label))) label = `${label} (jobs[${index}])`
    used.add(label)
    return label
  })
}

/**
 * One job: its own report without a label. Jobs side by side in one group: totals and each job.
 * Jobs in several groups (one after another), or some jobs failed: each job on its own.
 */
function sampleLayout(report: FioReport, someFailed: boolean): SampleLayout {
  if (report.jobs.length === 1) return 'single'
  if (someFailed || new Set(report.jobs.map((job) => job.groupId)).size > 1) return 'per-job'
  return 'totals'
}

function jobWarnings(jobs: readonly JobResult[], labels: readonly string[], version: string): string[] {
  const warnings: string[] = []
  for (const job of jobs) {
    const label = labels[job.index]
    if (job.ioErrors) {
      const { count, first } = job.ioErrors
      warnings.push(
        count === undefined
          ? `job '${label}' went on past I/O errors (continue_on_error; the first was ${describeErrno(first)}), so its numbers include failed I/Os; ${version}'s report does not say how many`
          : `job '${label}' went on past ${count} I/O errors (continue_on_error; the first was ${describeErrno(first)}), so its numbers include failed I/Os`
      )
    }
    for (const dir of job.directions) {
      if (dir.iops === undefined) {
        warnings.push(
          `job '${label}': fio timed its ${dir.ios === undefined ? '' : `${dir.ios} `}${dir.direction} I/Os at 0 ms and gives no rate for them, so its ${dir.direction} iops and bandwidth are left out; use a larger size or a runtime`
        )
      }
    }
  }
  return warnings
}

/** Why totals over all jobs are missing, or lack percentiles. */
function layoutWarnings(jobs: readonly JobResult[], layout: SampleLayout, jobCount: number): string[] {
  const groups = new Set(jobs.map((job) => job.groupId)).size
  if (layout === 'per-job' && jobs.length === jobCount && groups > 1) {
    return [
      `fio ran these jobs in ${groups} groups one after another (stonewall or new_group), so adding them up would describe no moment of the run: only per-job samples are given`
    ]
  }
  if (layout === 'totals' && jobs.some((job) => job.directions.some(hasPercentiles))) {
    return [
      `fio reported ${jobs.length} jobs separately (no group_reporting), and percentiles of separate jobs cannot be combined: latency percentiles are given per job (labels.job) and not as totals; run with group_reporting to get percentiles over all jobs`
    ]
  }
  return []
}

function hasPercentiles(dir: DirectionResult): boolean {
  return Object.values(dir.latency).some((summary) => summary.percentiles.size > 0)
}

/** fio before 2.1.14 reports no I/O counts (total_ios): say which samples that leaves out. */
function missingIoCounts(jobs: readonly JobResult[], layout: SampleLayout, version: string): string[] {
  const directions = [...new Set(jobs.flatMap((job) => job.directions.filter((dir) => dir.ios === undefined).map((dir) => dir.direction)))]
  if (directions.length === 0) return []
  const metrics = directions.map((direction) => `fio.${direction}.ios`).join(', ')
  const totals =
    layout === 'totals'
      ? '; the mean latencies over all jobs, which weigh each job by its I/O count, are left out too (each job\'s own mean is given)'
      : ''
  return [`${version}'s report has no I/O counts ("total_ios", which fio reports from 2.1.14 on), so ${metrics} ${directions.length === 1 ? 'is' : 'are'} left out${totals}`]
}
