import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { emptyDraft, withBaseline, withVariant, type WizardDraft } from '../../../src/renderer/src/models/wizard-draft'
import { useAppStore, type AppState } from '../../../src/renderer/src/store'
import type { PreflightReport } from '../../../src/shared/catalog-contract'
import { ApiCallError } from '../../../src/shared/contract'
import { PRESET_VERSION } from '../../../src/shared/model/plan'
import { callsTo, CLEAN_PREFLIGHT, description, isDisabled, okReview, renderWizard, reviewJob } from './wizard-fixtures'

const JOBS = [
  reviewJob('j0001', 'dd-throughput', 'host-01', 'dd if=/dev/zero of=~/virtbench-work/ddfile bs=64M count=1 oflag=direct', 1),
  reviewJob('j0002', 'dd-throughput', 'vm1', 'dd if=/dev/zero of=~/virtbench-work/ddfile bs=64M count=1 oflag=direct', 1),
  reviewJob('j0003', 'dd-throughput', 'host-01', 'dd if=/dev/zero of=~/virtbench-work/ddfile bs=64M count=1 oflag=direct', 2),
  reviewJob('j0004', 'dd-throughput', 'vm1', 'dd if=/dev/zero of=~/virtbench-work/ddfile bs=64M count=1 oflag=direct', 2),
  reviewJob('j0005', 'dd-latency', 'host-01', 'dd if=/dev/zero of=~/virtbench-work/ddfile bs=512 count=200 oflag=direct', 1)
]

function readyDraft(): WizardDraft {
  const draft = withVariant(withBaseline(emptyDraft(), 'host-01'), 'vm1', true)
  return { ...draft, tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: undefined }] }
}

const atReview = { wizardStep: 3 as const, wizardReached: 3 as const, wizardChecked: [true, true, true, true] }

function start(): HTMLElement {
  return screen.getByRole('button', { name: 'Start' })
}

/** Waits for main's review of the current plan (it comes a moment after the plan stops changing). */
async function reviewed(): Promise<void> {
  await screen.findByText(/^Estimated time, all jobs one after the other/)
}

function startWhy(): string {
  return document.getElementById('wiz-start-why')?.textContent ?? ''
}

describe('wizard step 4: review and start', () => {
  it('sends exactly the plan the clicks made to runs:start, and opens the run', async () => {
    const user = userEvent.setup()
    const { api } = renderWizard({
      'plans:review': () => okReview(JOBS, 26),
      'plans:preflight': () => CLEAN_PREFLIGHT,
      'runs:start': () => ({ id: 'run-42' })
    })
    await user.click(screen.getByRole('radio', { name: 'Baseline: host-01' }))
    await user.click(screen.getByRole('checkbox', { name: 'Guest: vm1' }))
    await user.click(screen.getByRole('button', { name: 'Next: Scenario' }))
    await user.selectOptions(screen.getByLabelText('Hypervisor'), 'KVM')
    await user.selectOptions(screen.getByLabelText('Disk cache'), 'cache=none')
    await user.selectOptions(screen.getByLabelText('Queues'), '4 queues')
    await user.click(screen.getByRole('button', { name: 'Next: Tests' }))
    const dd = await screen.findByRole('article', { name: 'Block device dd' })
    await user.click(within(dd).getByRole('checkbox', { name: 'Include' }))
    await user.click(screen.getByRole('button', { name: 'Next: Review' }))

    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step 4 of 4 · Review')
    expect((screen.getByLabelText('Name of this comparison') as HTMLInputElement).value).toBe('host-01 vs vm1')
    expect(await screen.findByText('Estimated time, all jobs one after the other, checks included: about 26 s (5 jobs).')).toBeTruthy()
    expect(startWhy()).toBe('Run preflight first: it checks every target before anything runs.')
    await user.click(start())
    expect(callsTo(api, 'runs:start')).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Run preflight' }))
    await screen.findByText('Found (1)')
    expect(startWhy()).toBe('Everything is checked: Start runs the comparison and shows its progress.')
    await user.click(start())
    await waitFor(() => expect(useAppStore.getState().page).toBe('run'))
    expect(useAppStore.getState().openRunId).toBe('run-42')
    const expected = {
      name: 'host-01 vs vm1',
      baseline: { target: 'host-01' },
      variants: [{ target: 'vm1', scenario: { hypervisor: 'kvm', cache: 'none', queues: 4 } }],
      tests: [{ pack: 'block-dd', form: 'quick' }],
      repetitions: 3,
      aggregate: 'median',
      storage: { kind: 'directory', path: '~/virtbench-work' },
      network: { matrix: false, simultaneous: false },
      schedule: { order: 'interleaved', parallelTargets: false },
      equivalenceMarginPct: 3,
      warmup: false
    }
    expect(callsTo(api, 'runs:start')).toEqual([{ plan: expected }])
    expect(callsTo(api, 'plans:preflight')).toEqual([{ plan: expected }])
    expect(JSON.stringify(api.calls)).not.toMatch(/password|passphrase|secret/i)
  })

  it('uses the runs slice’s startRun once it exists', async () => {
    const user = userEvent.setup()
    const state: object = useAppStore.getState()
    const before: unknown = 'startRun' in state ? state.startRun : undefined
    const startRun = vi.fn(async () => undefined)
    try {
      const { api } = renderWizard(
        { 'plans:review': () => okReview(JOBS), 'plans:preflight': () => CLEAN_PREFLIGHT },
        { ...atReview, wizardDraft: readyDraft(), ...({ startRun } as unknown as Partial<AppState>) }
      )
      await reviewed()
      await user.click(screen.getByRole('button', { name: 'Run preflight' }))
      await screen.findByText('Found (1)')
      await user.click(start())
      await waitFor(() => expect(startRun).toHaveBeenCalledTimes(1))
      expect(startRun).toHaveBeenCalledWith(useAppStore.getState().wizardPlan())
      expect(callsTo(api, 'runs:start')).toEqual([])
    } finally {
      useAppStore.setState({ startRun: before } as unknown as Partial<AppState>)
    }
  })

  it('lists the exact commands per target, each command once however many repetitions', async () => {
    const user = userEvent.setup()
    renderWizard({ 'plans:review': () => okReview(JOBS, 26) }, { ...atReview, wizardDraft: readyDraft() })
    const section = (await screen.findByRole('heading', { name: 'Commands per target' })).closest('section') as HTMLElement
    await waitFor(() => expect(section.querySelectorAll('details')).toHaveLength(2))
    const [host, vm1] = [...section.querySelectorAll('details')]
    expect(host?.querySelector('summary')?.textContent).toBe('host-01 · 2 tests · 2 commands')
    expect(vm1?.querySelector('summary')?.textContent).toBe('vm1 · 1 test · 1 command')
    await user.click(within(host as HTMLElement).getByText('host-01'))
    expect((host as HTMLDetailsElement).open).toBe(true)
    const commands = [...(host as HTMLElement).querySelectorAll('pre')].map((p) => p.textContent)
    expect(commands).toEqual([
      'measureddd if=/dev/zero of=~/virtbench-work/ddfile bs=64M count=1 oflag=direct',
      'measureddd if=/dev/zero of=~/virtbench-work/ddfile bs=512 count=200 oflag=direct'
    ])
    expect(within(host as HTMLElement).getByText(/· 2 runs ·/)).toBeTruthy()
  })

  it('blocks Start while preflight reports an error, and offers the install command to copy, never running it', async () => {
    const user = userEvent.setup()
    const report: PreflightReport = {
      findings: [
        { severity: 'error', target: 'vm1', code: 'tool-missing', message: 'fio is not installed on vm1.', fix: 'Install it, then run preflight again.', command: 'sudo apt-get install -y fio' },
        { severity: 'info', target: 'host-01', code: 'tool-present', message: 'fio 3.33 at /usr/bin/fio' }
      ],
      targets: [
        { name: 'host-01', reachable: true, virtualization: 'none' },
        { name: 'vm1', reachable: true, virtualization: 'kvm' }
      ]
    }
    const { api } = renderWizard(
      { 'plans:review': () => okReview(JOBS), 'plans:preflight': () => report, 'runs:start': () => ({ id: 'x' }) },
      { ...atReview, wizardDraft: readyDraft() }
    )
    await reviewed()
    await user.click(screen.getByRole('button', { name: 'Run preflight' }))
    const errors = await screen.findByRole('region', { name: 'Errors: these block the run (1)' })
    expect(within(errors).getByText('fio is not installed on vm1.')).toBeTruthy()
    expect(within(errors).getByText('sudo apt-get install -y fio').tagName).toBe('PRE')
    expect(screen.getByRole('region', { name: 'Found (1)' })).toBeTruthy()

    expect(isDisabled(start())).toBe(true)
    expect(startWhy()).toBe('Preflight found an error: fix it and run preflight again.')
    await user.click(start())
    expect(callsTo(api, 'runs:start')).toEqual([])

    await user.click(within(errors).getByRole('button', { name: 'Copy the command for vm1' }))
    expect(await navigator.clipboard.readText()).toBe('sudo apt-get install -y fio')
    expect(within(errors).getByText('Copied: run it yourself on the target.')).toBeTruthy()
    // Copying runs nothing: the only calls are the review and the preflight.
    expect(new Set(api.calls.map((c) => c.channel))).toEqual(new Set(['catalog:get', 'plans:review', 'plans:preflight']))
  })

  it('needs an explicit acknowledgement of warnings before Start', async () => {
    const user = userEvent.setup()
    const report: PreflightReport = {
      findings: [{ severity: 'warning', target: 'vm1', code: 'not-idle', message: 'vm1 is busy: load 3.2 on 2 CPUs.', fix: 'Stop what runs there, or accept noisier figures.' }],
      targets: [{ name: 'vm1', reachable: true }]
    }
    const { api } = renderWizard(
      { 'plans:review': () => okReview(JOBS), 'plans:preflight': () => report, 'runs:start': () => ({ id: 'run-7' }) },
      { ...atReview, wizardDraft: readyDraft() }
    )
    await reviewed()
    await user.click(screen.getByRole('button', { name: 'Run preflight' }))
    await screen.findByRole('region', { name: 'Warnings: the run may go on once you say so (1)' })
    expect(startWhy()).toBe('Read the warning and tick the box to start anyway.')
    await user.click(start())
    expect(callsTo(api, 'runs:start')).toEqual([])

    await user.click(screen.getByRole('checkbox', { name: 'I have read the warning above and want to start anyway.' }))
    expect(isDisabled(start())).toBe(false)
    await user.click(start())
    await waitFor(() => expect(callsTo(api, 'runs:start')).toHaveLength(1))
    expect(useAppStore.getState().openRunId).toBe('run-7')
  })

  it('asks for preflight again when the plan changes after it', async () => {
    const user = userEvent.setup()
    renderWizard({ 'plans:review': () => okReview(JOBS), 'plans:preflight': () => CLEAN_PREFLIGHT }, { ...atReview, wizardDraft: readyDraft() })
    await reviewed()
    await user.click(screen.getByRole('button', { name: 'Run preflight' }))
    await screen.findByText('Found (1)')
    await user.type(screen.getByLabelText('Name of this comparison'), ' (again)')
    expect(screen.getByText('The plan changed since the last preflight: run it again.')).toBeTruthy()
    await waitFor(() => expect(startWhy()).toBe('Run preflight first: it checks every target before anything runs.'))
  })

  it('lists every problem with a way to the step and field concerned', async () => {
    const user = userEvent.setup()
    renderWizard(
      {
        'plans:review': () => ({ ok: false, issues: [{ path: 'variants.0.scenario.cache', message: 'the host reports cache=writeback for vm1' }], jobs: [], seconds: 0 })
      },
      { ...atReview, wizardDraft: readyDraft() }
    )
    const item = (await screen.findByText('the host reports cache=writeback for vm1', { exact: false })).closest('li') as HTMLElement
    expect(item.textContent).toContain('Scenario › vm1 › scenario › disk cache:')
    expect(startWhy()).toBe('Fix the problem listed above first.')
    await user.click(within(item).getByRole('button', { name: 'Fix in Scenario' }))
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step 2 of 4 · Scenario')
    const cache = screen.getByLabelText('Disk cache')
    expect(document.activeElement).toBe(cache)
    expect(description(cache)).toContain('the host reports cache=writeback for vm1')
  })

  it('shows why a run could not start, beside Start', async () => {
    const user = userEvent.setup()
    renderWizard(
      {
        'plans:review': () => okReview(JOBS),
        'plans:preflight': () => CLEAN_PREFLIGHT,
        'runs:start': () => {
          throw new ApiCallError('runs:start', { code: 'invalid-request', message: 'no target named vm1 in the inventory' })
        }
      },
      { ...atReview, wizardDraft: readyDraft() }
    )
    await reviewed()
    await user.click(screen.getByRole('button', { name: 'Run preflight' }))
    await screen.findByText('Found (1)')
    await user.click(start())
    expect((await screen.findByText(/The run could not start/)).textContent).toBe('The run could not start: no target named vm1 in the inventory')
    expect(useAppStore.getState().page).toBe('comparison')
  })
})

describe('when main cannot answer, and starting over', () => {
  it('says the plan could not be checked, and checks it again on request', async () => {
    const user = userEvent.setup()
    let down = true
    renderWizard(
      {
        'plans:review': () => {
          if (down) throw new ApiCallError('plans:review', { code: 'unavailable', message: 'main is not answering' })
          return okReview(JOBS, 26)
        }
      },
      { ...atReview, wizardDraft: readyDraft() }
    )
    expect((await screen.findByText(/The plan could not be checked:/)).textContent).toContain('main is not answering')
    expect(startWhy()).toBe('The plan could not be checked; check it again.')
    down = false
    await user.click(screen.getByRole('button', { name: 'Check again' }))
    await reviewed()
    expect(startWhy()).toBe('Run preflight first: it checks every target before anything runs.')
  })

  it('starts over only after asking, and keeps the catalog', async () => {
    const user = userEvent.setup()
    renderWizard({ 'plans:review': () => okReview(JOBS) }, { ...atReview, wizardDraft: readyDraft() })
    await user.click(screen.getByRole('button', { name: 'Start over' }))
    const dialog = screen.getByRole('alertdialog', { name: 'Start over?' })
    await user.click(within(dialog).getByRole('button', { name: 'Keep this comparison' }))
    expect(useAppStore.getState().wizardDraft.variants).toHaveLength(1)
    await user.click(screen.getByRole('button', { name: 'Start over' }))
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Start over' }))
    // a fresh comparison, with the one bare-metal target as its baseline again
    expect(useAppStore.getState().wizardDraft).toEqual(withBaseline(emptyDraft(), 'host-01'))
    expect(useAppStore.getState().wizardStep).toBe(0)
    expect(useAppStore.getState().wizardCatalog.catalog).toBeDefined()
  })
})

describe('presets', () => {
  it('saves the wizard as a preset under a name, and says so', async () => {
    const user = userEvent.setup()
    const { api } = renderWizard(
      {
        'plans:review': () => okReview(JOBS),
        'presets:save': ({ preset }) => ({ id: 'storage-check', name: preset.plan.name, builtin: false, baseline: 'host-01', variants: ['vm1'], tests: ['block-dd'] })
      },
      { ...atReview, wizardDraft: readyDraft() }
    )
    await user.click(screen.getByRole('button', { name: 'Save as preset' }))
    const dialog = screen.getByRole('dialog', { name: 'Save as preset' })
    const name = within(dialog).getByLabelText('Preset name')
    expect((name as HTMLInputElement).value).toBe('host-01 vs vm1')
    await user.clear(name)
    await user.type(name, 'storage-check')
    await user.click(within(dialog).getByRole('button', { name: 'Save preset' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(callsTo(api, 'presets:save')).toEqual([
      {
        preset: {
          kind: 'virtbench-preset',
          version: PRESET_VERSION,
          plan: {
            name: 'storage-check',
            baseline: { target: 'host-01' },
            variants: [{ target: 'vm1', scenario: {} }],
            tests: [{ pack: 'block-dd', form: 'quick' }],
            repetitions: 3,
            aggregate: 'median',
            storage: { kind: 'directory', path: '~/virtbench-work' },
            network: { matrix: false, simultaneous: false },
            schedule: { order: 'interleaved', parallelTargets: false },
            equivalenceMarginPct: 3,
            warmup: false
          }
        }
      }
    ])
    expect(screen.getByText('Saved as preset “storage-check”.')).toBeTruthy()
    // the comparison keeps its own name
    expect((screen.getByLabelText('Name of this comparison') as HTMLInputElement).value).toBe('host-01 vs vm1')
  })

  it('keeps the comparison’s name and its preflight when it is saved as a preset, so Start still runs it', async () => {
    const user = userEvent.setup()
    const { api } = renderWizard(
      {
        'plans:review': () => okReview(JOBS),
        'plans:preflight': () => CLEAN_PREFLIGHT,
        'presets:save': ({ preset }) => ({ id: 'storage-check', name: preset.plan.name, builtin: false, baseline: 'host-01', variants: ['vm1'], tests: ['block-dd'] }),
        'runs:start': () => ({ id: 'run-7' })
      },
      { ...atReview, wizardDraft: readyDraft() }
    )
    await reviewed()
    await user.click(screen.getByRole('button', { name: 'Run preflight' }))
    await screen.findByText('Found (1)')
    expect(startWhy()).toBe('Everything is checked: Start runs the comparison and shows its progress.')

    await user.click(screen.getByRole('button', { name: 'Save as preset' }))
    const dialog = screen.getByRole('dialog', { name: 'Save as preset' })
    await user.clear(within(dialog).getByLabelText('Preset name'))
    await user.type(within(dialog).getByLabelText('Preset name'), 'storage-check')
    await user.click(within(dialog).getByRole('button', { name: 'Save preset' }))
    await screen.findByText('Saved as preset “storage-check”.')

    expect((screen.getByLabelText('Name of this comparison') as HTMLInputElement).value).toBe('host-01 vs vm1')
    expect(screen.getByText('Found (1)')).toBeTruthy()
    expect(startWhy()).toBe('Everything is checked: Start runs the comparison and shows its progress.')
    expect(callsTo(api, 'plans:preflight')).toHaveLength(1)
    await user.click(start())
    await waitFor(() => expect(useAppStore.getState().openRunId).toBe('run-7'))
    expect(callsTo(api, 'runs:start').map((c) => (c as { plan: { name: string } }).plan.name)).toEqual(['host-01 vs vm1'])
  })

  it('shows why a preset could not be saved, and what to fix first', async () => {
    const user = userEvent.setup()
    const { api } = renderWizard(
      {
        'plans:review': () => okReview(JOBS),
        'presets:save': () => {
          throw new ApiCallError('presets:save', {
            code: 'invalid-request',
            message: 'the preset has problems',
            issues: [{ path: 'preset.plan.name', message: 'a preset called storage-check exists already' }]
          })
        }
      },
      { ...atReview, wizardDraft: { ...readyDraft(), tests: [] } }
    )
    await user.click(screen.getByRole('button', { name: 'Save as preset' }))
    let dialog = screen.getByRole('dialog', { name: 'Save as preset' })
    await user.click(within(dialog).getByRole('button', { name: 'Save preset' }))
    // A preset is a complete plan: the missing tests are named, with the way to them.
    expect(within(dialog).getByRole('alert').textContent).toContain('Tests › tests: Choose at least one study pack or add a custom test.')
    expect(callsTo(api, 'presets:save')).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Fix in Tests' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step 3 of 4 · Tests')

    act(() => useAppStore.getState().updateDraft((d) => ({ ...d, tests: readyDraft().tests })))
    await user.click(screen.getByRole('button', { name: 'Save as preset' }))
    dialog = screen.getByRole('dialog', { name: 'Save as preset' })
    await user.clear(within(dialog).getByLabelText('Preset name'))
    await user.type(within(dialog).getByLabelText('Preset name'), 'storage-check')
    await user.click(within(dialog).getByRole('button', { name: 'Save preset' }))
    const name = within(dialog).getByLabelText('Preset name')
    await waitFor(() => expect(description(name)).toContain('a preset called storage-check exists already'))
    expect(within(dialog).getByText('The preset was not saved: the preset has problems')).toBeTruthy()
  })

  it('fills the wizard from a preset, says so, and asks for a raw device’s path again', async () => {
    const user = userEvent.setup()
    renderWizard({ 'plans:review': () => okReview(JOBS), 'plans:preflight': () => CLEAN_PREFLIGHT })
    act(() =>
      useAppStore.getState().loadPlan(
        {
          name: 'dd on vdb',
          baseline: { target: 'host-01' },
          variants: [{ target: 'vm1', scenario: { cache: 'none' } }],
          tests: [{ pack: 'block-dd', form: 'quick' }],
          storage: { kind: 'device', path: '/dev/vdb', confirm: '/dev/vdb' }
        },
        { presetId: 'dd-on-vdb', name: 'dd on vdb' }
      )
    )
    expect(screen.getByText('From preset “dd on vdb”.')).toBeTruthy()
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step 1 of 4 · Targets')
    expect(isDisabled(screen.getByRole('button', { name: /Step 4: Review/ }))).toBe(false)
    await user.click(screen.getByRole('button', { name: /Step 4: Review/ }))
    const item = (await screen.findByText(/Type \/dev\/vdb again to confirm that everything on it may be destroyed/)).closest('li') as HTMLElement
    await user.click(within(item).getByRole('button', { name: 'Fix in Tests' }))
    const confirm = await screen.findByLabelText('Type /dev/vdb again to confirm')
    expect(document.activeElement).toBe(confirm)
    await user.type(confirm, '/dev/vdb')
    expect(useAppStore.getState().wizardPlan().storage).toEqual({ kind: 'device', path: '/dev/vdb', confirm: '/dev/vdb' })
  })
})
