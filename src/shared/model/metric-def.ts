import { z } from 'zod'
import { BetterSchema, METRIC_CATEGORIES, UnitSchema } from './sample'

/**
 * What a metric is, as its tool defines it (src/main/tools/<tool>/metrics.ts) and as a run
 * document keeps it (`run.metrics`), so every table, chart and export reads it from the data
 * instead of guessing from the metric's name.
 */

/** Where a chart or table needs to know a metric's part: */
export const METRIC_ROLES = [
  /** a latency (seconds, lower is better) drawn on the latency chart */
  'latency',
  /** a figure of the network tables (source x destination matrix, simultaneous clients) */
  'network-table',
  /** a surface over two size labels (iozone's file size x record size heat map) */
  'surface'
] as const
export type MetricRole = (typeof METRIC_ROLES)[number]

/**
 * How two sides may be compared: `ratio` for rates and times (bandwidth, IOPS, events/s,
 * latency), relative % = variant / baseline; `difference` for counts and shares that can be
 * zero on both sides (retransmits, lost packets, loss %, CPU %), variant - baseline.
 */
export const METRIC_COMPARISONS = ['ratio', 'difference'] as const
export type MetricComparison = (typeof METRIC_COMPARISONS)[number]

/**
 * `tool`: the tool printed the figure (VirtBench converted its unit only, or summed jobs the
 * tool printed); `derived`: VirtBench computed it from other printed figures (dd's mean time per
 * block = elapsed / records), so no output shows it as such.
 */
export const METRIC_SOURCES = ['tool', 'derived'] as const
export type MetricSource = (typeof METRIC_SOURCES)[number]

export const MetricDefSchema = z.strictObject({
  /** May hold placeholders in angle brackets (`fio.<dir>.iops`), each standing for one name part. */
  name: z.string().min(1),
  unit: UnitSchema,
  better: BetterSchema,
  category: z.enum(METRIC_CATEGORIES),
  source: z.enum(METRIC_SOURCES),
  comparison: z.enum(METRIC_COMPARISONS),
  roles: z.array(z.enum(METRIC_ROLES)).readonly().optional(),
  description: z.string(),
  /** The label keys its samples may carry. */
  labels: z.array(z.string()).readonly().optional()
})
export type MetricDef = z.infer<typeof MetricDefSchema>

/**
 * What a placeholder stands for in a concrete metric name: one dot-free name part, except
 * `<percentile>`, a number that may have decimals (`p99.9`).
 */
function placeholderPattern(name: string): string {
  return name === 'percentile' ? '[0-9]+(?:\\.[0-9]+)?' : '[A-Za-z0-9_-]+'
}

function patternOf(defName: string): RegExp {
  const source = defName
    .split(/(<[a-z]+>)/)
    .map((part) => (/^<[a-z]+>$/.test(part) ? placeholderPattern(part.slice(1, -1)) : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('')
  return new RegExp(`^${source}$`)
}

/** Whether the concrete metric `metric` (`fio.read.iops`) is an instance of the definition name `defName` (`fio.<dir>.iops`). */
export function metricMatches(defName: string, metric: string): boolean {
  return defName === metric || (defName.includes('<') && patternOf(defName).test(metric))
}

/**
 * Finds the definition of a metric name among `defs`: the definition of that very name first (a
 * concrete name, or a definition's own name with its placeholders), then the first pattern the
 * concrete name is an instance of. Built once per set of definitions; answers are remembered.
 */
export function metricDefFinder(defs: readonly MetricDef[]): (metric: string) => MetricDef | undefined {
  const exact = new Map<string, MetricDef>()
  const patterns: { def: MetricDef; re: RegExp }[] = []
  for (const def of defs) {
    if (!exact.has(def.name)) exact.set(def.name, def)
    if (def.name.includes('<')) patterns.push({ def, re: patternOf(def.name) })
  }
  const seen = new Map<string, MetricDef | undefined>()
  return (metric) => {
    if (seen.has(metric)) return seen.get(metric)
    const found = exact.get(metric) ?? patterns.find((p) => p.re.test(metric))?.def
    seen.set(metric, found)
    return found
  }
}
