import type { ReactElement } from 'react'
import { PageHeader } from '../../components/empty-state'

/** Two or more runs side by side. */
export function CompareRunsPage(): ReactElement {
  return (
    <div className="page">
      <PageHeader title="Compare runs" lead="" />
    </div>
  )
}
