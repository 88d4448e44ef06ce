/**
 * The CLI killed with SIGKILL in the middle of a job, then `virtbench run --resume`: the run
 * document the dead process left is valid, the job it was waiting for is found still running on
 * the target and stopped (it would measure beside its own rerun), the jobs that had completed
 * are kept, and the rest run again. Uses the built CLI (npm run build). The targets log in as a
 * throwaway account with /bin/sh: killing root's sessions could leave its rc files' locks behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readRun } from '../../../src/main/store/run-store'
import type { RunDocument } from '../../../src/shared/model/run'
import { CLI } from '../../harness/paths'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { createThrowawayUser, pgrep, waitFor, type ThrowawayUser } from '../ssh/session-helpers'
import { expectActionable, expectDocumentAndRawOutputs, expectNothingLeft, scratchDir } from './fault-kit'

interface Cli {
  child: ChildProcess
  output: () => string
  exited: Promise<number | null>
}

function cli(args: string[]): Cli {
  const child = spawn(process.execPath, [CLI, 'run', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)))
  return { child, output: () => output, exited }
}

/** The run document as the CLI last wrote it, or undefined while there is none (or it is being replaced). */
function runIn(out: string): RunDocument | undefined {
  try {
    return JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')) as RunDocument
  } catch {
    return undefined
  }
}

const FIO_SECONDS = 10

describe('the CLI killed with SIGKILL during a job, then --resume', () => {
  let user: ThrowawayUser
  let host: SshdServer
  let guest: SshdServer
  let scratch: ReturnType<typeof scratchDir>
  let dataDir: string
  beforeAll(async () => {
    user = createThrowawayUser()
    ;[host, guest] = await Promise.all([startSshd({ extraConfig: user.sshdConfig }), startSshd({ extraConfig: user.sshdConfig })])
    // one key logs in to both
    user.authorize(host)
    scratch = scratchDir()
    chmodSync(scratch.dir, 0o777)
    dataDir = path.join(scratch.dir, 'data')
    mkdirSync(dataDir)
    for (const [name, server] of [['phys', host], ['vm', guest]] as const) {
      const added = spawnSync(process.execPath, [CLI, 'targets', 'add', '--name', name, '--address', '127.0.0.1', '--port', String(server.port), '--user', user.name, '--key', host.privateKeyPath, '--data-dir', dataDir], { encoding: 'utf8' })
      expect(added.status, added.stderr).toBe(0)
    }
  })
  afterAll(async () => {
    await Promise.all([host?.stop(), guest?.stop()])
    user?.remove()
    scratch?.remove()
  })

  // two runs of the CLI, each with preflight, and 10 s of fio in each: more than the default minute on a loaded machine
  it('resumes: the orphaned job is stopped, completed jobs kept, the rest run again', { timeout: 240_000 }, async () => {
    const marker = `vbkilled${process.pid}${Date.now()}`
    const preset = path.join(scratch.dir, 'preset.json')
    writeFileSync(
      preset,
      JSON.stringify({
        kind: 'virtbench-preset',
        version: 1,
        plan: {
          name: 'killed',
          baseline: { target: 'phys' },
          variants: [{ target: 'vm' }],
          storage: { kind: 'directory', path: path.join(scratch.dir, 'work') },
          repetitions: 1,
          tests: [
            { id: 'dd', tool: 'dd', params: { mode: 'write', blockSize: '64k', count: '16', fileName: 'vbkilled-dd' } },
            { id: 'fio', tool: 'fio', params: { name: marker, rw: 'randread', bs: '4k', size: '8m', runtime: FIO_SECONDS, timeBased: true, ioengine: 'psync', direct: false } }
          ]
        }
      })
    )
    const out = path.join(scratch.dir, 'out')
    const common = ['--data-dir', dataDir, '--accept-new-host-keys']
    const first = cli([preset, '--out', out, ...common])
    // three jobs are done and the last one's fio runs on the target
    const running = await waitFor(() => {
      const run = runIn(out)
      return run !== undefined && run.jobs[2]?.status === 'succeeded' && run.jobs[3]?.status === 'running' && pgrep(`name=${marker}`).length > 0
    }, 90_000, 50)
    expect(running, first.output()).toBe(true)
    first.child.kill('SIGKILL')
    expect(await first.exited).toBeNull()

    const left = await readRun(out)
    expect(left.status).toBe('running')
    const orphan = left.jobs[3]!
    expect(pgrep(`name=${marker}`).length).toBeGreaterThan(0)

    const resumed = cli(['--resume', out, ...common])
    expect(await resumed.exited, resumed.output()).toBe(0)
    // the job the killed CLI had left running was stopped before its rerun, and said so
    const stopped = resumed.output().split('\n').find((l) => l.includes('Stopped a job that an earlier VirtBench left running'))
    expectActionable(stopped, 'vm', `${orphan.id}-a1-run`, /Stopped a job/)
    expect(resumed.output()).toContain('Run completed: 4 of 4 jobs succeeded.')

    const doc = await expectDocumentAndRawOutputs(out)
    expect(doc.status).toBe('completed')
    // the completed jobs are the same runs of them, not second ones
    for (const [i, job] of left.jobs.slice(0, 3).entries()) {
      expect(doc.jobs[i]).toMatchObject({ status: 'succeeded', attempts: 1, startedAt: job.startedAt, endedAt: job.endedAt })
    }
    expect(doc.jobs[3]).toMatchObject({ status: 'succeeded', attempts: 2 })
    await expectNothingLeft(`name=${marker}`)
    await expectNothingLeft(`vb-${doc.id}`)
  })
})
