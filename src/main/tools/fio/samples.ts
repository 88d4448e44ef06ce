import type { Labels, Sample } from '../../../shared/model/sample'
import { sampler } from '../common/result'
import { DIRECTIONS, FIO_METRICS, LATENCY_KINDS, LATENCY_STATS, PERCENTILES, type Direction } from './metrics'
import type { DirectionResult, JobResult } from './report'

const fioSample = sampler(FIO_METRICS)

/**
 * How a report's jobs become samples: `single` (the report's only job, without a job label),
 * `totals` (jobs that ran side by side: totals without a label, and each job labelled) or
 * `per-job` (each job labelled, no totals).
 */
export type SampleLayout = 'single' | 'totals' | 'per-job'

export function jobSamples(jobs: readonly JobResult[], labels: readonly string[], layout: SampleLayout): Sample[] {
  const samples: Sample[] = []
  if (layout === 'single') {
    for (const job of jobs) for (const dir of job.directions) directionSamples(dir, {}, samples)
    return samples
  }
  if (layout === 'totals') {
    for (const direction of DIRECTIONS) totalSamples(jobs, direction, samples)
  }
  for (const job of jobs) {
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
  if (dir.ios !== undefined) samples.push(fioSample(`${p}.ios`, dir.ios, labels, 'fio.<dir>.ios'))
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
 * sums, the I/O-weighted mean (when every job's I/O count is known), min of mins and max of
 * maxes; no percentiles or deviations.
 */
function totalSamples(jobs: readonly JobResult[], direction: Direction, samples: Sample[]): void {
  const parts = jobs.flatMap((job) => job.directions.filter((dir) => dir.direction === direction))
  if (parts.length === 0) return
  const p = `fio.${direction}`
  const iops = parts.map((dir) => dir.iops)
  const bandwidth = parts.map((dir) => dir.bandwidth)
  const ios = parts.map((dir) => dir.ios)
  if (allDefined(iops)) samples.push(fioSample(`${p}.iops`, sum(iops), {}, 'fio.<dir>.iops'))
  if (allDefined(bandwidth)) samples.push(fioSample(`${p}.bandwidth`, sum(bandwidth), {}, 'fio.<dir>.bandwidth'))
  samples.push(fioSample(`${p}.bytes`, sum(parts.map((dir) => dir.bytes)), {}, 'fio.<dir>.bytes'))
  const totalIos = allDefined(ios) ? sum(ios) : undefined
  if (totalIos !== undefined) samples.push(fioSample(`${p}.ios`, totalIos, {}, 'fio.<dir>.ios'))
  if (totalIos === 0) return
  for (const kind of LATENCY_KINDS) {
    const summaries = parts.map((dir) => dir.latency[kind])
    if (!allDefined(summaries)) continue
    if (allDefined(ios) && totalIos !== undefined) {
      const weighted = sum(summaries.map((summary, i) => summary.mean * ios[i]!)) / totalIos
      samples.push(fioSample(`${p}.${kind}.mean`, weighted, {}, `fio.<dir>.${kind}.mean`))
    }
    samples.push(fioSample(`${p}.${kind}.min`, summaries.reduce((m, s) => Math.min(m, s.min), Infinity), {}, `fio.<dir>.${kind}.min`))
    samples.push(fioSample(`${p}.${kind}.max`, summaries.reduce((m, s) => Math.max(m, s.max), -Infinity), {}, `fio.<dir>.${kind}.max`))
  }
}
