/**
 * resources/scripts/linux/job.sh on its own, run here with sh as the engine runs it on a target:
 * the status line comes first whatever the output, a long output is sent as its head and tail,
 * a job nobody waits for stops itself at its limit, and `stopall` ends what a killed VirtBench
 * left running.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseStatusLine } from '../../../src/main/engine/detached'
import { scriptsDir } from '../../../src/main/resources'
import { pgrep, uniqueSleep, waitFor } from '../ssh/session-helpers'
import { scratchDir } from './fault-kit'

const JOB_SH = path.join(scriptsDir(), 'linux', 'job.sh')
const NONCE = 'VBJOB-00112233aabbccdd'

/** Runs job.sh with `args`, `script` on stdin; its stdout as bytes. */
function jobSh(args: string[], script = ''): Promise<{ stdout: Buffer; stderr: string; status: number | null }> {
  return new Promise((resolve) => {
    const child = spawn('sh', [JOB_SH, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
    const out: Buffer[] = []
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.on('close', (status) => resolve({ stdout: Buffer.concat(out), stderr, status }))
    child.stdin.end(script)
  })
}

describe('job.sh', () => {
  let scratch: ReturnType<typeof scratchDir>
  beforeEach(() => {
    scratch = scratchDir()
  })
  afterEach(() => scratch.remove())

  it('prints the status first, then the head and the tail of a 200 MB output with its full size', async () => {
    const dir = path.join(scratch.dir, 'chatty')
    const keep = 1000
    const { stdout, status } = await jobSh(['run', dir, NONCE, '60', String(keep)], "yes 'a line of output' | head -c 200000000; echo done >&2")
    expect(status).toBe(0)
    const eol = stdout.indexOf(0x0a)
    expect(parseStatusLine(stdout.toString('utf8', 0, eol), NONCE)).toEqual({ status: 0, stdoutBytes: 200_000_000, stderrBytes: 5 })
    const body = stdout.subarray(eol + 1)
    const whole = readFileSync(path.join(dir, 'stdout'))
    expect(body).toEqual(Buffer.concat([whole.subarray(0, keep / 2), whole.subarray(whole.length - keep / 2)]))
  })

  it('gives the exit code and free space of a failed job, and the whole of a short output', async () => {
    const dir = path.join(scratch.dir, 'failing')
    const { stdout } = await jobSh(['run', dir, NONCE, '60', '1000'], 'echo hello; exit 3')
    const [line, rest] = [stdout.toString().split('\n')[0]!, stdout.toString().split('\n').slice(1).join('\n')]
    expect(parseStatusLine(line, NONCE)).toMatchObject({ status: 3, stdoutBytes: 6, space: { mount: expect.stringMatching(/^\//) } })
    expect(rest).toBe('hello\n')
  })

  it('stops a job nobody waits for at its limit (the connection is gone), and records the timeout', async () => {
    const dir = path.join(scratch.dir, 'orphan')
    const sleep = uniqueSleep()
    const started = await jobSh(['start', dir, '1'], `sleep ${sleep}`)
    expect(started.status, started.stderr).toBe(0)
    expect(pgrep(`sleep ${sleep}`).length).toBe(1)
    // a second after its limit: its watchdog
    expect(await waitFor(() => pgrep(`sleep ${sleep}`).length === 0 && existsSync(path.join(dir, 'status')), 20_000, 50)).toBe(true)
    expect(readFileSync(path.join(dir, 'status'), 'utf8')).toBe('timeout\n')
    const { stdout } = await jobSh(['wait', dir, NONCE, '1', '1000'])
    expect(parseStatusLine(stdout.toString().split('\n')[0]!, NONCE)).toMatchObject({ status: 'timeout' })
  })

  it('leaves nothing of a job that ended: its watchdog and what it left in its process group are gone', async () => {
    const dir = path.join(scratch.dir, 'leaves')
    const sleep = uniqueSleep()
    const { stdout } = await jobSh(['run', dir, NONCE, '60', '1000'], `sleep ${sleep} & echo started`)
    expect(stdout.toString()).toMatch(/ 0 8 0\nstarted\n$/)
    expect(await waitFor(() => pgrep(`sleep ${sleep}`).length === 0 && pgrep(`job-main 60 ${dir}`).length === 0, 10_000, 50)).toBe(true)
  })

  it('stopall stops the jobs of a run folder that still run, and only those', async () => {
    const run = path.join(scratch.dir, 'vb-r1-host')
    const [running, ended] = [path.join(run, '.jobs', 'j0001-a1-run'), path.join(run, '.jobs', 'j0002-a1-run')]
    const sleep = uniqueSleep()
    await jobSh(['start', running, '60'], `sleep ${sleep}`)
    await jobSh(['run', ended, NONCE, '60', '1000'], 'true')
    const stopped = spawnSync('sh', [JOB_SH, 'stopall', run, '2000'], { encoding: 'utf8' })
    expect(stopped.stdout).toBe(`${running}\n`)
    expect(await waitFor(() => pgrep(`sleep ${sleep}`).length === 0, 10_000, 50)).toBe(true)
  })
})
