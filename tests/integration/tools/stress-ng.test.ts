/**
 * Runs the real stress-ng (Debian's 0.15.06) through the plan's own script for one or two seconds,
 * in a fresh temporary work directory, then checks parse() against the YAML report and the log
 * table stress-ng printed, read here with simple regular expressions.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CPU_METHODS, stressNgParamsSchema, VM_METHODS, type StressNgParamsInput } from '../../../src/main/tools/stress-ng/params'
import { parse } from '../../../src/main/tools/stress-ng/parse'
import { plan } from '../../../src/main/tools/stress-ng/plan'
import type { StepOutput } from '../../../src/main/tools/types'

const execFileAsync = promisify(execFile)

let work: string
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'vb-stress-ng-'))
})
afterEach(() => {
  rmSync(work, { recursive: true, force: true })
})

async function runPlan(input: StressNgParamsInput) {
  const params = stressNgParamsSchema.parse(input)
  const p = plan(params, { target: { os: 'linux', workDir: work } })
  expect(p.steps).toHaveLength(1)
  const { stdout, stderr } = await execFileAsync('sh', ['-c', p.steps[0]!.script], { timeout: 60_000 })
  // the report stays in the tool's folder of the work directory until cleanup removes p.files
  expect(p.files.map((f) => existsSync(f.path))).toEqual([true])
  return { params, out: { stdout, stderr, exitCode: 0 } satisfies StepOutput }
}

/** A figure of the YAML report, read independently. */
function yamlFigure(stdout: string, key: string): number {
  const m = new RegExp(`^ {6}${key}: ([0-9.]+)$`, 'm').exec(stdout)
  if (!m) throw new Error(`no ${key} in: ${stdout}`)
  return Number(m[1])
}

/** The log table's row of a stressor: bogo ops and the two rates, as printed with two decimals. */
function logRow(stderr: string, stressor: string): number[] {
  const m = new RegExp(`^stress-ng: metrc: \\[[0-9]+\\] ${stressor} +([0-9]+) +[0-9.]+ +[0-9.]+ +[0-9.]+ +([0-9.]+) +([0-9.]+)$`, 'm').exec(stderr)
  if (!m) throw new Error(`no ${stressor} row in: ${stderr}`)
  return [Number(m[1]), Number(m[2]), Number(m[3])]
}

function values(out: StepOutput, params: ReturnType<typeof stressNgParamsSchema.parse>): Record<string, number> {
  const result = parse(out, params)
  if (!result.ok) throw new Error(`stress-ng output did not parse: ${result.error.reason}`)
  expect(result.warnings).toEqual([])
  return Object.fromEntries(result.samples.map((s) => [s.metric, s.value]))
}

describe('stress-ng (real) through plan and parse', () => {
  it('cpu, 1 worker of matrixprod for 2 s: the YAML report’s figures, which the log table rounds', async () => {
    const { params, out } = await runPlan({ stressor: 'cpu', timeoutSeconds: 2 })
    expect(out.stderr).toMatch(/dispatching hogs: 1 cpu$/m)
    const v = values(out, params)
    expect(v).toEqual({
      'stress-ng.cpu.ops-per-second': yamlFigure(out.stdout, 'bogo-ops-per-second-real-time'),
      'stress-ng.cpu.ops-per-cpu-second': yamlFigure(out.stdout, 'bogo-ops-per-second-usr-sys-time'),
      'stress-ng.cpu.ops': yamlFigure(out.stdout, 'bogo-ops'),
      'stress-ng.cpu.cpu-usage': yamlFigure(out.stdout, 'cpu-usage-per-instance')
    })
    const [ops, perSecond, perCpuSecond] = logRow(out.stderr, 'cpu')
    expect(v['stress-ng.cpu.ops']).toBe(ops)
    // two decimals of the same unrounded rate as the six of the YAML report
    expect(Math.abs(v['stress-ng.cpu.ops-per-second']! - perSecond!)).toBeLessThanOrEqual(0.0050005)
    expect(Math.abs(v['stress-ng.cpu.ops-per-cpu-second']! - perCpuSecond!)).toBeLessThanOrEqual(0.0050005)
    expect(v['stress-ng.cpu.ops']).toBeGreaterThan(0)
  })

  it('vm, 2 workers over 64M with --vm-keep for 1 s: the memory figures', async () => {
    const { params, out } = await runPlan({ stressor: 'vm', workers: 2, vmBytes: '64M', vmMethod: 'read64', vmKeep: true, timeoutSeconds: 1 })
    expect(out.stderr).toMatch(/dispatching hogs: 2 vm$/m)
    const v = values(out, params)
    expect(Object.keys(v)).toEqual(['stress-ng.vm.ops-per-second', 'stress-ng.vm.ops-per-cpu-second', 'stress-ng.vm.ops', 'stress-ng.vm.cpu-usage'])
    expect(v['stress-ng.vm.ops-per-second']).toBe(yamlFigure(out.stdout, 'bogo-ops-per-second-real-time'))
    expect(v['stress-ng.vm.ops']).toBe(logRow(out.stderr, 'vm')[0])
  })

  it('every cpuMethod and vmMethod VirtBench offers is one this stress-ng knows', async () => {
    // stress-ng lists its methods when asked for one it does not have, and exits 1
    const listed = async (option: string) => {
      const failed = await execFileAsync('stress-ng', [option, 'which']).then(
        () => {
          throw new Error(`stress-ng ${option} which did not fail`)
        },
        (error: { stderr: string; code: number }) => error
      )
      expect(failed.code).toBe(1)
      return failed.stderr.replace(/^.*must be one of: /, '').trim().split(/\s+/)
    }
    const cpu = await listed('--cpu-method')
    const vm = await listed('--vm-method')
    expect(CPU_METHODS.filter((m) => !cpu.includes(m))).toEqual([])
    expect(VM_METHODS.filter((m) => !vm.includes(m))).toEqual([])
  })
})
