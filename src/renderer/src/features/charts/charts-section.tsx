import type { ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'

/** Every chart a run has data for. (stub: charts helper) */
export function ChartsSection({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement {
  return <section aria-label="Charts">{run.id} {comparison.rows.length}</section>
}

/** The charts of a comparison alone (grouped bars, relative %), e.g. for runs compared side by side. (stub) */
export function ComparisonCharts({ comparison }: { comparison: Comparison }): ReactElement {
  return <section aria-label="Charts">{comparison.rows.length}</section>
}
