import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ResultsView } from '../../../src/renderer/src/features/results/results-view'
import { AcceptanceSchema } from '../../../src/shared/model/criteria'
import type { RunDocument } from '../../../src/shared/model/run'
import { loopbackRun } from '../run-fixture'

function withCriteria(run: RunDocument): RunDocument {
  // the recorded guest is the host itself: nothing is below 10 % of it
  return { ...run, plan: { ...run.plan, acceptance: AcceptanceSchema.parse({ criteria: [{ name: 'guests keep 10 % of the host', atLeastPct: 10 }] }) } }
}

describe('the acceptance verdict in the results', () => {
  it('comes first, above the summary, when the plan has criteria', () => {
    render(<ResultsView run={withCriteria(loopbackRun())} />)
    const verdict = screen.getByRole('region', { name: 'Acceptance passed' })
    const results = screen.getByRole('region', { name: /^Results of / })
    expect(results.firstElementChild).toBe(verdict)
    expect(verdict.textContent).toContain('guests keep 10 % of the host')
  })

  it('is absent when the plan has none', () => {
    render(<ResultsView run={loopbackRun()} />)
    expect(screen.queryByRole('region', { name: /^Acceptance / })).toBeNull()
  })
})
