/**
 * What every fault-injection test of this folder needs: a run on real sshd targets driven by the
 * engine in this process (sessions whose keepalive notices a dead link within a second or two),
 * and the checks each fault must pass: the run ended by itself within the job's limit, the run
 * document is valid, the jobs that had completed are kept with their raw outputs, nothing of the
 * run still runs on the target, and the message names the target, the step and what to do.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect } from 'vitest'
import { createRunDocument, RunEngine, type EngineDeps, type EngineTarget } from '../../../src/main/engine/runner'
import { scriptsDir } from '../../../src/main/resources'
import { SshSession } from '../../../src/main/ssh/session'
import type { SudoMode } from '../../../src/main/ssh/types'
import { readRun, RunFolder } from '../../../src/main/store/run-store'
import type { ComparisonPlan } from '../../../src/shared/model/plan'
import type { RunDocument, RunEvent, RunStatus } from '../../../src/shared/model/run'
import type { SshdServer } from '../../harness/sshd'
import { connectClient, pgrep, waitFor } from '../ssh/session-helpers'

export interface FaultTarget {
  name: string
  role: 'baseline' | 'variant'
  server: SshdServer
  /** Log in as this account instead of the fixture's own user. */
  username?: string
  sudo?: SudoMode
}

export interface FaultRun {
  engine: RunEngine
  runDir: string
  events: RunEvent[]
  /** When the run was started (ms, Date.now()). */
  startedAt: number
  /** The run's final status, once it ended by itself; sessions are closed by then. */
  done: Promise<RunStatus>
}

/** Seconds for a dropped link to be noticed: keepalives every half second, two unanswered. */
const KEEPALIVE_MS = 500
const KEEPALIVE_COUNT = 2
const CONNECT_TIMEOUT_MS = 3000

/** A scratch directory for one test's run folder; removed by the returned function. */
export function scratchDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vb-fault-'))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Starts `plan` on `targets` with the engine in this process; `deps` adds to the engine's dependencies. */
export async function startFaultRun(plan: ComparisonPlan, targets: readonly FaultTarget[], runDir: string, deps: Partial<EngineDeps> = {}): Promise<FaultRun> {
  const engineTargets: EngineTarget[] = targets.map((t) => ({ name: t.name, label: t.name, role: t.role, kind: 'ssh', addresses: {}, sudo: t.sudo ?? false }))
  const sessions = new Map(
    targets.map((t) => [
      t.name,
      new SshSession({
        label: t.name,
        connect: () =>
          connectClient(t.server, {
            ...(t.username ? { username: t.username } : {}),
            keepaliveInterval: KEEPALIVE_MS,
            keepaliveCountMax: KEEPALIVE_COUNT,
            readyTimeout: CONNECT_TIMEOUT_MS
          }),
        reconnectDelaysMs: [100, 250, 500]
      })
    ])
  )
  const events: RunEvent[] = []
  const folder = await RunFolder.create(runDir, createRunDocument(plan, engineTargets, 'fault-test'))
  const engine = new RunEngine(folder, engineTargets, {
    session: async (name) => sessions.get(name)!,
    scriptsDir: scriptsDir(),
    appVersion: 'fault-test',
    monitor: false,
    ...deps,
    // the test's own, if any, after the event is recorded
    onEvent: (e) => {
      events.push(e)
      deps.onEvent?.(e)
    }
  })
  const startedAt = Date.now()
  const done = engine.execute().finally(async () => {
    await Promise.all([...sessions.values()].map((s) => s.close().catch(() => undefined)))
  })
  return { engine, runDir, events, startedAt, done }
}

/** The run ended by itself within `limitSeconds` of its start (and the margin the engine adds to a job's own limit). */
export async function expectEndedWithin(run: FaultRun, limitSeconds: number): Promise<{ status: RunStatus; seconds: number }> {
  const status = await run.done
  const seconds = (Date.now() - run.startedAt) / 1000
  expect(seconds, `the run took ${seconds} s`).toBeLessThan(limitSeconds)
  return { status, seconds }
}

/** run.json is a valid run document; every raw output a step names is in the run folder. */
export async function expectDocumentAndRawOutputs(runDir: string): Promise<RunDocument> {
  const doc = await readRun(runDir)
  for (const job of doc.jobs) {
    for (const step of job.steps) {
      for (const file of [step.stdoutFile, step.stderrFile]) if (file) expect(existsSync(path.join(runDir, file)), `${job.id} ${file}`).toBe(true)
    }
  }
  return doc
}

/** The jobs that had succeeded before the fault are still succeeded, with their samples. */
export function expectCompletedKept(doc: RunDocument, ids: readonly string[]): void {
  for (const id of ids) {
    const job = doc.jobs.find((j) => j.id === id)!
    expect(job.status, `${id}: ${job.error ?? ''}`).toBe('succeeded')
    expect(job.samples.length).toBeGreaterThan(0)
  }
}

/** Nothing whose command line matches `pattern` runs any more on this machine (the targets are local), waited for. */
export async function expectNothingLeft(pattern: string, withinMs = 30_000): Promise<void> {
  expect(await waitFor(() => pgrep(pattern).length === 0, withinMs, 100), `still running: ${pattern}`).toBe(true)
}

/** A message a person reads: it names the target and the step, and says what to do. */
export function expectActionable(message: string | undefined, target: string, step: string, todo: RegExp): void {
  expect(message).toBeDefined()
  expect(message).toContain(target)
  expect(message).toContain(step)
  expect(message).toMatch(todo)
}
