import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describeRun } from '../../../src/main/tools/describe-run'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import { SweepRecordSchema, type SweepRecordDocument, type SweepReportStep } from '../../../src/shared/report'

export const SWEEP_DIR = path.join(__dirname, '../../fixtures/runs/sweep-cache-io')

const json = (file: string): unknown => JSON.parse(readFileSync(path.join(SWEEP_DIR, file), 'utf8'))

/**
 * The real sweep of tests/fixtures/runs/sweep-cache-io as main serves it: runs:sweep's record and
 * steps (each with its run), and runs:get's document (the latest step's run under the sweep's
 * id, name and plan, docs/runs.md#a-sweep-on-disk).
 */
export function sweepFixture(): { run: RunDocument; record: SweepRecordDocument; steps: (SweepReportStep & { run: RunDocument })[] } {
  const record = SweepRecordSchema.parse(json('sweep.json'))
  const steps = record.steps.map((s) => ({ label: s.label, dir: s.dir, status: s.status, seconds: s.seconds, run: describeRun(RunDocumentSchema.parse(json(path.join(s.dir, 'run.json')))) }))
  const run = { ...steps.at(-1)!.run, id: path.basename(SWEEP_DIR), name: record.plan.name, plan: record.plan, createdAt: steps[0]!.run.createdAt }
  return { run, record, steps }
}
