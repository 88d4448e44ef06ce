/**
 * npm run bench:report: how long `virtbench report --pdf` takes for a large comparison (issue 18's
 * goal: within 2x of Chromium printing a page of the same size), beside that peer measured in the
 * same run: the same Chromium, with its own --print-to-pdf, printing the very pages the report
 * drew as a static document (its DOM and styles, served from loopback with the built renderer's
 * fonts; no script, so nothing to draw: what printing that much content costs at least). The
 * empty A4 page the goal was first read against is still printed and reported, for reference
 * only (it has none of the report's pages to lay out). The run is bench/ui-fixtures.ts' synthetic
 * document: a baseline and 20 variants, 30 metrics, 3 repetitions (invented, seeded figures: a
 * benchmark input, not a result).
 *
 * Prints each timing, the medians, the ratios, the page counts (the peer's must equal the
 * report's), where the time of one print went (browser start, page load, drawing, printing), and
 * PASS/FAIL against the goal.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { findBrowser } from '../src/main/report/find-browser'
import { printWithChromium } from '../src/main/report/chromium-printer'
import { readStaticFile } from '../src/main/fs/static-files'
import { ReportInputSchema } from '../src/shared/report'
import { CLI, RENDERER_DIR } from '../tests/harness/paths'
import { METRICS, REPETITIONS, VARIANTS, syntheticRun } from './ui-fixtures'

const ROUNDS = 5
/** The report may take at most this many times the same pages printed as a static document. */
const GOAL_RATIO = 2
/** Where the peer's static document is served (the rest is the built renderer: styles, fonts). */
const PEER_PAGE = '/bench-peer.html'

/** An empty page of the report's paper size (A4), for the peer. */
const EMPTY_A4 = 'data:text/html,<style>@page{size:A4;margin:0}</style>'

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** Seconds `command` took to exit (asynchronous: the peer's page is served from this process meanwhile). */
function timed(command: string, args: string[]): Promise<number> {
  const start = performance.now()
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => {
      const seconds = (performance.now() - start) / 1000
      if (code !== 0) reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${stderr}`))
      else resolve(seconds)
    })
  })
}

/** The peer's page at PEER_PAGE and the built renderer's files, on loopback, as the report page is served. */
async function servePeer(html: string): Promise<{ origin: string; close(): void }> {
  const server = http.createServer((req, res) => {
    void (async () => {
      const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
      if (pathname === PEER_PAGE) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html)
        return
      }
      const file = await readStaticFile(RENDERER_DIR, pathname)
      if (!file) res.writeHead(404).end()
      else res.writeHead(200, { 'Content-Type': file.contentType }).end(file.body)
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

const loadText = (): string => os.loadavg().map((l) => l.toFixed(2)).join(', ')

const pagesOf = (pdf: string): string | undefined => /Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))?.[1]

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vb-bench-report-'))
  try {
    const runDir = path.join(dir, 'run')
    mkdirSync(runDir)
    const run = syntheticRun('20261121-000000-bench1', 'Report benchmark: 20 variants', new Date('2026-11-21T00:00:00Z'))
    writeFileSync(path.join(runDir, 'run.json'), JSON.stringify(run))
    const browser = findBrowser()
    const pdf = path.join(dir, 'report.pdf')
    console.log(`bench:report: ${VARIANTS} variants x ${METRICS} metrics x ${REPETITIONS} repetitions, ${ROUNDS} rounds, ${browser}, load average ${loadText()}`)

    // the pages the report draws, as a static document: the peer
    const input = ReportInputSchema.parse({ run, options: {}, appVersion: 'bench', generatedAt: new Date().toISOString() })
    const { snapshot } = await printWithChromium({ browser, rendererDir: RENDERER_DIR, input, snapshot: true })
    if (!snapshot) throw new Error('the report page gave no snapshot of its drawn pages')
    const site = await servePeer(snapshot)
    try {
      const report: number[] = []
      const peer: number[] = []
      const empty: number[] = []
      const profile = path.join(dir, 'peer-profile')
      const root = process.getuid?.() === 0 ? ['--no-sandbox'] : []
      // the report's own print options that the command line has: no header or footer, an outline
      const chromium = (out: string, url: string): Promise<number> =>
        timed(browser, ['--headless', ...root, '--disable-gpu', '--disable-background-networking', '--no-first-run', '--no-pdf-header-footer', '--generate-pdf-document-outline', `--user-data-dir=${profile}`, `--print-to-pdf=${out}`, url])
      for (let i = 0; i < ROUNDS; i++) {
        report.push(await timed(process.execPath, [CLI, 'report', runDir, '--pdf', pdf]))
        peer.push(await chromium(path.join(dir, 'peer.pdf'), `${site.origin}${PEER_PAGE}`))
        empty.push(await chromium(path.join(dir, 'empty.pdf'), EMPTY_A4))
        console.log(`  round ${i + 1}: report ${report[i]!.toFixed(2)} s, same pages static ${peer[i]!.toFixed(2)} s, empty page ${empty[i]!.toFixed(2)} s`)
      }
      const pages = pagesOf(pdf)
      const peerPages = pagesOf(path.join(dir, 'peer.pdf'))
      const m = median(report)
      const p = median(peer)
      const e = median(empty)
      console.log(`report of ${VARIANTS} variants: median ${m.toFixed(2)} s (${pages} pages)`)
      console.log(`peer, Chromium printing the same pages as a static document: median ${p.toFixed(2)} s (${peerPages} pages); ratio ${(m / p).toFixed(2)}x`)
      console.log(`for reference, Chromium printing an empty A4 page: median ${e.toFixed(2)} s; ratio ${(m / e).toFixed(2)}x`)
      if (pages !== peerPages) throw new Error(`the peer printed ${peerPages} pages, the report ${pages}: not the same content, no ratio to trust`)

      // one more print in this process, to say where the time goes
      const started = performance.now()
      const { timings } = await printWithChromium({ browser, rendererDir: RENDERER_DIR, input })
      const total = performance.now() - started
      if (timings) {
        const ms = (v: number): string => `${(v / 1000).toFixed(2)} s`
        console.log(`one print, in process: ${ms(total)}: browser start ${ms(timings.browser)}, page load ${ms(timings.load)}, drawing ${ms(timings.render)}, printing ${ms(timings.print)}`)
      }
      console.log(`load average at the end: ${loadText()}`)
      const pass = m <= GOAL_RATIO * p
      console.log(`${pass ? 'PASS' : 'FAIL'}: goal within ${GOAL_RATIO}x of Chromium printing the same pages`)
      if (!pass) process.exitCode = 1
    } finally {
      site.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

void main()
