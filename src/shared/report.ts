import { z } from 'zod'
import { ComparisonPlanSchema } from './model/plan'
import { RUN_STATUSES, RunDocumentSchema } from './model/run'

/**
 * The PDF comparison report (docs/export.md): what a report is made from, and its options. The
 * same page (src/renderer/report.html) is printed by the desktop app (webContents.printToPDF) and
 * by `virtbench report` (a Chromium found on the system, driven over its DevTools pipe).
 */

export const PAPER_SIZES = ['a4', 'letter'] as const
export type PaperSize = (typeof PAPER_SIZES)[number]

/** Width x height in millimetres (ISO 216 A4; US Letter is 8.5 x 11 in). */
export const PAPER_MM: Record<PaperSize, { width: number; height: number; css: string; label: string }> = {
  a4: { width: 210, height: 297, css: 'A4', label: 'A4' },
  letter: { width: 215.9, height: 279.4, css: 'letter', label: 'US Letter' }
}

export const ReportOptionsSchema = z.strictObject({
  paper: z.enum(PAPER_SIZES).default('a4'),
  /** Leave out host names and addresses (a report attached to a ticket). */
  redact: z.boolean().default(false),
  /** Who ran the comparison, printed on the title page when given. */
  author: z
    .string()
    .trim()
    .max(120, 'a name of at most 120 characters')
    .regex(/^[^\p{Cc}]*$/u, 'a name has no control characters')
    .optional()
})
export type ReportOptions = z.infer<typeof ReportOptionsSchema>

/** What was left out of a redacted report, counted (never the originals). */
const Count = z.number().int().min(0)
export const RedactionCountsSchema = z.strictObject({ hostNames: Count, addresses: Count, macs: Count, users: Count, renamedTargets: Count })

/** One step of a sweep, as runs:sweep gives it: its combination, folder, how it ended, and its run (absent when it never started). */
export const SweepStepSchema = z.object({
  label: z.string(),
  dir: z.string(),
  status: z.enum(RUN_STATUSES),
  seconds: z.number().optional(),
  run: RunDocumentSchema.optional()
})
export type SweepReportStep = z.infer<typeof SweepStepSchema>

/** sweep.json as a sweep folder holds it (docs/runs.md#a-sweep-on-disk): the plan, the combinations, each step that ended. */
export const SweepRecordSchema = z.object({
  kind: z.literal('virtbench.sweep'),
  version: z.literal(1),
  plan: ComparisonPlanSchema,
  name: z.string().optional(),
  variants: z.array(z.object({ label: z.string(), values: z.record(z.string(), z.union([z.string(), z.number()])) })),
  steps: z.array(
    z.object({ step: z.object({ variant: z.number().int().min(0), repetitions: z.number().int().min(1) }), label: z.string(), dir: z.string(), status: z.enum(RUN_STATUSES), seconds: z.number() })
  )
})
export type SweepRecordDocument = z.infer<typeof SweepRecordSchema>

/** A sweep's steps for its report (docs/export.md#a-sweep): how many it has, and each that ran, in order. */
export const SweepReportSchema = z.strictObject({ total: z.number().int().min(0), steps: z.array(SweepStepSchema) })
export type SweepReport = z.infer<typeof SweepReportSchema>

/** What the report page is given to draw: the run (already redacted when asked), and who made the PDF. */
export const ReportInputSchema = z.strictObject({
  run: RunDocumentSchema,
  options: ReportOptionsSchema,
  /** The VirtBench version that made the report (the run carries the version that measured). */
  appVersion: z.string(),
  /** When the report was made (ISO 8601). */
  generatedAt: z.string(),
  /** Set when the run was redacted: what kinds of names were replaced, and how many. */
  redacted: RedactionCountsSchema.optional(),
  /** Set for a sweep: every step with its run (`run` is then the latest step's, under the sweep's id, name and plan). */
  sweep: SweepReportSchema.optional()
})
export type ReportInput = z.infer<typeof ReportInputSchema>

/** What the page says once it has drawn the report: ready to print. */
export interface ReportRendered {
  title: string
  /** The sections drawn, by id, in order (the tests check them). */
  sections: string[]
  charts: number
}

/** The name the page exposes to whoever prints it (app or CLI), on `window`. */
export const REPORT_GLOBAL = 'virtbenchReport'

/**
 * "virtbench-<run name>-<run id>" made safe for a file name: the id (which starts with the run's
 * date and time, `20261121-004506-13e070`) keeps two runs of one day, even of one name, apart.
 * An id that does not start with the date gets the date before it; without an id, the date alone.
 */
export function reportFileStem(run: { name: string; createdAt: string; id?: string }): string {
  const safe = (text: string): string =>
    text
      .normalize('NFKD')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
  const slug = safe(run.name)
  const date = run.createdAt.slice(0, 10)
  const id = run.id ? safe(run.id) : ''
  const tail = id === '' ? date : /^\d{8}-\d{6}/.test(id) ? id : `${date}-${id}`
  return `virtbench-${slug || 'run'}-${tail}`
}
