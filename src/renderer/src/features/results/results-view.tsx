import type { ReactElement } from 'react'
import type { RunDocument } from '../../../../shared/model/run'

/** A run's results: summary, overhead table, charts, flags and environment. (stub: results helper) */
export function ResultsView({ run }: { run: RunDocument }): ReactElement {
  return <section aria-label="Results">{run.name}</section>
}
