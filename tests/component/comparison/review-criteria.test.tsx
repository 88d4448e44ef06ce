import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { emptyDraft, withBaseline, withVariant, type WizardDraft } from '../../../src/renderer/src/models/wizard-draft'
import { useAppStore } from '../../../src/renderer/src/store'
import { callsTo, okReview, renderWizard, reviewJob } from './wizard-fixtures'

const JOBS = [
  reviewJob('j0001', 'dd-throughput', 'host-01', 'dd if=/dev/zero of=~/virtbench-work/ddfile bs=64M count=1 oflag=direct'),
  reviewJob('j0002', 'dd-throughput', 'vm1', 'dd if=/dev/zero of=~/virtbench-work/ddfile bs=64M count=1 oflag=direct'),
  reviewJob('j0003', 'dd-latency', 'host-01', 'dd if=/dev/zero of=~/virtbench-work/ddfile bs=512 count=200 oflag=direct')
]

function readyDraft(): WizardDraft {
  const draft = withVariant(withBaseline(emptyDraft(), 'host-01'), 'vm1', true)
  return { ...draft, tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: undefined }] }
}

const atReview = { wizardStep: 3 as const, wizardReached: 3 as const, wizardChecked: [true, true, true, true] }

function criteriaSection(): HTMLElement {
  return screen.getByRole('region', { name: 'Acceptance criteria' })
}

describe('acceptance criteria in the review step', () => {
  it('edits the draft\'s criteria, offering the plan\'s tests (as main expanded them) and guests as scopes', async () => {
    const user = userEvent.setup()
    renderWizard({ 'plans:review': () => okReview(JOBS) }, { ...atReview, wizardDraft: readyDraft() })
    expect(screen.getByRole('heading', { level: 3, name: 'Acceptance criteria' })).toBeTruthy()
    expect(within(criteriaSection()).getByText('No criteria: every run passes.')).toBeTruthy()

    await user.click(within(criteriaSection()).getByRole('button', { name: 'Add a criterion' }))
    expect(useAppStore.getState().wizardDraft.acceptance).toEqual({ criteria: [{ scope: {}, atLeastPct: 90 }] })

    await user.selectOptions(within(criteriaSection()).getByLabelText('Figures of category'), 'storage')
    // the test choices come from main's review of the plan, once it has answered
    await waitFor(() => expect(within(within(criteriaSection()).getByLabelText('Test')).queryByRole('option', { name: 'dd-latency' })).toBeTruthy())
    const tests = within(within(criteriaSection()).getByLabelText('Test')).getAllByRole('option').map((o) => o.textContent)
    expect(tests).toEqual(['any', 'dd-throughput', 'dd-latency'])
    const variants = within(within(criteriaSection()).getByLabelText('Variant')).getAllByRole('option').map((o) => o.textContent)
    expect(variants).toEqual(['any', 'vm1'])
    await user.selectOptions(within(criteriaSection()).getByLabelText('Test'), 'dd-latency')
    expect(useAppStore.getState().wizardDraft.acceptance).toEqual({ criteria: [{ scope: { category: 'storage', test: 'dd-latency' }, atLeastPct: 90 }] })

    await user.click(within(criteriaSection()).getByRole('button', { name: 'Remove' }))
    expect(useAppStore.getState().wizardDraft.acceptance).toBeUndefined()
    expect('acceptance' in useAppStore.getState().wizardDraft).toBe(false)
  })

  it('saves the criteria with the preset', async () => {
    const user = userEvent.setup()
    const { api } = renderWizard(
      {
        'plans:review': () => okReview(JOBS),
        'presets:save': ({ preset }) => ({ id: 'release-gate', name: preset.plan.name, builtin: false, baseline: 'host-01', variants: ['vm1'], tests: ['block-dd'] })
      },
      { ...atReview, wizardDraft: readyDraft() }
    )
    await user.click(within(criteriaSection()).getByRole('button', { name: 'Add a criterion' }))
    await user.selectOptions(within(criteriaSection()).getByLabelText('Rule'), 'none inconclusive')
    expect(within(criteriaSection()).getByText('Reported as: primary figures: none inconclusive')).toBeTruthy()

    await user.click(screen.getByRole('button', { name: 'Save as preset' }))
    const dialog = screen.getByRole('dialog', { name: 'Save as preset' })
    const name = within(dialog).getByLabelText('Preset name')
    await user.clear(name)
    await user.type(name, 'release gate')
    await user.click(within(dialog).getByRole('button', { name: 'Save preset' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    const [saved] = callsTo(api, 'presets:save') as [{ preset: { plan: { name: string; acceptance?: unknown } } }]
    expect(saved.preset.plan.name).toBe('release gate')
    expect(saved.preset.plan.acceptance).toEqual({ criteria: [{ scope: {}, noInconclusive: true }] })
  })
})
