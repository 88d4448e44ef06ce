/**
 * The engine's own cost per job, next to a bare ssh2 exec of `true` on the same connection,
 * measured in one run against a real loopback sshd (tests/harness/sshd.ts, started here).
 *
 *   npx tsx --expose-gc bench/engine.ts [JOBS]        (npm run bench:engine; JOBS default 1000)
 *
 * Each job runs `true` through everything a real job goes through: plan, the CPU snapshots around
 * its measured step, the detached start on the target (a request to the target's job server,
 * job.sh serve: setsid, status file), the wait and status collection, the raw output files, parse,
 * and the run document written as it goes. The tool is a stand-in whose step is `true` and whose
 * parser returns one sample, so the figure is the engine's cost and not a tool's. The peer is
 * ssh2's client.exec('true') on the connection the engine uses, taken interleaved with the jobs so
 * that both see the same load: right before each job's request (or `job.sh run`, in the paired
 * blocks below), one bare exec runs on that connection, and its time is left out of the job's (job-started to
 * job-finished, less that exec). The engine's cost is the median job less the median bare exec.
 *
 * Paired: blocks of jobs through the job server and with a `job.sh run` command each, in turn, so
 * that both see the same machine (whose file system's speed drifts here); each figure as the one above.
 *
 * Memory: heap used after a forced GC at 10 %, 50 % and 100 % of the jobs; flat means the
 * growth from 10 % to 100 % is what the run document's jobs themselves take.
 *
 * Then the 200 MB case: two jobs that each print 200 MB (a stand-in tool whose step is
 * `yes … | head -c 200000000`, tests/harness/printing-tool.ts). The engine keeps each output's
 * first and last 2 MiB; the growth of the process's resident memory (sampled every 20 ms, the
 * peak against the figure before the run) must stay under 64 MB.
 * The login account is a throwaway one with /bin/sh and no rc files (root's rc files here would
 * measure pyenv). Exit code 1 when a goal is missed.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { Readable, Transform } from 'node:stream'
import type { Client } from 'ssh2'
import { z } from 'zod'
import { RunEngine, createRunDocument, type EngineTarget } from '../src/main/engine/runner'
import { scriptsDir } from '../src/main/resources'
import { SshSession } from '../src/main/ssh/session'
import type { ExecOptions, RemoteCommand } from '../src/main/ssh/types'
import { RunFolder } from '../src/main/store/run-store'
import type { AnyBenchmarkTool } from '../src/main/tools/types'
import { ddTool } from '../src/main/tools/dd'
import { ComparisonPlanSchema } from '../src/shared/model/plan'
import { printingTool } from '../tests/harness/printing-tool'
import { startSshd } from '../tests/harness/sshd'
import { connectClient, createThrowawayUser } from '../tests/integration/ssh/session-helpers'

const JOBS = Number(process.argv[2] ?? 1000)
/** Issue 22: the engine's own cost per job, over a bare exec on the same connection. */
const GOAL_MS = 10
/** The paired comparison: blocks of jobs, through the job server and with a command each in turn. */
const PAIRED_BLOCKS = 6
const PAIRED_BLOCK_JOBS = 60
const HUGE_BYTES = 200_000_000
const HUGE_GOAL_MB = 64

const noop: AnyBenchmarkTool = {
  ...ddTool,
  params: z.object({}).passthrough(),
  plan: () => ({
    steps: [{ id: 'run', on: 'target', shell: 'sh', script: 'true', timeoutSeconds: 30, okExitCodes: [0], measured: true }],
    files: [],
    estimatedSeconds: 0
  }),
  parse: (out) => ({ ok: true, samples: [{ metric: 'noop.exit', value: out.exitCode ?? -1, unit: 'count', better: 'lower', labels: {} }], warnings: [] })
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

function heapMiB(): number {
  ;(globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

function bareExec(client: Client): Promise<number> {
  const t0 = performance.now()
  return new Promise((resolve, reject) => {
    client.exec('true', (err, stream) => {
      if (err) return reject(err)
      stream.on('close', () => resolve(performance.now() - t0))
      stream.resume()
      stream.stderr.resume()
    })
  })
}

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc) console.log('(run with --expose-gc for exact heap figures)\n')
  const user = createThrowawayUser()
  const server = await startSshd({ extraConfig: user.sshdConfig })
  user.authorize(server)
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'vb-bench-engine-'))
  let client: Client | undefined
  const session = new SshSession({
    label: 'bench',
    connect: async () => (client = await connectClient(server, { username: user.name }))
  })
  try {
    await session.exec('true')
    for (let i = 0; i < 20; i++) await bareExec(client!)
    const bare: number[] = []
    /** Each job's round trip, its request to the server (or its `job.sh run`) to its answer's last byte: the target's share of the job. */
    const trips: number[] = []
    /** When the current job's round trip began and ended (performance.now()). */
    let tripStart = 0
    let tripEnd = 0
    /** This process's share of each job: before its round trip (less the bare exec) and after it. */
    const before: number[] = []
    const after: number[] = []
    /** The session the engine uses, with a bare exec timed right before each job's `job.sh run`. */
    const interleaved = new Proxy(session, {
      get(target, key) {
        if (key === 'exec') {
          return async (command: RemoteCommand | string, opts?: ExecOptions) => {
            const jobSh = typeof command !== 'string' && 'argv' in command && command.argv[1]?.endsWith('/job.sh') ? command.argv[2] : undefined
            // the target's job server: each request it is sent waits for a bare exec first, and the
            // request's round trip runs from its sending to the last output of its answer
            if (jobSh === 'serve' && opts?.stdin instanceof Readable) {
              const requests = new Transform({
                transform(chunk: Buffer, _enc, done) {
                  bareExec(client!).then(
                    (ms) => {
                      bare.push(ms)
                      tripStart = performance.now()
                      done(null, chunk)
                    },
                    (err: Error) => done(err)
                  )
                }
              })
              opts.stdin.pipe(requests)
              const answer = (sink: ExecOptions['onStdout']) => (chunk: Buffer) => {
                tripEnd = performance.now()
                return sink?.(chunk)
              }
              return target.exec(command, { ...opts, stdin: requests, onStdout: answer(opts.onStdout), onStderr: answer(opts.onStderr) })
            }
            if (jobSh === 'run') {
              bare.push(await bareExec(client!))
              tripStart = performance.now()
              const result = await target.exec(command, opts)
              tripEnd = performance.now()
              return result
            }
            return target.exec(command, opts)
          }
        }
        const value = Reflect.get(target, key) as unknown
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
      }
    })

    const plan = ComparisonPlanSchema.parse({
      name: 'engine bench',
      baseline: { target: 'a' },
      variants: [{ target: 'b' }],
      // repetitions stop at 100 per test: 50 per test and side, as many tests as it takes
      tests: Array.from({ length: Math.max(1, Math.ceil(JOBS / 100)) }, (_, i) => ({ id: `noop-${i + 1}`, tool: 'dd', params: {} })),
      repetitions: Math.min(50, Math.ceil(JOBS / 2)),
      storage: { kind: 'directory', path: path.join(user.home, 'work') }
    })
    const targets: EngineTarget[] = [
      { name: 'a', label: 'a', role: 'baseline', kind: 'ssh', addresses: {}, sudo: false },
      { name: 'b', label: 'b', role: 'variant', kind: 'ssh', addresses: {}, sudo: false }
    ]
    const doc = createRunDocument(plan, targets, 'bench')
    const folder = await RunFolder.create(path.join(scratch, 'run'), doc)
    const total = doc.jobs.length
    const marks = new Map([[Math.round(total * 0.1), '10 %'], [Math.round(total * 0.5), '50 %'], [total, '100 %']])
    const heap: string[] = []
    const heapAt: number[] = []
    let done = 0
    const jobMs: number[] = []
    let started = 0
    const engine = new RunEngine(folder, targets, {
      session: async () => interleaved,
      scriptsDir: scriptsDir(),
      appVersion: 'bench',
      tools: { dd: noop },
      // the host monitor samples /proc/diskstats during storage tests; the stand-in is not one
      monitor: false,
      onEvent: (e) => {
        if (e.type === 'job-started') started = performance.now()
        if (e.type === 'job-finished') {
          const now = performance.now()
          trips.push(tripEnd - tripStart)
          jobMs.push(now - started - (bare.at(-1) ?? 0))
          before.push(tripStart - started - (bare.at(-1) ?? 0))
          after.push(now - tripEnd)
          done++
          const mark = marks.get(done)
          if (mark) {
            const mib = heapMiB()
            heapAt.push(mib)
            heap.push(`${mark}: ${mib.toFixed(1)} MiB`)
          }
        }
      }
    })
    const t0 = performance.now()
    const status = await engine.execute()
    const wall = performance.now() - t0
    const failed = engine.run.jobs.filter((j) => j.status !== 'succeeded').length

    const bareMed = median(bare)
    const jobMed = median(jobMs)
    const cost = jobMed - bareMed
    const growth = (heapAt.at(-1) ?? 0) - (heapAt[0] ?? 0)
    const perJobKiB = (growth * 1024) / Math.max(1, total - Math.round(total * 0.1))
    console.log(`jobs: ${total} (status ${status}, ${failed} not succeeded), wall ${(wall / 1000).toFixed(1)} s, ${(wall / total).toFixed(1)} ms per job overall`)
    console.log(`bare ssh2 exec of true, same connection: median ${bareMed.toFixed(2)} ms (${bare.length} runs, one before each job)`)
    console.log(`one engine job of true:                  median ${jobMed.toFixed(2)} ms (p95 ${[...jobMs].sort((a, b) => a - b)[Math.floor(jobMs.length * 0.95)]!.toFixed(2)} ms), without the bare exec before it`)
    console.log(`of which its round trip to the job server: median ${median(trips).toFixed(2)} ms (${(median(trips) - bareMed).toFixed(2)} ms over the bare exec); the rest is this process's: median ${median(before).toFixed(2)} ms before it, ${median(after).toFixed(2)} ms after it`)
    for (const job of engine.run.jobs.filter((j) => j.status !== 'succeeded').slice(0, 3)) console.log(`not succeeded: ${job.id} ${job.status}: ${job.error ?? ''}`)
    console.log(`engine's own cost per job:               ${cost.toFixed(2)} ms (goal < ${GOAL_MS} ms) ${cost < GOAL_MS ? 'pass' : 'FAIL'}; a job takes ${(jobMed / bareMed).toFixed(1)}x a bare exec`)
    console.log(`heap after GC: ${heap.join(', ')}; growth ${growth.toFixed(1)} MiB = ${perJobKiB.toFixed(2)} KiB per job (the jobs' records in the run document)`)
    if (cost >= GOAL_MS || failed > 0) process.exitCode = 1

    // The same jobs through the job server and with a command each (`job.sh run`, as before the
    // server), in blocks taken in turn, so that both see the same machine: this one's drifts by 2x
    // over minutes (its journal-less ext4 makes files more slowly the more were deleted lately, and
    // tests delete many), which moves the figure above from run to run.
    /** Per path: each job less the bare exec before it, and those bare execs. */
    const paired = { server: { jobs: [] as number[], bare: [] as number[] }, command: { jobs: [] as number[], bare: [] as number[] } }
    for (let block = 0; block < PAIRED_BLOCKS; block++) {
      const jobServer = block % 2 === 0
      const blockPlan = ComparisonPlanSchema.parse({ ...plan, tests: [{ id: 'noop', tool: 'dd', params: {} }], repetitions: PAIRED_BLOCK_JOBS / 2 })
      const blockFolder = await RunFolder.create(path.join(scratch, `paired-${block}`), createRunDocument(blockPlan, targets, 'bench'))
      let at = 0
      const side = jobServer ? paired.server : paired.command
      const firstBare = bare.length
      await new RunEngine(blockFolder, targets, {
        session: async () => interleaved,
        scriptsDir: scriptsDir(),
        appVersion: 'bench',
        tools: { dd: noop },
        monitor: false,
        jobServer,
        onEvent: (e) => {
          if (e.type === 'job-started') at = performance.now()
          if (e.type === 'job-finished') side.jobs.push(performance.now() - at - (bare.at(-1) ?? 0))
        }
      }).execute()
      side.bare.push(...bare.slice(firstBare))
    }
    // as above: the median job (less the bare exec timed right before it) less the median bare exec,
    // each path's own
    const costOf = (p: { jobs: number[]; bare: number[] }): number => median(p.jobs) - median(p.bare)
    const serverCost = costOf(paired.server)
    const commandCost = costOf(paired.command)
    console.log(
      `paired, ${PAIRED_BLOCKS} blocks of ${PAIRED_BLOCK_JOBS} jobs taken in turn: engine's own cost per job through the job server ${serverCost.toFixed(2)} ms, ` +
        `with a command each (job.sh run) ${commandCost.toFixed(2)} ms (${(commandCost / serverCost).toFixed(2)}x)`
    )

    const huge = await hugeOutputCase(session, targets, path.join(user.home, 'work'), path.join(scratch, 'run-huge'))
    const pass = huge.peakGrowthMB < HUGE_GOAL_MB && huge.status === 'completed'
    console.log(
      `200 MB output, ${huge.jobs} jobs (status ${huge.status}, ${(huge.seconds).toFixed(1)} s): raw stdout kept ${huge.keptMiB.join(' and ')} MiB; ` +
        `resident memory growth at its peak ${huge.peakGrowthMB.toFixed(1)} MB (goal < ${HUGE_GOAL_MB} MB) ${pass ? 'pass' : 'FAIL'}`
    )
    if (!pass) process.exitCode = 1
  } finally {
    await session.close()
    await server.stop()
    user.remove()
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** Runs two jobs that each print HUGE_BYTES; the peak growth of the resident memory meanwhile. */
async function hugeOutputCase(
  session: SshSession,
  targets: EngineTarget[],
  workDir: string,
  runDir: string
): Promise<{ status: string; jobs: number; seconds: number; keptMiB: string[]; peakGrowthMB: number }> {
  const plan = ComparisonPlanSchema.parse({
    name: 'engine bench: 200 MB of output',
    baseline: { target: 'a' },
    variants: [{ target: 'b' }],
    tests: [{ id: 'print', tool: 'dd', params: {} }],
    repetitions: 1,
    storage: { kind: 'directory', path: workDir }
  })
  const folder = await RunFolder.create(runDir, createRunDocument(plan, targets, 'bench'))
  const engine = new RunEngine(folder, targets, {
    session: async () => session,
    scriptsDir: scriptsDir(),
    appVersion: 'bench',
    tools: { dd: printingTool(HUGE_BYTES) },
    monitor: false
  })
  heapMiB()
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
  const t0 = performance.now()
  const status = await engine.execute()
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  const keptMiB = engine.run.jobs.map((j) => (statSync(path.join(runDir, j.steps[0]?.stdoutFile ?? '')).size / 2 ** 20).toFixed(1))
  return { status, jobs: engine.run.jobs.length, seconds: (performance.now() - t0) / 1000, keptMiB, peakGrowthMB: (peak - before) / 1e6 }
}

void main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 2
})
