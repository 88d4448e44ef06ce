import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { draftOfPlan, emptyDraft, planOfDraft, withBaseline, withVariant, type WizardDraft } from '../../../src/renderer/src/models/wizard-draft'
import { useAppStore } from '../../../src/renderer/src/store'
import type { ComparisonPlanInput } from '../../../src/shared/model/plan'
import type { SweepEstimate } from '../../../src/shared/scenario-contract'
import { callsTo, CLEAN_PREFLIGHT, isDisabled, okReview, renderWizard, reviewJob } from './wizard-fixtures'

function draftOf(variants: string[]): WizardDraft {
  let draft = withBaseline(emptyDraft(), 'host-01')
  for (const v of variants) draft = withVariant(draft, v, true)
  return { ...draft, tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: undefined }] }
}

const atScenario = { wizardStep: 1 as const, wizardReached: 3 as const }
const atReview = { wizardStep: 3 as const, wizardReached: 3 as const, wizardChecked: [true, true, true, true] }

/** What main answers for a sweep: every step 20 s, a restart 90 s. */
function estimateOf({ plan }: { plan: Record<string, unknown> }): SweepEstimate {
  const factors = (plan as ComparisonPlanInput).sweep!.factors as Record<string, unknown[]>
  const count = Object.values(factors).reduce((n, values) => n * values.length, 1)
  const steps = Array.from({ length: count }, (_, i) => ({ label: `combination ${i + 1}`, seconds: 20, jobs: 4, change: 'restart' as const }))
  return { ok: true, steps, restore: 'restart', restarts: count + 1, restartSeconds: 90, restartsFrom: 'plan', seconds: count * 20 + (count + 1) * 90 }
}

/** The sweep's time, as the expansion says it. */
function timeText(card: HTMLElement): string {
  return card.querySelector('.wiz-sweep-time')?.textContent ?? ''
}

function sweepCard(): HTMLElement {
  return screen.getByRole('region', { name: 'Sweep a guest' })
}

describe('wizard step 2: sweeping one guest', () => {
  it('turns the factors chosen into their combinations (a matrix for two, a list for three) and their time', async () => {
    const user = userEvent.setup()
    const { api } = renderWizard({ 'scenario:estimate': estimateOf }, { ...atScenario, wizardDraft: draftOf(['vm1', 'vm2']) })
    await user.click(screen.getByRole('button', { name: 'Sweep a guest…' }))
    const card = sweepCard()
    expect((within(card).getByLabelText('Guest swept') as HTMLSelectElement).value).toBe('vm1')
    expect(within(card).getByText('With a sweep, the comparison measures vm1 alone, once per combination; vm2 is not measured.')).toBeTruthy()

    await user.type(within(card).getByLabelText('libvirt domain'), 'vm1-dom')
    await user.click(within(card).getByRole('checkbox', { name: 'Sweep disk cache' }))
    const caches = within(card).getByRole('group', { name: 'Disk cache values' })
    await user.click(within(caches).getByRole('checkbox', { name: 'cache=writeback' }))
    await user.click(within(caches).getByRole('checkbox', { name: 'cache=none' }))
    await user.click(within(card).getByRole('checkbox', { name: 'Sweep disk queues' }))
    await user.type(within(card).getByLabelText('Disk queues values'), '1, 4')

    // two factors: a matrix, the cells numbered in the order they are measured (the model's: none first)
    const matrix = within(card).getByRole('table')
    const rows = within(matrix).getAllByRole('row').map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))
    expect(rows).toEqual([
      ['Disk cache', '1 queue', '4 queues'],
      ['cache=none', '#1 cache=none, queues=1', '#2 cache=none, queues=4'],
      ['cache=writeback', '#3 cache=writeback, queues=1', '#4 cache=writeback, queues=4']
    ])
    expect(within(card).getByText(/combinations? of vm1/).textContent).toBe('4 combinations of vm1 (vm1-dom), in this order:')
    // the time is main's: four runs of 20 s and five restarts of 90 s
    await waitFor(() =>
      expect(timeText(card)).toBe(
        'Estimated time: about 9 min (4 runs, one per step with the baseline measured in each: about 80 s; up to 5 restarts of the guest, one per step and the restore, counted 90 s each as in the lab under TCG; a KVM guest boots faster).'
      )
    )
    const sent = callsTo(api, 'scenario:estimate').at(-1) as { plan: ComparisonPlanInput }
    expect(sent.plan.variants).toEqual([])
    expect(sent.plan.sweep).toEqual({ target: 'vm1', domain: 'vm1-dom', scenario: {}, factors: { cache: ['none', 'writeback'], queues: [1, 4] }, order: 'grouped' })

    // a third factor: the combinations as a list, the first factor changing slowest
    await user.click(within(card).getByRole('checkbox', { name: 'Sweep io mode' }))
    await user.click(within(within(card).getByRole('group', { name: 'io mode values' })).getByRole('checkbox', { name: 'io=threads' }))
    await user.click(within(within(card).getByRole('group', { name: 'io mode values' })).getByRole('checkbox', { name: 'io=io_uring' }))
    expect(within(card).queryByRole('table')).toBeNull()
    const list = within(card).getByRole('list', { name: 'Combinations in order' })
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'cache=none, io=threads, queues=1',
      'cache=none, io=threads, queues=4',
      'cache=none, io=io_uring, queues=1',
      'cache=none, io=io_uring, queues=4',
      'cache=writeback, io=threads, queues=1',
      'cache=writeback, io=threads, queues=4',
      'cache=writeback, io=io_uring, queues=1',
      'cache=writeback, io=io_uring, queues=4'
    ])
    await waitFor(() => expect(timeText(card)).toMatch(/ \(8 runs, .* up to 9 restarts/))
  }, 30_000)

  it('says which steps need no restart when main told the restarts from the domain (applied live), and why it could not', async () => {
    const user = userEvent.setup()
    const live: SweepEstimate = {
      ok: true,
      steps: [
        { label: 'vcpus=2', seconds: 20, jobs: 4, change: 'none' },
        { label: 'vcpus=4', seconds: 20, jobs: 4, change: 'live', live: ['vCPUs: 2 -> 4, applied live, no restart'] }
      ],
      restore: 'restart',
      restarts: 1,
      restartSeconds: 90,
      restartsFrom: 'domain',
      seconds: 130
    }
    const unread = { ...estimateOf({ plan: { sweep: { factors: { vcpus: [2, 4] } } } }), domainNote: 'host-01 has no virsh (virsh list found no such command): install libvirt-clients there' }
    let answer: SweepEstimate = live
    renderWizard({ 'scenario:estimate': () => answer }, { ...atScenario, wizardDraft: draftOf(['vm1']) })
    await user.click(screen.getByRole('button', { name: 'Sweep a guest…' }))
    const card = sweepCard()
    await user.type(within(card).getByLabelText('libvirt domain'), 'vm1-dom')
    await user.click(within(card).getByRole('checkbox', { name: 'Sweep vCPUs' }))
    await user.type(within(card).getByLabelText('vCPUs values'), '2, 4')
    await waitFor(() =>
      expect(timeText(card)).toBe(
        'Estimated time: about 2 min (2 runs, one per step with the baseline measured in each: about 40 s; 1 restart of the guest (the restore), as its domain’s XML says, counted 90 s each as in the lab under TCG; a KVM guest boots faster; ' +
          'step 1, vcpus=2: the domain has it already, no restart; step 2, vcpus=4: vCPUs: 2 -> 4, applied live, no restart).'
      )
    )
    answer = unread
    await user.type(within(card).getByLabelText('vCPUs values'), ', 1')
    await waitFor(() =>
      expect(timeText(card)).toMatch(
        /up to 3 restarts of the guest, one per step and the restore, counted 90 s each as in the lab under TCG; a KVM guest boots faster; whether a change of vCPUs or memory is applied live, without a restart, is told once the domain is read: host-01 has no virsh \(virsh list found no such command\): install libvirt-clients there\)\.$/
      )
    )
  }, 30_000)

  it('shows no combination while a value is wrong, and says what is wrong at the field', async () => {
    const user = userEvent.setup()
    renderWizard({ 'scenario:estimate': estimateOf }, { ...atScenario, wizardChecked: [true, true, false, false], wizardDraft: draftOf(['vm1']) })
    await user.click(screen.getByRole('button', { name: 'Sweep a guest…' }))
    const card = sweepCard()
    await user.type(within(card).getByLabelText('libvirt domain'), 'vm1-dom')
    await user.click(within(card).getByRole('checkbox', { name: 'Sweep vCPUs' }))
    await user.type(within(card).getByLabelText('vCPUs values'), '2, two')
    expect(within(card).getByText('The combinations appear once every swept factor has its values and the domain is named.')).toBeTruthy()
    expect(timeText(card)).toBe('The time is estimated once the combinations are known.')
    expect(within(card).getByLabelText('vCPUs values').getAttribute('aria-invalid')).toBe('true')
  }, 30_000)

  it('lists the domains of the guest’s physical host, and a pick fills the domain', async () => {
    const user = userEvent.setup()
    const { api } = renderWizard(
      { 'scenario:estimate': estimateOf, 'scenario:listDomains': () => ({ ok: true, host: 'host-01', domains: ['vm1-dom', 'vm2-dom'] }) },
      { ...atScenario, wizardDraft: draftOf(['vm1']) }
    )
    await user.click(screen.getByRole('button', { name: 'Sweep a guest…' }))
    const card = sweepCard()
    await user.click(within(card).getByRole('button', { name: 'List the domains on host-01' }))
    const domains = await within(card).findByRole('list', { name: 'Domains on host-01' })
    await user.click(within(domains).getByRole('button', { name: 'vm2-dom' }))
    expect((within(card).getByLabelText('libvirt domain') as HTMLInputElement).value).toBe('vm2-dom')
    expect(within(domains).getByRole('button', { name: 'vm2-dom' }).getAttribute('aria-pressed')).toBe('true')
    expect(callsTo(api, 'scenario:listDomains')).toEqual([{ guest: 'vm1', baseline: 'host-01' }])
  })

  it.each([
    ['no-virsh', "host-01 has no virsh (virsh list --all --name found no such command): install libvirt-clients there, or choose the guest's real physical host"],
    ['sudo', 'sudo on host-01 did not accept the stored password, or this user may not use sudo (sudo said: Sorry, try again.); check the password in the target settings. virsh runs through sudo on host-01.'],
    ['unreachable', 'host-01 could not be reached to ask libvirt: connect ECONNREFUSED 192.0.2.10:22. Test the connection on the Targets screen.']
  ] as const)('says why the host could not list its domains (%s)', async (problem, message) => {
    const user = userEvent.setup()
    renderWizard({ 'scenario:estimate': estimateOf, 'scenario:listDomains': () => ({ ok: false, host: 'host-01', problem, message }) }, { ...atScenario, wizardDraft: draftOf(['vm1']) })
    await user.click(screen.getByRole('button', { name: 'Sweep a guest…' }))
    await user.click(within(sweepCard()).getByRole('button', { name: 'List the domains on host-01' }))
    const alert = await within(sweepCard()).findByRole('alert')
    expect(alert.textContent).toBe(message)
    expect(alert.getAttribute('data-problem')).toBe(problem)
  })
})

const DIFF = [
  '@@ line 40 @@',
  "       <driver name='qemu' type='raw'/>",
  "-       <driver name='qemu' type='raw' cache='writeback'/>",
  "+       <driver name='qemu' type='raw' cache='none'/>"
].join('\n')

function setupDraft(): WizardDraft {
  const draft = draftOf(['vm1'])
  return { ...draft, variants: [{ target: 'vm1', label: '', scenario: { domain: 'vm1-dom', setup: { cache: 'none' } } }] }
}

describe('wizard step 4: domain changes and consent', () => {
  const jobs = [reviewJob('j0001', 'dd-throughput', 'host-01', 'dd if=/dev/zero of=ddfile bs=64M count=1 oflag=direct', 1)]

  it('shows the exact XML diff and the restart of each variant, and starts only with the consent ticked', async () => {
    const user = userEvent.setup()
    const { api } = renderWizard(
      {
        'plans:review': () => okReview(jobs, 26),
        'plans:preflight': () => CLEAN_PREFLIGHT,
        'scenario:diff': () => ({
          ok: true,
          host: 'host-01',
          domain: 'vm1-dom',
          setups: [{ ok: true, diff: DIFF, changes: [{ what: 'vda cache', from: 'writeback', to: 'none' }], restarts: ['vm1-dom restarts: the new vda cache takes effect at its next boot'] }]
        }),
        'runs:start': () => ({ id: 'run-9' })
      },
      { ...atReview, wizardDraft: setupDraft() }
    )
    await screen.findByText(/^Estimated time, all jobs one after the other/)
    await user.click(screen.getByRole('button', { name: 'Run preflight' }))
    await screen.findByText('Found (1)')
    const why = (): string => document.getElementById('wiz-start-why')?.textContent ?? ''
    expect(why()).toBe('Tick the box that lets VirtBench edit and restart the domain: the run changes it.')
    await user.click(screen.getByRole('button', { name: 'Start' }))
    expect(callsTo(api, 'runs:start')).toEqual([])

    await user.click(screen.getByRole('button', { name: 'Show the XML changes of vm1-dom' }))
    const diff = await screen.findByLabelText('XML diff for vm1')
    expect(diff.textContent).toBe(`${DIFF.replace("-       <driver", "removed: -       <driver").replace("+       <driver", "added: +       <driver")}\n`)
    expect(screen.getByRole('listitem', { name: 'vm1' }).textContent).toContain('1 change; vm1-dom restarts: the new vda cache takes effect at its next boot')
    expect(callsTo(api, 'scenario:diff')).toEqual([{ guest: 'vm1', baseline: 'host-01', domain: 'vm1-dom', setups: [{ cache: 'none' }] }])

    const consent = screen.getByRole('checkbox', {
      name: 'VirtBench will edit and restart domain vm1-dom on host host-01; the original XML is saved and restored at the end.'
    })
    await user.click(consent)
    expect(isDisabled(screen.getByRole('button', { name: 'Start' }))).toBe(false)
    await user.click(screen.getByRole('button', { name: 'Start' }))
    await waitFor(() => expect(callsTo(api, 'runs:start')).toHaveLength(1))
    expect(callsTo(api, 'runs:start')[0]).toMatchObject({ changeDomains: true, plan: { variants: [{ target: 'vm1', scenario: { domain: 'vm1-dom', setup: { cache: 'none' } } }] } })
    expect(useAppStore.getState().openRunId).toBe('run-9')
  }, 30_000)

  it('asks again when the domain changes after the consent', async () => {
    const user = userEvent.setup()
    renderWizard({ 'plans:review': () => okReview(jobs, 26) }, { ...atReview, wizardDraft: setupDraft() })
    await user.click(screen.getByRole('checkbox', { name: /^VirtBench will edit and restart domain vm1-dom/ }))
    useAppStore.getState().updateDraft((d) => ({ ...d, variants: d.variants.map((v) => ({ ...v, scenario: { ...v.scenario, domain: 'other-dom' } })) }))
    const consent = await screen.findByRole('checkbox', { name: /^VirtBench will edit and restart domain other-dom on host host-01/ })
    expect((consent as HTMLInputElement).checked).toBe(false)
  })

  it('a sweep: the review gives its time, lists every combination, and Start sends the plan with its sweep and the consent', async () => {
    const user = userEvent.setup()
    const draft = { ...draftOf(['vm1']), sweep: { target: 'vm1', domain: 'vm1-dom', chosen: { cache: ['none', 'writeback'] }, typed: {}, busDisk: '', order: 'grouped' as const } }
    const { api } = renderWizard(
      { 'plans:review': () => okReview(jobs, 26), 'plans:preflight': () => CLEAN_PREFLIGHT, 'scenario:estimate': estimateOf, 'runs:start': () => ({ id: 'x' }) },
      { ...atReview, wizardDraft: draft }
    )
    await waitFor(() => expect(document.querySelector('.wiz-start .wiz-total')?.textContent).toMatch(/^Estimated time: about 5 min \(2 runs, /))
    expect(within(screen.getByRole('list', { name: 'Combinations of the sweep' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'vm1 (vm1-dom): cache=none',
      'vm1 (vm1-dom): cache=writeback'
    ])
    await user.click(screen.getByRole('button', { name: 'Run preflight' }))
    await screen.findByText('Found (1)')
    expect(document.getElementById('wiz-start-why')?.textContent).toBe('Tick the box that lets VirtBench edit and restart the domain: the run changes it.')
    await user.click(screen.getByRole('checkbox', { name: /^VirtBench will edit and restart domain vm1-dom on host host-01/ }))
    expect(document.getElementById('wiz-start-why')?.textContent).toBe('Everything is checked: Start runs the comparison and shows its progress.')
    await user.click(screen.getByRole('button', { name: 'Start' }))
    await waitFor(() => expect(callsTo(api, 'runs:start')).toHaveLength(1))
    expect(callsTo(api, 'runs:start')[0]).toMatchObject({ changeDomains: true, plan: { variants: [], sweep: { target: 'vm1', domain: 'vm1-dom', factors: { cache: ['none', 'writeback'] } } } })
  }, 30_000)

  it('names a host that cannot show the diff', async () => {
    const user = userEvent.setup()
    renderWizard(
      {
        'plans:review': () => okReview(jobs, 26),
        'scenario:diff': () => ({ ok: false, host: 'host-01', problem: 'no-domain', message: 'host-01 has no libvirt domain named vm1-dom (virsh said: failed to get domain): check the domain name (virsh list --all on host-01)' })
      },
      { ...atReview, wizardDraft: setupDraft() }
    )
    await user.click(screen.getByRole('button', { name: 'Show the XML changes of vm1-dom' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/^host-01 has no libvirt domain named vm1-dom/)
  })
})

describe('a sweep in the draft', () => {
  it('comes back from a preset as it was saved, the swept guest ticked', () => {
    const plan: ComparisonPlanInput = {
      name: 'sweep of vm1',
      baseline: { target: 'host-01' },
      variants: [],
      tests: [{ pack: 'block-dd', form: 'quick' }],
      repetitions: 2,
      aggregate: 'median',
      storage: { kind: 'directory', path: '~/virtbench-work' },
      network: { matrix: false, simultaneous: false },
      schedule: { order: 'interleaved', parallelTargets: false },
      equivalenceMarginPct: 3,
      warmup: false,
      sweep: {
        target: 'vm1',
        domain: 'vm1-dom',
        scenario: { hypervisor: 'kvm' },
        factors: { io: ['native', 'threads'], bus: ['virtio-blk', 'sata'], memoryMiB: [1024, 2048] },
        busDisk: 'vdb',
        order: 'interleaved'
      }
    }
    const draft = draftOfPlan(plan)
    expect(draft.variants.map((v) => [v.target, v.scenario])).toEqual([['vm1', { hypervisor: 'kvm' }]])
    expect(draft.sweep).toEqual({ target: 'vm1', domain: 'vm1-dom', chosen: { io: ['native', 'threads'], bus: ['virtio-blk', 'sata'] }, typed: { memoryMiB: '1024, 2048' }, busDisk: 'vdb', order: 'interleaved' })
    expect(planOfDraft(draft)).toEqual(plan)
  })
})
