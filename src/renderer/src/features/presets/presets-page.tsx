import type { ReactElement } from 'react'
import { EmptyState, PageHeader } from '../../components/empty-state'

export function PresetsPage(): ReactElement {
  return (
    <div className="page">
      <PageHeader title="Presets" lead="Saved comparisons to run again: the same targets, scenarios, tests and repetitions." />
      <EmptyState icon="presets" title="No presets yet">
        <p>
          Save a comparison as a preset to repeat it every release and compare with the last time. Presets refer to
          targets by name and never hold passwords or keys.
        </p>
      </EmptyState>
    </div>
  )
}
