import type { RunDocument } from './model/run'
import { redactRun } from './export/redact'
import type { ReportInput, ReportOptions, SweepReport } from './report'

/**
 * What a report (PDF, CSV, JSON) is made from: the run, redacted when the options say so. One
 * function for the app, `virtbench serve` and `virtbench report`, so the three leave out the same.
 * For a sweep, `sweep` holds every step with its run (each step's run redacted as the run is).
 */
export function reportInputOf(run: RunDocument, options: ReportOptions, made: { appVersion: string; now: Date }, sweep?: SweepReport): ReportInput {
  const base = { options, appVersion: made.appVersion, generatedAt: made.now.toISOString() }
  if (!options.redact) return { ...base, run, ...(sweep ? { sweep } : {}) }
  const redacted = redactRun(run)
  const steps = sweep?.steps.map(({ run: step, ...rest }) => ({ ...rest, ...(step ? { run: redactRun(step).run } : {}) }))
  return { ...base, run: redacted.run, redacted: redacted.redaction, ...(sweep && steps ? { sweep: { total: sweep.total, steps } } : {}) }
}
