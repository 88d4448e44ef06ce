import type { ReactElement } from 'react'
import { EmptyState, PageHeader } from '../../components/empty-state'

export function ComparisonPage(): ReactElement {
  return (
    <div className="page">
      <PageHeader
        title="New comparison"
        lead="Pick a baseline, the guests to compare with it, and the tests to run on each."
      />
      <EmptyState icon="comparison" title="A comparison needs targets first">
        <p>
          A comparison runs the same tests on a physical host (the 100 % baseline) and on each guest under its scenario:
          hypervisor, storage backend, disk cache, virtio queues, disk bus and network path. Add targets to start one.
        </p>
      </EmptyState>
    </div>
  )
}
