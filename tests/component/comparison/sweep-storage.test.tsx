import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { draftOfPlan, emptyDraft, planOfDraft, withBaseline, withVariant, type WizardDraft } from '../../../src/renderer/src/models/wizard-draft'
import { useAppStore } from '../../../src/renderer/src/store'
import type { ComparisonPlanInput } from '../../../src/shared/model/plan'
import type { SweepEstimate } from '../../../src/shared/scenario-contract'
import { callsTo, renderWizard } from './wizard-fixtures'

function draftOf(variants: string[]): WizardDraft {
  let draft = withBaseline(emptyDraft(), 'host-01')
  for (const v of variants) draft = withVariant(draft, v, true)
  return { ...draft, tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: undefined }] }
}

/** Main's answer: every step 20 s and a restart 90 s (the time's words are sweep.test.tsx's concern). */
function estimateOf({ plan }: { plan: Record<string, unknown> }): SweepEstimate {
  const factors = (plan as ComparisonPlanInput).sweep!.factors as Record<string, unknown[]>
  const count = Object.values(factors).reduce((n, values) => n * values.length, 1)
  const steps = Array.from({ length: count }, (_, i) => ({ label: `combination ${i + 1}`, seconds: 20, jobs: 4, change: 'restart' as const }))
  return { ok: true, steps, restarts: count + 1, restartSeconds: 90, seconds: count * 20 + (count + 1) * 90, restore: 'restart', restartsFrom: 'plan' }
}

const sweepCard = (): HTMLElement => screen.getByRole('region', { name: 'Sweep a guest' })

/** What is said beside a control: its error and hint, as aria-describedby names them. */
function describedText(control: HTMLElement): string {
  return (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
}

describe('wizard step 2: sweeping the storage backend of a data disk', () => {
  it('sends each disk with its prepared disk per backend chosen, and shows the combinations', async () => {
    const user = userEvent.setup()
    const { api } = renderWizard({ 'scenario:estimate': estimateOf }, { wizardStep: 1, wizardReached: 3, wizardDraft: draftOf(['vm1']) })
    await user.click(screen.getByRole('button', { name: 'Sweep a guest…' }))
    const card = sweepCard()
    await user.type(within(card).getByLabelText('libvirt domain'), 'vm1-dom')
    await user.click(within(card).getByRole('checkbox', { name: 'Sweep storage backend' }))
    const backends = within(card).getByRole('group', { name: 'Storage backend values' })
    // the three backends VirtBench swaps between, in the model's words
    expect(within(backends).getAllByRole('checkbox').map((c) => c.closest('label')?.textContent)).toEqual(['local file (raw)', 'local file (qcow2)', 'LVM'])
    await user.click(within(backends).getByRole('checkbox', { name: 'LVM' }))
    await user.click(within(backends).getByRole('checkbox', { name: 'local file (raw)' }))

    const disk1 = within(card).getByRole('group', { name: 'Data disk 1' })
    await user.type(within(disk1).getByLabelText('Disk name'), 'vdb')
    // a path field per backend chosen, in the model's order, named after the disk
    expect(within(disk1).getAllByRole('textbox').map((t) => t.id)).toEqual(['wiz-sweep-storage-vdb', 'wiz-sweep-storage-vdb-file-raw', 'wiz-sweep-storage-vdb-lvm'])
    await user.type(within(disk1).getByLabelText('vdb: local file (raw)'), '/var/lib/libvirt/images/d.raw')
    await user.type(within(disk1).getByLabelText('vdb: LVM'), '/dev/vg0/bench')

    // a second disk, then a cache factor: two factors make a matrix, storage changing slowest
    await user.click(within(card).getByRole('button', { name: 'Add a data disk' }))
    const disk2 = within(card).getByRole('group', { name: 'Data disk 2' })
    await user.type(within(disk2).getByLabelText('Disk name'), 'vdc')
    await user.type(within(disk2).getByLabelText('vdc: local file (raw)'), '/var/lib/libvirt/images/e.raw')
    await user.type(within(disk2).getByLabelText('vdc: LVM'), '/dev/vg0/bench2')
    await user.click(within(card).getByRole('checkbox', { name: 'Sweep disk cache' }))
    await user.click(within(within(card).getByRole('group', { name: 'Disk cache values' })).getByRole('checkbox', { name: 'cache=none' }))

    const rows = within(within(card).getByRole('table')).getAllByRole('row').map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))
    expect(rows).toEqual([
      ['Storage backend', 'cache=none'],
      ['local file (raw)', '#1 storage=file-raw, cache=none'],
      ['LVM', '#2 storage=lvm, cache=none']
    ])
    await waitFor(() => expect(callsTo(api, 'scenario:estimate').length).toBeGreaterThan(0))
    const sent = callsTo(api, 'scenario:estimate').at(-1) as { plan: ComparisonPlanInput }
    expect(sent.plan.sweep).toEqual({
      target: 'vm1',
      domain: 'vm1-dom',
      scenario: {},
      factors: { storage: ['file-raw', 'lvm'], cache: ['none'] },
      storage: { vdb: { 'file-raw': '/var/lib/libvirt/images/d.raw', lvm: '/dev/vg0/bench' }, vdc: { 'file-raw': '/var/lib/libvirt/images/e.raw', lvm: '/dev/vg0/bench2' } },
      order: 'grouped'
    })

    // a disk removed, a backend unticked: its path stays in the draft but is not sent
    await user.click(within(disk2).getByRole('button', { name: 'Remove vdc' }))
    await user.click(within(backends).getByRole('checkbox', { name: 'LVM' }))
    expect(planOfDraft(useAppStore.getState().wizardDraft).sweep?.storage).toEqual({ vdb: { 'file-raw': '/var/lib/libvirt/images/d.raw' } })
    expect(within(card).queryByRole('group', { name: 'Data disk 2' })).toBeNull()
    expect(within(within(card).getByRole('table')).getAllByRole('cell').map((c) => c.textContent)).toEqual(['#1 storage=file-raw, cache=none'])
  }, 30_000)

  it('says at each field what the model refuses: a disk name, a relative path, a missing prepared disk, a disk named twice', async () => {
    const user = userEvent.setup()
    renderWizard({ 'scenario:estimate': estimateOf }, { wizardStep: 1, wizardReached: 3, wizardChecked: [true, true, false, false], wizardDraft: draftOf(['vm1']) })
    await user.click(screen.getByRole('button', { name: 'Sweep a guest…' }))
    const card = sweepCard()
    await user.type(within(card).getByLabelText('libvirt domain'), 'vm1-dom')
    await user.click(within(card).getByRole('checkbox', { name: 'Sweep storage backend' }))
    // no backend yet: the factor needs one
    const backends = within(card).getByRole('group', { name: 'Storage backend values' })
    expect(backends.textContent).toContain('give at least one storage')
    await user.click(within(backends).getByRole('checkbox', { name: 'local file (qcow2)' }))
    await user.click(within(backends).getByRole('checkbox', { name: 'LVM' }))

    const disk1 = within(card).getByRole('group', { name: 'Data disk 1' })
    const name = within(disk1).getByLabelText('Disk name')
    await user.type(name, 'Disk B')
    // the model's own words for a name it refuses, not the schema's "Invalid key in record"
    expect(name.getAttribute('aria-invalid')).toBe('true')
    expect(describedText(name)).toContain('a disk is named by its <target dev> in the domain XML, such as vdb')
    expect(within(card).getByText('The combinations appear once every swept factor has its values and the domain is named.')).toBeTruthy()

    await user.clear(name)
    await user.type(name, 'vdb')
    const qcow2 = within(disk1).getByLabelText('vdb: local file (qcow2)')
    await user.type(qcow2, 'images/d.qcow2')
    expect(qcow2.getAttribute('aria-invalid')).toBe('true')
    expect(describedText(qcow2)).toContain('a prepared disk is named by its absolute path on the physical host')
    await user.clear(qcow2)
    await user.type(qcow2, '/var/lib/libvirt/images/../d.qcow2')
    expect(describedText(qcow2)).toContain('a prepared disk\'s path has no "." or ".." parts')
    await user.clear(qcow2)
    await user.type(qcow2, '/var/lib/libvirt/images/d.qcow2')
    expect(qcow2.getAttribute('aria-invalid')).toBeNull()
    // LVM has no prepared disk yet: the plan's rule, at the disk; no combination until it has one
    expect(describedText(name)).toContain('the storage factor has lvm, but vdb has no prepared disk for it')
    expect(within(card).queryByRole('list', { name: 'Combinations in order' })).toBeNull()
    await user.type(within(disk1).getByLabelText('vdb: LVM'), '/dev/vg0/bench')
    expect(name.getAttribute('aria-invalid')).toBeNull()
    expect(within(within(card).getByRole('list', { name: 'Combinations in order' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'storage=file-qcow2',
      'storage=lvm'
    ])

    // the same disk twice
    await user.click(within(card).getByRole('button', { name: 'Add a data disk' }))
    const name2 = within(within(card).getByRole('group', { name: 'Data disk 2' })).getByLabelText('Disk name')
    await user.type(name2, 'vdb')
    expect(describedText(name2)).toContain('vdb is named twice: name each data disk once')
  }, 30_000)

  it('swaps the boot disk only when allowed, past a warning, and keeps a preset’s storage sweep as loaded', async () => {
    const user = userEvent.setup()
    const preset: ComparisonPlanInput = {
      name: 'storage',
      baseline: { target: 'host-01' },
      variants: [],
      tests: [{ pack: 'block-dd', form: 'quick' }],
      sweep: {
        target: 'vm1',
        domain: 'vm1-dom',
        factors: { storage: ['file-raw', 'lvm'] },
        storage: { vda: { 'file-raw': '/var/lib/libvirt/images/root.raw', lvm: '/dev/vg0/root' } },
        order: 'grouped'
      }
    }
    renderWizard({ 'scenario:estimate': estimateOf }, { wizardStep: 1, wizardReached: 3, wizardDraft: draftOfPlan(preset) })
    const card = sweepCard()
    expect(within(card).getByRole('checkbox', { name: 'Sweep storage backend' })).toHaveProperty('checked', true)
    expect((within(card).getByLabelText('vda: LVM') as HTMLInputElement).value).toBe('/dev/vg0/root')

    const allow = within(card).getByRole('checkbox', { name: 'Allow swapping the disk the guest boots from' })
    expect(allow).toHaveProperty('checked', false)
    expect(describedText(allow)).toMatch(/^Off: a disk the guest boots from is refused before anything changes/)
    expect(within(card).queryByRole('alert')).toBeNull()
    await user.click(allow)
    expect(within(card).getByRole('alert').textContent).toMatch(/^Warning: the guest then boots from each prepared disk in turn\. Each must hold a bootable copy/)
    expect(planOfDraft(useAppStore.getState().wizardDraft).sweep).toMatchObject({ storageBootDisk: true, storage: preset.sweep!.storage })
    await user.click(allow)
    expect(planOfDraft(useAppStore.getState().wizardDraft).sweep).not.toHaveProperty('storageBootDisk')
    expect(within(card).queryByRole('alert')).toBeNull()

    // the factor unticked: neither the backends nor the disks are sent
    await user.click(within(card).getByRole('checkbox', { name: 'Sweep storage backend' }))
    const sweep = planOfDraft(useAppStore.getState().wizardDraft).sweep
    expect(sweep?.factors).toEqual({})
    expect(sweep).not.toHaveProperty('storage')
  }, 30_000)
})
