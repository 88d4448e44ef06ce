import path from 'node:path'
import { startRun } from '../../../src/main/engine/start-run'
import { readRun } from '../../../src/main/store/run-store'
import { ComparisonPlanSchema } from '../../../src/shared/model/plan'
import type { RunDocument } from '../../../src/shared/model/run'
import type { Lab } from '../engine/run-harness'

/**
 * Real runs for the team store's tests: the loopback lab's host and guest (two real sshd), small
 * real tests (dd, ping), two repetitions so the comparison has intervals and verdicts.
 */
export async function makeRun(lab: Lab, runsRoot: string, id: string, preset: string, tests: unknown[]): Promise<{ run: RunDocument; dir: string }> {
  const plan = ComparisonPlanSchema.parse({
    name: preset,
    baseline: { target: 'host' },
    variants: [{ target: 'guest', label: 'guest (cache=none)', scenario: { hypervisor: 'kvm', cache: 'none' } }],
    storage: { kind: 'directory', path: lab.workRoot },
    repetitions: 2,
    idleSeconds: 0,
    tests
  })
  const dir = path.join(runsRoot, id)
  const started = await startRun(plan, dir, lab.services(), id)
  const status = await started.done
  if (status !== 'completed') throw new Error(`the fixture run ${id} ended ${status}`)
  return { run: await readRun(dir), dir }
}

export const DD_TESTS = [{ pack: 'block-dd', form: 'quick', only: ['dd-latency'] }]
export const PING_TESTS = [{ id: 'ping', tool: 'ping', params: { count: 3, intervalSeconds: 0.2 } }]
