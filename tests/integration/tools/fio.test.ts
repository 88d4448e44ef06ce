/**
 * Runs the real fio (3.33 here) from the plans' own argv at small sizes, then checks parse()
 * against fio's JSON read independently in the test.
 *
 * The jobs use direct=0: os.tmpdir() is often a tmpfs (CI runners, many desktops), where
 * O_DIRECT fails with EINVAL. What is tested here is the plan and the parser, not the disk.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parse } from '../../../src/main/tools/fio/parse'
import { fioParamsSchema, type FioParamsInput } from '../../../src/main/tools/fio/params'
import { plan } from '../../../src/main/tools/fio/plan'
import type { Plan, RemoteStep, StepOutput } from '../../../src/main/tools/types'

const execFileAsync = promisify(execFile)
const NS = 1e9

let work: string
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'vb-fio-'))
})
afterEach(() => {
  rmSync(work, { recursive: true, force: true })
})

function planFor(input: FioParamsInput, workDir = work): Plan {
  return plan(fioParamsSchema.parse(input), { target: { os: 'linux', workDir } })
}

/** Writes the step's files, then runs it: `viaShell` runs its script with sh, otherwise its argv directly. */
async function run(step: RemoteStep, viaShell = false): Promise<StepOutput> {
  for (const file of step.files ?? []) writeFileSync(file.path, file.content)
  const [command, ...args] = viaShell ? ['sh', '-c', step.script] : step.argv!
  try {
    const { stdout, stderr } = await execFileAsync(command!, args, { timeout: 30_000, maxBuffer: 64 * 2 ** 20 })
    return { stdout, stderr, exitCode: 0 }
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; code?: number; signal?: string }
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', exitCode: typeof e.code === 'number' ? e.code : null, signal: e.signal ?? null }
  }
}

function value(out: StepOutput, metric: string, labels: Record<string, string> = {}): number | undefined {
  const result = parse(out)
  if (!result.ok) throw new Error(`fio output did not parse: ${result.error.reason}`)
  const found = result.samples.filter((s) => s.metric === metric && JSON.stringify(s.labels) === JSON.stringify(labels))
  expect(found.length).toBeLessThanOrEqual(1)
  return found[0]?.value
}

describe('fio (real) through plan and parse', () => {
  it('runs two randrw jobs from the command line and adds them up as fio reported them', async () => {
    const p = planFor({ name: 'vb randrw', ioengine: 'psync', rw: 'randrw', rwmixread: 70, bs: '4k', size: '16m', numjobs: 2, iodepth: 1, runtime: 1, timeBased: true, direct: false })
    const out = await run(p.steps[0]!)
    expect(out.exitCode).toBe(0)
    const json = JSON.parse(out.stdout)
    const [a, b] = json.jobs
    expect(json['fio version']).toMatch(/^fio-3\./)
    expect(json.jobs).toHaveLength(2)
    for (const dir of ['read', 'write']) {
      expect(a[dir].total_ios).toBeGreaterThan(0)
      expect(value(out, `fio.${dir}.iops`)).toBe(a[dir].iops + b[dir].iops)
      expect(value(out, `fio.${dir}.bandwidth`)).toBe(a[dir].bw_bytes + b[dir].bw_bytes)
      expect(value(out, `fio.${dir}.lat.mean`)).toBe(
        ((a[dir].lat_ns.mean / NS) * a[dir].total_ios + (b[dir].lat_ns.mean / NS) * b[dir].total_ios) / (a[dir].total_ios + b[dir].total_ios)
      )
      expect(value(out, `fio.${dir}.clat.p99`)).toBeUndefined()
      expect(value(out, `fio.${dir}.iops`, { job: 'vb randrw#1' })).toBe(b[dir].iops)
      expect(value(out, `fio.${dir}.clat.p50`, { job: 'vb randrw#0' })).toBe(a[dir].clat_ns.percentile['50.000000'] / NS)
      expect(value(out, `fio.${dir}.clat.p99`, { job: 'vb randrw#1' })).toBe(b[dir].clat_ns.percentile['99.000000'] / NS)
    }
    // plan.files lists exactly what fio created.
    expect(readdirSync(work).sort()).toEqual(p.files.map((f) => basename(f.path)).sort())
  })

  it("runs study 003's job file (at 16 MiB) and reads its four jobs", async () => {
    const p = planFor({ style: 'job-file', name: 'virt', ioengine: 'libaio', iodepth: 4, rw: 'randrw', bs: '64k', direct: false, size: '16m', numjobs: 4, runtime: null, timeBased: false })
    const out = await run(p.steps[0]!)
    expect(out.exitCode).toBe(0)
    const json = JSON.parse(out.stdout)
    expect(json.jobs.map((j: { jobname: string }) => j.jobname)).toEqual(['virt', 'virt', 'virt', 'virt'])
    expect(json.jobs[0]['job options']).toMatchObject({ ioengine: 'libaio', iodepth: '4', rw: 'randrw', bs: '64k', size: '16m', numjobs: '4' })
    const jobs = json.jobs
    expect(value(out, 'fio.read.bytes')).toBe(jobs[0].read.io_bytes + jobs[1].read.io_bytes + jobs[2].read.io_bytes + jobs[3].read.io_bytes)
    expect(value(out, 'fio.read.bytes')! + value(out, 'fio.write.bytes')!).toBe(4 * 16 * 2 ** 20)
    for (let i = 0; i < 4; i++) expect(value(out, 'fio.write.iops', { job: `virt#${i}` })).toBe(jobs[i].write.iops)
    expect(readdirSync(work).sort()).toEqual(p.files.map((f) => basename(f.path)).sort())
  })

  it('gives the percentiles of group_reporting as totals, from json+', async () => {
    const p = planFor({ name: 'grouped', ioengine: 'psync', rw: 'randread', bs: '4k', size: '16m', numjobs: 2, iodepth: 1, runtime: 1, direct: false, groupReporting: true, outputFormat: 'json+' })
    const out = await run(p.steps[0]!)
    expect(out.exitCode).toBe(0)
    expect(out.stdout).toContain('"bins" : {')
    const json = JSON.parse(out.stdout)
    expect(json.jobs).toHaveLength(1)
    const read = json.jobs[0].read
    expect(value(out, 'fio.read.iops')).toBe(read.iops)
    expect(value(out, 'fio.read.clat.mean')).toBe(read.clat_ns.mean / NS)
    expect(value(out, 'fio.read.clat.p50')).toBe(read.clat_ns.percentile['50.000000'] / NS)
    expect(value(out, 'fio.read.clat.p99')).toBe(read.clat_ns.percentile['99.000000'] / NS)
    expect(value(out, 'fio.read.clat.p99.9')).toBe(read.clat_ns.percentile['99.900000'] / NS)
  })

  it('keeps a hostile job name and a work directory with a colon intact through sh and fio', async () => {
    const dir = join(work, 'scratch: $(touch pwned) `id`')
    mkdirSync(dir)
    const name = '$(touch pwned) && echo hi'
    const p = planFor({ name, ioengine: 'psync', rw: 'write', bs: '64k', size: '1m', iodepth: 1, runtime: null, timeBased: false, direct: false }, dir)
    const out = await run(p.steps[0]!, true)
    expect(out.exitCode).toBe(0)
    const json = JSON.parse(out.stdout)
    expect(json.jobs[0].jobname).toBe(name)
    expect(json.jobs[0]['job options'].directory).toBe(dir.replace(/:/g, '\\:'))
    expect(p.files).toEqual([{ on: 'target', path: `${dir}/${name}.0.0` }])
    expect(existsSync(p.files[0]!.path)).toBe(true)
    expect(readdirSync(work)).toEqual([basename(dir)])
    expect(value(out, 'fio.write.bytes')).toBe(json.jobs[0].write.io_bytes)
    expect(value(out, 'fio.write.bytes')).toBe(2 ** 20)
  })

  it('refuses a run whose job fails, naming the errno fio gave', async () => {
    writeFileSync(join(work, 'not-a-directory'), '')
    const p = planFor(
      { name: 'broken', ioengine: 'psync', rw: 'read', size: '1m', runtime: null, timeBased: false, direct: false, filename: 'data' },
      join(work, 'not-a-directory')
    )
    const out = await run(p.steps[0]!)
    expect(out.exitCode).toBe(1)
    expect(JSON.parse(out.stdout).jobs[0].error).toBe(20)
    const result = parse(out)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toMatch(/job 'broken' stopped with error 20 \(ENOTDIR, Not a directory\)/)
  })

  it('quotes fio when it refuses the job before running it', async () => {
    writeFileSync(join(work, 'not-a-directory'), '')
    const p = planFor({ name: 'broken', ioengine: 'psync', rw: 'read', size: '1m', runtime: null, timeBased: false, direct: false }, join(work, 'not-a-directory'))
    const out = await run(p.steps[0]!)
    expect(out.exitCode).toBe(1)
    expect(out.stdout).not.toContain('{')
    const result = parse(out)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.reason).toBe(
        `fio failed: fio: ${work}/not-a-directory is not a directory / fio: failed parsing directory=${work}/not-a-directory; it wrote no JSON report and exited with code 1. Check the path and its permissions on the target`
      )
    }
  })
})
