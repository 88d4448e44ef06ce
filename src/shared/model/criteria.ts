import { z } from 'zod'
import { METRIC_CATEGORIES } from './sample'

/**
 * Acceptance criteria of a plan (docs/presets.md#acceptance-criteria): what a run must show to
 * pass, judged by src/shared/criteria/ from the comparison's cells, their 95 % intervals and
 * verdicts. Bounds are on relative %, where 100 % is "as good as the baseline" and more is always
 * better (for latency too: relative % = baseline / variant), so "at least 90 %" means "loses at
 * most 10 %" for every kind of metric.
 */

/** Which compared figures a criterion is about; every field narrows it, none means all primary figures. */
export const CriterionScopeSchema = z
  .strictObject({
    category: z.enum(METRIC_CATEGORIES).optional().describe("Only metrics of this category (the metric's definition: storage, network, cpu, memory)"),
    test: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'a test id as the plan names it (virtbench packs ID lists a pack\'s)')
      .optional().describe('Only this test of the plan (its id, a pack test id or a custom test id)'),
    metric: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,127}$/, 'a metric id such as fio.read.iops (docs/metrics.md)')
      .optional()
      .describe('Only this metric (for example fio.read.iops, dd.lat.mean; docs/metrics.md)'),
    variant: z.string().trim().min(1).max(80).optional().describe("Only this variant (its label, or its target name when it has no label)"),
    allMetrics: z
      .boolean()
      .default(false)
      .describe('Also judge secondary figures; by default only primary ones (what each test exists to measure), as the summaries do')
  })
  .describe('Which figures the criterion judges; empty: every primary figure of every variant')
export type CriterionScope = z.output<typeof CriterionScopeSchema>

/** How a figure whose interval cannot decide the criterion counts. */
export const INCONCLUSIVE_POLICIES = ['fail', 'pass'] as const
export type InconclusivePolicy = (typeof INCONCLUSIVE_POLICIES)[number]

const Pct = z.number().min(0).max(100_000)

export const CriterionSchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(120)
      .regex(/^[^\p{Cc}]+$/u)
      .optional()
      .describe('How the verdict and the JUnit test case name this criterion (default: written from its fields)'),
    scope: CriterionScopeSchema.default({ allMetrics: false }),
    atLeastPct: Pct.optional().describe(
      'Every figure in scope is at least this relative % (100 = as good as the baseline, more is better, latency too): passes when its whole 95 % interval lies at or above it'
    ),
    atMostPct: Pct.optional().describe(
      'Every figure in scope is at most this relative %: passes when its whole 95 % interval lies at or below it (catches a guest suspiciously faster than its host, a cache answering instead of the disk)'
    ),
    noInconclusive: z.literal(true).optional().describe('No figure in scope has the verdict inconclusive ("can\'t tell"): every one is slower, faster or same'),
    noSlower: z.literal(true).optional().describe('No figure in scope has the verdict slower'),
    inconclusive: z
      .enum(INCONCLUSIVE_POLICIES)
      .optional()
      .describe("How a figure counts whose interval reaches both sides of a bound, or that has no interval (default: the acceptance's, else fail)")
  })
  .superRefine((c, ctx) => {
    const kinds = [c.atLeastPct !== undefined || c.atMostPct !== undefined, c.noInconclusive === true, c.noSlower === true].filter(Boolean).length
    if (kinds !== 1) {
      ctx.addIssue({ code: 'custom', path: [], message: 'a criterion is one of: a bound (atLeastPct and/or atMostPct), noInconclusive: true, or noSlower: true' })
    }
    if (c.atLeastPct !== undefined && c.atMostPct !== undefined && c.atLeastPct > c.atMostPct) {
      ctx.addIssue({ code: 'custom', path: ['atMostPct'], message: `atMostPct (${c.atMostPct}) is below atLeastPct (${c.atLeastPct}): no figure could pass` })
    }
    if (c.inconclusive !== undefined && c.atLeastPct === undefined && c.atMostPct === undefined) {
      ctx.addIssue({ code: 'custom', path: ['inconclusive'], message: 'inconclusive says how an undecided figure counts against a bound; give it with atLeastPct or atMostPct' })
    }
  })
  .describe('One criterion over the figures of its scope: a bound on relative % (atLeastPct and/or atMostPct), noInconclusive or noSlower')
export type CriterionInput = z.input<typeof CriterionSchema>
export type Criterion = z.output<typeof CriterionSchema>

export const AcceptanceSchema = z.strictObject({
  criteria: z.array(CriterionSchema).min(1, 'give at least one criterion').max(200).describe('Every criterion must pass for the run to pass'),
  inconclusive: z
    .enum(INCONCLUSIVE_POLICIES)
    .default('fail')
    .describe('How a figure counts whose interval cannot decide a bound (it reaches both sides, or there is none), unless a criterion says: fail (default) or pass')
})
export type AcceptanceInput = z.input<typeof AcceptanceSchema>
export type Acceptance = z.output<typeof AcceptanceSchema>
