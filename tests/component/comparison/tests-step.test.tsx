import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { emptyDraft, planOfDraft, withBaseline, withVariant, type WizardDraft } from '../../../src/renderer/src/models/wizard-draft'
import { useAppStore } from '../../../src/renderer/src/store'
import type { PlanReview } from '../../../src/shared/catalog-contract'
import { CATALOG, description, isChecked, okReview, renderWizard } from './wizard-fixtures'

function twoTargets(): WizardDraft {
  return withVariant(withBaseline(emptyDraft(), 'host-01'), 'vm1', true)
}

function pack(name: string): HTMLElement {
  return screen.getByRole('article', { name })
}

function plan() {
  return planOfDraft(useAppStore.getState().wizardDraft)
}

const atTests = { wizardStep: 2 as const, wizardReached: 2 as const }

describe('wizard step 3: tests', () => {
  it('shows the study packs as cards: what they measure, their exact tools and how long quick and full take', async () => {
    renderWizard({ 'plans:review': () => okReview([]) }, { ...atTests, wizardDraft: twoTargets() })
    const dd = await screen.findByRole('article', { name: 'Block device dd' })
    const facts = (card: HTMLElement): string[] => [...card.querySelectorAll('dd')].map((d) => d.textContent ?? '')
    // 2 tests x 3 repetitions: quick (4 + 2 s) x 3, full (30 + 10 s) x 3.
    expect(facts(dd)).toEqual(['storage', 'dd', 'quick about 18 s · full about 2 min' + 'with 3 repetitions of each test (or the test’s own)'])
    // iperf3 keeps its own three repetitions: full (60 + 60 + 1800 + 20) x 3 + 32 x 3 s.
    expect(facts(pack('Cloud acceptance'))).toEqual([
      'storage, cpu, memory, network',
      'fio, unixbench, mbw, iperf3',
      'quick about 7 min · full about 1 h 39 min' + 'with 3 repetitions of each test (or the test’s own)'
    ])
    expect(within(dd).getByText('Study 002: Virtual block device performance')).toBeTruthy()
  })

  it('includes a pack quick or full, with a subset of its tests', async () => {
    const user = userEvent.setup()
    renderWizard({ 'plans:review': () => okReview([]) }, { ...atTests, wizardDraft: twoTargets() })
    const dd = await screen.findByRole('article', { name: 'Block device dd' })
    await user.click(within(dd).getByRole('checkbox', { name: 'Include' }))
    expect(plan().tests).toEqual([{ pack: 'block-dd', form: 'quick' }])
    await user.click(within(dd).getByRole('radio', { name: 'Full · about 2 min' }))
    await user.click(within(dd).getByText('Tests: 2 of 2'))
    await user.click(within(dd).getByRole('checkbox', { name: /Latency: 1000 x 512 B O_DIRECT writes/ }))
    expect(plan().tests).toEqual([{ pack: 'block-dd', form: 'full', only: ['dd-throughput'] }])
    expect(within(dd).getByText('Tests: 1 of 2')).toBeTruthy()

    // Leaving the pack out and taking it again keeps the choice.
    await user.click(within(dd).getByRole('checkbox', { name: 'Included' }))
    expect(plan().tests).toEqual([])
    await user.click(within(dd).getByRole('checkbox', { name: 'Include' }))
    expect(plan().tests).toEqual([{ pack: 'block-dd', form: 'full', only: ['dd-throughput'] }])

    // No test of the pack left: Next says so beside the list and stays.
    await user.click(within(dd).getByRole('checkbox', { name: /Throughput: 1 GiB O_DIRECT write/ }))
    await user.click(screen.getByRole('button', { name: 'Next: Review' }))
    const group = within(dd).getByRole('group', { name: 'Tests of Block device dd to run' })
    expect(description(group)).toBe('Tick at least one test of this pack, or leave the pack out.')
    expect(document.activeElement).toBe(group)
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step 3 of 4 · Tests')
  })

  it('builds a custom test’s form from the tool’s schema, with its defaults and main’s messages beside each field', async () => {
    const user = userEvent.setup()
    const review = ({ plan: sent }: { plan: Record<string, unknown> }): PlanReview => {
      const tests = sent.tests as { params?: Record<string, unknown> }[]
      const bs = tests[0]?.params?.bs
      return bs === 'lots'
        ? { ok: false, issues: [{ path: 'tests.0.params.bs', message: 'bs must be a size such as 4k or 1m' }], jobs: [], seconds: 0 }
        : okReview([], 90)
    }
    renderWizard({ 'plans:review': review }, { ...atTests, wizardDraft: twoTargets() })
    await screen.findByRole('article', { name: 'Block device dd' })
    await user.selectOptions(screen.getByLabelText('Tool'), 'fio (storage)')
    await user.click(screen.getByRole('radio', { name: 'Full' }))
    await user.click(screen.getByRole('button', { name: 'Add custom test' }))
    const test = screen.getByRole('region', { name: 'Custom test fio-1' })
    expect((within(test).getByLabelText('rw') as HTMLSelectElement).value).toBe('randread')
    expect((within(test).getByLabelText('bs') as HTMLInputElement).value).toBe('4k')
    expect((within(test).getByLabelText('iodepth') as HTMLInputElement).value).toBe('16')
    expect((within(test).getByLabelText('runtime') as HTMLInputElement).value).toBe('30')
    expect(isChecked(within(test).getByLabelText('direct'))).toBe(true)
    expect((within(test).getByLabelText(/ramp time/) as HTMLInputElement).value).toBe('')
    expect(within(test).queryByLabelText('device')).toBeNull()
    // people's words for the schema's names: "ramp time", never "ramp time rampTime"; the tool's name on hover
    const rampTime = within(test).getByLabelText('ramp time')
    expect(document.querySelector(`label[for="${rampTime.id}"]`)?.textContent).toBe('ramp time')
    expect(within(test).getByText('ramp time').getAttribute('title')).toBe("rampTime (the tool's parameter)")
    expect(within(test).queryByText(/\(null\)/)).toBeNull()
    expect(description(within(test).getByLabelText('bs'))).toBe('Block size of each I/O, like 4k or 1m. Default: 4k.')

    const bs = within(test).getByLabelText('bs')
    await user.clear(bs)
    await user.type(bs, 'lots')
    await waitFor(() => expect(description(bs)).toBe('bs must be a size such as 4k or 1m Block size of each I/O, like 4k or 1m. Default: 4k.'))
    expect(bs.getAttribute('aria-invalid')).toBe('true')
    // The message sits beside bs, not beside another field.
    expect(description(within(test).getByLabelText('iodepth'))).not.toContain('bs must be')

    await user.clear(within(test).getByLabelText('iodepth'))
    await user.type(within(test).getByLabelText('iodepth'), '32')
    await user.click(within(test).getByRole('checkbox', { name: 'No runtime' }))
    await user.clear(bs)
    await user.type(bs, '8k')
    await user.type(within(test).getByLabelText('Repetitions'), '5')
    await user.selectOptions(within(test).getByLabelText('Aggregation'), 'best')
    expect(plan().tests).toEqual([
      {
        id: 'fio-1',
        tool: 'fio',
        params: { rw: 'randread', bs: '8k', iodepth: 32, runtime: null, direct: true },
        repetitions: 5,
        aggregate: 'best'
      }
    ])
    await waitFor(() => expect(description(bs)).toBe('Block size of each I/O, like 4k or 1m. Default: 4k.'))
  })

  it('starts a custom test in its quick form, as the packs’ quick forms, unless Full is chosen', async () => {
    const user = userEvent.setup()
    renderWizard({ 'plans:review': () => okReview([]) }, { ...atTests, wizardDraft: twoTargets() })
    await screen.findByRole('article', { name: 'Block device dd' })
    expect(isChecked(screen.getByRole('radio', { name: 'Quick' }))).toBe(true)
    expect(screen.getByText('Short sizes and runs, as the packs’ quick forms (fio 64 MiB for 3 s): seconds per run.')).toBeTruthy()
    await user.selectOptions(screen.getByLabelText('Tool'), 'fio (storage)')
    await user.click(screen.getByRole('button', { name: 'Add custom test' }))
    const quick = screen.getByRole('region', { name: 'Custom test fio-1' })
    expect((within(quick).getByLabelText('runtime') as HTMLInputElement).value).toBe('3')
    expect((within(quick).getByLabelText('rw') as HTMLSelectElement).value).toBe('randread')

    await user.click(screen.getByRole('radio', { name: 'Full' }))
    await user.click(screen.getByRole('button', { name: 'Add custom test' }))
    const full = screen.getByRole('region', { name: 'Custom test fio-2' })
    expect((within(full).getByLabelText('runtime') as HTMLInputElement).value).toBe('30')
    const defaults = { rw: 'randread', bs: '4k', iodepth: 16, runtime: 30, direct: true }
    expect(plan().tests).toEqual([
      { id: 'fio-1', tool: 'fio', params: { ...defaults, size: '64m', runtime: 3 } },
      { id: 'fio-2', tool: 'fio', params: defaults }
    ])
  })

  it('sets repetitions and aggregation, with the problem beside the field', async () => {
    const user = userEvent.setup()
    const draft: WizardDraft = { ...twoTargets(), tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: undefined }] }
    renderWizard({ 'plans:review': () => okReview([]) }, { ...atTests, wizardDraft: draft })
    await screen.findByRole('article', { name: 'Block device dd' })
    const reps = screen.getByLabelText('Runs of each test on each target')
    await user.clear(reps)
    await user.type(reps, '500')
    await user.click(screen.getByRole('button', { name: 'Next: Review' }))
    expect(document.activeElement).toBe(reps)
    expect(description(reps)).toBe('Repetitions are a whole number from 1 to 100. Unless a test sets its own. More runs give a narrower confidence interval.')
    await user.clear(reps)
    await user.type(reps, '5')
    await user.click(screen.getByRole('radio', { name: 'best' }))
    expect(screen.getByText('best: the best repetition (study 001 takes the best of three iperf3 runs).')).toBeTruthy()
    expect(plan().repetitions).toBe(5)
    expect(plan().aggregate).toBe('best')
  })

  it('warns when the precision asked for leaves "same" too little room at the margin, and stops when it does not', async () => {
    const user = userEvent.setup()
    const draft: WizardDraft = { ...twoTargets(), tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: undefined }] }
    renderWizard({ 'plans:review': () => okReview([]) }, { ...atTests, wizardDraft: draft })
    await screen.findByRole('article', { name: 'Block device dd' })
    const precision = screen.getByLabelText('Repeat until ± (points)')
    await user.type(precision, '2')
    const note = screen.getByRole('note')
    expect(note.textContent).toBe(
      'Repeating until ± 2 points with a margin of ± 3 points: a result reads "same" only when its interval\'s centre lies within 1 point of 100 %, ' +
        'so equal machines will often read "can\'t tell". Ask for ± 1.5 points or less, or widen the margin.'
    )
    await user.clear(precision)
    await user.type(precision, '1.5')
    expect(screen.queryByRole('note')).toBeNull()
    expect(plan().precision?.halfWidthPct).toBe(1.5)
    // a wider margin makes room for the first goal
    await user.clear(precision)
    await user.type(precision, '2')
    expect(screen.getByRole('note')).toBeTruthy()
    const margin = screen.getByLabelText('Same within ± (points)')
    await user.clear(margin)
    await user.type(margin, '5')
    expect(screen.queryByRole('note')).toBeNull()
  })

  it('writes to a raw device only once its path is typed again, warning that all data on it is destroyed', async () => {
    const user = userEvent.setup()
    const draft: WizardDraft = { ...twoTargets(), tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: undefined }] }
    renderWizard({ 'plans:review': () => okReview([]) }, { ...atTests, wizardDraft: draft })
    await screen.findByRole('article', { name: 'Block device dd' })
    await user.click(screen.getByRole('radio', { name: 'A raw device (destroys its data)' }))
    await user.type(screen.getByLabelText('Device on each target'), '/dev/vdb')
    const warning = screen.getByRole('alert')
    expect(warning.textContent).toContain('All data on /dev/vdb is destroyed')
    expect(warning.textContent).toContain('fio and dd write straight onto /dev/vdb of host-01, vm1: every byte on it is overwritten')

    // Next is refused until the path is typed again; the focus goes to the confirmation.
    await user.click(screen.getByRole('button', { name: 'Next: Review' }))
    const confirm = screen.getByLabelText('Type /dev/vdb again to confirm')
    expect(document.activeElement).toBe(confirm)
    expect(description(confirm)).toContain('Type /dev/vdb again to confirm that everything on it may be destroyed.')

    await user.type(confirm, '/dev/vdc')
    expect(description(confirm)).toContain('This does not match /dev/vdb; type it exactly to confirm.')
    await user.clear(confirm)
    await user.type(confirm, '/dev/vdb')
    expect(description(confirm)).toBe('✓ Confirmed: /dev/vdb may be overwritten on every target.')
    expect(plan().storage).toEqual({ kind: 'device', path: '/dev/vdb', confirm: '/dev/vdb' })

    // Back to a directory: the device is kept for later, the plan writes to the directory.
    await user.click(screen.getByRole('radio', { name: 'A work directory' }))
    expect(plan().storage).toEqual({ kind: 'directory', path: '~/virtbench-work' })
    await user.click(screen.getByRole('radio', { name: 'A raw device (destroys its data)' }))
    expect(plan().storage).toEqual({ kind: 'device', path: '/dev/vdb', confirm: '/dev/vdb' })
  })

  it('lists a problem main found that no field shows, at the top of the step, and keeps the focus there', async () => {
    const user = userEvent.setup()
    const draft: WizardDraft = { ...twoTargets(), tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: undefined }] }
    renderWizard(
      { 'plans:review': () => ({ ok: false, issues: [{ path: 'tests.0', message: 'block-dd needs dd 8.0 or later on every target' }], jobs: [], seconds: 0 }) },
      { ...atTests, wizardDraft: draft }
    )
    await screen.findByRole('article', { name: 'Block device dd' })
    await waitFor(() => expect(useAppStore.getState().wizardReview?.review?.ok).toBe(false))
    await user.click(screen.getByRole('button', { name: 'Next: Review' }))
    const problems = screen.getByRole('region', { name: 'Problems on this step' })
    expect(problems.textContent).toContain('Tests › pack block-dd: block-dd needs dd 8.0 or later on every target')
    expect(document.activeElement).toBe(problems)
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Step 3 of 4 · Tests')
  })

  it('puts main’s message about one test id of a pack beside the pack’s test list', async () => {
    const user = userEvent.setup()
    const draft: WizardDraft = { ...twoTargets(), tests: [{ kind: 'pack', pack: 'block-dd', form: 'quick', only: ['dd-old'] }] }
    renderWizard(
      {
        'plans:review': () => ({
          ok: false,
          issues: [{ path: 'tests.0.only.0', message: 'the quick pack block-dd has no test dd-old (it has dd-throughput, dd-latency)' }],
          jobs: [],
          seconds: 0
        })
      },
      { ...atTests, wizardDraft: draft }
    )
    const dd = await screen.findByRole('article', { name: 'Block device dd' })
    await waitFor(() => expect(useAppStore.getState().wizardReview?.review?.ok).toBe(false))
    await user.click(screen.getByRole('button', { name: 'Next: Review' }))
    const group = within(dd).getByRole('group', { name: 'Tests of Block device dd to run' })
    expect(document.activeElement).toBe(group)
    expect(description(group)).toBe('the quick pack block-dd has no test dd-old (it has dd-throughput, dd-latency)')
  })

  it('says when the catalog cannot be loaded, and tries again', async () => {
    const user = userEvent.setup()
    let fail = true
    const { api } = renderWizard(
      {
        'catalog:get': () => {
          if (fail) throw new Error('main is restarting')
          return CATALOG
        },
        'plans:review': () => okReview([])
      },
      { ...atTests, wizardDraft: twoTargets() }
    )
    expect((await screen.findByRole('alert')).textContent).toContain('The study packs and tools could not be loaded. main is restarting')
    fail = false
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('article', { name: 'Block device dd' })).toBeTruthy()
    expect(api.calls.filter((c) => c.channel === 'catalog:get')).toHaveLength(2)
  })
})
