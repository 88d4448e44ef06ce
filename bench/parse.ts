/**
 * How fast the fio parser reads a large json+ report, next to a bare JSON.parse of the same bytes.
 *
 *   npx tsx bench/parse.ts          (npm run bench:parse)
 *
 * The report is built in memory from a real fio 3.33 json+ job (tests/fixtures/tools/fio/
 * randrw-4k-json-plus.stdout), repeated under different job names until it is about 50 MB.
 * Goal: the parser under 1 s and within 1.5x of JSON.parse. Exit code 1 when it misses.
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { parse } from '../src/main/tools/fio/parse'

const FIXTURE = new URL('../tests/fixtures/tools/fio/randrw-4k-json-plus.stdout', import.meta.url)
const TARGET_BYTES = 50 * 1000 * 1000
const WARMUP_RUNS = 2
const MEASURED_RUNS = 7
const GOAL_MS = 1000
const GOAL_RATIO = 1.5

/** fio's report with the one job of the fixture repeated as job-00000, job-00001, ... */
function buildReport(): { text: string; jobs: number } {
  const fixture = readFileSync(FIXTURE, 'utf8')
  const open = fixture.indexOf('"jobs" : [')
  const close = fixture.indexOf('\n  ],', open)
  if (open < 0 || close < 0) throw new Error(`cannot find the jobs array in ${FIXTURE.pathname}`)
  const head = fixture.slice(0, open + '"jobs" : ['.length)
  const tail = fixture.slice(close)
  const job = fixture.slice(open + '"jobs" : ['.length, close).trim()
  const name = /"jobname" : "([^"]+)"/.exec(job)?.[1]
  if (!name) throw new Error('the fixture job has no jobname')
  const count = Math.ceil(TARGET_BYTES / job.length)
  const jobs: string[] = []
  for (let i = 0; i < count; i++) jobs.push(job.split(`"${name}"`).join(`"job-${String(i).padStart(5, '0')}"`))
  return { text: `${head}\n    ${jobs.join(',\n    ')}${tail}`, jobs: count }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

function time(run: () => unknown): number {
  const start = performance.now()
  run()
  return performance.now() - start
}

const { text, jobs } = buildReport()
const out = { stdout: text, stderr: '', exitCode: 0 }

const check = parse(out)
if (!check.ok) throw new Error(`the parser rejected the generated report: ${check.error.reason}`)
const expectedJobs = (JSON.parse(text) as { jobs: unknown[] }).jobs.length
if (expectedJobs !== jobs) throw new Error(`generated ${jobs} jobs but JSON.parse sees ${expectedJobs}`)

for (let i = 0; i < WARMUP_RUNS; i++) {
  JSON.parse(text)
  parse(out)
}
const jsonTimes: number[] = []
const parserTimes: number[] = []
for (let i = 0; i < MEASURED_RUNS; i++) {
  jsonTimes.push(time(() => JSON.parse(text)))
  parserTimes.push(time(() => parse(out)))
}

const jsonMs = median(jsonTimes)
const parserMs = median(parserTimes)
const ratio = parserMs / jsonMs
const met = parserMs < GOAL_MS && ratio <= GOAL_RATIO
console.log(`fio json+ report: ${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB, ${jobs} jobs, ${check.samples.length} samples`)
console.log(`median of ${MEASURED_RUNS} runs after ${WARMUP_RUNS} warm-up runs:`)
console.log(`  JSON.parse   ${jsonMs.toFixed(1)} ms`)
console.log(`  fio parse()  ${parserMs.toFixed(1)} ms`)
console.log(`  ratio        ${ratio.toFixed(2)}x JSON.parse`)
console.log(`goal (< ${GOAL_MS} ms and <= ${GOAL_RATIO}x): ${met ? 'met' : 'MISSED'}`)
if (!met) process.exitCode = 1
