import { describe, expect, it } from 'vitest'
import { expandTests, planJobs } from '../../../src/main/engine/planner'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import type { Job, RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'

/** Study 003's reading: one machine's RAID 1 (the baseline) against its SSD, dd's write rate in B/s, three repetitions each. */
function runOf(variantVirtualization: string): RunDocument {
  const plan = ComparisonPlanSchema.parse({
    name: 'raid vs ssd',
    baseline: { target: 'raid1' },
    variants: [{ target: 'ssd' }],
    repetitions: 3,
    tests: [{ id: 'dd', tool: 'dd', params: {} }]
  })
  const tests = expandTests(plan)
  const figures: Record<string, number[]> = { raid1: [20.3e6, 21.0e6, 20.6e6], ssd: [1.21e9, 1.25e9, 1.23e9] }
  const jobs = planJobs(plan, tests).map((job): Job => {
    const value = figures[job.target]![job.repetition - 1]!
    return { ...job, status: 'succeeded', samples: [{ metric: 'dd.bandwidth', value, unit: 'B/s', better: 'higher', labels: {} }] }
  })
  const now = new Date(0).toISOString()
  const target = (name: string, role: 'baseline' | 'variant') => ({ name, role, label: name, kind: 'ssh' as const })
  const doc = { kind: 'virtbench-run', version: 1, id: 'r-003', name: plan.name, status: 'completed', createdAt: now, updatedAt: now, app: { version: 'test' } }
  const environment = { raid1: { virtualization: 'none' }, ssd: { virtualization: variantVirtualization } }
  return describeRun({ ...doc, plan, tests, targets: [target('raid1', 'baseline'), target('ssd', 'variant')], environment, preflight: [], jobs } as unknown as RunDocument)
}

describe('comparisonInputOf', () => {
  it('raises no "faster than the baseline" flag for a variant found to be a physical machine: faster is the finding', () => {
    const flagsOf = (virtualization: string) => {
      const row = compare(comparisonInputOf(runOf(virtualization))).rows.find((r) => r.metric === 'dd.bandwidth')!
      expect(row.cells[0]!.verdict).toBe('faster')
      return row.cells[0]!.flags.map((f) => f.kind)
    }
    expect(flagsOf('none')).toEqual([])
    // a guest faster than its host's disk is what the flag explains (a cache answered)
    expect(flagsOf('kvm')).toEqual(['faster-than-baseline'])
  })
})
