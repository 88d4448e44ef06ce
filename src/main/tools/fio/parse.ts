import type { Labels, Sample } from '../../../shared/model/sample'
import { findJsonObject } from '../common/json-text'
import { parseFailure, parseSuccess, sampler } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { describeErrno } from './errno'
import { withoutHistogramBins } from './histogram-bins'
import { DIRECTIONS, FIO_METRICS, LATENCY_KINDS, LATENCY_STATS, PERCENTILES, type Direction } from './metrics'
import type { FioParams } from './params'
import { ReportProblem, isFioReport, readFioReport, type DirectionResult, type FioReport, type JobResult } from './report'

const fioSample = sampler(FIO_METRICS)

/** At most this many of fio's own notes and warnings are passed on. */
const MAX_NOTES = 10
const MAX_NOTE_LENGTH = 300

/**
 * Reads fio's `--output-format=json` (or `json+`) report, from fio 2.x or 3.x, with any notes
 * fio printed before or after it.
 *
 * Samples without `labels.job` are totals over all jobs: iops, bandwidth, bytes and I/O counts
 * added up, mean latencies weighted by each job's I/O count, minimum of minimums and maximum of
 * maximums. With one job (or group_reporting) the total is that job's own report, percentiles
 * and standard deviations included. With several jobs each also gets its own samples, labelled
 * with its name (`name#0`, `name#1`... when names repeat, numbered like fio's data files).
 */
export function parse(out: StepOutput, _params?: FioParams): ParseResult {
  try {
    return parseOutput(out)
  } catch (error) {
    if (error instanceof ReportProblem) {
      return parseFailure(`fio's JSON report is not in the shape fio writes: ${error.message}`, error.offending)
    }
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
  const report = readFioReport(found.value)
  const notes = fioNotes([source.slice(0, found.start), source.slice(found.end), out.stderr])
  if (report.jobs.length === 0) return parseFailure("fio's report lists no jobs", source, found.start)

  const labels = jobLabels(report.jobs)
  const failed = report.jobs.filter((job) => job.error !== 0)
  if (failed.length > 0) return jobFailure(failed, labels, notes, source, found.start)
  if (report.jobs.every((job) => job.directions.length === 0)) {
    return parseFailure(
      "fio's jobs did no I/O (every read, write and trim count is 0); check the job's size, runtime and rw options",
      source,
      found.start
    )
  }

  const warnings = notes.map((line) => `fio printed: ${line}`)
  if (out.exitCode !== null && out.exitCode !== 0) {
    warnings.push(`fio exited with code ${out.exitCode} although every job in its report finished without an error`)
  }
  warnings.push(...jobWarnings(report, labels))
  return parseSuccess(samplesOf(report, labels), warnings)
}

/** Why there is no report: nothing printed, fio failed before reporting, or the report is cut short. */
function noReport(out: StepOutput): ParseResult {
  const exited = out.exitCode !== null && out.exitCode !== 0 ? ` and exited with code ${out.exitCode}` : ''
  if (out.stdout.trim() === '' && out.stderr.trim() === '') {
    return parseFailure(`fio printed nothing${exited}; check that fio is installed and runs on this target`, '')
  }
  if (/(^|\n)\s*\{/.test(out.stdout)) {
    return parseFailure(
      `fio's JSON report is cut short or damaged${exited}: it starts but is not complete JSON; run the test again and check that the output is kept whole`,
      out.stdout,
      Math.max(0, out.stdout.length - 100)
    )
  }
  const said = firstLine(out.stderr) ?? firstLine(out.stdout)
  if (exited || out.stderr.trim() !== '') {
    return parseFailure(`fio failed before writing its report${exited}: ${said ?? ''}`, out.stderr.trim() ? out.stderr : out.stdout)
  }
  return parseFailure('there is no JSON report in this output; fio must run with --output-format=json (VirtBench\'s plans always add it)', out.stdout)
}

function firstLine(text: string): string | undefined {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => line !== '')
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

function jobFailure(failed: readonly JobResult[], labels: readonly string[], notes: readonly string[], source: string, at: number): ParseResult {
  const what = failed.map((job) => `job '${labels[job.index]}' stopped with ${describeErrno(job.error)}`).join('; ')
  // fio's own line, such as "fio: pid=0, err=20/file:filesetup.c:455, func=fstat, error=Not a directory".
  const said = notes.find((line) => /\berr=\s*\d+/.test(line)) ?? notes.find((line) => /\berror=/.test(line))
  const reason =
    `fio ${what}, so the numbers in its report do not measure the requested I/O` +
    (said ? `; fio said: ${said}` : '') +
    '. Fix the cause (path, free space, permissions or job options) and run the test again'
  return said ? parseFailure(reason, said) : parseFailure(reason, source, at)
}

function jobWarnings(report: FioReport, labels: readonly string[]): string[] {
  const warnings: string[] = []
  for (const job of report.jobs) {
    const label = labels[job.index]
    if (job.ioErrors) {
      warnings.push(
        `job '${label}' went on past ${job.ioErrors.count} I/O errors (continue_on_error; the first was ${describeErrno(job.ioErrors.first)}), so its numbers include failed I/Os`
      )
    }
    for (const dir of job.directions) {
      if (dir.iops === undefined) {
        warnings.push(
          `job '${label}': fio timed its ${dir.ios} ${dir.direction} I/Os at 0 ms and gives no rate for them, so its ${dir.direction} iops and bandwidth are left out; use a larger size or a runtime`
        )
      }
    }
  }
  const groups = new Set(report.jobs.map((job) => job.groupId)).size
  if (report.jobs.length > 1 && groups > 1) {
    warnings.push(
      `fio ran these jobs in ${groups} groups one after another (stonewall or new_group), so adding them up would describe no moment of the run: only per-job samples are given`
    )
  } else if (report.jobs.length > 1 && report.jobs.some((job) => job.directions.some(hasPercentiles))) {
    warnings.push(
      `fio reported ${report.jobs.length} jobs separately (no group_reporting), and percentiles of separate jobs cannot be combined: latency percentiles are given per job (labels.job) and not as totals; run with group_reporting to get percentiles over all jobs`
    )
  }
  return warnings
}

function hasPercentiles(dir: DirectionResult): boolean {
  return Object.values(dir.latency).some((summary) => summary.percentiles.size > 0)
}

function samplesOf(report: FioReport, labels: readonly string[]): Sample[] {
  const samples: Sample[] = []
  const [only] = report.jobs
  if (report.jobs.length === 1 && only) {
    for (const dir of only.directions) directionSamples(dir, {}, samples)
    return samples
  }
  if (new Set(report.jobs.map((job) => job.groupId)).size === 1) {
    for (const direction of DIRECTIONS) totalSamples(report.jobs, direction, samples)
  }
  for (const job of report.jobs) {
    for (const dir of job.directions) directionSamples(dir, { job: labels[job.index]! }, samples)
  }
  return samples
}

/** Everything fio reported for one job and direction. */
function directionSamples(dir: DirectionResult, labels: Labels, samples: Sample[]): void {
  const p = `fio.${dir.direction}`
  if (dir.iops !== undefined) samples.push(fioSample(`${p}.iops`, dir.iops, labels, 'fio.<dir>.iops'))
  if (dir.bandwidth !== undefined) samples.push(fioSample(`${p}.bandwidth`, dir.bandwidth, labels, 'fio.<dir>.bandwidth'))
  samples.push(fioSample(`${p}.bytes`, dir.bytes, labels, 'fio.<dir>.bytes'))
  samples.push(fioSample(`${p}.ios`, dir.ios, labels, 'fio.<dir>.ios'))
  samples.push(fioSample(`${p}.runtime`, dir.runtime, labels, 'fio.<dir>.runtime'))
  for (const kind of LATENCY_KINDS) {
    const summary = dir.latency[kind]
    if (!summary) continue
    for (const stat of LATENCY_STATS) {
      samples.push(fioSample(`${p}.${kind}.${stat}`, summary[stat], labels, `fio.<dir>.${kind}.${stat}`))
    }
    if (kind === 'slat') continue
    for (const { percent, suffix } of PERCENTILES) {
      const value = summary.percentiles.get(percent)
      if (value !== undefined) samples.push(fioSample(`${p}.${kind}.${suffix}`, value, labels, `fio.<dir>.${kind}.${suffix}`))
    }
  }
}

function allDefined<T>(values: readonly (T | undefined)[]): values is T[] {
  return values.every((value) => value !== undefined)
}

function sum(values: readonly number[]): number {
  let total = 0
  for (const value of values) total += value
  return total
}

/**
 * Totals of one direction over jobs that ran side by side. Only figures that combine exactly:
 * sums, the I/O-weighted mean, min of mins and max of maxes; no percentiles or deviations.
 */
function totalSamples(jobs: readonly JobResult[], direction: Direction, samples: Sample[]): void {
  const parts = jobs.flatMap((job) => job.directions.filter((dir) => dir.direction === direction))
  if (parts.length === 0) return
  const p = `fio.${direction}`
  const iops = parts.map((dir) => dir.iops)
  const bandwidth = parts.map((dir) => dir.bandwidth)
  if (allDefined(iops)) samples.push(fioSample(`${p}.iops`, sum(iops), {}, 'fio.<dir>.iops'))
  if (allDefined(bandwidth)) samples.push(fioSample(`${p}.bandwidth`, sum(bandwidth), {}, 'fio.<dir>.bandwidth'))
  samples.push(fioSample(`${p}.bytes`, sum(parts.map((dir) => dir.bytes)), {}, 'fio.<dir>.bytes'))
  const ios = sum(parts.map((dir) => dir.ios))
  samples.push(fioSample(`${p}.ios`, ios, {}, 'fio.<dir>.ios'))
  if (ios === 0) return
  for (const kind of LATENCY_KINDS) {
    const summaries = parts.map((dir) => dir.latency[kind])
    if (!allDefined(summaries)) continue
    const weighted = sum(parts.map((dir, i) => summaries[i]!.mean * dir.ios)) / ios
    samples.push(fioSample(`${p}.${kind}.mean`, weighted, {}, `fio.<dir>.${kind}.mean`))
    samples.push(fioSample(`${p}.${kind}.min`, summaries.reduce((m, s) => Math.min(m, s.min), Infinity), {}, `fio.<dir>.${kind}.min`))
    samples.push(fioSample(`${p}.${kind}.max`, summaries.reduce((m, s) => Math.max(m, s.max), -Infinity), {}, `fio.<dir>.${kind}.max`))
  }
}
