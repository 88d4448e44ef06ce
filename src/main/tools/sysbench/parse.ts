import type { Sample } from '../../../shared/model/sample'
import { parseFailure, parseSuccess, sampler } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { sysbenchMetrics } from './metrics'
import type { SysbenchParams, SysbenchTest } from './params'

const metric = sampler(sysbenchMetrics)

const MIB = 1024 * 1024
const NUMBER = '([0-9]{1,15}(?:\\.[0-9]{1,9})?)'

const HEADER = /^sysbench ([0-9]+)\.([0-9]+)(?:\.[0-9]+)?/
const FATAL = /^FATAL: /
const ADVICE = /^WARNING: /

const CPU_EVENTS = new RegExp(`^events per second:\\s+${NUMBER}$`)
const TOTAL_TIME = new RegExp(`^total time:\\s+${NUMBER}s$`)
const TOTAL_EVENTS = /^total number of events:\s+([0-9]{1,19})$/
const MEMORY_OPERATIONS = new RegExp(`^Total operations: ([0-9]{1,19}) \\(\\s*${NUMBER} per second\\)$`)
const MEMORY_TRANSFER = new RegExp(`^${NUMBER} MiB transferred \\(${NUMBER} MiB/sec\\)$`)
const FILE_MODE = /^Doing (.+) test$/
/** The fileio report's fields, by the label sysbench prints before each value. */
const FILE_FIELDS = { reads: 'reads/s:', writes: 'writes/s:', fsyncs: 'fsyncs/s:', read: 'read, MiB/s:', written: 'written, MiB/s:' } as const
type FileField = keyof typeof FILE_FIELDS
const LATENCY_HEADING = /^Latency \(ms\):$/
/** The last line of every report (`execution time (avg/stddev):   0.9973/0.00`): without it the output is cut short. */
const LAST_LINE = /^execution time \(avg\/stddev\):\s+[0-9]+\.[0-9]{4}\/[0-9]+\.[0-9]{2}$/
const LATENCY_STAT = new RegExp(`^(min|avg|max|([0-9]{1,3})th percentile):\\s+${NUMBER}$`)

/** What each fileio mode (sysbench's own names, from `Doing … test`) reads and writes. */
const FILE_MODE_DIRECTIONS: Record<string, { reads: boolean; writes: boolean }> = {
  'sequential write (creation)': { reads: false, writes: true },
  'sequential rewrite': { reads: false, writes: true },
  'sequential read': { reads: true, writes: false },
  'random read': { reads: true, writes: false },
  'random write': { reads: false, writes: true },
  'random r/w': { reads: true, writes: true }
}

/** Lines with their indentation removed; sysbench indents its report. */
function trimmedLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/).map((l) => l.trim())
}

function find(lines: readonly string[], pattern: RegExp): RegExpExecArray | null {
  for (const line of lines) {
    const m = pattern.exec(line)
    if (m) return m
  }
  return null
}

function count(lines: readonly string[], pattern: RegExp): number {
  return lines.filter((l) => pattern.test(l)).length
}

/** Which test printed this report, from the lines only that test prints. */
function detectTest(lines: readonly string[]): SysbenchTest | null {
  if (lines.some((l) => l === 'CPU speed:' || l.startsWith('Prime numbers limit:'))) return 'cpu'
  if (lines.some((l) => l.startsWith('Running memory speed test') || MEMORY_OPERATIONS.test(l))) return 'memory'
  if (lines.some((l) => l === 'File operations:')) return 'fileio'
  return null
}

/** A value sysbench printed as 0.00 is below its print precision: not recorded, and said so. */
function keepNonZero(name: string, value: number, zeros: string[], samples: Sample[], labels = {}, pattern = name): void {
  if (value > 0) samples.push(metric(name, value, labels, pattern))
  else zeros.push(name)
}

function latencySamples(test: SysbenchTest, lines: readonly string[], zeros: string[]): Sample[] {
  const start = lines.findIndex((l) => LATENCY_HEADING.test(l))
  if (start < 0) return []
  const samples: Sample[] = []
  for (const line of lines.slice(start + 1)) {
    if (line === '') break
    const m = LATENCY_STAT.exec(line)
    if (!m) continue
    // Shifted in decimal, so 0.27 ms is exactly 0.00027 s.
    const seconds = Number(`${m[3]}e-3`)
    if (m[2] !== undefined) {
      keepNonZero(`sysbench.${test}.lat.p${Number(m[2])}`, seconds, zeros, samples, {}, 'sysbench.<test>.lat.p<percentile>')
    } else {
      keepNonZero(`sysbench.${test}.lat.${m[1]}`, seconds, zeros, samples, {}, `sysbench.<test>.lat.${m[1]}`)
    }
  }
  return samples
}

function cpuSamples(lines: readonly string[], warnings: string[], zeros: string[]): Sample[] | string {
  const samples: Sample[] = []
  const events = find(lines, CPU_EVENTS)
  if (events) {
    keepNonZero('sysbench.cpu.events', Number(events[1]), zeros, samples)
    return samples
  }
  // sysbench before 1.0.8 prints no events per second for the cpu test.
  const total = find(lines, TOTAL_EVENTS)
  const time = find(lines, TOTAL_TIME)
  if (!total || !time || Number(time[1]) <= 0) return 'the cpu report has no "events per second:" line, nor total events and total time'
  warnings.push('this sysbench prints no "events per second" (older than 1.0.8); sysbench.cpu.events is total number of events / total time')
  keepNonZero('sysbench.cpu.events', Number(total[1]) / Number(time[1]), zeros, samples)
  return samples
}

function memorySamples(lines: readonly string[], warnings: string[], zeros: string[]): Sample[] | string {
  const operations = find(lines, MEMORY_OPERATIONS)
  if (!operations) return 'the memory report has no "Total operations: N (X per second)" line'
  const samples: Sample[] = []
  keepNonZero('sysbench.memory.operations', Number(operations[2]), zeros, samples)
  const transfer = find(lines, MEMORY_TRANSFER)
  if (transfer) keepNonZero('sysbench.memory.bandwidth', Number(transfer[2]) * MIB, zeros, samples)
  else warnings.push('sysbench printed no "MiB transferred" line (memory-oper=none moves no data), so there is no memory bandwidth')
  return samples
}

function fileioSamples(lines: readonly string[], warnings: string[], zeros: string[]): Sample[] | string {
  const values = {} as Record<FileField, number>
  for (const [field, label] of Object.entries(FILE_FIELDS) as [FileField, string][]) {
    const m = find(lines, new RegExp(`^${label}\\s+${NUMBER}$`))
    if (!m) return `the fileio report has no "${label}" line`
    values[field] = Number(m[1])
  }
  const mode = find(lines, FILE_MODE)
  let directions = mode ? FILE_MODE_DIRECTIONS[mode[1]!] : undefined
  if (!directions) {
    directions = { reads: values.reads > 0, writes: values.writes > 0 }
    warnings.push(`could not tell the fileio test mode${mode ? ` ("${mode[1]}")` : ''}; only directions with operations are recorded`)
  }
  const samples: Sample[] = []
  if (directions.reads) {
    keepNonZero('sysbench.fileio.reads', values.reads, zeros, samples)
    keepNonZero('sysbench.fileio.read.bandwidth', values.read * MIB, zeros, samples)
  }
  if (directions.writes) {
    keepNonZero('sysbench.fileio.writes', values.writes, zeros, samples)
    keepNonZero('sysbench.fileio.write.bandwidth', values.written * MIB, zeros, samples)
  }
  if (values.fsyncs > 0) samples.push(metric('sysbench.fileio.fsyncs', values.fsyncs))
  return samples
}

function fatalFailure(lines: readonly string[]): ParseResult | null {
  const at = lines.findIndex((l) => FATAL.test(l))
  if (at < 0) return null
  const advice = lines.slice(at + 1).find((l) => ADVICE.test(l))
  const said = advice ? `${lines[at]} ${advice}` : lines[at]!
  return parseFailure(`sysbench stopped with an error: ${said}`, lines[at]!)
}

/**
 * Reads the report of `sysbench cpu|memory|fileio run` (sysbench 1.0 and later): events per
 * second, memory transfer rate, file operations and throughput, and the latency summary.
 */
export function parse(out: StepOutput, params?: SysbenchParams): ParseResult {
  const lines = [...trimmedLines(out.stdout), ...trimmedLines(out.stderr)]
  if (lines.every((l) => l === '')) return parseFailure('the output is empty: sysbench printed nothing', '')
  const fatal = fatalFailure(lines)
  if (fatal) return fatal
  const header = find(lines, HEADER)
  if (header && Number(header[1]) < 1) {
    return parseFailure(`this is sysbench ${header[1]}.${header[2]}; VirtBench reads the report format of sysbench 1.0 and later`, header[0])
  }
  const test = detectTest(lines)
  const text = lines.join('\n')
  if (!test) {
    return parseFailure(
      'no sysbench cpu, memory or fileio report found (expected "CPU speed:", "Total operations:" or "File operations:")',
      text,
      text.search(/\S/)
    )
  }
  if (params && params.test !== test) return parseFailure(`expected a sysbench ${params.test} report but this is a ${test} report`, text, text.search(/\S/))
  if (count(lines, LATENCY_HEADING) > 1) return parseFailure('found more than one sysbench report; VirtBench reads one run at a time', text)
  if (!lines.some((l) => LAST_LINE.test(l))) {
    return parseFailure('the report ends before its last line ("execution time (avg/stddev): …"): is the output cut short?', text, Math.max(0, text.trimEnd().length - 80))
  }
  if (out.signal) return parseFailure(`sysbench was stopped by signal ${out.signal} before it finished`, text)
  if (out.exitCode !== null && out.exitCode !== 0) return parseFailure(`sysbench exited with code ${out.exitCode}; its report is not a complete measurement`, text)

  const warnings: string[] = []
  const zeros: string[] = []
  const main =
    test === 'cpu' ? cpuSamples(lines, warnings, zeros) : test === 'memory' ? memorySamples(lines, warnings, zeros) : fileioSamples(lines, warnings, zeros)
  if (typeof main === 'string') return parseFailure(`the sysbench ${test} report is incomplete: ${main}`, text, text.search(/\S/))
  if (main.length === 0) return parseFailure(`the sysbench ${test} report shows no operations at all (0.00 per second)`, text, text.search(/\S/))
  const samples = [...main, ...latencySamples(test, lines, zeros)]
  if (zeros.length > 0) {
    warnings.push(`sysbench printed 0.00 for ${zeros.join(', ')} (below its print precision of two decimals); not recorded`)
  }
  return parseSuccess(samples, warnings)
}
