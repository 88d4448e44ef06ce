import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState, type ReactElement } from 'react'
import { describe, expect, it } from 'vitest'
import { AcceptanceVerdict } from '../../../src/renderer/src/features/acceptance/acceptance-verdict'
import { checkAcceptance, CriteriaEditor } from '../../../src/renderer/src/features/acceptance/criteria-editor'
import { compare } from '../../../src/shared/compare'
import { AcceptanceSchema, type AcceptanceInput } from '../../../src/shared/model/criteria'
import type { RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { loopbackRun } from '../run-fixture'

/** The recorded loopback run (two sshd on one machine) with acceptance criteria added to its plan. */
function runWith(acceptance: AcceptanceInput | undefined): RunDocument {
  const run = loopbackRun()
  return { ...run, plan: { ...run.plan, acceptance: acceptance ? AcceptanceSchema.parse(acceptance) : undefined } }
}

function verdictOf(run: RunDocument): ReturnType<typeof render> {
  return render(<AcceptanceVerdict run={run} comparison={compare(comparisonInputOf(run))} />)
}

describe('AcceptanceVerdict', () => {
  it('shows nothing for a plan without criteria', () => {
    const { container } = verdictOf(runWith(undefined))
    expect(container.innerHTML).toBe('')
  })

  it('says failed at the top, each criterion with its status, and opens the figures of a failed one', () => {
    const run = runWith({
      criteria: [
        // the recorded guest is the host itself: nothing is below 10 %
        { name: 'nothing below 10 %', atLeastPct: 10 },
        // and not everything is "same": at least one of its six primary figures is undecided or slower
        { name: 'all at least 99.9 %', atLeastPct: 99.9 },
        { name: 'a test that is not there', scope: { test: 'nope' }, noSlower: true }
      ]
    })
    verdictOf(run)
    const section = screen.getByRole('region', { name: 'Acceptance failed' })
    expect(within(section).getByText(/^1 of 3 criteria passed; not passed: all at least 99\.9 %; a test that is not there$/)).toBeTruthy()
    const items = within(section).getAllByRole('listitem').filter((li) => li.classList.contains('acceptance-criterion'))
    expect(items.map((li) => li.querySelector('.acceptance-status')!.textContent)).toEqual(['Passed', 'Failed', 'Not judged'])
    const failed = items[1]!.querySelector('details')!
    expect(failed.open).toBe(true)
    expect(items[0]!.querySelector('details')!.open).toBe(false)
    expect(within(failed).getAllByText('fails').length).toBeGreaterThan(0)
    expect(failed.textContent).toMatch(/guest \(cache=none\), .* \[95 % interval .*\], (slower|same|faster|inconclusive): /)
  })

  it('says passed when every criterion passes', () => {
    verdictOf(runWith({ criteria: [{ atLeastPct: 10 }, { atMostPct: 1000 }] }))
    expect(screen.getByRole('region', { name: 'Acceptance passed' }).textContent).toContain('2 of 2 criteria passed')
  })
})

function Editor({ initial }: { initial?: AcceptanceInput }): ReactElement {
  const [value, setValue] = useState<AcceptanceInput | undefined>(initial)
  return (
    <>
      <CriteriaEditor value={value} onChange={setValue} tests={[{ id: 'fio-randread', title: 'fio random read' }]} variants={['guest']} />
      <output data-testid="value">{JSON.stringify(value ?? null)}</output>
    </>
  )
}

const valueOf = (): unknown => JSON.parse(screen.getByTestId('value').textContent!)

describe('CriteriaEditor', () => {
  it('adds a criterion, narrows its scope, changes its rule and bound, and names it as the verdict will', async () => {
    const user = userEvent.setup()
    render(<Editor />)
    expect(screen.getByText('No criteria: every run passes.')).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Add a criterion' }))
    expect(valueOf()).toEqual({ criteria: [{ scope: {}, atLeastPct: 90 }] })
    await user.selectOptions(screen.getByLabelText('Figures of category'), 'storage')
    await user.selectOptions(screen.getByLabelText('Variant'), 'guest')
    await user.selectOptions(screen.getByLabelText('Rule'), 'between')
    const most = screen.getByLabelText('At most (% of the baseline)')
    await user.clear(most)
    await user.type(most, '105')
    expect(valueOf()).toEqual({ criteria: [{ scope: { category: 'storage', variant: 'guest' }, atLeastPct: 90, atMostPct: 105 }] })
    expect(screen.getByText('Reported as: storage primary figures (variant guest) at least 90 % and at most 105 % of the baseline')).toBeTruthy()
    expect(checkAcceptance(valueOf() as AcceptanceInput)).toEqual({ ok: true })

    await user.selectOptions(screen.getByLabelText('Rule'), 'no-inconclusive')
    expect(valueOf()).toEqual({ criteria: [{ scope: { category: 'storage', variant: 'guest' }, noInconclusive: true }] })
    await user.click(screen.getByRole('button', { name: 'Remove' }))
    expect(valueOf()).toBeNull()
  })

  it('shows a criterion\'s problem beside it, as the plan will refuse it', async () => {
    const user = userEvent.setup()
    render(<Editor initial={{ criteria: [{ scope: {}, atLeastPct: 110, atMostPct: 90 }] }} />)
    expect(screen.getByRole('alert').textContent).toContain('atMostPct: atMostPct (90) is below atLeastPct (110): no figure could pass')
    expect(checkAcceptance(valueOf() as AcceptanceInput)).toMatchObject({ ok: false })
    await user.selectOptions(screen.getByLabelText('Figures an interval cannot decide'), 'pass')
    expect(valueOf()).toMatchObject({ inconclusive: 'pass' })
  })
})
