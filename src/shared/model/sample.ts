import { z } from 'zod'

/**
 * Units of measured values. Values are always stored in base units; formatting for
 * people (MiB/s, Gbit/s, ms) happens at the edge (UI, report).
 *
 * - `B/s`, `bit/s`, `s`, `op/s`, `B`, `%`: base units.
 * - `count`: a plain number of things (packets, retransmits, records).
 * - `lps`, `MWIPS`, `index`: a tool's own score units (UnixBench).
 */
export const UNITS = ['B/s', 'bit/s', 's', 'op/s', 'B', '%', 'count', 'lps', 'MWIPS', 'index'] as const
export const UnitSchema = z.enum(UNITS)
export type Unit = z.infer<typeof UnitSchema>

/** Which way is better for a metric: more throughput is better, more latency is worse. */
export const BetterSchema = z.enum(['higher', 'lower'])
export type Better = z.infer<typeof BetterSchema>

/** String labels that tell samples of one metric apart (job, direction, repetition, file_size...). */
export const LabelsSchema = z.record(z.string(), z.string())
export type Labels = z.infer<typeof LabelsSchema>

/** One measured value. */
export const SampleSchema = z.object({
  metric: z.string().min(1),
  value: z.number().refine(Number.isFinite, 'a sample value must be a finite number'),
  unit: UnitSchema,
  better: BetterSchema,
  labels: LabelsSchema
})
export type Sample = z.infer<typeof SampleSchema>

export const METRIC_CATEGORIES = ['storage', 'network', 'cpu', 'memory'] as const
export type MetricCategory = (typeof METRIC_CATEGORIES)[number]

/**
 * Labels that mark a sample as one part of a total the tool also reports: one job of several
 * (fio), one parallel stream (iperf, iperf3), one iteration of an averaged run (mbw), one end of
 * a test (iperf3's CPU on the target or the peer). Such a sample is never a test's primary figure
 * nor a cell of the network tables: its total is.
 */
export const PART_LABELS = ['job', 'stream', 'iteration', 'machine'] as const

/** Whether the labels mark a part of a total (PART_LABELS). */
export function isPartOfTotal(labels: Readonly<Record<string, string>>): boolean {
  return PART_LABELS.some((key) => labels[key] !== undefined)
}
