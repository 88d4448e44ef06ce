import type { ReactElement } from 'react'
import { EmptyState, PageHeader } from '../../components/empty-state'

export function TargetsPage(): ReactElement {
  return (
    <div className="page">
      <PageHeader title="Targets" lead="The physical hosts and guests VirtBench reaches over SSH." />
      <EmptyState icon="targets" title="No targets yet">
        <p>
          Each target will show its role (physical host or guest), address, OS, CPU, memory and whether it is virtual.
          Host keys are checked against your known_hosts and new ones are shown with their fingerprint before anything
          is trusted.
        </p>
      </EmptyState>
    </div>
  )
}
