import type { ReactElement } from 'react'
import { EmptyState, PageHeader } from '../../components/empty-state'

export function RunsPage(): ReactElement {
  return (
    <div className="page">
      <PageHeader title="Runs" lead="Every comparison you have run, with its raw output, environment and results." />
      <EmptyState icon="runs" title="No runs yet">
        <p>
          Each run is kept with the exact commands, the raw output of every tool, the parsed values with their units, and
          the environment of every target, so any number can be traced back to what produced it.
        </p>
      </EmptyState>
    </div>
  )
}
