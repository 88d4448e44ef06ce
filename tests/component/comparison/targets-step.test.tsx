import { act, cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { useAppStore } from '../../../src/renderer/src/store'
import type { ConnectionTestResult } from '../../../src/shared/targets-contract'
import { emptyDraft, withBaseline } from '../../../src/renderer/src/models/wizard-draft'
import { callsTo, description, INVENTORY, isChecked, isDisabled, renderWizard, targetView } from './wizard-fixtures'

function row(name: string): HTMLElement {
  const cell = screen.getByRole('rowheader', { name: new RegExp(`^${name}`) })
  return cell.closest('tr') as HTMLElement
}

function variantNames(): string[] {
  return useAppStore.getState().wizardDraft.variants.map((v) => v.target)
}

describe('wizard step 1: targets', () => {
  it('shows a stepper with the current step, each target with its detected system and reachability', () => {
    renderWizard(
      {},
      {
        tests: {
          't-host-01': { running: false, stages: [{ stage: 'tcp', status: 'ok' }], result: { targetId: 't-host-01', ok: true, stages: [] } },
          't-vm1': {
            running: false,
            stages: [
              { stage: 'tcp', status: 'ok' },
              { stage: 'auth', status: 'failed', detail: 'permission denied (publickey)' }
            ],
            result: { targetId: 't-vm1', ok: false, stages: [], error: 'permission denied (publickey)' }
          }
        }
      }
    )
    const steps = screen.getByRole('navigation', { name: 'Steps of the new comparison' })
    expect(within(steps).getByRole('button', { name: /Step 1: Targets/ }).getAttribute('aria-current')).toBe('step')
    expect(within(steps).getByRole('button', { name: /Step 2: Scenario/ }).getAttribute('aria-current')).toBeNull()
    expect(isDisabled(within(steps).getByRole('button', { name: /Step 3: Tests/ }))).toBe(true)

    // Hosts first; the detected system comes from the last connection test.
    const names = screen.getAllByRole('rowheader').map((c) => c.firstChild?.textContent)
    expect(names).toEqual(['host-01', 'vm1', 'vm2', 'vm3', 'vm4'])
    expect(within(row('host-01')).getByText('Debian GNU/Linux 12 (bookworm) · bare metal')).toBeTruthy()
    expect(within(row('vm1')).getByText('Debian GNU/Linux 12 (bookworm) · kvm')).toBeTruthy()
    expect(within(row('vm2')).getByText('not tested yet')).toBeTruthy()
    expect(within(row('host-01')).getByText('✓ reachable')).toBeTruthy()
    expect(within(row('vm1')).getByText('✗ failed at Log in')).toBeTruthy()
    expect(within(row('vm2')).getByText('not tested')).toBeTruthy()
    // The last test's stages stay visible under the target.
    const stages = screen.getByRole('list', { name: 'Stages of the connection test of vm1' })
    expect(within(stages).getByText('permission denied (publickey)')).toBeTruthy()
  })

  it('tests a connection with its stages as they arrive', async () => {
    const user = userEvent.setup()
    let answer: (result: ConnectionTestResult) => void = () => {}
    const { api } = renderWizard({
      'targets:test': () => new Promise<ConnectionTestResult>((resolve) => (answer = resolve))
    })
    await user.click(screen.getByRole('button', { name: 'Test connection to vm2' }))
    expect(callsTo(api, 'targets:test')).toEqual([{ id: 't-vm2' }])
    act(() => api.emit('targets:testProgress', { targetId: 't-vm2', stage: 'tcp', status: 'ok', detail: 'vm2.lab:22', elapsedMs: 12 }))
    const stages = screen.getByRole('list', { name: 'Stages of the connection test of vm2' })
    expect(within(stages).getByText('vm2.lab:22')).toBeTruthy()
    expect(within(row('vm2')).getByText('testing…')).toBeTruthy()
    const os = { family: 'linux' as const, name: 'Alpine Linux v3.20', virtualization: 'kvm', detectedAt: '2025-03-01T10:00:00.000Z' }
    await act(async () => answer({ targetId: 't-vm2', ok: true, stages: [{ stage: 'tcp', status: 'ok' }, { stage: 'os', status: 'ok', detail: 'Alpine' }], os }))
    expect(within(row('vm2')).getByText('✓ reachable')).toBeTruthy()
    expect(within(row('vm2')).getByText('Alpine Linux v3.20 · kvm')).toBeTruthy()
  })

  it('preselects the baseline when exactly one target was found to be bare metal, and not otherwise', async () => {
    renderWizard()
    expect(isChecked(screen.getByRole('radio', { name: 'Baseline: host-01' }))).toBe(true)
    expect(useAppStore.getState().wizardDraft.baseline).toBe('host-01')
    expect(variantNames()).toEqual([])
    cleanup()

    // two bare-metal machines: the person chooses
    renderWizard({}, { targets: [...INVENTORY, targetView('host-02', 'host', { virtualization: 'none' })] })
    expect(screen.getAllByRole('radio').filter(isChecked)).toEqual([])
    expect(useAppStore.getState().wizardDraft.baseline).toBeUndefined()
    cleanup()

    // a comparison already under way keeps its baseline
    renderWizard({}, { wizardDraft: withBaseline(emptyDraft(), 'vm1') })
    expect(useAppStore.getState().wizardDraft.baseline).toBe('vm1')
  })

  it('needs a baseline and a guest before Next, says so beside them and puts the focus there', async () => {
    const user = userEvent.setup()
    // nothing detected as bare metal: no baseline is preselected
    renderWizard({}, { targets: INVENTORY.map((v) => ({ ...v, target: { ...v.target, os: undefined } })) })
    await user.click(screen.getByRole('button', { name: 'Next: Scenario' }))
    const baseline = screen.getByRole('radio', { name: 'Baseline: host-01' })
    expect(document.activeElement).toBe(baseline)
    expect(description(baseline)).toBe('Choose the baseline: the machine that is 100 %, usually the physical host.')
    expect(description(screen.getByRole('checkbox', { name: 'Guest: host-01' }))).toBe('Tick at least one guest to compare with the baseline.')
    expect(screen.getByRole('button', { name: /Step 1: Targets/ }).textContent).toContain('2 problems')
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step 1 of 4 · Targets')

    await user.click(baseline)
    expect(isDisabled(screen.getByRole('checkbox', { name: 'Guest: host-01' }))).toBe(true)
    await user.click(screen.getByRole('checkbox', { name: 'Guest: vm1' }))
    expect(screen.queryByText('Choose the baseline: the machine that is 100 %, usually the physical host.')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Next: Scenario' }))

    // The focus lands on the new step's heading.
    const heading = screen.getByRole('heading', { level: 2 })
    expect(heading.textContent).toBe('Step 2 of 4 · Scenario')
    expect(document.activeElement).toBe(heading)
    expect(screen.getByRole('button', { name: /Step 2: Scenario/ }).getAttribute('aria-current')).toBe('step')
    expect(variantNames()).toEqual(['vm1'])

    // Back keeps everything.
    await user.click(screen.getByRole('button', { name: 'Back' }))
    expect(isChecked(screen.getByRole('radio', { name: 'Baseline: host-01' }))).toBe(true)
    expect(isChecked(screen.getByRole('checkbox', { name: 'Guest: vm1' }))).toBe(true)
  })

  it('works from the keyboard: space picks, Enter goes on', async () => {
    const user = userEvent.setup()
    renderWizard()
    screen.getByRole('radio', { name: 'Baseline: host-01' }).focus()
    await user.keyboard(' ')
    screen.getByRole('checkbox', { name: 'Guest: vm2' }).focus()
    await user.keyboard(' ')
    await user.tab()
    // Tab from a guest's checkbox goes on through the row: its Test connection button.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Test connection to vm2' }))
    screen.getByRole('button', { name: 'Next: Scenario' }).focus()
    await user.keyboard('{Enter}')
    expect(useAppStore.getState().wizardDraft.baseline).toBe('host-01')
    expect(variantNames()).toEqual(['vm2'])
    expect(document.activeElement?.textContent).toBe('Step 2 of 4 · Scenario')
  })

  it('unticking a guest and ticking it again keeps its scenario', async () => {
    const user = userEvent.setup()
    renderWizard()
    await user.click(screen.getByRole('radio', { name: 'Baseline: host-01' }))
    await user.click(screen.getByRole('checkbox', { name: 'Guest: vm1' }))
    act(() =>
      useAppStore.getState().updateDraft((d) => ({ ...d, variants: d.variants.map((v) => ({ ...v, scenario: { cache: 'writeback' as const } })) }))
    )
    await user.click(screen.getByRole('checkbox', { name: 'Guest: vm1' }))
    expect(variantNames()).toEqual([])
    await user.click(screen.getByRole('checkbox', { name: 'Guest: vm1' }))
    expect(useAppStore.getState().wizardDraft.variants).toEqual([{ target: 'vm1', label: '', scenario: { cache: 'writeback' } }])
  })

  it('adds a target inline and ticks it as a guest', async () => {
    const user = userEvent.setup()
    const added = targetView('vm-new', 'guest')
    const { api } = renderWizard({ 'targets:add': () => added })
    await user.click(screen.getByRole('button', { name: 'Add target' }))
    const dialog = screen.getByRole('dialog', { name: 'Add target' })
    await user.type(within(dialog).getByLabelText('Name'), 'vm-new')
    await user.click(within(dialog).getByRole('radio', { name: 'Guest (virtual machine)' }))
    await user.type(within(dialog).getByLabelText('Address'), 'vm-new.lab')
    await user.type(within(dialog).getByLabelText('User'), 'bench')
    await user.click(within(dialog).getByRole('button', { name: 'Add target' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(callsTo(api, 'targets:add')).toHaveLength(1)
    expect(isChecked(screen.getByRole('checkbox', { name: 'Guest: vm-new' }))).toBe(true)
    expect(variantNames()).toEqual(['vm-new'])
  })

  it('offers to add targets when there are none', () => {
    renderWizard({}, { targets: [] })
    expect(screen.getByRole('region', { name: 'A comparison needs targets first' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Add target' })).toBeTruthy()
  })

  it('names targets of a preset that are not in the inventory, and can leave them out', async () => {
    const user = userEvent.setup()
    renderWizard()
    act(() =>
      useAppStore.getState().loadPlan({ name: 'old', baseline: { target: 'host-01' }, variants: [{ target: 'vm1' }, { target: 'retired-vm' }], tests: [{ pack: 'block-dd' }] })
    )
    const banner = screen.getByText('Not among your targets:').closest('div') as HTMLElement
    expect(within(banner).getAllByRole('listitem').map((li) => li.firstChild?.textContent)).toEqual(['retired-vm'])
    await user.click(within(banner).getByRole('button', { name: 'Leave retired-vm out' }))
    expect(variantNames()).toEqual(['vm1'])
    expect(screen.queryByText('Not among your targets:')).toBeNull()
  })
})
