import { DIRECTIONS, LATENCY_KINDS, PERCENTILES, type Direction, type LatencyKind } from './metrics'

/**
 * fio's JSON report, read into base units. fio 3.x reports latencies in nanoseconds
 * (`slat_ns`, `clat_ns`, `lat_ns`); fio 2.x in microseconds (`slat`, `clat`, `lat`).
 */
export interface FioReport {
  version: string
  jobs: JobResult[]
}

export interface JobResult {
  /** Position in fio's `jobs` array. */
  index: number
  /** `jobname`; null when fio left it out. */
  name: string | null
  groupId: number
  /** fio's `error`: the errno that stopped the job, 0 when none. */
  error: number
  /**
   * With continue_on_error: I/O errors the job went past, and the first errno. The count is
   * absent before fio 2.1.4, which wrote the first errno under "total_err" a second time.
   */
  ioErrors?: { count?: number; first: number }
  /** Directions that did I/O. */
  directions: DirectionResult[]
}

export interface DirectionResult {
  direction: Direction
  /** op/s; absent when fio's runtime for the direction was 0 ms (fio then prints 0, not a rate). */
  iops?: number
  /** B/s; absent like iops. */
  bandwidth?: number
  bytes: number
  /** fio's total_ios; absent before fio 2.1.14, which did not report it. */
  ios?: number
  /** Seconds. */
  runtime: number
  latency: Partial<Record<LatencyKind, LatencySummary>>
}

/** One latency kind, in seconds; a field is absent when fio did not measure it. */
export interface LatencySummary {
  mean: number
  min: number
  max: number
  stddev: number
  /** Percent (50, 99.9, ...) to seconds, for the percentiles VirtBench keeps. */
  percentiles: Map<number, number>
}

/** What is wrong with a report, and the part of it to quote. */
export class ReportProblem extends Error {
  constructor(
    message: string,
    readonly offending: string,
    /** Set when a field is not there at all (rather than there with a wrong value). */
    readonly missing?: { field: string; where: string }
  ) {
    super(message)
  }
}

type JsonObject = Record<string, unknown>

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function quoted(key: string, value: unknown): string {
  let shown: string
  try {
    shown = JSON.stringify(value) ?? String(value)
  } catch {
    shown = String(value)
  }
  return `"${key}" : ${shown.length > 120 ? `${shown.slice(0, 120)}…` : shown}`
}

/** Larger than any count or rate fio can print (its counters are 64-bit: below 1.9e19). */
const LARGEST_FIO_NUMBER = 1e21

function numberAt(obj: JsonObject, key: string, where: string): number {
  const value = obj[key]
  if (value === undefined) {
    throw new ReportProblem(`${where} has no "${key}"`, quoted(where, Object.keys(obj).slice(0, 12)), { field: key, where })
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ReportProblem(`${where}: "${key}" is not a number`, quoted(key, value))
  }
  if (value < 0 || value > LARGEST_FIO_NUMBER) {
    throw new ReportProblem(`${where}: "${key}" is ${value < 0 ? 'negative' : 'out of range'}, which fio never reports`, quoted(key, value))
  }
  return value
}

function optionalNumberAt(obj: JsonObject, key: string, where: string): number | undefined {
  return obj[key] === undefined ? undefined : numberAt(obj, key, where)
}

/** fio writes each percentile key with "%f": 99.9 is "99.900000", in fio 2.x and 3.x alike. */
const PERCENTILE_KEYS = PERCENTILES.map(({ percent }) => [percent, percent.toFixed(6)] as const)

function readPercentiles(value: unknown, scale: number, where: string): Map<number, number> {
  const percentiles = new Map<number, number>()
  if (value === undefined) return percentiles
  if (!isObject(value)) throw new ReportProblem(`${where}.percentile is not an object`, quoted('percentile', value))
  for (const [percent, key] of PERCENTILE_KEYS) {
    if (value[key] !== undefined) percentiles.set(percent, numberAt(value, key, `${where}.percentile`) / scale)
  }
  return percentiles
}

/** fio 3.x `<kind>_ns` (ns), else fio 2.x `<kind>` (us); undefined when absent or not measured. */
function readLatency(dir: JsonObject, kind: LatencyKind, where: string): LatencySummary | undefined {
  const nsKey = `${kind}_ns`
  const key = dir[nsKey] !== undefined ? nsKey : kind
  const stats = dir[key]
  if (stats === undefined) return undefined
  const at = `${where}.${key}`
  if (!isObject(stats)) throw new ReportProblem(`${at} is not an object`, quoted(key, stats))
  const scale = key === nsKey ? 1e9 : 1e6
  const samples = optionalNumberAt(stats, 'N', at)
  const max = numberAt(stats, 'max', at)
  // fio 3.x counts the samples (N); fio 2.x prints zeros for what it did not measure.
  if (samples === undefined ? max === 0 : samples === 0) return undefined
  return {
    mean: numberAt(stats, 'mean', at) / scale,
    min: numberAt(stats, 'min', at) / scale,
    max: max / scale,
    stddev: numberAt(stats, 'stddev', at) / scale,
    percentiles: readPercentiles(stats.percentile, scale, at)
  }
}

function readDirection(dir: JsonObject, direction: Direction, where: string): DirectionResult | null {
  const ios = optionalNumberAt(dir, 'total_ios', where)
  const ioBytes = numberAt(dir, 'io_bytes', where)
  // Before fio 2.21 "io_bytes" was KiB; fio 2.21 added "io_kbytes" and made "io_bytes" bytes.
  const bytes = dir.io_kbytes === undefined ? ioBytes * 1024 : ioBytes
  if ((ios ?? 0) === 0 && bytes === 0) return null
  const runtimeMs = numberAt(dir, 'runtime', where)
  const result: DirectionResult = { direction, bytes, runtime: runtimeMs / 1000, latency: {} }
  if (ios !== undefined) result.ios = ios
  if (runtimeMs > 0) {
    result.iops = numberAt(dir, 'iops', where)
    const bwBytes = optionalNumberAt(dir, 'bw_bytes', where)
    result.bandwidth = bwBytes ?? numberAt(dir, 'bw', where) * 1024
  }
  for (const kind of LATENCY_KINDS) {
    const summary = readLatency(dir, kind, where)
    if (summary) result.latency[kind] = summary
  }
  return result
}

/**
 * continue_on_error's "total_err" (I/O errors gone past) and "first_error" (the first errno).
 * Before fio 2.1.4 there is no "first_error": fio wrote "total_err" twice, the second time with
 * the first errno, and JSON keeps the last, so the value read is the errno and the count is lost.
 */
function readIoErrors(job: JsonObject, label: string): JobResult['ioErrors'] {
  const totalErr = optionalNumberAt(job, 'total_err', label)
  if (totalErr === undefined || totalErr === 0) return undefined
  const firstError = optionalNumberAt(job, 'first_error', label)
  return firstError === undefined ? { first: totalErr } : { count: totalErr, first: firstError }
}

function readJob(job: unknown, index: number): JobResult {
  const where = `jobs[${index}]`
  if (!isObject(job)) throw new ReportProblem(`${where} is not an object`, quoted(where, job))
  const name = typeof job.jobname === 'string' ? job.jobname : null
  const label = name === null ? where : `${where} ("${name}")`
  const result: JobResult = {
    index,
    name,
    groupId: optionalNumberAt(job, 'groupid', label) ?? 0,
    error: optionalNumberAt(job, 'error', label) ?? 0,
    directions: []
  }
  const ioErrors = readIoErrors(job, label)
  if (ioErrors) result.ioErrors = ioErrors
  for (const direction of DIRECTIONS) {
    const dir = job[direction]
    if (dir === undefined) continue
    if (!isObject(dir)) throw new ReportProblem(`${label}.${direction} is not an object`, quoted(direction, dir))
    const read = readDirection(dir, direction, `${label}.${direction}`)
    if (read) result.directions.push(read)
  }
  return result
}

/** Whether a parsed JSON value looks like fio's report at all (as opposed to another tool's JSON). */
export function isFioReport(value: unknown): value is JsonObject & { 'fio version': string; jobs: unknown[] } {
  return isObject(value) && typeof value['fio version'] === 'string' && Array.isArray(value.jobs)
}

/** Reads fio's report; throws ReportProblem naming the field that is missing or wrong. */
export function readFioReport(value: JsonObject & { 'fio version': string; jobs: unknown[] }): FioReport {
  return { version: value['fio version'], jobs: value.jobs.map(readJob) }
}
