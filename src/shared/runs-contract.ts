import { z } from 'zod'
import { PATH_LIMIT_BYTES, stringOfAtMostBytes } from './byte-limit'
import { ComparisonPlanSchema } from './model/plan'
import { JOB_STATUSES, RUN_STATUSES, RunDocumentSchema } from './model/run'
import { ReportOptionsSchema, SweepRecordSchema, SweepStepSchema } from './report'
import { ToolArchivesSchema } from './tool-archive-contract'

/**
 * The runs part of the API contract: start a comparison, watch it (runs:event), cancel, retry a
 * failed job, resume an interrupted run, and read finished runs with their raw outputs.
 */

const RunId = z.string().regex(/^[A-Za-z0-9_-]{1,80}$/, 'not a run id')
/** A file on this computer, chosen by the user (a save or open dialog). */
const AbsolutePath = stringOfAtMostBytes(PATH_LIMIT_BYTES, 'a path')
  .min(2)
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'give an absolute path')
  .refine((p) => !p.includes('\0'), 'a path cannot contain NUL')
const JobId = z.string().regex(/^j[0-9]{4,6}$/, 'not a job id')

export const RunSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The plan's (preset's) name: runs of one preset share it, whatever each run was renamed to. */
  plan: z.string(),
  status: z.enum(RUN_STATUSES),
  createdAt: z.string(),
  endedAt: z.string().optional(),
  baseline: z.string(),
  variants: z.array(z.string()),
  jobs: z.object({ total: z.number(), succeeded: z.number(), failed: z.number() }),
  /** Published figures, not measured here (the example comparison): label it so in the history. */
  source: z.object({ kind: z.literal('published'), title: z.string() }).optional(),
  /** A sweep (docs/runs.md#a-sweep-on-disk): one guest measured under each combination, one step each. */
  sweep: z
    .object({
      guest: z.string(),
      domain: z.string(),
      /** Steps in all, and how many completed. */
      steps: z.number(),
      completed: z.number(),
      /** The combination being measured, while the sweep runs. */
      current: z.string().optional()
    })
    .optional()
})

/** Events of a run, as RunEvent in src/shared/model/run.ts (checked loosely: type and run id). */
export const RunEventSchema = z.looseObject({
  type: z.enum(['run-started', 'jobs-added', 'stage', 'finding', 'job-started', 'job-progress', 'job-reattached', 'job-log', 'job-finished', 'run-finished']),
  runId: z.string(),
  jobId: z.string().optional(),
  status: z.union([z.enum(JOB_STATUSES), z.enum(RUN_STATUSES)]).optional()
})

export const runsInvokeContract = {
  'runs:list': {
    request: z.undefined(),
    response: z.object({ runs: z.array(RunSummarySchema), problems: z.array(z.string()), active: z.array(z.string()) })
  },
  'runs:get': { request: z.strictObject({ id: RunId }), response: RunDocumentSchema },
  /** A sweep's steps, each with its run, for its table (rows: combinations), and sweep.json as stored (its JSON export); `sweep: false` for a run that is not a sweep. */
  'runs:sweep': {
    request: z.strictObject({ id: RunId }),
    response: z.discriminatedUnion('sweep', [
      z.object({ sweep: z.literal(false) }),
      z.object({ sweep: z.literal(true), plan: ComparisonPlanSchema, steps: z.array(SweepStepSchema), total: z.number(), record: SweepRecordSchema })
    ])
  },
  'runs:start': {
    request: z.strictObject({
      plan: ComparisonPlanSchema,
      /** The user's consent to change the plan's libvirt domains (the wizard's checkbox; the CLI's --change-domains). */
      changeDomains: z.boolean().optional(),
      /** Tools brought from this computer, as the CLI's --tool-archive / --tool-sha256 (docs/tools-offline.md); never part of the plan or a preset. */
      toolArchives: ToolArchivesSchema.optional()
    }),
    response: z.object({ id: z.string() })
  },
  'runs:cancel': { request: z.strictObject({ id: RunId }), response: z.object({ cancelled: z.boolean() }) },
  'runs:retry': { request: z.strictObject({ id: RunId, jobIds: z.array(JobId).min(1).max(10_000) }), response: z.object({ id: z.string() }) },
  'runs:resume': {
    /** changeDomains: a sweep (or a run with a setup) resumed goes on changing its domains; without it, the domain is put back and the run stops before its jobs. */
    request: z.strictObject({ id: RunId, changeDomains: z.boolean().optional() }),
    response: z.object({ id: z.string() })
  },
  'runs:rename': { request: z.strictObject({ id: RunId, name: z.string().trim().min(1, 'a run needs a name').max(120) }), response: RunSummarySchema },
  /** Puts the example comparison (study 001's published figures, not measured here) in the run list; returns its id. */
  'runs:example': { request: z.undefined(), response: z.object({ id: z.string() }) },
  'runs:remove': { request: z.strictObject({ id: RunId }), response: z.object({ removed: z.string() }) },
  'runs:export': {
    request: z.strictObject({ id: RunId, file: AbsolutePath }),
    response: z.object({ file: z.string(), rawFiles: z.number() })
  },
  /** The PDF comparison report of a run (docs/export.md), printed by main; the renderer saves it. */
  'runs:report': {
    request: z.strictObject({ id: RunId, options: ReportOptionsSchema }),
    response: z.object({
      fileName: z.string(),
      /** The PDF, base64. */
      pdf: z.string(),
      bytes: z.number(),
      pages: z.number().optional(),
      charts: z.number(),
      seconds: z.number()
    })
  },
  'runs:import': { request: z.strictObject({ file: AbsolutePath }), response: z.object({ id: z.string(), name: z.string() }) },
  'runs:raw': {
    request: z.strictObject({ id: RunId, file: z.string().regex(/^raw\/[A-Za-z0-9._-]{1,200}$/, 'not a raw output file of the run') }),
    response: z.object({ text: z.string(), bytes: z.number(), truncated: z.boolean() })
  }
} as const

export const runsEventContract = {
  'runs:event': RunEventSchema
} as const
