import type { Sample } from '../../../shared/model/sample'
import { parseFailure, parseSuccess, sampler } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { BONNIE_TESTS, LAYOUTS, latencyIndex, rateIndex, type CsvLayout } from './csv-layout'
import { bonnieMetrics } from './metrics'
import { fileSizeMiB, type BonnieParams } from './params'

const make = sampler(bonnieMetrics)

/** A line that starts like bonnie++'s CSV: format version, bonnie++ version. */
const CSV_LINE = /^(\d+\.\d+[a-z]?),(\d+\.\d+[a-z]?),/
const HEADER_LINE = /^format_version,bonnie_version,/
const RATE = /^\d+(\.\d+)?$/
const CPU = /^\d+$/
const LATENCY = /^(\d+(?:\.\d+)?)(us|ms|s)$/
/** bonnie++'s marks for a test that took under 0.5 s: a rate and a CPU too fast to time. */
const TOO_FAST_RATE = '+++++'
const TOO_FAST_CPU = '+++'
/** Divisors to seconds; dividing by an exact power of ten keeps 2430us exactly 0.00243. */
const PER_SECOND: Record<string, number> = { us: 1e6, ms: 1e3, s: 1 }

interface LineProblem {
  reason: string
  line: string
}

/** What one CSV line gave: samples, and which tests were too fast or not run. */
interface LineResult {
  samples: Sample[]
  tooFast: string[]
  notRun: string[]
}

function readLine(fields: string[], layout: CsvLayout, repetition: string, line: string): LineResult | LineProblem {
  const result: LineResult = { samples: [], tooFast: [], notRun: [] }
  const labels = { repetition }
  const bad = (index: number, name: string, expected: string): LineProblem => ({
    reason: `bonnie++ CSV line ${repetition}: field ${index + 1} (${name}) is "${fields[index]}", expected ${expected}`,
    line
  })
  for (const [i, test] of BONNIE_TESTS.entries()) {
    const at = rateIndex(layout, i)
    const rate = fields[at] ?? ''
    const cpu = fields[at + 1] ?? ''
    const latency = fields[latencyIndex(layout, i)] ?? ''
    if (rate === TOO_FAST_RATE) {
      if (cpu !== TOO_FAST_CPU && cpu !== '') return bad(at + 1, `${test.id}_cpu`, '+++ after a +++++ rate')
      result.tooFast.push(test.id)
    } else if (rate === '') {
      if (cpu !== '') return bad(at + 1, `${test.id}_cpu`, 'empty after an empty rate')
      result.notRun.push(test.id)
    } else {
      const value = RATE.test(rate) ? Number(rate) * (test.rate === 'KiB/s' ? 1024 : 1) : NaN
      if (!Number.isFinite(value)) return bad(at, test.id, 'a number, +++++ or nothing')
      if (!CPU.test(cpu) || !Number.isFinite(Number(cpu))) return bad(at + 1, `${test.id}_cpu`, 'a whole number of percent')
      result.samples.push(make(`bonnie.${test.id}`, value, labels), make(`bonnie.${test.id}.cpu`, Number(cpu), labels))
    }
    if (latency === '') {
      // bonnie++ prints the worst latency of every test that ran; a missing one means a cut line.
      if (rate !== '') return bad(latencyIndex(layout, i), `${test.id}_latency`, `a time, since the ${test.id} test ran (was the line cut short?)`)
      continue
    }
    const m = LATENCY.exec(latency)
    const seconds = m ? Number(m[1]) / (PER_SECOND[m[2] ?? ''] ?? NaN) : NaN
    if (!Number.isFinite(seconds)) return bad(latencyIndex(layout, i), `${test.id}_latency`, 'a time such as 1198us, 45ms or 2s, or nothing')
    result.samples.push(make(`bonnie.${test.id}.latency`, seconds, labels))
  }
  return result
}

function describeRepetitions(reps: string[], total: number): string {
  if (total === 1) return ''
  return reps.length === total ? ' in every repetition' : ` in repetition${reps.length > 1 ? 's' : ''} ${reps.join(', ')}`
}

function collectWarnings(byTest: Map<string, string[]>, total: number, say: (test: string, where: string) => string): string[] {
  return [...byTest].map(([test, reps]) => say(test, describeRepetitions(reps, total)))
}

/** All CSV lines, one repetition each: their samples, and per test the repetitions it was too fast or not run in. */
interface RunResults {
  samples: Sample[]
  tooFast: Map<string, string[]>
  notRun: Map<string, string[]>
}

function readCsvLines(csvLines: readonly string[]): RunResults | ParseResult {
  const results: RunResults = { samples: [], tooFast: new Map(), notRun: new Map() }
  const note = (byTest: Map<string, string[]>, test: string, repetition: string) => byTest.set(test, [...(byTest.get(test) ?? []), repetition])
  for (const [n, line] of csvLines.entries()) {
    const repetition = String(n + 1)
    const fields = line.split(',')
    const format = fields[0] ?? ''
    const layout = LAYOUTS[format]
    if (!layout) {
      return parseFailure(
        `bonnie++ CSV format ${format} (bonnie++ ${fields[1]}) is not supported; VirtBench reads formats 1.96, 1.97 and 1.98 (bonnie++ 1.96 to 2.00).`,
        line
      )
    }
    if (fields.length !== layout.fieldCount) {
      return parseFailure(
        `bonnie++ CSV line ${repetition} has ${fields.length} fields, format ${format} has ${layout.fieldCount}: ` +
          'the line was cut short, or the machine name (-m) contains a comma.',
        line,
        line.length
      )
    }
    const read = readLine(fields, layout, repetition, line)
    if ('reason' in read) return parseFailure(read.reason, read.line)
    results.samples.push(...read.samples)
    for (const test of read.tooFast) note(results.tooFast, test, repetition)
    for (const test of read.notRun) note(results.notRun, test, repetition)
  }
  return results
}

function warningsFor(results: RunResults, total: number): string[] {
  return [
    ...collectWarnings(results.tooFast, total, (test, where) => {
      const longer = BONNIE_TESTS.find((t) => t.id === test)?.longer ?? 'a longer test'
      return `bonnie.${test} not measured${where}: bonnie++ printed +++++ because the test took under 0.5 s; use ${longer}.`
    }),
    ...collectWarnings(results.notRun, total, (test, where) => `bonnie.${test} not run${where} (bonnie++ left the field empty: -f, -s 0 or -n 0 skip tests).`)
  ]
}

/** Tests the parameters asked bonnie++ to skip: their empty fields need no warning. */
function skippedOnPurpose(params: BonnieParams | undefined): string[] {
  if (!params) return []
  const skipped: string[] = []
  if (params.fileSize !== undefined && fileSizeMiB(params.fileSize) === 0) skipped.push(...BONNIE_TESTS.slice(0, 6).map((t) => t.id))
  else if (params.skipPerChar) skipped.push('putc', 'getc')
  if (params.numFiles === 0) skipped.push(...BONNIE_TESTS.slice(6).map((t) => t.id))
  return skipped
}

/** Why bonnie++ failed, from its own words on stderr. */
function failedRun(out: StepOutput): ParseResult {
  const stderr = out.stderr.trim()
  const ram = /File size should be double RAM for good results, RAM is (\d+)M\./.exec(stderr)
  if (ram) {
    return parseFailure(
      `bonnie++ refused to run: the file size must be at least twice the RAM (${ram[1]} MiB). ` +
        'Raise fileSize, or set ramMiB to test a smaller file (results then include the page cache).',
      stderr,
      ram.index
    )
  }
  const how = out.signal ? `was stopped by signal ${out.signal}` : `exited with status ${out.exitCode}`
  const firstLine = stderr.split('\n')[0] ?? ''
  return parseFailure(`bonnie++ ${how}${firstLine ? `: ${firstLine}` : ''}`, stderr || out.stdout)
}

/**
 * Reads the CSV line(s) bonnie++ 1.96 to 2.00 prints on stdout (format 1.96, 1.97 or 1.98), wherever
 * they are among the text table and progress lines. Each line is one repetition (`-x`).
 * The text table is not read: it rounds the numbers (`52.2m`) and goes to stderr with `-q`.
 */
export function parse(out: StepOutput, params?: BonnieParams): ParseResult {
  if (out.signal || (out.exitCode !== null && out.exitCode !== 0)) return failedRun(out)
  const lines = out.stdout.split('\n').map((l) => l.replace(/\r$/, ''))
  const last = lines.at(-1) ?? ''
  // Output that stops inside a line that begins like a CSV line ("1.9", "1.98,2.0") was cut.
  if (/^\d/.test(last) && !CSV_LINE.test(last)) {
    return parseFailure('bonnie++ output ends inside a CSV line: the run or its output was cut short.', out.stdout, out.stdout.length)
  }
  const csvLines = lines.filter((l) => CSV_LINE.test(l) && !HEADER_LINE.test(l))
  if (csvLines.length === 0) {
    const hint = /Sequential Output|Sequential Create/.test(out.stdout + out.stderr)
      ? "bonnie++'s table is there but its CSV line is not; pass bonnie++'s whole stdout"
      : 'this does not look like bonnie++ output'
    return parseFailure(`No bonnie++ CSV line (starting with format and bonnie++ versions, like "1.98,2.00a,") found: ${hint}.`, out.stdout || out.stderr)
  }
  if (params && params.repetitions > 1 && csvLines.length !== params.repetitions) {
    return parseFailure(
      `bonnie++ was asked for ${params.repetitions} runs (-x) but printed ${csvLines.length} CSV line(s); the run was cut short or the output is incomplete.`,
      csvLines.join('\n')
    )
  }
  const read = readCsvLines(csvLines)
  if ('ok' in read) return read
  for (const test of skippedOnPurpose(params)) read.notRun.delete(test)
  if (read.samples.length === 0) return parseFailure('bonnie++ printed CSV lines without a single measured value.', csvLines.join('\n'))
  return parseSuccess(read.samples, warningsFor(read, csvLines.length))
}
