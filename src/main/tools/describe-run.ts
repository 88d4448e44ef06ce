import type { MetricDef } from '../../shared/model/metric-def'
import type { RunDocument, RunTest } from '../../shared/model/run'
import type { ToolId } from '../../shared/model/tool-ids'
import { TOOLS } from './registry'

/**
 * A run document carries what its metrics are (the tools' definitions) and what each test is for
 * (its primary metrics), so the comparison, the screens, the CLI table and the PDF read them from
 * the data. The engine writes them into a new run; a run written before VirtBench kept them gets
 * them from today's tools when it is read.
 */

/** The metric definitions of the tools `ids` use, in tool order, each once. */
export function metricDefsOf(ids: readonly ToolId[]): MetricDef[] {
  const wanted = new Set(ids)
  return Object.values(TOOLS)
    .filter((tool) => wanted.has(tool.id))
    .flatMap((tool) => tool.metrics.map((def) => ({ ...def })))
}

/** The test with its primary metrics as its tool decides them from its parameters (none when they are not valid). */
export function withPrimary(test: RunTest): RunTest {
  const tool = TOOLS[test.tool]
  const checked = tool.params.safeParse(test.params)
  return { ...test, primary: checked.success ? [...tool.primaryMetrics(checked.data)] : [] }
}

/** The run with its metric definitions and its tests' primaries; a run that has them is returned as it is. */
export function describeRun(run: RunDocument): RunDocument {
  const tests = run.tests.map((t) => (t.primary ? t : withPrimary(t)))
  const metrics = run.metrics ?? metricDefsOf([...new Set([...run.tests.map((t) => t.tool), ...run.jobs.map((j) => j.tool)])])
  const changed = run.metrics === undefined || tests.some((t, i) => t !== run.tests[i])
  return changed ? { ...run, tests, metrics } : run
}
