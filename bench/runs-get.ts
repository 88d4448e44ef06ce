/**
 * What `runs:get` costs the app while a run view polls a run that is not going in this process
 * (a finished run, or one the CLI runs), next to a bare JSON.parse of the same run.json.
 *
 *   npx tsx bench/runs-get.ts          (npm run bench:runs-get)
 *
 * The run is the UI benchmark's 20-variant document (bench/ui-fixtures.ts, about 0.9 MB), kept in
 * a fresh data folder; runs:get goes through dispatch() as every transport's does (the request and
 * the answer checked against the contract). Measured interleaved, so that all three see the same
 * load: reading run.json and JSON.parse of it (the peer), runs:get of the unchanged folder (the
 * poll), and runs:get right after the file was rewritten (atomically, as the engine writes it;
 * what every read cost before unchanged folders were kept checked).
 * Then a sweep (tests/fixtures/runs/sweep-cache-io, copied into the data folder): runs:get of the
 * unchanged sweep (its combined document, kept by RunDocumentCache.sweepRun) against reading and
 * JSON.parse of every file it is built from (sweep.json and each step's run.json).
 * Goal: the poll of an unchanged folder within 0.5x of the peer. Exit code 1 when it misses. The
 * sweep's ratio is printed, not yet held to a goal (its poll still reads every file and checks
 * sweep.json's plan).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { dispatch } from '../src/main/api/dispatch'
import { createApi } from '../src/main/api/handlers'
import { RUN_FILE, RunStore, SWEEP_FILE, writeRunFile } from '../src/main/store/run-store'
import type { RunDocument } from '../src/shared/model/run'
import { syntheticRun } from './ui-fixtures'

const WARMUP_RUNS = 5
const MEASURED_RUNS = 61
const GOAL_RATIO = 0.5

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await run()
  return performance.now() - start
}

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
// what electron-vite and vitest define at build time
;(globalThis as { __APP_VERSION__?: string }).__APP_VERSION__ = pkg.version

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vb-bench-runs-get-'))
  try {
    const run = syntheticRun('bench-runs-get', '20 variants x 30 metrics', new Date('2026-01-05T09:00:00Z'))
    const store = new RunStore(path.join(dataDir, 'runs'))
    if (!(await store.add(run))) throw new Error('cannot add the benchmark run')
    const dir = store.dirOf(run.id)
    const file = path.join(dir, RUN_FILE)
    const api = createApi({ transport: 'bridge', dataDir, versions: { node: process.versions.node } })
    const get = async (): Promise<RunDocument> => {
      const answer = await dispatch(api.handlers, 'runs:get', { id: run.id })
      if (!answer.ok) throw new Error(`runs:get failed: ${answer.error.message}`)
      return answer.value as RunDocument
    }
    const peer = async (): Promise<unknown> => JSON.parse(await readFile(file, 'utf8'))
    // two versions of the document, one byte apart in size, written in turn
    let version = 0
    const rewrite = (): Promise<void> => writeRunFile(dir, { ...run, name: `${run.name}${++version % 2 === 0 ? '' : '.'}` })

    const first = await get()
    if (first.jobs.length !== run.jobs.length) throw new Error(`runs:get gave ${first.jobs.length} jobs, the run has ${run.jobs.length}`)
    const peerMs: number[] = []
    const pollMs: number[] = []
    const changedMs: number[] = []
    for (let i = 0; i < WARMUP_RUNS + MEASURED_RUNS; i++) {
      const a = await time(peer)
      const b = await time(get)
      await rewrite()
      const c = await time(get)
      if (i < WARMUP_RUNS) continue
      peerMs.push(a)
      pollMs.push(b)
      changedMs.push(c)
    }
    const last = await get()
    if (last.name !== `${run.name}${version % 2 === 0 ? '' : '.'}`) throw new Error(`runs:get gave a stale document after a write: "${last.name}"`)

    const jsonMed = median(peerMs)
    const pollMed = median(pollMs)
    const changedMed = median(changedMs)
    const ratio = pollMed / jsonMed
    const met = ratio <= GOAL_RATIO
    console.log(`run.json: ${(readFileSync(file).length / 1e6).toFixed(2)} MB, ${run.targets.length} targets, ${run.jobs.length} jobs`)
    console.log(`median of ${MEASURED_RUNS} rounds after ${WARMUP_RUNS} warm-up rounds, load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores:`)
    console.log(`  read + JSON.parse (peer)         ${jsonMed.toFixed(2)} ms`)
    console.log(`  runs:get, unchanged folder       ${pollMed.toFixed(2)} ms   ${ratio.toFixed(2)}x the peer`)
    console.log(`  runs:get, right after a write    ${changedMed.toFixed(2)} ms   ${(changedMed / jsonMed).toFixed(2)}x the peer (checked in full)`)
    console.log(`goal (unchanged folder <= ${GOAL_RATIO}x the peer): ${met ? 'met' : 'MISSED'}`)
    await benchSweep(dataDir, api.handlers)
    if (!met) process.exitCode = 1
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const SWEEP_FIXTURE = new URL('../tests/fixtures/runs/sweep-cache-io', import.meta.url).pathname

/** Prints runs:get of an unchanged sweep against reading + JSON.parse of sweep.json and every step's run.json. */
async function benchSweep(dataDir: string, handlers: ReturnType<typeof createApi>['handlers']): Promise<void> {
  const id = 'bench-sweep'
  const dir = path.join(dataDir, 'runs', id)
  cpSync(SWEEP_FIXTURE, dir, { recursive: true })
  const files = [path.join(dir, SWEEP_FILE), ...readdirSync(dir).filter((name) => /^\d+-/.test(name)).map((name) => path.join(dir, name, RUN_FILE))]
  const get = async (): Promise<RunDocument> => {
    const answer = await dispatch(handlers, 'runs:get', { id })
    if (!answer.ok) throw new Error(`runs:get of the sweep failed: ${answer.error.message}`)
    return answer.value as RunDocument
  }
  const peer = async (): Promise<unknown> => Promise.all(files.map(async (file) => JSON.parse(await readFile(file, 'utf8')) as unknown))
  if ((await get()).id !== id) throw new Error('runs:get of the sweep gave another id')
  const peerMs: number[] = []
  const pollMs: number[] = []
  for (let i = 0; i < WARMUP_RUNS + MEASURED_RUNS; i++) {
    const a = await time(peer)
    const b = await time(get)
    if (i < WARMUP_RUNS) continue
    peerMs.push(a)
    pollMs.push(b)
  }
  const peerMed = median(peerMs)
  const pollMed = median(pollMs)
  const ratio = pollMed / peerMed
  const bytes = files.reduce((sum, file) => sum + readFileSync(file).length, 0)
  console.log(`sweep: ${files.length - 1} steps, ${(bytes / 1e6).toFixed(2)} MB in ${files.length} files; median of ${MEASURED_RUNS} rounds, load ${os.loadavg()[0]!.toFixed(1)}:`)
  console.log(`  read + JSON.parse of every file (peer)  ${peerMed.toFixed(2)} ms`)
  console.log(`  runs:get, unchanged sweep               ${pollMed.toFixed(2)} ms   ${ratio.toFixed(2)}x the peer`)
}

void main()
