import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiCallError } from '../../../src/shared/contract'
import type { ComparisonPlanInput } from '../../../src/shared/model/plan'
import type { PresetSummary } from '../../../src/shared/presets-contract'
import { PresetsPage } from '../../../src/renderer/src/features/presets/presets-page'
import { useAppStore } from '../../../src/renderer/src/store'
import { fakeApi, type FakeApi, type FakeHandlers } from '../fake-api'
import { presetList, savedPreset, savedSummary, studySummary } from './fixtures'

const initial = useAppStore.getState()


let loadPlan: ReturnType<typeof vi.fn<(plan: ComparisonPlanInput, source?: { presetId?: string; name?: string }) => void>>

function setup(handlers: FakeHandlers = {}): FakeApi {
  const api = fakeApi({ 'presets:list': () => presetList(savedSummary, studySummary), ...handlers })
  loadPlan = vi.fn()
  useAppStore.setState(initial, true)
  // The wizard slice's entry point (store/wizard-slice.ts), watched here.
  useAppStore.setState({ api, page: 'presets', loadPlan })
  render(<PresetsPage />)
  return api
}

function apiError(channel: 'presets:list' | 'presets:get' | 'presets:rename', message: string): ApiCallError {
  return new ApiCallError(channel, { code: 'failed', message })
}

function card(name: string): HTMLElement {
  return screen.getByRole('article', { name })
}

function callsTo(api: FakeApi, channel: string): unknown[] {
  return api.calls.filter((c) => c.channel === channel).map((c) => c.payload)
}

beforeEach(() => {
  vi.restoreAllMocks()
})

afterEach(() => {
  vi.useRealTimers()
})

describe('the presets list', () => {
  it('shows saved and study presets with their baseline, variants, tests, description and date', async () => {
    setup()
    const saved = await screen.findByRole('article', { name: 'storage-check' })
    const study = card(studySummary.name)

    expect(within(study).getByText('Study preset')).toBeTruthy()
    expect(within(saved).queryByText('Study preset')).toBeNull()

    expect(within(saved).getByText('Release check of the guests’ disks')).toBeTruthy()
    expect(within(saved).getByText('phys-01')).toBeTruthy()
    expect(within(saved).getByText('guest-none')).toBeTruthy()
    expect(within(saved).getByText('guest-wb')).toBeTruthy()
    expect(within(saved).getByText('Variants (2)')).toBeTruthy()
    expect(within(saved).getByText('block-dd')).toBeTruthy()
    expect(within(saved).getByText('fio-4k')).toBeTruthy()
    const modified = saved.querySelector('time')
    expect(modified?.getAttribute('dateTime')).toBe('2025-03-14T09:26:00.000Z')
    expect(modified?.textContent).toMatch(/2025/)

    expect(within(study).getByText('Variants (4)')).toBeTruthy()
    expect(within(study).getByText('vm-linux-wb-q4')).toBeTruthy()
    expect(within(study).getByText(/Shipped with VirtBench/)).toBeTruthy()
    expect(study.querySelector('time')).toBeNull()

    // Saved presets first, under their own heading; the study presets after.
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)
    expect(headings).toEqual(['Saved presets', 'Study presets'])
  })

  it('offers rename and delete on saved presets only', async () => {
    setup()
    const saved = await screen.findByRole('article', { name: 'storage-check' })
    const study = card(studySummary.name)

    expect(within(saved).getByRole('button', { name: /^Rename/ })).toBeTruthy()
    expect(within(saved).getByRole('button', { name: /^Delete/ })).toBeTruthy()
    expect(within(study).queryByRole('button', { name: /^Rename/ })).toBeNull()
    expect(within(study).queryByRole('button', { name: /^Delete/ })).toBeNull()
    // Study presets can still be opened, duplicated and exported.
    expect(within(study).getByRole('button', { name: /^Open in the wizard/ })).toBeTruthy()
    expect(within(study).getByRole('button', { name: /^Duplicate/ })).toBeTruthy()
    expect(within(study).getByRole('button', { name: /^Export/ })).toBeTruthy()
  })

  it('filters by name, target or test as the search is typed', async () => {
    setup()
    await screen.findByRole('article', { name: 'storage-check' })
    await userEvent.type(screen.getByLabelText('Search presets'), 'vm-linux')

    expect(screen.queryByRole('article', { name: 'storage-check' })).toBeNull()
    expect(card(studySummary.name)).toBeTruthy()
    expect(screen.getByText('1 of 2 presets match')).toBeTruthy()

    await userEvent.clear(screen.getByLabelText('Search presets'))
    await userEvent.type(screen.getByLabelText('Search presets'), 'nothing-like-this')
    expect(screen.getByText('No preset matches “nothing-like-this”.')).toBeTruthy()
    expect(screen.queryAllByRole('article')).toHaveLength(0)
  })

  it('follows presets:changed', async () => {
    const api = setup()
    useAppStore.getState().watchPresets(api)
    await screen.findByRole('article', { name: 'storage-check' })

    const release: PresetSummary = { ...savedSummary, id: 'release-2025-04', name: 'release 2025-04', modifiedAt: '2025-04-01T08:00:00.000Z' }
    api.emit('presets:changed', { presets: [release, studySummary], problems: ['broken.json: not JSON (line 3)'] })

    expect(await screen.findByRole('article', { name: 'release 2025-04' })).toBeTruthy()
    expect(screen.queryByRole('article', { name: 'storage-check' })).toBeNull()
    expect(screen.getByText('broken.json: not JSON (line 3)')).toBeTruthy()
    expect(screen.getByText(/One file in the presets folder is not a readable preset/)).toBeTruthy()
  })

  it('says why the list could not be loaded, and loads it again on request', async () => {
    let fail = true
    const api = setup({
      'presets:list': () => {
        if (fail) throw apiError('presets:list', 'the presets folder /data/presets is not readable (EACCES)')
        return presetList(savedSummary)
      }
    })
    expect(await screen.findByText(/the presets folder \/data\/presets is not readable \(EACCES\)/)).toBeTruthy()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('article', { name: 'storage-check' })).toBeTruthy()
    expect(callsTo(api, 'presets:list')).toHaveLength(2)
  })
})

describe('opening a preset', () => {
  it('reads the preset and fills the wizard with its plan', async () => {
    const api = setup({ 'presets:get': () => ({ summary: savedSummary, preset: savedPreset }) })
    const saved = await screen.findByRole('article', { name: 'storage-check' })
    await userEvent.click(within(saved).getByRole('button', { name: /^Open in the wizard/ }))

    await waitFor(() => expect(loadPlan).toHaveBeenCalledTimes(1))
    expect(callsTo(api, 'presets:get')).toEqual([{ id: 'storage-check' }])
    expect(loadPlan).toHaveBeenCalledWith(savedPreset.plan, { presetId: 'storage-check', name: 'storage-check' })
  })

  it('shows the wizard with the preset’s plan (the wizard slice’s loadPlan)', async () => {
    setup({ 'presets:get': () => ({ summary: savedSummary, preset: savedPreset }) })
    useAppStore.setState({ loadPlan: initial.loadPlan })
    const saved = await screen.findByRole('article', { name: 'storage-check' })
    await userEvent.click(within(saved).getByRole('button', { name: /^Open in the wizard/ }))

    await waitFor(() => expect(useAppStore.getState().page).toBe('comparison'))
    expect(useAppStore.getState().wizardSource).toEqual({ presetId: 'storage-check', name: 'storage-check' })
    expect(useAppStore.getState().wizardPlan()).toMatchObject({
      name: 'storage-check',
      baseline: { target: 'phys-01' },
      variants: [{ target: 'guest-none' }, { target: 'guest-wb' }]
    })
  })

  it('shows why a preset could not be opened', async () => {
    setup({
      'presets:get': () => {
        throw apiError('presets:get', 'no preset storage-check (it was deleted or renamed)')
      }
    })
    const saved = await screen.findByRole('article', { name: 'storage-check' })
    await userEvent.click(within(saved).getByRole('button', { name: /^Open in the wizard/ }))

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('“storage-check” could not be opened: no preset storage-check (it was deleted or renamed)')
    expect(loadPlan).not.toHaveBeenCalled()
  })
})

describe('import and export', () => {
  it('sends the chosen file’s text and name to presets:import', async () => {
    const imported: PresetSummary = { ...savedSummary, id: 'from-a-colleague', name: 'from a colleague' }
    const text = JSON.stringify(savedPreset)
    const api = setup({ 'presets:import': () => imported })
    await screen.findByRole('article', { name: 'storage-check' })

    await userEvent.upload(screen.getByLabelText('Import a preset file (.json)'), new File([text], 'colleague.json', { type: 'application/json' }))

    await waitFor(() => expect(callsTo(api, 'presets:import')).toEqual([{ text, fileName: 'colleague.json' }]))
    expect(await screen.findByRole('article', { name: 'from a colleague' })).toBeTruthy()
    expect(screen.getByText(/Imported/).textContent).toContain('Imported from a colleague.')
  })

  it('shows the API’s refusal with each field and what to do', async () => {
    const message =
      'my-preset.json is not a valid preset:\n' +
      '- plan.variants[1].scenario.cache: expected one of none, writeback, writethrough, directsync, unsafe, found "write-back"\n' +
      '- plan.repetitons: unknown field (check its spelling; docs/presets.md lists the fields)'
    setup({
      'presets:import': () => {
        throw new ApiCallError('presets:import', { code: 'invalid-request', message })
      }
    })
    await screen.findByRole('article', { name: 'storage-check' })

    const input = screen.getByLabelText('Import a preset file (.json)')
    await userEvent.upload(input, new File(['{"kind":"virtbench-preset"}'], 'my-preset.json', { type: 'application/json' }))

    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText('my-preset.json was not imported.')).toBeTruthy()
    expect(alert.textContent).toContain('my-preset.json is not a valid preset:')
    const items = within(alert).getAllByRole('listitem')
    expect(items.map((li) => li.querySelector('code')?.textContent)).toEqual(['plan.variants[1].scenario.cache', 'plan.repetitons'])
    expect(items[0]?.textContent).toContain('expected one of none, writeback, writethrough, directsync, unsafe, found "write-back"')
    expect(items[1]?.textContent).toContain('unknown field (check its spelling; docs/presets.md lists the fields)')
    // The file input says where its error is.
    expect(input.getAttribute('aria-describedby')).toBe(alert.id)
  })

  it('lists the field problems the API gives apart from its message', async () => {
    setup({
      'presets:import': () => {
        throw new ApiCallError('presets:import', {
          code: 'invalid-request',
          message: 'the request was refused',
          issues: [{ path: 'fileName', message: 'at most 255 characters' }]
        })
      }
    })
    await screen.findByRole('article', { name: 'storage-check' })
    await userEvent.upload(screen.getByLabelText('Import a preset file (.json)'), new File(['{}'], 'p.json', { type: 'application/json' }))

    const alert = await screen.findByRole('alert')
    const item = within(alert).getByRole('listitem')
    expect(item.querySelector('code')?.textContent).toBe('fileName')
    expect(item.textContent).toBe('fileName: at most 255 characters')
  })

  it('refuses a file over 1 MiB without sending it', async () => {
    const api = setup()
    await screen.findByRole('article', { name: 'storage-check' })
    const big = new File(['x'.repeat(1024 * 1024 + 1)], 'huge.json', { type: 'application/json' })
    await userEvent.upload(screen.getByLabelText('Import a preset file (.json)'), big)

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('huge.json was not imported.')
    expect(alert.textContent).toContain('The file is 1.00 MiB (1048577 bytes); a preset file is at most 1048576 bytes (1 MiB), so it was not sent.')
    expect(callsTo(api, 'presets:import')).toEqual([])
  })

  it('refuses a file whose text outgrows the limit once read (bytes that are not UTF-8 become U+FFFD), without sending it', async () => {
    const api = setup()
    await screen.findByRole('article', { name: 'storage-check' })
    // 400,000 bytes on disk, 1,200,000 bytes of text
    const notUtf8 = new File([new Uint8Array(400_000).fill(0xff)], 'latin.json', { type: 'application/json' })
    await userEvent.upload(screen.getByLabelText('Import a preset file (.json)'), notUtf8)

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('latin.json was not imported.')
    expect(alert.textContent).toContain('The file is 1.14 MiB (1200000 bytes); a preset file is at most 1048576 bytes (1 MiB), so it was not sent.')
    expect(callsTo(api, 'presets:import')).toEqual([])
  })

  it('downloads the exported text under the file name the API gives', async () => {
    const text = `${JSON.stringify(savedPreset, null, 2)}\n`
    const api = setup({ 'presets:export': () => ({ fileName: 'storage-check.json', text }) })
    const created: Blob[] = []
    const createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob)
      return 'blob:virtbench/preset-1'
    })
    const revokeObjectURL = vi.fn()
    Object.assign(URL, { createObjectURL, revokeObjectURL })
    const clicked: { download: string; href: string }[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ download: this.download, href: this.getAttribute('href') ?? '' })
    })

    const saved = await screen.findByRole('article', { name: 'storage-check' })
    await userEvent.click(within(saved).getByRole('button', { name: /^Export/ }))

    await waitFor(() => expect(clicked).toEqual([{ download: 'storage-check.json', href: 'blob:virtbench/preset-1' }]))
    expect(callsTo(api, 'presets:export')).toEqual([{ id: 'storage-check' }])
    expect(created).toHaveLength(1)
    expect(await created[0]?.text()).toBe(text)
    expect(created[0]?.type).toBe('application/json')
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:virtbench/preset-1'))
    // The temporary link is gone again.
    expect(document.querySelector('a[download]')).toBeNull()
  })
})

describe('changing saved presets', () => {
  it('renames inline and sends the new name', async () => {
    const renamed: PresetSummary = { ...savedSummary, id: 'storage-check-march', name: 'storage check (March)' }
    const api = setup({ 'presets:rename': () => renamed })
    const saved = await screen.findByRole('article', { name: 'storage-check' })
    await userEvent.click(within(saved).getByRole('button', { name: /^Rename/ }))

    const input = within(saved).getByLabelText('New name for storage-check')
    expect(document.activeElement).toBe(input)
    await userEvent.clear(input)
    await userEvent.type(input, 'storage check (March){Enter}')

    await waitFor(() => expect(callsTo(api, 'presets:rename')).toEqual([{ id: 'storage-check', name: 'storage check (March)' }]))
    const moved = await screen.findByRole('article', { name: 'storage check (March)' })
    expect(screen.queryByRole('article', { name: 'storage-check' })).toBeNull()
    // The focus lands on the renamed preset's title.
    expect(document.activeElement).toBe(within(moved).getByRole('heading', { name: 'storage check (March)' }))
  })

  it('shows a refused rename beside the name field and keeps the old name on Escape', async () => {
    setup({
      'presets:rename': () => {
        throw apiError('presets:rename', 'the name release is taken by the preset “Release”; choose another name')
      }
    })
    const saved = await screen.findByRole('article', { name: 'storage-check' })
    await userEvent.click(within(saved).getByRole('button', { name: /^Rename/ }))
    const input = within(saved).getByLabelText('New name for storage-check')
    await userEvent.clear(input)
    await userEvent.type(input, 'release{Enter}')

    const error = await within(saved).findByText('the name release is taken by the preset “Release”; choose another name')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(input.getAttribute('aria-describedby')?.split(' ')).toContain(error.id)

    await userEvent.type(input, '{Escape}')
    expect(within(saved).queryByLabelText('New name for storage-check')).toBeNull()
    expect(within(saved).getByRole('heading', { name: 'storage-check' })).toBeTruthy()
  })

  it('duplicates under the name asked for', async () => {
    const copy: PresetSummary = { ...studySummary, id: 'our-cloud-acceptance', name: 'our cloud acceptance', builtin: false, modifiedAt: '2025-03-15T10:00:00.000Z' }
    const api = setup({ 'presets:duplicate': () => copy })
    const study = await screen.findByRole('article', { name: studySummary.name })
    await userEvent.click(within(study).getByRole('button', { name: /^Duplicate/ }))

    const dialog = screen.getByRole('dialog', { name: `Duplicate “${studySummary.name}”` })
    const name = within(dialog).getByLabelText('Name of the copy')
    expect((name as HTMLInputElement).value).toBe(`${studySummary.name} (copy)`)
    await userEvent.clear(name)
    await userEvent.type(name, 'our cloud acceptance')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Duplicate' }))

    await waitFor(() => expect(callsTo(api, 'presets:duplicate')).toEqual([{ id: 'builtin:cloud-acceptance', name: 'our cloud acceptance' }]))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    const added = await screen.findByRole('article', { name: 'our cloud acceptance' })
    expect(within(added).queryByText('Study preset')).toBeNull()
    expect(within(added).getByRole('button', { name: /^Rename/ })).toBeTruthy()
  })

  it('asks before deleting, naming the preset, and can undo', async () => {
    const api = setup({
      'presets:get': () => ({ summary: savedSummary, preset: savedPreset }),
      'presets:remove': () => ({ removed: 'storage-check' }),
      'presets:save': () => savedSummary
    })
    const saved = await screen.findByRole('article', { name: 'storage-check' })
    await userEvent.click(within(saved).getByRole('button', { name: /^Delete/ }))

    const dialog = screen.getByRole('alertdialog', { name: 'Delete the preset “storage-check”?' })
    // Cancel first: nothing is sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(callsTo(api, 'presets:remove')).toEqual([])

    await userEvent.click(within(saved).getByRole('button', { name: /^Delete/ }))
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete preset' }))

    await waitFor(() => expect(callsTo(api, 'presets:remove')).toEqual([{ id: 'storage-check' }]))
    await waitFor(() => expect(screen.queryByRole('article', { name: 'storage-check' })).toBeNull())
    const notice = screen.getByText(/Deleted/)
    expect(notice.textContent).toBe('Deleted storage-check.')
    expect(notice.closest('[role="status"]')).toBeTruthy()
    // The focus is on Undo, since the Delete button it came from is gone.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Undo' }))

    await userEvent.click(screen.getByRole('button', { name: 'Undo' }))
    await waitFor(() => expect(callsTo(api, 'presets:save')).toEqual([{ preset: savedPreset }]))
    expect(await screen.findByRole('article', { name: 'storage-check' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull()
  })
})
