import { z } from 'zod'
import { TargetEnvironmentSchema } from './environment'
import { MetricDefSchema } from './metric-def'
import { ComparisonPlanSchema } from './plan'
import { SampleSchema } from './sample'
import { NETWORK_PATHS, ScenarioSchema } from './scenario'
import { AGGREGATES, TOOL_IDS } from './tool-ids'
import type { DomainStageEvent } from '../sweep/stage-event'

/**
 * A run: one execution of a comparison plan. Written as it goes (docs/runs.md): the plan, the
 * targets as they were, the environment of each, the preflight findings, and per job the exact
 * commands, where their raw output is kept, the exit status, timings, samples and warnings.
 */

export const RUN_KIND = 'virtbench-run'
export const RUN_VERSION = 1

export const RUN_STATUSES = ['running', 'completed', 'failed', 'cancelled', 'interrupted'] as const
export type RunStatus = (typeof RUN_STATUSES)[number]

export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

const Iso = z.string()

export const FindingSchema = z.strictObject({
  severity: z.enum(['error', 'warning', 'info']),
  /** The target it concerns (name), absent for the plan as a whole. */
  target: z.string().optional(),
  /** Stable id: 'unreachable', 'tool-missing', 'space', 'tmpfs-direct', 'device-mounted'... */
  code: z.string(),
  /** The tool a finding is about (tool-missing, tool-present, tool-not-checked), by id: 'fio', 'iozone'. */
  tool: z.enum(TOOL_IDS).optional(),
  message: z.string(),
  /** What to do about it. */
  fix: z.string().optional(),
  /** A command that fixes it (an install command), offered, run only when the user says so. */
  command: z.string().optional()
})
export type Finding = z.infer<typeof FindingSchema>

/** A target as the run saw it (no secrets; the inventory may change later). */
export const RunTargetSchema = z.strictObject({
  name: z.string(),
  role: z.enum(['baseline', 'variant', 'peer']),
  /** How tables name it. */
  label: z.string(),
  kind: z.enum(['ssh', 'local']),
  address: z.string().optional(),
  port: z.number().optional(),
  user: z.string().optional(),
  scenario: ScenarioSchema.optional(),
  /** The address peers' clients use to reach it, when it runs a server. */
  networkAddress: z.string().optional()
})
export type RunTarget = z.infer<typeof RunTargetSchema>

export const StepRecordSchema = z.strictObject({
  id: z.string(),
  /** The target (name) the step ran on. */
  on: z.string(),
  /** The exact script run. */
  command: z.string(),
  background: z.boolean().optional(),
  measured: z.boolean().optional(),
  startedAt: Iso.optional(),
  endedAt: Iso.optional(),
  exitCode: z.number().nullable().optional(),
  signal: z.string().nullable().optional(),
  /** Raw output files, relative to the run directory. */
  stdoutFile: z.string().optional(),
  stderrFile: z.string().optional(),
  /** Why the step failed to run (not the tool's own exit): a lost target, a timeout. */
  error: z.string().optional()
})
export type StepRecord = z.infer<typeof StepRecordSchema>

/** Host monitor summary: what the block layer did while the job ran (/proc/diskstats). */
export const DiskActivitySchema = z.strictObject({
  target: z.string(),
  device: z.string(),
  seconds: z.number(),
  readIops: z.number(),
  writeIops: z.number(),
  readBytesPerSecond: z.number(),
  writeBytesPerSecond: z.number(),
  /** Bytes per request. */
  avgIoSizeBytes: z.number().optional(),
  busyPct: z.number(),
  /** Average time a request took, in seconds (await). */
  awaitSeconds: z.number().optional(),
  requests: z.number(),
  /** Second by second, as sampled: `at` is seconds since the first sample. */
  series: z
    .array(
      z.strictObject({
        at: z.number(),
        readIops: z.number(),
        writeIops: z.number(),
        readBytesPerSecond: z.number(),
        writeBytesPerSecond: z.number(),
        busyPct: z.number()
      })
    )
    .optional()
})
export type DiskActivity = z.infer<typeof DiskActivitySchema>

/** CPU use on one machine over a job's measured step, from /proc/stat and /proc/loadavg before and after. */
export const CpuWindowSchema = z.strictObject({
  target: z.string(),
  seconds: z.number(),
  /** CPU time the hypervisor took from this machine, in % of its CPU time. */
  stealPct: z.number(),
  /** Busy CPU time in % of all CPUs' time (the tool's own included). */
  busyPct: z.number(),
  /** On the measured machine: busy time beyond the tool's own CPU time, in % of all CPUs' time. */
  otherPct: z.number().optional(),
  /** The 1-minute load average when the step started (work that was there before it). */
  loadBefore: z.number().optional(),
  cpus: z.number().optional()
})
export type CpuWindow = z.infer<typeof CpuWindowSchema>

export const ContaminationSchema = z.strictObject({
  windows: z.array(CpuWindowSchema),
  /** Set when something disturbed the measurement, with what was seen (a flag of the comparison). */
  disturbed: z.string().optional()
})

export const JobSchema = z.strictObject({
  id: z.string(),
  testId: z.string(),
  title: z.string(),
  tool: z.enum(TOOL_IDS),
  params: z.record(z.string(), z.unknown()),
  /** The measured target (name) and its side: the baseline's label or a variant's label. */
  target: z.string(),
  side: z.string(),
  /** The machine running the server of a network test. */
  peer: z.string().optional(),
  /** The network path a matrix job dials its peer over (the plan's network.paths); absent: the measured side's scenario says. */
  network: z.enum(NETWORK_PATHS).optional(),
  /**
   * Network jobs of the matrix or the simultaneous test are not part of the baseline comparison;
   * a warm-up run (one per test and target, before the measured ones) is kept but never counted.
   */
  kind: z.enum(['compare', 'matrix', 'simultaneous', 'warmup']).default('compare'),
  /** Jobs sharing a group run at the same time (the simultaneous clients of study 000). */
  group: z.string().optional(),
  repetition: z.number().int().min(1),
  status: z.enum(JOB_STATUSES),
  attempts: z.number().int().min(0).default(0),
  estimatedSeconds: z.number().optional(),
  queuedAt: Iso.optional(),
  startedAt: Iso.optional(),
  endedAt: Iso.optional(),
  steps: z.array(StepRecordSchema).default([]),
  samples: z.array(SampleSchema).default([]),
  warnings: z.array(z.string()).default([]),
  error: z.string().optional(),
  /** Block-layer activity on the target and its physical host while the job ran. */
  monitor: z.array(DiskActivitySchema).optional(),
  /** What else used the machine (and its physical host) while the measured step ran. */
  contamination: ContaminationSchema.optional()
})
export type Job = z.infer<typeof JobSchema>

export const RunTestSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  tool: z.enum(TOOL_IDS),
  params: z.record(z.string(), z.unknown()),
  repetitions: z.number().int().min(1),
  aggregate: z.enum(AGGREGATES),
  /** Adaptive repetitions: how many the test got and why the engine stopped adding them. */
  adaptive: z
    .strictObject({
      repetitions: z.number().int().min(1),
      stoppedBecause: z.enum(['precise', 'max-repetitions', 'budget', 'no-interval', 'failed', 'cancelled']),
      /** The widest half-width (points of relative %) among its primary ratios when it stopped. */
      halfWidthPct: z.number().optional(),
      /** In words, for the run view, the CLI and the report. */
      message: z.string()
    })
    .optional(),
  /**
   * The figures the test exists to measure, as its tool decided from its parameters: names of
   * the run's metric definitions (`fio.<dir>.iops`) or concrete metrics. They lead every table
   * and summary. Absent in runs written before VirtBench kept them (filled in when read).
   */
  primary: z.array(z.string()).optional()
})
export type RunTest = z.infer<typeof RunTestSchema>

/**
 * Where a run's figures come from when VirtBench did not measure them: a study's published
 * figures, typed in (one repetition per cell, no raw outputs). Shown with the run, so nobody
 * takes them for a measurement of their own machines.
 */
export const RunSourceSchema = z.strictObject({
  kind: z.literal('published'),
  /** The publication, as people name it. */
  title: z.string().min(1),
  /** Where to find it (the seed file, a URL, a citation). */
  citation: z.string().min(1),
  /** What the figures are and are not: "published figures, not measured here"... */
  note: z.string().min(1)
})
export type RunSource = z.infer<typeof RunSourceSchema>

/**
 * A libvirt domain the run changed (docs/scenarios.md): the setup applied before the jobs (its XML
 * diff kept in the run folder) and whether the original was put back when the run ended.
 */
export const RunDomainSchema = z.strictObject({
  domain: z.string(),
  /** The physical host where virsh ran, and the guest (target names). */
  host: z.string(),
  guest: z.string(),
  apply: z
    .strictObject({
      /**
       * changing: defined, the restart and the checks under way (a run killed then keeps this);
       * applied: changed and verified; unchanged: the domain had the setup already (no restart); failed: see error.
       */
      status: z.enum(['changing', 'applied', 'unchanged', 'failed']),
      at: Iso,
      /** What changed, in words ("vdb cache: none -> writeback"). */
      changes: z.array(z.string()).default([]),
      /** The XML diff (lines), relative to the run folder. */
      diffFile: z.string().optional(),
      error: z.string().optional(),
      /** For a failure: the XML diff and the end of the guest's serial console. */
      details: z.string().optional()
    })
    .optional(),
  restore: z
    .strictObject({
      /** restored: the original XML is defined and the guest answered; failed: see error; kept: a sweep's next step changes the domain again. */
      status: z.enum(['restored', 'failed', 'kept']),
      at: Iso,
      error: z.string().optional(),
      /** The original XML saved before the first change, relative to the run folder (`../domains/...` in a sweep's step). */
      originalFile: z.string().optional()
    })
    .optional()
})
export type RunDomain = z.infer<typeof RunDomainSchema>

export const RunDocumentSchema = z.strictObject({
  kind: z.literal(RUN_KIND),
  version: z.literal(RUN_VERSION),
  id: z.string(),
  name: z.string(),
  status: z.enum(RUN_STATUSES),
  createdAt: Iso,
  updatedAt: Iso,
  endedAt: Iso.optional(),
  app: z.strictObject({ version: z.string() }),
  plan: ComparisonPlanSchema,
  /** The plan's tests with packs expanded, in run order. */
  tests: z.array(RunTestSchema),
  targets: z.array(RunTargetSchema),
  /** Each target's environment by target name (what preflight and the capture found). */
  environment: z.record(z.string(), TargetEnvironmentSchema).default({}),
  preflight: z.array(FindingSchema).default([]),
  jobs: z.array(JobSchema),
  /**
   * The definitions of the metrics the run's tools give (category, unit, primary or not, ratio or
   * difference, chart roles), as they were when the run was made, so every table, chart and export
   * reads them from the run. Absent in runs written before VirtBench kept them (filled in when read).
   */
  metrics: z.array(MetricDefSchema).optional(),
  /** The libvirt domains the run changed (a scenario setup, a sweep step) and how each was put back. */
  domains: z.array(RunDomainSchema).optional(),
  /** Why the run stopped early, when it did. */
  error: z.string().optional(),
  /** Present when the figures were not measured by VirtBench: published ones (the example built from study 001). */
  source: RunSourceSchema.optional()
})
export type RunDocument = z.infer<typeof RunDocumentSchema>

/** A run in a list: enough to show it without loading every job. */
export interface RunSummary {
  id: string
  name: string
  /** The plan's (preset's) name, which a rename of the run keeps: the release comparison lists the earlier runs of it. */
  plan: string
  status: RunStatus
  createdAt: string
  endedAt?: string
  baseline: string
  variants: string[]
  jobs: { total: number; succeeded: number; failed: number }
  /** Published figures, not measured here (the example comparison). */
  source?: { kind: 'published'; title: string }
  /** A sweep: its guest and domain, its steps and how many completed, the combination under way (docs/runs.md). */
  sweep?: { guest: string; domain: string; steps: number; completed: number; current?: string }
}

/** How many jobs there are, and how many succeeded and failed (a run's, or a sweep's steps' together). */
export function jobTally(jobs: readonly Pick<Job, 'status'>[]): RunSummary['jobs'] {
  return { total: jobs.length, succeeded: jobs.filter((j) => j.status === 'succeeded').length, failed: jobs.filter((j) => j.status === 'failed').length }
}

/** How a run names its baseline: its target's label, else the plan's target. */
export function baselineLabelOf(run: Pick<RunDocument, 'targets' | 'plan'>): string {
  return run.targets.find((t) => t.role === 'baseline')?.label ?? run.plan.baseline.target
}

export function summarizeRun(run: RunDocument): RunSummary {
  const baseline = baselineLabelOf(run)
  return {
    id: run.id,
    name: run.name,
    plan: run.plan.name,
    status: run.status,
    createdAt: run.createdAt,
    ...(run.endedAt ? { endedAt: run.endedAt } : {}),
    baseline,
    variants: run.targets.filter((t) => t.role === 'variant').map((t) => t.label),
    jobs: jobTally(run.jobs),
    ...(run.source ? { source: { kind: run.source.kind, title: run.source.title } } : {})
  }
}

/** What a run tells its watchers (the live run view, the CLI's progress lines) as it goes. */
export type RunEvent =
  | { type: 'run-started'; runId: string; jobs: number }
  /** Adaptive repetitions added jobs to the run (a round of one test): fetch the run again to see them. */
  | { type: 'jobs-added'; runId: string; jobIds: string[] }
  /** `domain`: a stage of a libvirt domain's change, structured (src/shared/sweep/stage-event.ts). */
  | { type: 'stage'; runId: string; message: string; target?: string; domain?: DomainStageEvent }
  | { type: 'finding'; runId: string; finding: Finding }
  | { type: 'job-started'; runId: string; jobId: string; attempt: number; estimatedSeconds?: number }
  | { type: 'job-progress'; runId: string; jobId: string; elapsedSeconds: number; percent?: number; etaSeconds?: number }
  | { type: 'job-reattached'; runId: string; jobId: string; message: string }
  /** Output of a running job's steps as it arrives (chunks of text, not split into lines). */
  | { type: 'job-log'; runId: string; jobId: string; stream: 'stdout' | 'stderr'; text: string }
  | {
      type: 'job-finished'
      runId: string
      jobId: string
      status: JobStatus
      error?: string
      /** The last lines of the job's output, for a failed job. */
      logTail?: string
      samples: number
    }
  | { type: 'run-finished'; runId: string; status: RunStatus; error?: string }
