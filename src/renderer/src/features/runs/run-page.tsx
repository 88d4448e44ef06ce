import type { ReactElement } from 'react'
import { PageHeader } from '../../components/empty-state'

/** One run: live while it runs, its results after. */
export function RunPage(): ReactElement {
  return (
    <div className="page">
      <PageHeader title="Run" lead="" />
    </div>
  )
}
