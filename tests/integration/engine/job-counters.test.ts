/**
 * The job runner's bookkeeping in one round trip (issue 22): job.sh sends the CPU counters it read
 * around the job as the last line of the wait's stderr, which the engine cuts off the job's own
 * stderr; and a run's job folders (with their FIFOs) are made ahead in one command, which job.sh
 * then uses as they are. Against the harness's real sshd.
 */
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BoundedOutput } from '../../../src/main/engine/bounded-output'
import { cpuSnapshotOf, toolCpuSecondsOf } from '../../../src/main/engine/contamination'
import { makeJobDirs, readJobCounters, runDetached } from '../../../src/main/engine/detached'
import { scriptsDir } from '../../../src/main/resources'
import type { SshSession } from '../../../src/main/ssh/session'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { sessionFor } from '../ssh/session-helpers'

describe('a detached job sends its CPU counters with its output', () => {
  let server: SshdServer
  let session: SshSession
  let scripts: string
  let scratch: string

  beforeAll(async () => {
    server = await startSshd()
    session = sessionFor(server)
    scripts = (await session.ensureScripts(scriptsDir())).remoteDir
    scratch = mkdtempSync(path.join(os.tmpdir(), 'vb-job-counters-'))
  })

  afterAll(async () => {
    await session?.close()
    await server?.stop()
    if (scratch) rmSync(scratch, { recursive: true, force: true })
  })

  const run = async (dir: string, script: string) => {
    const output = { stdout: new BoundedOutput(undefined, 1 << 20, 1 << 20), stderr: new BoundedOutput(undefined, 1 << 20, 1 << 20) }
    const result = await runDetached(session, scripts, { dir, script, timeoutSeconds: 30, output })
    return { result, stdout: (await output.stdout.close()).data.toString(), stderr: (await output.stderr.close()).data.toString() }
  }

  it("reads /proc/stat before and after the job and the tool's CPU time, and keeps the job's stderr as it printed it", async () => {
    // a fixed amount of shell arithmetic (CPU-bound), and a stderr without a last newline
    const { result, stdout, stderr } = await run(
      path.join(scratch, 'busy'),
      'i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done; echo counted; printf "no newline" >&2'
    )
    expect(result.status).toBe(0)
    expect(stdout).toBe('counted\n')
    expect(stderr).toBe('no newline')
    const counters = result.counters!
    const before = cpuSnapshotOf(counters.before, 0)!
    const after = cpuSnapshotOf(counters.after, 1000)!
    expect(before.ticks.length).toBeGreaterThanOrEqual(4)
    expect(before.cpus).toBeGreaterThan(0)
    // the machine's user ticks grew by the job's own work at least in part (its CPU seconds, in ticks of 1/100 s)
    const tool = toolCpuSecondsOf(counters.times)!
    expect(tool).toBeGreaterThan(0.05)
    expect(after.ticks[0]! + after.ticks[2]! - before.ticks[0]! - before.ticks[2]!).toBeGreaterThan(tool * 100 * 0.5)
  })

  it('passes a stderr longer than what is held back whole, less the counters line', async () => {
    const { result, stderr } = await run(path.join(scratch, 'long-stderr'), 'i=0; while [ $i -lt 2000 ]; do echo "line $i" >&2; i=$((i + 1)); done')
    expect(result.status).toBe(0)
    const lines = stderr.split('\n')
    expect(lines).toHaveLength(2001)
    expect(lines[1999]).toBe('line 1999')
    expect(lines[2000]).toBe('')
    expect(result.counters?.times).toMatch(/\dm[\d.]+s/)
  })

  it("runs the step's script as a script of its own: none of job.sh's functions, variables or arguments, its own exit code and shell options", async () => {
    // job.sh defines finish, send, space, stop... and sets -u; the job's own sh runs the script in a subshell, without a second sh
    const { result, stdout } = await run(
      path.join(scratch, 'own'),
      [
        'for f in finish send space stop record_status expire; do command -v "$f" >/dev/null && echo "sees $f"; done',
        'echo "args: $# ${job_main:-} ${self:-} ${nonce:-}"',
        'echo "unset: ${not_set_anywhere}"',
        'exit 9'
      ].join('\n')
    )
    expect([result.status, stdout]).toEqual([9, 'args: 0   \nunset: \n'])
  })

  it('uses the folders, FIFOs and files made ahead in one command, and makes what was not', async () => {
    const jobs = path.join(scratch, 'vb-run-host', '.jobs')
    mkdirSync(jobs, { recursive: true })
    await makeJobDirs(session, jobs, ['j0001-a1-run', 'j0002-a1-run', '../escape', 'with space'])
    expect(readdirSync(jobs).sort()).toEqual(['j0001-a1-run', 'j0002-a1-run'])
    const files = ['cmd.sh', 'ended', 'pgid', 'started', 'stderr', 'stdout']
    expect(readdirSync(path.join(jobs, 'j0002-a1-run')).sort()).toEqual(files)
    for (const f of files) expect(statSync(path.join(jobs, 'j0002-a1-run', f)).size).toBe(0)
    const fifo = lstatSync(path.join(jobs, 'j0001-a1-run', 'ended'))
    expect(fifo.isFIFO()).toBe(true)
    expect(existsSync(path.join(scratch, 'vb-run-host', 'escape'))).toBe(false)

    const ahead = await run(path.join(jobs, 'j0001-a1-run'), 'echo ahead')
    const made = await run(path.join(jobs, 'j0003-a1-run'), 'echo made')
    expect([ahead.result.status, ahead.stdout, made.result.status, made.stdout]).toEqual([0, 'ahead\n', 0, 'made\n'])
    // a job makes one file of its own, its status; the empty files made ahead are no leftover of an
    // earlier attempt (its FIFO is the one made ahead, not made again)
    for (const dir of ['j0001-a1-run', 'j0003-a1-run']) expect(readdirSync(path.join(jobs, dir)).sort()).toEqual([...files, 'status'].sort())
    expect(lstatSync(path.join(jobs, 'j0001-a1-run', 'ended')).ino).toBe(fifo.ino)
  })

  it('keeps the counters in two files (started: before, "after", at the end; status: the exit code, then times), which a later wait sends again', async () => {
    const dir = path.join(scratch, 'two-files')
    const { result } = await run(dir, 'exit 3')
    expect(result.status).toBe(3)
    const started = readFileSync(path.join(dir, 'started'), 'utf8').split('\n')
    const after = started.indexOf('after')
    expect(started[0]).toMatch(/^cpu\s/)
    expect(started[after + 1]).toMatch(/^cpu\s/)
    expect(after).toBeGreaterThan(0)
    const status = readFileSync(path.join(dir, 'status'), 'utf8').split('\n')
    expect(status[0]).toBe('3')
    expect(status[1]).toMatch(/^\d+m[\d.]+s \d+m[\d.]+s$/)
    const sent = result.counters!
    expect(sent.before).toBe(started.slice(0, after).join('\n'))
    expect(sent.after).toBe(started.slice(after + 1).filter((l) => l !== '').join('\n'))
    expect(sent.times).toBe(status.slice(1).filter((l) => l !== '').join('\n'))
    // the engine's own read of them (when the counters line went missing) gives the same
    expect(await readJobCounters(session, dir)).toEqual(sent)
    // a wait that reattached sends the same counters, without taking those at the end again
    const again = await session.exec({ argv: ['sh', `${scripts}/linux/job.sh`, 'wait', dir, 'VBJOB-again', '30', '1000'] }, { capture: { maxBytes: 65536 } })
    const line = (again.stderr ?? Buffer.alloc(0)).toString().split('\n').find((l) => l.startsWith('VBJOB-again+'))
    expect(line).toBe(`VBJOB-again+${sent.before.replaceAll('\n', ';')}|${sent.after.replaceAll('\n', ';')}|${sent.times.replaceAll('\n', ';')}`)
    expect(readFileSync(path.join(dir, 'started'), 'utf8').split('\n').filter((l) => l === 'after')).toHaveLength(1)
  })

  it('reads the counters of a job that job.sh before 2026-11-27 ran (cpu-before, cpu-after and times files)', async () => {
    const dir = path.join(scratch, 'old-layout')
    mkdirSync(dir)
    writeFileSync(path.join(dir, 'started'), '')
    writeFileSync(path.join(dir, 'status'), '0\n')
    writeFileSync(path.join(dir, 'cpu-before'), 'cpu  10 0 5 100 0 0 0 0 0 0\n0.50 0.40 0.30 1/200 300\n2\n')
    writeFileSync(path.join(dir, 'cpu-after'), 'cpu  60 0 7 150 0 0 0 0 0 0\n0.60 0.40 0.30 1/201 310\n2\n')
    writeFileSync(path.join(dir, 'times'), '0m0.00s 0m0.00s\n0m0.45s 0m0.03s\n')
    const read = await readJobCounters(session, dir)
    expect(cpuSnapshotOf(read.before, 0)?.ticks.slice(0, 4)).toEqual([10, 0, 5, 100])
    expect(cpuSnapshotOf(read.after, 0)?.ticks.slice(0, 4)).toEqual([60, 0, 7, 150])
    expect(toolCpuSecondsOf(read.times)).toBeCloseTo(0.48, 5)
    const again = await session.exec({ argv: ['sh', `${scripts}/linux/job.sh`, 'wait', dir, 'VBJOB-old', '30', '1000'] }, { capture: { maxBytes: 65536 } })
    expect((again.stderr ?? Buffer.alloc(0)).toString()).toContain('VBJOB-old+cpu  10 0 5 100 0 0 0 0 0 0;0.50 0.40 0.30 1/200 300;2|cpu  60 0 7 150 0 0 0 0 0 0;0.60 0.40 0.30 1/201 310;2|0m0.00s 0m0.00s;0m0.45s 0m0.03s\n')
  })
})
