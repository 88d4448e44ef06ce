import type { Sample } from '../../../shared/model/sample'
import { parseFailure, parseSuccess, sampler } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { mbwMetrics } from './metrics'
import { MBW_TESTS, type MbwParams } from './params'

const metric = sampler(mbwMetrics)

const MIB = 1024 * 1024
/** mbw's default number of runs per test (-n). */
const DEFAULT_ITERATIONS = 10
/** mbw prints Elapsed with 5 decimals: the true time is within half a unit of that. */
const ELAPSED_ROUNDING = 0.000005
/** mbw prints Copy with 3 decimals. */
const COPY_ROUNDING = 0.0005
/** Below this mean time per copy, mbw's microsecond timer and scheduling noise weigh too much. */
const SHORT_COPY_SECONDS = 0.001

const METHODS = ['MEMCPY', 'DUMB', 'MCBLOCK'] as const
type Method = (typeof METHODS)[number]

// `0	Method: MEMCPY	Elapsed: 0.06378	MiB: 512.00000	Copy: 8027.843 MiB/s` and the `AVG` line.
const RESULT = /^([0-9]{1,9}|AVG)\s+Method: (MEMCPY|DUMB|MCBLOCK)\s+Elapsed: ([0-9]{1,9}\.[0-9]+)\s+MiB: ([0-9]{1,9}\.[0-9]+)\s+Copy: (\S+) MiB\/s$/
const COPY = /^[0-9]{1,15}\.[0-9]+$/
const ERROR = /^Error: /
// The plan prints the first line of `mbw -h`: mbw 1.4+ names its version, older ones do not.
const VERSION = /^mbw memory benchmark v([0-9]+)\.([0-9]+)/
const OLD_USAGE = /^Usage: mbw /
/** The start of a result line, to tell a line cut short from other text. */
const RESULT_START = /^([0-9]{1,9}|AVG)\s+Method:/
const RUNS_PER_TEST = /^Getting down to business\.\.\. Doing ([0-9]+) runs per test\.$/
/** Printed only when the MCBLOCK test will run. */
const BLOCK_SIZE_NOTE = /^Using [0-9]+ bytes as blocks for memcpy block copy test\.$/

interface ResultLine {
  run: string
  method: Method
  elapsed: number
  mib: number
  /** MiB/s as printed; null for `inf` or `nan` (a copy faster than the timer). */
  copy: number | null
  line: string
}

function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/)
}

function readLine(line: string): ResultLine | null {
  const m = RESULT.exec(line.trim())
  if (!m) return null
  const copyText = m[5]!
  const copy = COPY.test(copyText) ? Number(copyText) : /^-?(inf|nan)$/i.test(copyText) ? null : NaN
  if (Number.isNaN(copy)) return null
  return { run: m[1]!, method: m[2] as Method, elapsed: Number(m[3]), mib: Number(m[4]), copy, line }
}

/** Whether the printed rate is what MiB / Elapsed gives, allowing for the rounding of both. */
function consistent(r: ResultLine & { copy: number }): boolean {
  const fastest = r.elapsed - ELAPSED_ROUNDING > 0 ? r.mib / (r.elapsed - ELAPSED_ROUNDING) : Infinity
  const slowest = r.mib / (r.elapsed + ELAPSED_ROUNDING)
  const slack = COPY_ROUNDING + r.copy * 1e-12
  return r.copy >= slowest - slack && r.copy <= fastest + slack
}

function versionWarnings(lines: readonly string[]): string[] {
  const swapped =
    'this mbw is older than 1.4, which labels its results the wrong way round: the MEMCPY lines time the b[i] = a[i] loop and the DUMB lines time memcpy(); the metrics keep the labels mbw printed'
  for (const line of lines) {
    const version = VERSION.exec(line)
    if (version) {
      const [major, minor] = [Number(version[1]), Number(version[2])]
      return major < 1 || (major === 1 && minor < 4) ? [swapped] : []
    }
    if (OLD_USAGE.test(line)) return [swapped]
  }
  return []
}

/** Checks every line, then turns one method's lines into samples. */
function methodSamples(method: Method, results: readonly ResultLine[], warnings: string[]): Sample[] | ParseResult {
  const name = `mbw.${method.toLowerCase()}.bandwidth`
  const samples: Sample[] = []
  for (const r of results) {
    if (r.copy === null) {
      warnings.push(`${method} run ${r.run} took less time than mbw's timer can see (Copy: inf); that run is not recorded`)
      continue
    }
    if (r.mib <= 0 || r.copy <= 0) {
      // mbw refuses a size of 0 and cannot copy at 0 MiB/s: such a line is not a measurement
      return parseFailure(`${method} run ${r.run}: ${r.mib <= 0 ? `a copy of ${r.mib} MiB` : `Copy ${r.copy} MiB/s`} is not something mbw measures, so the output is damaged`, r.line)
    }
    if (!consistent({ ...r, copy: r.copy })) {
      return parseFailure(`${method} run ${r.run}: Copy ${r.copy} MiB/s is not MiB / Elapsed (${r.mib} / ${r.elapsed}), so the output is damaged`, r.line)
    }
    samples.push(r.run === 'AVG' ? metric(name, r.copy * MIB) : metric(name, r.copy * MIB, { iteration: r.run }))
  }
  const average = results.find((r) => r.run === 'AVG')
  if (!average) {
    warnings.push(`mbw printed no AVG line for ${method} (was it run with -a?); only the single runs are recorded, with labels.iteration`)
  } else if (average.elapsed < SHORT_COPY_SECONDS) {
    warnings.push(
      `${method} copies took only ${average.elapsed} s on average, so mbw's microsecond timer and scheduling noise weigh heavily; use a larger array (sizeMiB) for a steadier figure`
    )
  }
  return samples
}

/** The runs and AVG line of each test the plan asked for (VirtBench never passes -a). */
function missingPlanned(params: MbwParams, results: readonly ResultLine[]): string | null {
  const runs = params.iterations ?? DEFAULT_ITERATIONS
  const other = results.find((r) => r.mib !== params.sizeMiB)
  if (other) return `the test asked for ${params.sizeMiB} MiB arrays but mbw copied ${other.mib} MiB: is this the output of another run?`
  const asked = (params.tests ?? MBW_TESTS).map((t) => t.toUpperCase())
  const extra = results.find((r) => !asked.includes(r.method))
  if (extra) return `the test asked for ${asked.join(', ')} but mbw printed ${extra.method} results: is this the output of another run?`
  for (const test of params.tests ?? MBW_TESTS) {
    const method = test.toUpperCase() as Method
    const mine = results.filter((r) => r.method === method)
    const printed = mine.filter((r) => r.run !== 'AVG').length
    if (printed !== runs || !mine.some((r) => r.run === 'AVG')) {
      return `the test asked for ${runs} runs and an AVG line of ${method}, but mbw printed ${printed} runs${mine.some((r) => r.run === 'AVG') ? '' : ' and no AVG'}: is the output cut short?`
    }
  }
  return null
}

/** Why the results look cut short (a method with fewer runs, or without the AVG the others have), or null. */
function missingRuns(lines: readonly string[], results: readonly ResultLine[]): string | null {
  const trimmed = lines.map((l) => l.trim())
  const announced = trimmed.map((l) => RUNS_PER_TEST.exec(l)).find((m) => m !== null)
  const methods = METHODS.filter((method) => results.some((r) => r.method === method))
  if (trimmed.some((l) => BLOCK_SIZE_NOTE.test(l)) && !methods.includes('MCBLOCK')) {
    return 'mbw announced the MCBLOCK test but printed no MCBLOCK results: is the output cut short?'
  }
  const runs = (method: Method) => results.filter((r) => r.method === method && r.run !== 'AVG').length
  const averaged = methods.filter((method) => results.some((r) => r.method === method && r.run === 'AVG'))
  for (const method of methods) {
    if (announced && runs(method) !== Number(announced[1])) {
      return `mbw announced ${announced[1]} runs per test but printed ${runs(method)} for ${method}: is the output cut short?`
    }
    if (runs(method) !== runs(methods[0]!)) return `${methods[0]} has ${runs(methods[0]!)} runs but ${method} has ${runs(method)}: is the output cut short?`
  }
  if (averaged.length > 0 && averaged.length < methods.length) {
    const missing = methods.filter((m) => !averaged.includes(m))
    return `mbw printed AVG lines for ${averaged.join(', ')} but not for ${missing.join(', ')}: is the output cut short?`
  }
  return null
}

/**
 * Reads mbw's result lines (`N	Method: …	Elapsed: …	MiB: …	Copy: … MiB/s` and the `AVG` lines)
 * for MEMCPY, DUMB and MCBLOCK. Bandwidth comes from the printed rate, in B/s. With the test's
 * parameters, every run and AVG line it asked for must be there; without, the output must at
 * least agree with itself.
 */
export function parse(out: StepOutput, params?: MbwParams): ParseResult {
  const lines = [...splitLines(out.stdout), ...splitLines(out.stderr)]
  const error = lines.find((l) => ERROR.test(l.trim()))
  if (error) return parseFailure(`mbw stopped with an error: ${error.trim()}`, error)
  const results = lines.map(readLine).filter((r): r is ResultLine => r !== null)
  if (results.length === 0) {
    const text = lines.join('\n')
    return parseFailure(
      'no mbw results found: expected lines like "AVG	Method: MEMCPY	Elapsed: 0.06378	MiB: 512.00000	Copy: 8027.843 MiB/s"',
      text,
      text.search(/\S/)
    )
  }
  if (out.signal) return parseFailure(`mbw was stopped by signal ${out.signal} before it finished`, results.at(-1)!.line)
  if (out.exitCode !== null && out.exitCode !== 0) {
    return parseFailure(`mbw exited with code ${out.exitCode}; its output is not a complete measurement`, results.at(-1)!.line)
  }
  const cut = lines.find((l) => RESULT_START.test(l.trim()) && !readLine(l))
  if (cut !== undefined) return parseFailure('a result line is incomplete or damaged: is the output cut short?', cut)
  const twice = results.find((r, i) => results.findIndex((o) => o.method === r.method && o.run === r.run) !== i)
  if (twice) return parseFailure(`${twice.method} run ${twice.run} appears twice; VirtBench reads the output of one mbw run at a time`, twice.line)
  const incomplete = params ? missingPlanned(params, results) : missingRuns(lines, results)
  if (incomplete) return parseFailure(incomplete, results.at(-1)!.line)
  const sizes = new Set(results.map((r) => r.mib))
  if (sizes.size > 1) return parseFailure(`the results are for different array sizes (${[...sizes].join(', ')} MiB): more than one mbw run`, results[0]!.line)

  const swappable = results.some((r) => r.method === 'MEMCPY' || r.method === 'DUMB')
  const warnings = swappable ? versionWarnings(lines) : []
  const samples: Sample[] = []
  for (const method of METHODS) {
    const mine = results.filter((r) => r.method === method)
    if (mine.length === 0) continue
    const found = methodSamples(method, mine, warnings)
    if (!Array.isArray(found)) return found
    samples.push(...found)
  }
  if (samples.length === 0) return parseFailure('every mbw result was too fast to time (Copy: inf), so nothing was measured', results[0]!.line)
  return parseSuccess(samples, warnings)
}
