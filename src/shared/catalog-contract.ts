import { z } from 'zod'
import { ComparisonPlanSchema } from './model/plan'
import { FindingSchema } from './model/run'
import { AGGREGATES, PACK_IDS, TOOL_IDS } from './model/tool-ids'
import { ToolArchivesSchema } from './tool-archive-contract'

/**
 * What the wizard needs from main before a run starts: the catalog of packs and tools (what they
 * measure, their exact tests and how long they take), a review of a plan (every problem with the
 * field it concerns, the exact commands per target, the estimated time), and preflight on the
 * real targets (docs/preflight.md).
 */

const Seconds = z.number().nonnegative()

export const CatalogTestSchema = z.object({
  /** Stable within the pack: 'fio-4k-randread'. */
  id: z.string(),
  title: z.string(),
  tool: z.enum(TOOL_IDS),
  params: z.record(z.string(), z.unknown()),
  repetitions: z.number().int().optional(),
  aggregate: z.enum(AGGREGATES).optional(),
  /** One run of this test on one target. */
  seconds: Seconds
})
export type CatalogTest = z.infer<typeof CatalogTestSchema>

export const CatalogPackSchema = z.object({
  id: z.enum(PACK_IDS),
  name: z.string(),
  /** The study it reproduces. */
  study: z.string(),
  description: z.string(),
  /** Tools it runs, in the order of its tests. */
  tools: z.array(z.enum(TOOL_IDS)),
  /** 'storage' | 'network' | 'cpu' | 'memory' ... of its tests. */
  categories: z.array(z.string()),
  full: z.object({ tests: z.array(CatalogTestSchema), seconds: Seconds }),
  quick: z.object({ tests: z.array(CatalogTestSchema), seconds: Seconds })
})
export type CatalogPack = z.infer<typeof CatalogPackSchema>

export const CatalogToolSchema = z.object({
  id: z.enum(TOOL_IDS),
  name: z.string(),
  /** One sentence: what it measures. */
  description: z.string(),
  category: z.string(),
  /** Whether it needs a peer (iperf3, iperf, ping). */
  network: z.boolean(),
  /** The tool's parameters as JSON Schema (draft 2020-12), for the custom-test form. */
  paramsSchema: z.record(z.string(), z.unknown()),
  /** Parameters a new custom test starts with (valid against paramsSchema). */
  defaults: z.record(z.string(), z.unknown())
})
export type CatalogTool = z.infer<typeof CatalogToolSchema>

export const CatalogSchema = z.object({ packs: z.array(CatalogPackSchema), tools: z.array(CatalogToolSchema) })
export type Catalog = z.infer<typeof CatalogSchema>

/** A problem of a plan, with the field it concerns ('variants.0.target', 'tests.2.params.bs'). */
export const PlanIssueSchema = z.object({ path: z.string(), message: z.string() })
export type PlanIssue = z.infer<typeof PlanIssueSchema>

export const ReviewJobSchema = z.object({
  id: z.string(),
  testId: z.string(),
  title: z.string(),
  tool: z.enum(TOOL_IDS),
  repetition: z.number().int(),
  /** The target the tool's client runs on, and its server peer for network tests. */
  target: z.string(),
  peer: z.string().optional(),
  /** Every step of the job: the exact shell command and the target it runs on. */
  steps: z.array(z.object({ on: z.string(), command: z.string(), measured: z.boolean() })),
  seconds: Seconds
})
export type ReviewJob = z.infer<typeof ReviewJobSchema>

export const PlanReviewSchema = z.object({
  /** False when issues is not empty: the plan cannot run as it is. */
  ok: z.boolean(),
  issues: z.array(PlanIssueSchema),
  /** In run order (empty when the plan is not ok). */
  jobs: z.array(ReviewJobSchema),
  /** Estimated run time, all jobs one after the other. */
  seconds: Seconds,
  /** With adaptive repetitions: the longest the run may take (each test to its most repetitions, within the time budget). */
  maxSeconds: Seconds.optional(),
  /** How many of the jobs are timed by an earlier run of the same job on the same target (the others by their tool's guess). */
  timedFromPast: z.number().int().min(1).optional()
})
export type PlanReview = z.infer<typeof PlanReviewSchema>

export const PreflightReportSchema = z.object({
  /** Errors block the run; warnings need the user's acknowledgement; infos are shown. */
  findings: z.array(FindingSchema),
  /** Per target: whether it was reached, its OS and the virtualization detected. */
  targets: z.array(
    z.object({
      name: z.string(),
      reachable: z.boolean(),
      os: z.string().optional(),
      virtualization: z.string().optional(),
      /** For a guest whose physical host runs libvirt: what `virsh dumpxml` says of its disk. */
      detected: z
        .object({ cache: z.string(), io: z.string(), queues: z.number(), bus: z.string(), source: z.string() })
        .partial()
        .optional()
    })
  )
})
export type PreflightReport = z.infer<typeof PreflightReportSchema>

/** The plan as the wizard has it: checked by main, which answers with issues rather than refusing. */
const LoosePlan = z.record(z.string(), z.unknown())

export const catalogInvokeContract = {
  'catalog:get': { request: z.undefined(), response: CatalogSchema },
  'plans:review': { request: z.strictObject({ plan: LoosePlan }), response: PlanReviewSchema },
  /** toolArchives: the tools brought from this computer, as runs:start takes them; preflight brings them (builds and caches them on the targets) and says how each arrived. */
  'plans:preflight': { request: z.strictObject({ plan: ComparisonPlanSchema, toolArchives: ToolArchivesSchema.optional() }), response: PreflightReportSchema }
} as const
