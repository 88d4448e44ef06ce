import type { Sample } from '../../../shared/model/sample'
import { parseFailure, parseSuccess, sampler } from '../common/result'
import type { ParseResult, StepOutput } from '../types'
import { SCORE_CONVERSIONS, unixbenchMetrics } from './metrics'
import type { UnixbenchParams } from './params'
import { BASELINED_TESTS, UNIXBENCH_TESTS, expandTests, testByName, type UnixbenchTest } from './tests'

const make = sampler(unixbenchMetrics)

/*
 * One section of UnixBench's report per number of copies (Run: summarizeRun, logResults, logIndexCat):
 *
 *   Benchmark Run: Fri Nov 20 2026 22:05:46 - 22:05:59
 *   2 CPUs in system; running 1 parallel copy of tests
 *
 *   Dhrystone 2 using register variables       54267169.4 lps   (10.0 s, 1 samples)
 *
 *   System Benchmarks Partial Index              BASELINE       RESULT    INDEX
 *   Dhrystone 2 using register variables         116700.0   54267169.4   4650.1
 *                                                                      ========
 *   System Benchmarks Index Score (Partial Only)                         4650.1
 */
const RUN_START = /^Benchmark Run: /
const COPIES_LINE = /^(?:\d+|unknown) CPUs? in system; running (\d+) parallel cop(?:y|ies) of tests\s*$/
const SCORE_LINE = /^(.+?)\s+(\S+)\s+([A-Za-z]*)\s*\((\S+) s, (\d+) samples\)\s*$/
const INDEX_HEADER = /^(.+?) (?:Index Values|Partial Index)\s+BASELINE\s+RESULT\s+INDEX\s*$/
const INDEX_ROW = /^(.+?)\s+(\S+)\s+(\S+)\s+(\S+)\s*$/
const INDEX_RULE = /^\s+=+\s*$/
const INDEX_SCORE = /^(.+?) Index Score(?: \(Partial Only\))?\s+(\S+)\s*$/
const NO_INDEX = /^No index results available for /
const DECIMAL = /^\d+\.\d+$/
const SYSTEM_CATEGORY = 'System Benchmarks'

class ReportError extends Error {
  constructor(
    message: string,
    readonly line: string
  ) {
    super(message)
  }
}

function decimal(text: string, what: string, line: string): number {
  const value = DECIMAL.test(text) ? Number(text) : NaN
  if (!Number.isFinite(value)) throw new ReportError(`${what} is "${text}", not a number`, line)
  return value
}

interface Section {
  copies: string
  lines: string[]
}

function splitSections(lines: readonly string[]): Section[] {
  const sections: Section[] = []
  for (const [i, line] of lines.entries()) {
    if (!RUN_START.test(line)) continue
    const next = lines[i + 1] ?? ''
    const copies = COPIES_LINE.exec(next)
    if (!copies) throw new ReportError('a "Benchmark Run:" line is not followed by "N CPUs in system; running N parallel copies of tests"', `${line}\n${next}`)
    const end = lines.findIndex((l, j) => j > i && RUN_START.test(l))
    sections.push({ copies: copies[1] ?? '', lines: lines.slice(i + 2, end < 0 ? lines.length : end) })
  }
  return sections
}

interface SectionResult {
  samples: Sample[]
  notMeasured: string[]
  unknown: string[]
  graphics: string[]
  tests: Set<string>
}

/** Reads one section; throws ReportError for anything that is not UnixBench's report or was cut. */
function readSection(section: Section): SectionResult {
  const labels = { copies: section.copies }
  const out: SectionResult = { samples: [], notMeasured: [], unknown: [], graphics: [], tests: new Set() }
  const raw = new Map<string, string>()
  let zone: 'raw' | 'index' | 'after' = 'raw'
  let category = ''
  for (const line of section.lines) {
    if (line.trim() === '') continue
    const header = INDEX_HEADER.exec(line)
    if (header) {
      if (zone === 'index') throw new ReportError(`the "${category}" index table has no score line (cut short?)`, line)
      zone = 'index'
      category = header[1] ?? ''
      continue
    }
    if (zone === 'raw') {
      if (NO_INDEX.test(line)) {
        zone = 'after'
        continue
      }
      const score = SCORE_LINE.exec(line)
      if (!score) throw new ReportError('a line among the test scores is not "<test> <score> <unit> (<time> s, <n> samples)" (cut short?)', line)
      readScore(score, line, out, raw, labels)
    } else if (zone === 'index') {
      if (INDEX_RULE.test(line)) continue
      const total = INDEX_SCORE.exec(line)
      if (total && total[1] === category) {
        const value = decimal(total[2] ?? '', `the ${category} Index Score`, line)
        if (category === SYSTEM_CATEGORY) out.samples.push(make('unixbench.index', value, labels))
        zone = 'after'
        continue
      }
      const row = INDEX_ROW.exec(line)
      if (!row) throw new ReportError(`a line of the "${category}" index table is not "<test> <baseline> <result> <index>"`, line)
      readIndexRow(row, line, out, raw, labels)
    }
  }
  if (zone === 'index') throw new ReportError(`the "${category}" index table has no score line (cut short?)`, section.lines.at(-1) ?? '')
  if (zone === 'raw') {
    const indexed = [...out.tests].find((id) => BASELINED_TESTS.has(id) && !out.notMeasured.includes(id))
    if (indexed) throw new ReportError(`the scores are not followed by the index table that ${indexed} has (cut short?)`, section.lines.join('\n'))
  }
  return out
}

function readScore(m: RegExpExecArray, line: string, out: SectionResult, raw: Map<string, string>, labels: { copies: string }): void {
  const [, name = '', scoreText = '', unitText = '', , samples = ''] = m
  const test = testByName(name.trim())
  if (!test) {
    out.unknown.push(name.trim())
    return
  }
  out.tests.add(test.id)
  raw.set(test.id, scoreText)
  if (unitText === '' || samples === '0') {
    out.notMeasured.push(test.id)
    return
  }
  const score = decimal(scoreText, `the score of ${test.id}`, line)
  const conversion = SCORE_CONVERSIONS[unitText]
  const expected = SCORE_CONVERSIONS[test.reportUnit]
  if (!expected) {
    out.graphics.push(test.id)
    return
  }
  if (!conversion || conversion.unit !== expected.unit) {
    throw new ReportError(`UnixBench printed the unit "${unitText}" for ${test.id}, which reports ${test.reportUnit}`, line)
  }
  out.samples.push(make(`unixbench.${test.id}`, conversion.convert(score), labels))
}

function readIndexRow(m: RegExpExecArray, line: string, out: SectionResult, raw: Map<string, string>, labels: { copies: string }): void {
  const [, name = '', baseline = '', result = '', index = ''] = m
  const test: UnixbenchTest | undefined = testByName(name.trim())
  if (!test) {
    if (!out.unknown.includes(name.trim())) out.unknown.push(name.trim())
    return
  }
  const rawScore = raw.get(test.id)
  if (rawScore !== undefined && rawScore !== result) {
    throw new ReportError(`the index table gives ${test.id} the result ${result}, but its score line says ${rawScore}`, line)
  }
  out.tests.add(test.id)
  if (baseline === '---' || index === '---' || out.notMeasured.includes(test.id)) return
  decimal(baseline, `the baseline of ${test.id}`, line)
  out.samples.push(make(`unixbench.${test.id}.index`, decimal(index, `the index of ${test.id}`, line), labels, 'unixbench.<test>.index'))
}

function failedRun(out: StepOutput): ParseResult {
  const how = out.signal ? `was stopped by signal ${out.signal}` : `exited with status ${out.exitCode}`
  const text = `${out.stderr}\n${out.stdout}`
  const said = /^(Run: .*|.*\*\*\* .*|.*[Ee]rror.*)$/m.exec(text)
  return parseFailure(`UnixBench's Run ${how}${said ? `: ${said[1]?.trim()}` : ''}`, text.trim(), said?.index ?? 0)
}

/** What the parameters asked for that the report lacks: a run cut short. */
function missingFromPlan(sections: readonly Section[], results: readonly SectionResult[], params: UnixbenchParams): string | null {
  if (params.copies.length > 0) {
    const got = sections.map((s) => s.copies).join(', ')
    if (got !== params.copies.join(', ')) return `UnixBench was asked for runs with ${params.copies.join(', ')} copies but reported ${got || 'none'}`
  }
  const wanted = new Set(expandTests(params.tests.length > 0 ? params.tests : ['index']))
  for (const [i, result] of results.entries()) {
    const copies = Number(sections[i]?.copies ?? 1)
    // Run skips graphics tests when running more than one copy.
    const missing = [...wanted].filter((id) => {
      const category = UNIXBENCH_TESTS.find((x) => x.id === id)?.category
      return !result.tests.has(id) && !((category === '2d' || category === '3d') && copies > 1)
    })
    if (missing.length > 0) return `UnixBench's report for ${copies} ${copies === 1 ? 'copy' : 'copies'} lacks ${missing.join(', ')}`
  }
  return null
}

/** Output that ends where a new section begins (its dashes, or part of "Benchmark Run:") was cut. */
function endsMidSection(lines: readonly string[]): boolean {
  const last = lines.findLast((l) => l.trim() !== '') ?? ''
  const start = 'Benchmark Run: '
  return /^-+$/.test(last) || (last.length < start.length && start.startsWith(last))
}

function warningsFor(results: readonly SectionResult[]): string[] {
  const once = (pick: (r: SectionResult) => string[]) => [...new Set(results.flatMap(pick))]
  return [
    ...once((r) => r.notMeasured).map((id) => `UnixBench measured nothing for ${id} (no unit, 0 samples); it has no sample.`),
    ...once((r) => r.unknown).map((name) => `Unknown UnixBench test "${name}" left out.`),
    ...once((r) => r.graphics).map((id) => `${id} is a graphics test; its raw score has no VirtBench unit, only its index is kept.`)
  ]
}

/** The samples of every section; throws ReportError where the report is malformed or cut. */
function readReport(stdout: string, lines: readonly string[], params: UnixbenchParams | undefined): ParseResult {
  const sections = splitSections(lines)
  if (sections.length === 0) {
    return parseFailure('No UnixBench report found: no "Benchmark Run:" section. Pass the whole output of ./Run (or its results file).', stdout)
  }
  const results = sections.map(readSection)
  if (results.at(-1)?.tests.size === 0) {
    return parseFailure(`The UnixBench report's last section (${sections.at(-1)?.copies} copies) has no results: the run or its output was cut short.`, stdout, stdout.length)
  }
  const missing = params ? missingFromPlan(sections, results, params) : null
  if (missing) return parseFailure(`${missing}; the run was cut short or the output is incomplete.`, stdout, stdout.search(RUN_START))
  const samples = results.flatMap((r) => r.samples)
  if (samples.length === 0) return parseFailure('The UnixBench report has no measured score.', stdout, stdout.search(RUN_START))
  return parseSuccess(samples, warningsFor(results))
}

/**
 * Reads the report UnixBench's Run prints at the end of its output (or its results/<host>-<date>
 * file): the raw score of each test, each index, and the System Benchmarks Index Score, one set
 * per "Benchmark Run" section with `labels.copies`.
 */
export function parse(out: StepOutput, params?: UnixbenchParams): ParseResult {
  if (out.signal || (out.exitCode !== null && out.exitCode !== 0)) return failedRun(out)
  const lines = out.stdout.split('\n').map((l) => l.replace(/\r$/, ''))
  if (endsMidSection(lines)) {
    return parseFailure('The UnixBench report ends where a new "Benchmark Run" section starts: the run or its output was cut short.', out.stdout, out.stdout.length)
  }
  try {
    return readReport(out.stdout || out.stderr, lines, params)
  } catch (e) {
    if (e instanceof ReportError) return parseFailure(`UnixBench report: ${e.message}.`, e.line)
    throw e
  }
}
