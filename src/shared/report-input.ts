import type { RunDocument } from './model/run'
import { redactRun } from './export/redact'
import type { ReportInput, ReportOptions } from './report'

/**
 * What a report (PDF, CSV, JSON) is made from: the run, redacted when the options say so. One
 * function for the app, `virtbench serve` and `virtbench report`, so the three leave out the same.
 */
export function reportInputOf(run: RunDocument, options: ReportOptions, made: { appVersion: string; now: Date }): ReportInput {
  const base = { options, appVersion: made.appVersion, generatedAt: made.now.toISOString() }
  if (!options.redact) return { ...base, run }
  const redacted = redactRun(run)
  return { ...base, run: redacted.run, redacted: redacted.redaction }
}
