/**
 * Runs the real ping (iputils 20221126, and BusyBox 1.35 as `ping`) through the plan's own
 * script against 127.0.0.1, then checks parse() against ping's own summary read here with
 * simple regular expressions. The loss case runs in a private network namespace (unshare -n,
 * which needs root) whose loopback ignores echo requests, so no packet leaves the machine.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { pingParamsSchema, type PingParamsInput } from '../../../src/main/tools/ping/params'
import { parse } from '../../../src/main/tools/ping/parse'
import { plan } from '../../../src/main/tools/ping/plan'
import type { RemoteStep, StepOutput } from '../../../src/main/tools/types'

const execFileAsync = promisify(execFile)

let work: string
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'vb-ping-'))
})
afterEach(() => {
  rmSync(work, { recursive: true, force: true })
})

function measuredStep(input: PingParamsInput): RemoteStep {
  const peer = { os: 'linux' as const, workDir: work, address: '127.0.0.1' }
  const p = plan(pingParamsSchema.parse(input), { target: { os: 'linux', workDir: work }, peer })
  expect(p.steps).toHaveLength(1)
  return p.steps[0]!
}

async function run(command: string, args: string[], env: Record<string, string> = {}): Promise<StepOutput> {
  try {
    const { stdout, stderr } = await execFileAsync(command, args, { timeout: 30_000, env: { ...process.env, ...env } })
    return { stdout, stderr, exitCode: 0 }
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number; signal?: string }
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', exitCode: typeof e.code === 'number' ? e.code : null, signal: e.signal ?? null }
  }
}

function values(out: StepOutput): Record<string, number> {
  const result = parse(out)
  if (!result.ok) throw new Error(`ping output did not parse: ${result.error.reason}`)
  return Object.fromEntries(result.samples.map((s) => [s.metric, s.value]))
}

/** ping's own summary, read independently: counts, loss, and round-trip times in seconds. */
function summary(stdout: string) {
  const counts = /^(\d+) packets transmitted, (\d+) (?:packets )?received, (?:.*, )?([0-9.]+)% packet loss/m.exec(stdout)
  if (!counts) throw new Error(`no statistics in: ${stdout}`)
  const rtt = /^(?:rtt|round-trip) min\/avg\/max(?:\/mdev)? = ([0-9.]+)\/([0-9.]+)\/([0-9.]+)(?:\/([0-9.]+))? ms$/m.exec(stdout)
  const seconds = (ms: string | undefined) => (ms === undefined || Number(ms) === 0 ? undefined : Number(`${ms}e-3`))
  return {
    transmitted: Number(counts[1]),
    received: Number(counts[2]),
    loss: Number(counts[3]),
    rtt: rtt ? { min: seconds(rtt[1]), avg: seconds(rtt[2]), max: seconds(rtt[3]), mdev: seconds(rtt[4]) } : undefined
  }
}

function expectMatches(out: StepOutput, printed: ReturnType<typeof summary>): void {
  const v = values(out)
  expect(v['ping.transmitted']).toBe(printed.transmitted)
  expect(v['ping.received']).toBe(printed.received)
  expect(v['ping.loss']).toBe(printed.loss)
  for (const name of ['min', 'avg', 'max', 'mdev'] as const) expect(v[`ping.rtt.${name}`]).toBe(printed.rtt?.[name])
}

describe('ping (real) through plan and parse', () => {
  it('iputils: ping -c 3 -i 0.2 127.0.0.1, every figure as ping printed it, in seconds', async () => {
    const step = measuredStep({ count: 3, intervalSeconds: 0.2 })
    expect(step.argv).toEqual(['ping', '-c', '3', '-i', '0.2', '127.0.0.1'])
    const out = await run('sh', ['-c', step.script])
    expect(out.exitCode).toBe(0)
    const printed = summary(out.stdout)
    expect(printed).toMatchObject({ transmitted: 3, received: 3, loss: 0 })
    expectMatches(out, printed)
  })

  it('iputils with size and deadline', async () => {
    const step = measuredStep({ count: 50, intervalSeconds: 0.2, sizeBytes: 1000, deadlineSeconds: 1 })
    const out = await run('sh', ['-c', step.script])
    expect(out.stdout).toContain('1000(1028) bytes of data')
    const printed = summary(out.stdout)
    expect(printed.transmitted).toBeLessThan(50)
    expectMatches(out, printed)
  })

  it('BusyBox ping (no mdev), run as `ping` from the plan', async () => {
    const bin = join(work, 'bin')
    mkdirSync(bin)
    symlinkSync('/usr/bin/busybox', join(bin, 'ping'))
    const step = measuredStep({ count: 3, intervalSeconds: 0.2, replyTimeoutSeconds: 1 })
    const out = await run('sh', ['-c', step.script], { PATH: `${bin}:${process.env.PATH}` })
    expect(out.stdout).toMatch(/^round-trip min\/avg\/max = /m)
    const printed = summary(out.stdout)
    expect(printed.rtt?.mdev).toBeUndefined()
    expectMatches(out, printed)
  })

  it('100 % loss (exit code 1, which the plan accepts) is a result with a warning, not a failure', async () => {
    const step = measuredStep({ count: 3, intervalSeconds: 0.2, replyTimeoutSeconds: 1 })
    const silent = 'ip link set lo up && sysctl -q -w net.ipv4.icmp_echo_ignore_all=1'
    const out = await run('unshare', ['-n', 'sh', '-c', `${silent} && ${step.script}`])
    expect(step.okExitCodes).toContain(out.exitCode)
    const printed = summary(out.stdout)
    expect(printed).toMatchObject({ transmitted: 3, received: 0, loss: 100, rtt: undefined })
    expectMatches(out, printed)
    const result = parse(out)
    expect(result.ok && result.warnings).toEqual(['no replies from 127.0.0.1: 100 % packet loss, so there are no round-trip times'])
  })

  it('a network with no route (exit code 2) is a failure that quotes ping', async () => {
    const step = measuredStep({ count: 2, replyTimeoutSeconds: 1 })
    const out = await run('unshare', ['-n', 'sh', '-c', step.script])
    expect(out.exitCode).toBe(2)
    const result = parse(out)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toContain(out.stderr.trim())
  })
})
