/**
 * npm run bench:report: how long `virtbench report --pdf` takes for a large comparison (issue 18's
 * goal: within 2x of Chromium printing an empty page of the same paper size), beside that peer
 * measured in the same run: the same Chromium printing an empty A4 page with its own
 * --print-to-pdf (what any PDF made with it costs at least). The run is bench/ui-fixtures.ts'
 * synthetic document: a baseline and 20 variants, 30 metrics, 3 repetitions (invented, seeded
 * figures: a benchmark input, not a result).
 *
 * Prints each timing, the medians, the ratio to the peer, the page count, where the time of one
 * more print went (browser start, page load, drawing, printing), and PASS/FAIL against the goal.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { findBrowser } from '../src/main/report/find-browser'
import { printWithChromium } from '../src/main/report/chromium-printer'
import { ReportInputSchema } from '../src/shared/report'
import { CLI, RENDERER_DIR } from '../tests/harness/paths'
import { METRICS, REPETITIONS, VARIANTS, syntheticRun } from './ui-fixtures'

const ROUNDS = 5
/** The report may take at most this many times the empty page. */
const GOAL_RATIO = 2

/** An empty page of the report's paper size (A4), for the peer. */
const EMPTY_A4 = 'data:text/html,<style>@page{size:A4;margin:0}</style>'

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

function timed(command: string, args: string[]): number {
  const start = performance.now()
  const result = spawnSync(command, args, { encoding: 'utf8' })
  const seconds = (performance.now() - start) / 1000
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}`)
  return seconds
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vb-bench-report-'))
  try {
    const runDir = path.join(dir, 'run')
    mkdirSync(runDir)
    const run = syntheticRun('20261121-000000-bench1', 'Report benchmark: 20 variants', new Date('2026-11-21T00:00:00Z'))
    writeFileSync(path.join(runDir, 'run.json'), JSON.stringify(run))
    const browser = findBrowser()
    const pdf = path.join(dir, 'report.pdf')
    console.log(`bench:report: ${VARIANTS} variants x ${METRICS} metrics x ${REPETITIONS} repetitions, ${ROUNDS} rounds, ${browser}`)

    const report: number[] = []
    const peer: number[] = []
    const profile = path.join(dir, 'peer-profile')
    for (let i = 0; i < ROUNDS; i++) {
      report.push(timed(process.execPath, [CLI, 'report', runDir, '--pdf', pdf]))
      const root = process.getuid?.() === 0 ? ['--no-sandbox'] : []
      peer.push(
        timed(browser, ['--headless', ...root, '--disable-gpu', '--disable-background-networking', '--no-first-run', '--no-pdf-header-footer', `--user-data-dir=${profile}`, `--print-to-pdf=${path.join(dir, 'empty.pdf')}`, EMPTY_A4])
      )
      console.log(`  round ${i + 1}: report ${report[i]!.toFixed(2)} s, empty page ${peer[i]!.toFixed(2)} s`)
    }
    const pages = /Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1]
    const m = median(report)
    const p = median(peer)
    console.log(`report of ${VARIANTS} variants: median ${m.toFixed(2)} s (${pages} pages); Chromium printing an empty A4 page: median ${p.toFixed(2)} s; ratio ${(m / p).toFixed(1)}x`)

    // one more print in this process, to say where the time goes
    const input = ReportInputSchema.parse({ run, options: {}, appVersion: 'bench', generatedAt: new Date().toISOString() })
    const started = performance.now()
    const { timings } = await printWithChromium({ browser, rendererDir: RENDERER_DIR, input })
    const total = performance.now() - started
    if (timings) {
      const ms = (v: number): string => `${(v / 1000).toFixed(2)} s`
      console.log(`one print, in process: ${ms(total)}: browser start ${ms(timings.browser)}, page load ${ms(timings.load)}, drawing ${ms(timings.render)}, printing ${ms(timings.print)}`)
    }
    const pass = m <= GOAL_RATIO * p
    console.log(`${pass ? 'PASS' : 'FAIL'}: goal within ${GOAL_RATIO}x of the empty page`)
    if (!pass) process.exitCode = 1
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

void main()
