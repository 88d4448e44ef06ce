import { readFileSync } from 'node:fs'
import path from 'node:path'
import Ajv2020 from 'ajv/dist/2020'
import { describe, expect, it } from 'vitest'
import { reviewPlan } from '../../../../../src/main/api/plan-review'
import { IDLE_SECONDS } from '../../../../../src/main/engine/before-jobs'
import { CHECKS_SECONDS, CLEANUP_SECONDS, CONNECT_SECONDS, PER_JOB_SECONDS } from '../../../../../src/main/engine/planner'
import { parsePresetText } from '../../../../../src/main/presets/presets'
import { PRESET_SCHEMA_FILE } from '../../../../../src/main/presets/schema'
import { PRESET_KIND, PRESET_VERSION } from '../../../../../src/shared/model/plan'
import { TargetSchema } from '../../../../../src/shared/model/target'

/**
 * A preset with custom stress-ng tests, as a person writes it: the committed JSON Schema (read by
 * Ajv, as an editor would) and VirtBench's own preset check accept it, and plans:review turns it
 * into stress-ng's exact commands, or puts a bad parameter at its field.
 */

const schema = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../../resources/presets', PRESET_SCHEMA_FILE), 'utf8')) as Record<string, unknown>
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema)

const now = '2025-03-01T10:00:00.000Z'
const target = (id: string, name: string, role: 'host' | 'guest') =>
  TargetSchema.parse({ id, name, kind: 'ssh', role, address: `${name}.lab`, user: 'bench', auth: { method: 'agent' }, createdAt: now, updatedAt: now })
const inventory = [target('t-host', 'phys-01', 'host'), target('t-guest', 'vm-01', 'guest')]

function presetText(vmParams: Record<string, unknown>): string {
  return JSON.stringify({
    kind: PRESET_KIND,
    version: PRESET_VERSION,
    plan: {
      name: 'stress-ng cpu and memory',
      baseline: { target: 'phys-01' },
      variants: [{ target: 'vm-01' }],
      tests: [
        { id: 'sng-cpu', title: 'stress-ng cpu, matrixprod', tool: 'stress-ng', params: { stressor: 'cpu', workers: 0, timeoutSeconds: 30 } },
        { id: 'sng-vm', tool: 'stress-ng', params: { stressor: 'vm', timeoutSeconds: 30, ...vmParams } }
      ],
      repetitions: 3
    }
  })
}

describe('a preset with custom stress-ng tests', () => {
  it('is valid by the committed JSON Schema and by VirtBench’s preset check', () => {
    const text = presetText({ workers: 2, vmBytes: '1G', vmKeep: true })
    expect(validate(JSON.parse(text)), JSON.stringify(validate.errors)).toBe(true)
    const preset = parsePresetText(text)
    expect(preset.plan.tests.map((t) => ('tool' in t ? [t.id, t.tool] : []))).toEqual([
      ['sng-cpu', 'stress-ng'],
      ['sng-vm', 'stress-ng']
    ])
  })

  it('reviews into stress-ng’s exact commands on both targets', () => {
    const preset = parsePresetText(presetText({ workers: 2, vmBytes: '1G', vmKeep: true }))
    const review = reviewPlan(preset.plan, { inventory, hasSudoPassword: () => false })
    expect(review.issues).toEqual([])
    const command = (target: string, stressNg: string) => {
      const dir = `'/home/bench/virtbench-work/vb-<run id>-${target}/stress-ng'`
      const yaml = `'/home/bench/virtbench-work/vb-<run id>-${target}/stress-ng/stress-ng.yaml'`
      return `mkdir -p -- ${dir} && rm -f -- ${yaml} && ${stressNg} --yaml ${yaml}; rc=$?; if [ -f ${yaml} ]; then cat -- ${yaml}; fi; exit "$rc"`
    }
    const first = review.jobs.filter((j) => j.repetition === 1).map((j) => [j.testId, j.target, j.steps.map((s) => s.command)])
    expect(first).toEqual([
      ['sng-cpu', 'phys-01', [command('phys-01', 'stress-ng --cpu 0 --cpu-method matrixprod --timeout 30s --metrics-brief')]],
      ['sng-cpu', 'vm-01', [command('vm-01', 'stress-ng --cpu 0 --cpu-method matrixprod --timeout 30s --metrics-brief')]],
      ['sng-vm', 'phys-01', [command('phys-01', 'stress-ng --vm 2 --vm-bytes 1G --vm-method write64 --vm-keep --timeout 30s --metrics-brief')]],
      ['sng-vm', 'vm-01', [command('vm-01', 'stress-ng --vm 2 --vm-bytes 1G --vm-method write64 --vm-keep --timeout 30s --metrics-brief')]]
    ])
    // 2 tests x 2 targets x 3 repetitions of 31 s each (30 s and starting), plus what the run adds
    // around them: the engine's cost per job, the logins and checks with the idle gate, the cleanup
    expect(review.jobs).toHaveLength(12)
    expect(review.seconds).toBe(Math.round(12 * 31 + 12 * PER_JOB_SECONDS + CONNECT_SECONDS + Math.max(CHECKS_SECONDS, IDLE_SECONDS) + CLEANUP_SECONDS))
  })

  it('puts a bad stress-ng parameter at its field, with what is allowed', () => {
    const text = presetText({ vmBytes: '1.5G', vmMethod: 'checkerboard' })
    // the JSON Schema holds no tool's parameters; VirtBench checks them when it reviews or runs the plan
    expect(validate(JSON.parse(text))).toBe(true)
    const review = reviewPlan(parsePresetText(text).plan, { inventory, hasSudoPassword: () => false })
    expect(review.ok).toBe(false)
    expect(review.issues.map((i) => i.path)).toEqual(['tests.1.params.vmBytes', 'tests.1.params.vmMethod'])
    expect(review.issues[0]!.message).toBe(
      'vmBytes must be a whole number of bytes with an optional unit b, k, m or g (powers of 1024), like 256M, or a share of the physical memory from 1% to 100%'
    )
  })
})
