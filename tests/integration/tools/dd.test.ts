/**
 * Runs the real dd (GNU coreutils 9.1, and BusyBox 1.35 as `dd`) through the plans' own scripts
 * at 16 MiB in a fresh temporary directory, then checks parse() against dd's and time's own
 * numbers, read here with simple regular expressions.
 *
 * The plans use direct: false: os.tmpdir() is often a tmpfs, where O_DIRECT fails with EINVAL.
 * What is tested here is the plan and the parser, not the disk.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ddParamsSchema, type DdParams, type DdParamsInput } from '../../../src/main/tools/dd/params'
import { parse } from '../../../src/main/tools/dd/parse'
import { plan } from '../../../src/main/tools/dd/plan'
import type { Plan, StepOutput } from '../../../src/main/tools/types'

const execFileAsync = promisify(execFile)

let work: string
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'vb-dd-'))
})
afterEach(() => {
  rmSync(work, { recursive: true, force: true })
})

/** Runs one script with sh, with extra environment, and keeps what it printed. */
async function sh(script: string, env: Record<string, string> = {}): Promise<StepOutput> {
  try {
    const { stdout, stderr } = await execFileAsync('sh', ['-c', script], { timeout: 30_000, env: { ...process.env, ...env } })
    return { stdout, stderr, exitCode: 0 }
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number; signal?: string }
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', exitCode: typeof e.code === 'number' ? e.code : null, signal: e.signal ?? null }
  }
}

/** Runs every step of a plan in order (none needs root here) and returns the measured step's output. */
async function runPlan(p: Plan, env: Record<string, string> = {}): Promise<StepOutput> {
  let measured: StepOutput | undefined
  for (const step of p.steps) {
    expect(step.sudo ?? false).toBe(false)
    const out = await sh(step.script, env)
    expect(out.exitCode, `${step.id}: ${out.stderr}`).toBe(0)
    if (step.measured) measured = out
  }
  return measured!
}

function setUp(input: DdParamsInput, workDir = work): { params: DdParams; plan: Plan } {
  const params = ddParamsSchema.parse(input)
  return { params, plan: plan(params, { target: { os: 'linux', workDir } }) }
}

function values(out: StepOutput, params?: DdParams): Record<string, number> {
  const result = parse(out, params)
  if (!result.ok) throw new Error(`dd output did not parse: ${result.error.reason} (near ${result.error.excerpt})`)
  return Object.fromEntries(result.samples.map((s) => [s.metric, s.value]))
}

/** dd's own transfer line, read independently: bytes and seconds as printed. */
function ddLine(stderr: string): { bytes: number; seconds: number } {
  const m = /^(\d+) bytes .* copied, ([0-9.e+-]+) s, /m.exec(stderr)
  if (!m) throw new Error(`no dd transfer line in: ${stderr}`)
  return { bytes: Number(m[1]), seconds: Number(m[2]) }
}

/** bash's `real 0m1.234s` line, read independently. */
function bashReal(stderr: string): number {
  const m = /^real\s+(\d+)m([0-9.]+)s$/m.exec(stderr)
  if (!m) throw new Error(`no real line in: ${stderr}`)
  return Number(m[1]) * 60 + Number(m[2])
}

describe('dd (real) through plan and parse', () => {
  it('writes 16 MiB in 1 MiB blocks: bytes and seconds are dd\'s, bandwidth is their quotient', async () => {
    const { plan: p } = setUp({ blockSize: '1M', count: '16', direct: false })
    const out = await runPlan(p)
    const printed = ddLine(out.stderr)
    expect(printed.bytes).toBe(16 * 2 ** 20)
    expect(values(out)).toEqual({
      'dd.bytes': printed.bytes,
      'dd.elapsed': printed.seconds,
      'dd.bandwidth': printed.bytes / printed.seconds,
      'dd.lat.mean': printed.seconds / 16
    })
    expect(statSync(p.files[0]!.path).size).toBe(16 * 2 ** 20)
  })

  it("study 002's latency form on a file: 1000 writes of 512 B, seconds per write", async () => {
    const { plan: p } = setUp({ blockSize: '512', count: '1000', direct: false, fdatasync: true })
    const out = await runPlan(p)
    expect(out.stderr).toMatch(/^1000\+0 records out$/m)
    const printed = ddLine(out.stderr)
    expect(values(out)['dd.lat.mean']).toBe(printed.seconds / 1000)
  })

  it("study 004's write form: time sh -c \"dd …\" (bash), dd's own seconds plus bash's real time", async () => {
    const { plan: p } = setUp({ fileName: 'ddfile2', blockSize: '8k', count: '2k', direct: false, timer: 'bash' })
    expect(p.steps[0]!.argv).toEqual(['time', 'sh', '-c', 'dd if=/dev/zero of=ddfile2 bs=8k count=2k'])
    const out = await runPlan(p)
    const printed = ddLine(out.stderr)
    const v = values(out)
    expect(v['dd.bytes']).toBe(16 * 2 ** 20)
    expect(v['dd.elapsed']).toBe(printed.seconds)
    expect(v['dd.wall']).toBe(bashReal(out.stderr))
    expect(v['dd.wall']).toBeGreaterThanOrEqual(printed.seconds - 0.001)
  })

  it("study 004's read form: the file size line and time sh -c \"cat ddfile > /dev/null\"", async () => {
    const { plan: p } = setUp({ mode: 'read', reader: 'cat', blockSize: '1M', count: '16', direct: false, timer: 'bash' })
    const out = await runPlan(p)
    expect(out.stdout).toBe(`virtbench-file-bytes: ${16 * 2 ** 20}\n`)
    const real = bashReal(out.stderr)
    const v = values(out)
    expect(v['dd.bytes']).toBe(statSync(join(work, 'ddfile')).size)
    expect(v['dd.elapsed']).toBe(real)
    expect(v['dd.bandwidth']).toBe((16 * 2 ** 20) / real)
    expect(v['dd.lat.mean']).toBeUndefined()
  })

  it('reads the file back with dd, timed by GNU time -v', async () => {
    const { plan: p } = setUp({ mode: 'read', blockSize: '1M', count: '16', direct: false, timer: 'gnu-time' })
    const out = await runPlan(p)
    const printed = ddLine(out.stderr)
    const elapsed = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\d+):([0-9.]+)$/m.exec(out.stderr)!
    const v = values(out)
    expect(v['dd.bytes']).toBe(16 * 2 ** 20)
    expect(v['dd.elapsed']).toBe(printed.seconds)
    if (Number(elapsed[2]) > 0) expect(v['dd.wall']).toBe(Number(elapsed[1]) * 60 + Number(elapsed[2]))
    else expect(v['dd.wall']).toBeUndefined()
  })

  it('BusyBox dd (only record counts) under bash time: bytes from records x block size, time from bash', async () => {
    const bin = join(work, 'bin')
    mkdirSync(bin)
    symlinkSync('/usr/bin/busybox', join(bin, 'dd'))
    const { params, plan: p } = setUp({ blockSize: '1M', count: '16', direct: false, timer: 'bash' })
    const out = await runPlan(p, { PATH: `${bin}:${process.env.PATH}` })
    expect(out.stderr).toMatch(/^16\+0 records out$/m)
    expect(out.stderr).not.toMatch(/copied/)
    const real = bashReal(out.stderr)
    expect(values(out, params)).toMatchObject({ 'dd.bytes': 16 * 2 ** 20, 'dd.elapsed': real, 'dd.bandwidth': (16 * 2 ** 20) / real, 'dd.lat.mean': real / 16 })
  })

  it('reads decimal commas from a German locale (compiled for the test with localedef)', async () => {
    const locales = join(work, 'locales')
    mkdirSync(locales)
    await execFileAsync('localedef', ['-i', 'de_DE', '-f', 'UTF-8', join(locales, 'de_DE.UTF-8')])
    const out = await sh(`cd '${work}' && dd if=/dev/zero of=ddfile bs=1M count=16`, { LOCPATH: locales, LC_ALL: 'de_DE.UTF-8' })
    const m = /^(\d+) \S+ .*, ([0-9]+),([0-9]+) s, /m.exec(out.stderr)!
    expect(m).not.toBeNull()
    const seconds = Number(`${m[2]}.${m[3]}`)
    expect(values(out)).toMatchObject({ 'dd.bytes': Number(m[1]), 'dd.elapsed': seconds, 'dd.bandwidth': Number(m[1]) / seconds })
  })

  it('keeps hostile file names and work directories harmless, at every level of quoting', async () => {
    const dir = join(work, "$(touch pwned); rm -rf ~ 'x'")
    mkdirSync(dir)
    for (const fileName of ['$(touch pwned); rm -rf ~', "'; touch pwned #"]) {
      for (const timer of ['none', 'bash', 'gnu-time'] as const) {
        const { plan: p } = setUp({ fileName, blockSize: '64k', count: '4', direct: false, timer }, dir)
        const out = await runPlan(p)
        expect(values(out)['dd.bytes']).toBe(4 * 65536)
        expect(statSync(join(dir, fileName)).size).toBe(4 * 65536)
      }
      const { plan: read } = setUp({ mode: 'read', reader: 'cat', fileName, blockSize: '64k', count: '4', direct: false, timer: 'bash' }, dir)
      expect(values(await runPlan(read))['dd.bytes']).toBe(4 * 65536)
    }
    expect(readdirSync(dir).sort()).toEqual(["'; touch pwned #", '$(touch pwned); rm -rf ~'].sort())
    expect(existsSync(join(work, 'pwned')) || existsSync(join(dir, 'pwned')) || existsSync('pwned')).toBe(false)
  })
})
