import type { RunDocument } from '../model/run'
import type { SweepRecordDocument } from '../report'
import { redactRun } from './redact'

/** The kind of a sweep's JSON export (docs/export.md#json). */
export const SWEEP_JSON_KIND = 'virtbench-sweep'

/** A sweep for its JSON: its document as runs:get gives it, sweep.json's record as stored, and its steps with their runs. */
export interface SweepJsonInput {
  run: RunDocument
  /** sweep.json as the sweep folder holds it (kind "virtbench.sweep"): the plan, the combinations, each step that ended. */
  record: SweepRecordDocument
  total: number
  steps: readonly { label: string; dir: string; status: string; seconds?: number; run?: RunDocument }[]
}

/**
 * The JSON of a sweep: `{ kind: "virtbench-sweep", version: 1, id, name, plan, record, total, steps }`,
 * `record` being sweep.json and `steps` every step with its run document. With `redact`, the name,
 * the plan and each step's run are the redacted ones, and the record's plan and name are replaced by
 * them (its combinations and step folders name no machine).
 */
export function sweepJson(sweep: SweepJsonInput, options: { redact?: boolean } = {}): string {
  const run = options.redact ? redactRun(sweep.run).run : sweep.run
  const steps = sweep.steps.map(({ run: step, ...rest }) => ({ ...rest, ...(step ? { run: options.redact ? redactRun(step).run : step } : {}) }))
  const record = options.redact ? { ...sweep.record, plan: run.plan, ...(sweep.record.name !== undefined ? { name: run.name } : {}) } : sweep.record
  return `${JSON.stringify({ kind: SWEEP_JSON_KIND, version: 1, id: run.id, name: run.name, plan: run.plan, record, total: sweep.total, steps }, null, 2)}\n`
}
