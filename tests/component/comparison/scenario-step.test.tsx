import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { planOfDraft, withBaseline, withVariant, type WizardDraft } from '../../../src/renderer/src/models/wizard-draft'
import { useAppStore } from '../../../src/renderer/src/store'
import { emptyDraft } from '../../../src/renderer/src/models/wizard-draft'
import { description, INVENTORY, renderWizard } from './wizard-fixtures'

function draftOf(variants: string[]): WizardDraft {
  let draft = withBaseline(emptyDraft(), 'host-01')
  for (const v of variants) draft = withVariant(draft, v, true)
  return draft
}

function card(name: string): HTMLElement {
  return screen.getByRole('region', { name: `Scenario of ${name}` })
}

function optionTexts(select: HTMLElement): string[] {
  return [...(select as HTMLSelectElement).options].map((o) => o.textContent ?? '')
}

describe('wizard step 2: scenario', () => {
  it('offers each scenario label as a choice of the model, and keeps what is chosen', async () => {
    const user = userEvent.setup()
    renderWizard({}, { wizardStep: 1, wizardReached: 1, wizardDraft: draftOf(['vm1']) })
    const vm1 = card('vm1')
    expect(optionTexts(within(vm1).getByLabelText('Hypervisor'))).toEqual(['not declared', 'KVM', 'Xen PV', 'Xen HVM', 'Hyper-V', 'VMware ESXi', 'other'])
    expect(optionTexts(within(vm1).getByLabelText('Storage backend'))).toEqual([
      'not declared',
      'local file (raw)',
      'local file (qcow2)',
      'LVM',
      'Ceph RBD',
      'NFS',
      'iSCSI',
      'other'
    ])
    expect(optionTexts(within(vm1).getByLabelText('Disk cache'))).toEqual([
      'not declared',
      'cache=none',
      'cache=writeback',
      'cache=writethrough',
      'cache=directsync',
      'cache=unsafe'
    ])
    expect(optionTexts(within(vm1).getByLabelText('Queues'))).toEqual(['not declared', '1 queue', '2 queues', '4 queues', '8 queues'])
    expect(optionTexts(within(vm1).getByLabelText('Disk bus'))).toEqual(['not declared', 'virtio-blk', 'virtio-scsi', 'IDE', 'SATA'])

    await user.selectOptions(within(vm1).getByLabelText('Hypervisor'), 'KVM')
    await user.selectOptions(within(vm1).getByLabelText('Disk cache'), 'cache=writeback')
    await user.selectOptions(within(vm1).getByLabelText('Queues'), '4 queues')
    await user.selectOptions(within(vm1).getByLabelText('Disk bus'), 'virtio-scsi')
    await user.type(within(vm1).getByLabelText('Label in tables'), 'guest-wb')
    await user.type(within(vm1).getByLabelText('libvirt domain'), 'vm1-dom')
    await user.selectOptions(within(vm1).getByLabelText('Hypervisor'), 'not declared')

    // Going to the targets step and back loses nothing.
    await user.click(screen.getByRole('button', { name: 'Back' }))
    await user.click(screen.getByRole('button', { name: 'Next: Scenario' }))
    expect(planOfDraft(useAppStore.getState().wizardDraft).variants).toEqual([
      { target: 'vm1', label: 'guest-wb', scenario: { cache: 'writeback', queues: 4, bus: 'virtio-scsi', domain: 'vm1-dom' } }
    ])
    expect((within(card('vm1')).getByLabelText('Disk cache') as HTMLSelectElement).value).toBe('writeback')
  })

  it('shows the address network tests use for each path, and says when the peer lacks one', async () => {
    const user = userEvent.setup()
    renderWizard({}, { wizardStep: 1, wizardReached: 1, wizardDraft: draftOf(['vm1']) })
    const select = within(card('vm1')).getByLabelText('Network path')
    expect(optionTexts(select)).toEqual([
      'not declared → 10.0.0.10',
      'classic network → 10.0.0.10',
      'private/VPC → 10.0.0.10',
      'public EIP (host-01 has no public (EIP) address)'
    ])
    expect(description(select)).toBe('network tests reach host-01 at 10.0.0.10')
    await user.selectOptions(select, 'public EIP (host-01 has no public (EIP) address)')
    expect(description(select)).toContain('host-01 has no public (EIP) address: network tests of this guest would fail.')
  })

  it('shows detected values beside the declared ones once preflight has run', async () => {
    const user = userEvent.setup()
    const draft = draftOf(['vm1', 'vm2'])
    draft.variants[0] = { target: 'vm1', label: '', scenario: { cache: 'none', queues: 1, domain: 'vm1' } }
    renderWizard({}, { wizardStep: 1, wizardReached: 1, wizardDraft: draft })
    expect(description(within(card('vm1')).getByLabelText('Disk cache'))).toBe('not detected yet: run preflight on the Review step')
    // The connection test already said what vm1 runs on.
    expect(description(within(card('vm1')).getByLabelText('Hypervisor'))).toBe('detected: kvm')

    useAppStore.setState({
      wizardPreflight: {
        key: 'an earlier plan',
        running: false,
        acknowledged: false,
        report: {
          findings: [],
          targets: [
            { name: 'host-01', reachable: true },
            { name: 'vm1', reachable: true, os: 'Debian GNU/Linux 12', virtualization: 'kvm', detected: { cache: 'writeback', io: 'native', queues: 1, bus: 'virtio', source: '/var/lib/libvirt/images/vm1.qcow2' } },
            { name: 'vm2', reachable: true, virtualization: 'kvm' }
          ]
        }
      }
    })
    await user.click(screen.getByRole('button', { name: 'Back' }))
    await user.click(screen.getByRole('button', { name: 'Next: Scenario' }))
    const vm1 = card('vm1')
    expect(description(within(vm1).getByLabelText('Disk cache'))).toBe('≠ detected: writeback (differs from the declared value)')
    expect(description(within(vm1).getByLabelText('Queues'))).toBe('detected: 1')
    expect(description(within(vm1).getByLabelText('Disk bus'))).toBe('detected: virtio')
    expect(description(within(vm1).getByLabelText('Storage backend'))).toBe('detected source: /var/lib/libvirt/images/vm1.qcow2 (io=native)')
    expect(description(within(vm1).getByLabelText('Hypervisor'))).toBe('detected: kvm (Debian GNU/Linux 12)')
    expect(description(within(card('vm2')).getByLabelText('Disk cache'))).toBe(
      'not detected: give the libvirt domain name below to read it from the physical host'
    )
  })

  it('creates study 001’s four variants in one step, one guest per combination', async () => {
    const user = userEvent.setup()
    renderWizard({}, { wizardStep: 1, wizardReached: 1, wizardDraft: draftOf(['vm2']) })
    const matrix = screen.getByRole('region', { name: 'Study 001 matrix' })
    await user.click(within(matrix).getByRole('button', { name: 'Create the matrix…' }))
    expect(within(matrix).getByText(/each combination needs/).textContent).toContain('a guest of its own')
    // First guesses: the ticked guest, then the other guests.
    const selects = ['cache=none, 1 queue', 'cache=none, 4 queues', 'cache=writeback, 1 queue', 'cache=writeback, 4 queues'].map(
      (label) => within(matrix).getByLabelText(label) as HTMLSelectElement
    )
    expect(selects.map((s) => s.value)).toEqual(['vm2', 'vm1', 'vm3', 'vm4'])
    expect(optionTexts(selects[0] as HTMLElement)).toEqual(['choose a guest', 'vm1', 'vm2', 'vm3', 'vm4'])

    // The same guest twice is refused: the model measures each target once.
    await user.selectOptions(selects[1] as HTMLElement, 'vm2')
    await user.click(within(matrix).getByRole('button', { name: 'Create four variants' }))
    expect(within(matrix).getByRole('alert').textContent).toBe(
      'vm2 is chosen for two combinations; each combination is a guest set up its own way, so each needs its own target.'
    )
    expect(useAppStore.getState().wizardDraft.variants.map((v) => v.target)).toEqual(['vm2'])

    await user.selectOptions(selects[0] as HTMLElement, 'vm1')
    await user.click(within(matrix).getByRole('button', { name: 'Create four variants' }))
    expect(within(matrix).getByRole('status').textContent).toBe(
      'Four variants created: vm1 cache=none q=1; vm2 cache=none q=4; vm3 cache=writeback q=1; vm4 cache=writeback q=4.'
    )
    expect(planOfDraft(useAppStore.getState().wizardDraft).variants).toEqual([
      { target: 'vm1', label: 'vm1 cache=none q=1', scenario: { cache: 'none', queues: 1 } },
      { target: 'vm2', label: 'vm2 cache=none q=4', scenario: { cache: 'none', queues: 4 } },
      { target: 'vm3', label: 'vm3 cache=writeback q=1', scenario: { cache: 'writeback', queues: 1 } },
      { target: 'vm4', label: 'vm4 cache=writeback q=4', scenario: { cache: 'writeback', queues: 4 } }
    ])
    expect((within(card('vm3')).getByLabelText('Label in tables') as HTMLInputElement).value).toBe('vm3 cache=writeback q=1')
    expect((within(card('vm3')).getByLabelText('Disk cache') as HTMLSelectElement).value).toBe('writeback')
  })

  it('says when there are not four guests for the matrix', async () => {
    const user = userEvent.setup()
    renderWizard({}, { wizardStep: 1, wizardReached: 1, wizardDraft: draftOf([]), targets: INVENTORY.slice(0, 3) })
    const matrix = screen.getByRole('region', { name: 'Study 001 matrix' })
    await user.click(within(matrix).getByRole('button', { name: 'Create the matrix…' }))
    expect(within(matrix).getByText(/Only 2 targets are available besides the baseline/)).toBeTruthy()
  })

  it('moves a variant up', async () => {
    const user = userEvent.setup()
    renderWizard({}, { wizardStep: 1, wizardReached: 1, wizardDraft: draftOf(['vm1', 'vm2']) })
    await user.click(screen.getByRole('button', { name: 'Move vm2 up' }))
    expect(useAppStore.getState().wizardDraft.variants.map((v) => v.target)).toEqual(['vm2', 'vm1'])
  })
})
