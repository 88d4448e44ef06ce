import { sendsAtSetRate } from './compare/bandwidth-cap'
import { metricDefFinder, metricMatches, type MetricComparison, type MetricDef, type MetricRole, type MetricSource } from './model/metric-def'
import type { RunDocument } from './model/run'
import type { MetricCategory } from './model/sample'

/** What the comparison, the tables and the charts need to know of one metric of one test. */
export interface MetricFacts {
  category: MetricCategory
  /** The figure the test exists to measure: it leads tables and summaries. */
  primary: boolean
  source: MetricSource
  comparison: MetricComparison
  roles: readonly MetricRole[]
  /** The test's sender sets the pace (UDP at -b's rate): its bandwidth says nothing of a limit on the path. */
  setRate?: boolean
}

export interface RunMetrics {
  /** The definition of a concrete metric (`fio.read.iops`), from the run's own definitions. */
  defOf(metric: string): MetricDef | undefined
  /** The facts of `metric` as a figure of test `testId`; undefined when the run does not define it. */
  factsOf(testId: string, metric: string): MetricFacts | undefined
  /** Whether the metric has `role` (the latency chart, the network tables, a surface). */
  hasRole(metric: string, role: MetricRole): boolean
}

/**
 * The run's metric definitions and its tests' primaries (run.metrics, run.tests[].primary), as
 * the engine wrote them. A run read through main without them has them filled in from today's
 * tools; one that still lacks them (built by hand) has no facts, and every figure counts as
 * secondary.
 */
export function runMetrics(run: Pick<RunDocument, 'metrics' | 'tests'>): RunMetrics {
  const defOf = metricDefFinder(run.metrics ?? [])
  const primaries = new Map(run.tests.map((t) => [t.id, t.primary ?? []]))
  const setRate = new Set(run.tests.filter(sendsAtSetRate).map((t) => t.id))
  return {
    defOf,
    factsOf(testId, metric) {
      const def = defOf(metric)
      if (!def) return undefined
      const primary = (primaries.get(testId) ?? []).some((name) => metricMatches(name, metric) || name === def.name)
      return {
        category: def.category,
        primary,
        source: def.source,
        comparison: def.comparison,
        roles: def.roles ?? [],
        ...(setRate.has(testId) ? { setRate: true } : {})
      }
    },
    hasRole(metric, role) {
      return defOf(metric)?.roles?.includes(role) ?? false
    }
  }
}
