/**
 * Runs the real sysbench (1.0.20) through the plans' own scripts for one second each (fileio
 * with 32 MiB of files in a fresh temporary directory), then checks parse() against sysbench's
 * own report read here with simple regular expressions.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sysbenchParamsSchema, type SysbenchParamsInput } from '../../../src/main/tools/sysbench/params'
import { parse } from '../../../src/main/tools/sysbench/parse'
import { plan } from '../../../src/main/tools/sysbench/plan'
import type { Plan, StepOutput } from '../../../src/main/tools/types'

const execFileAsync = promisify(execFile)
const MIB = 1048576

let work: string
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'vb-sysbench-'))
})
afterEach(() => {
  rmSync(work, { recursive: true, force: true })
})

function setUp(input: SysbenchParamsInput) {
  const params = sysbenchParamsSchema.parse(input)
  return { params, plan: plan(params, { target: { os: 'linux', workDir: work } }) }
}

async function sh(script: string): Promise<StepOutput> {
  const { stdout, stderr } = await execFileAsync('sh', ['-c', script], { timeout: 60_000 })
  return { stdout, stderr, exitCode: 0 }
}

function values(out: StepOutput, params: ReturnType<typeof setUp>['params']): Record<string, number> {
  const result = parse(out, params)
  if (!result.ok) throw new Error(`sysbench output did not parse: ${result.error.reason}`)
  return Object.fromEntries(result.samples.map((s) => [s.metric, s.value]))
}

/** A number sysbench printed after `label`, read independently. */
function printed(stdout: string, label: RegExp): number {
  const m = new RegExp(`^\\s*${label.source}\\s+([0-9.]+)`, 'm').exec(stdout)
  if (!m) throw new Error(`no ${label.source} in: ${stdout}`)
  return Number(m[1])
}

/** The latency sysbench printed after `label` (in ms), in seconds; undefined when it printed 0.00. */
function latency(stdout: string, label: string): number | undefined {
  const m = new RegExp(`^\\s*${label}:\\s+([0-9.]+)$`, 'm').exec(stdout)!
  return Number(m[1]) === 0 ? undefined : Number(`${m[1]}e-3`)
}

async function runPlan(p: Plan): Promise<StepOutput> {
  let measured: StepOutput | undefined
  for (const step of p.steps) {
    const out = await sh(step.script)
    if (step.measured) measured = out
    if (step.id === 'prepare') expect(readdirSync(work).sort()).toEqual(p.files.map((f) => basename(f.path)).sort())
  }
  return measured!
}

describe('sysbench (real) through plan and parse', () => {
  it('cpu --time=1: events per second and the latency summary as sysbench printed them', async () => {
    const { params, plan: p } = setUp({ test: 'cpu', timeSeconds: 1 })
    const out = await runPlan(p)
    const v = values(out, params)
    expect(v['sysbench.cpu.events']).toBe(printed(out.stdout, /events per second:/))
    expect(v['sysbench.cpu.lat.avg']).toBe(latency(out.stdout, 'avg'))
    expect(v['sysbench.cpu.lat.max']).toBe(latency(out.stdout, 'max'))
    expect(v['sysbench.cpu.lat.p95']).toBe(latency(out.stdout, '95th percentile'))
  })

  it('memory --time=1: MiB/sec x 1048576 and operations per second', async () => {
    const { params, plan: p } = setUp({ test: 'memory', timeSeconds: 1, memoryBlockSize: '1M', memoryTotalSize: '2G' })
    const out = await runPlan(p)
    const rate = /\(([0-9.]+) MiB\/sec\)/.exec(out.stdout)!
    const operations = /\(\s*([0-9.]+) per second\)/.exec(out.stdout)!
    const v = values(out, params)
    expect(v['sysbench.memory.bandwidth']).toBe(Number(rate[1]) * MIB)
    expect(v['sysbench.memory.operations']).toBe(Number(operations[1]))
  })

  it('fileio rndrw on 32 MiB: prepare writes the listed files, run is parsed, cleanup removes them', async () => {
    const { params, plan: p } = setUp({ test: 'fileio', timeSeconds: 1, fileTotalSize: '32M', fileNum: 4, fileTestMode: 'rndrw' })
    expect(p.steps.map((s) => s.id)).toEqual(['prepare', 'run', 'cleanup'])
    const out = await runPlan(p)
    const v = values(out, params)
    expect(v['sysbench.fileio.reads']).toBe(printed(out.stdout, /reads\/s:/))
    expect(v['sysbench.fileio.writes']).toBe(printed(out.stdout, /writes\/s:/))
    expect(v['sysbench.fileio.read.bandwidth']).toBe(printed(out.stdout, /read, MiB\/s:/) * MIB)
    expect(v['sysbench.fileio.write.bandwidth']).toBe(printed(out.stdout, /written, MiB\/s:/) * MIB)
    expect(readdirSync(work)).toEqual([])
  })

  it('fileio seqrd: only the read side', async () => {
    const { params, plan: p } = setUp({ test: 'fileio', timeSeconds: 1, fileTotalSize: '16M', fileNum: 2, fileTestMode: 'seqrd' })
    const out = await runPlan(p)
    const v = values(out, params)
    expect(v['sysbench.fileio.reads']).toBe(printed(out.stdout, /reads\/s:/))
    expect(v['sysbench.fileio.writes']).toBeUndefined()
    expect(v['sysbench.fileio.write.bandwidth']).toBeUndefined()
  })
})
