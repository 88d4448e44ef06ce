import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { summarizeRun, type RunDocument } from '../../../src/shared/model/run'
import { RunsPage } from '../../../src/renderer/src/features/runs/runs-page'
import { UndoToasts } from '../../../src/renderer/src/features/runs/undo-toast'
import { useAppStore } from '../../../src/renderer/src/store'
import { UNDO_MS } from '../../../src/renderer/src/store/runs-slice'
import { fakeApi, type FakeApi } from '../fake-api'
import { loopbackRun } from '../run-fixture'
import { resetStore } from './helpers'

/** Four runs: the real loopback run and three made from it (other names, dates, targets, tests). */
function history(): RunDocument[] {
  const loopback = loopbackRun()
  const cephTargets = (label: string): RunDocument['targets'] => [
    { name: 'node-1', role: 'baseline', label: 'node-1', kind: 'ssh', address: '10.0.0.1' },
    { name: 'vm-ceph', role: 'variant', label, kind: 'ssh', address: '10.0.0.2' }
  ]
  const network = loopback.tests.filter((t) => t.id === 'ping' || t.id === 'iperf3')
  const november: RunDocument = {
    ...loopback,
    id: 'ceph-nov',
    name: 'Ceph cluster November',
    status: 'failed',
    createdAt: '2026-11-05T12:00:00.000Z',
    endedAt: '2026-11-05T12:30:00.000Z',
    targets: cephTargets('vm-ceph (cache=writeback)'),
    plan: { ...loopback.plan, tests: [{ id: 'ping', tool: 'ping', params: {} }, { id: 'iperf3', tool: 'iperf3', params: {} }] },
    tests: network,
    jobs: loopback.jobs.filter((j) => j.testId === 'ping' || j.testId === 'iperf3').map((j, i) => (i === 0 ? { ...j, status: 'failed' } : j))
  }
  const october: RunDocument = {
    ...november,
    id: 'ceph-oct',
    name: 'Ceph cluster October',
    status: 'completed',
    createdAt: '2026-10-03T12:00:00.000Z',
    endedAt: '2026-10-03T12:40:00.000Z',
    jobs: loopback.jobs.filter((j) => j.testId === 'ping' || j.testId === 'iperf3')
  }
  const published: RunDocument = {
    ...loopback,
    id: 'study-001',
    name: 'Study 001 example',
    createdAt: '2026-01-15T12:00:00.000Z',
    endedAt: '2026-01-15T12:00:00.000Z',
    source: { kind: 'published', title: 'Study 001', citation: 'seeds/001, table 3', note: 'published figures, not measured here' }
  }
  return [october, loopback, published, november]
}

/** The runs page with its undo toasts, once the four runs are listed. */
async function openHistory(): Promise<void> {
  render(
    <>
      <RunsPage />
      <UndoToasts />
    </>
  )
  await screen.findByText('4 runs')
}

function names(): string[] {
  return [...document.querySelectorAll('tr[data-run] .runs-name-link')].map((b) => b.textContent ?? '')
}

describe('the run history', () => {
  let runs: RunDocument[]
  let api: FakeApi

  beforeEach(() => {
    runs = history()
    api = fakeApi({
      'runs:list': () => ({ runs: runs.map(summarizeRun), problems: [], active: [] }),
      'runs:get': ({ id }) => {
        const run = runs.find((r) => r.id === id)
        if (!run) throw new Error(`no run ${id}`)
        return run
      },
      'runs:rename': ({ id, name }) => {
        runs = runs.map((r) => (r.id === id ? { ...r, name } : r))
        return summarizeRun(runs.find((r) => r.id === id) as RunDocument)
      },
      'runs:remove': ({ id }) => ({ removed: id })
    })
    resetStore(api, { page: 'runs' })
  })

  afterEach(() => {
    vi.useRealTimers()
  })

  it('lists the runs newest first, marking published figures as not measured here', async () => {
    await openHistory()
    expect(names()).toEqual(['Loopback quick comparison', 'Ceph cluster November', 'Ceph cluster October', 'Study 001 example'])
    const example = document.querySelector('tr[data-run="study-001"]') as HTMLElement
    const badge = within(example).getByText('published figures, not measured here')
    expect(badge.getAttribute('title')).toBe('Source: Study 001')
    expect(screen.getAllByText('published figures, not measured here')).toHaveLength(1)
    const november = within(document.querySelector('tr[data-run="ceph-nov"]') as HTMLElement)
    expect(november.getByText('failed')).toBeTruthy()
    expect(november.getByText('✕ 1 failed')).toBeTruthy()
    expect(november.getByText('vs vm-ceph (cache=writeback)')).toBeTruthy()
  })

  it('searches names and targets', async () => {
    const user = userEvent.setup()
    await openHistory()
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'ceph')
    expect(names()).toEqual(['Ceph cluster November', 'Ceph cluster October'])
    expect(screen.getByText('2 of 4 runs')).toBeTruthy()
    await user.clear(screen.getByRole('searchbox', { name: 'Search' }))
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'cache=none')
    expect(names()).toEqual(['Loopback quick comparison', 'Study 001 example'])
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), ' study')
    expect(names()).toEqual(['Study 001 example'])
  })

  it('filters by target, test or pack, status and dates', async () => {
    const user = userEvent.setup()
    await openHistory()
    await user.selectOptions(screen.getByRole('combobox', { name: 'Target' }), 'node-1')
    expect(names()).toEqual(['Ceph cluster November', 'Ceph cluster October'])
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'completed')
    expect(names()).toEqual(['Ceph cluster October'])
    await user.click(screen.getByRole('button', { name: 'Clear filters' }))
    expect(names()).toHaveLength(4)

    // the tests and packs come from the run documents, read in the background
    const tests = screen.getByRole('combobox', { name: 'Test or pack' })
    await waitFor(() => expect(within(tests).getByRole('option', { name: 'block-dd' })).toBeTruthy())
    await user.selectOptions(tests, 'pack:block-dd')
    expect(names()).toEqual(['Loopback quick comparison', 'Study 001 example'])
    await user.selectOptions(tests, 'test:iperf3')
    expect(names()).toEqual(['Loopback quick comparison', 'Ceph cluster November', 'Ceph cluster October', 'Study 001 example'])
    await user.selectOptions(tests, 'test:mbw')
    expect(names()).toEqual(['Loopback quick comparison', 'Study 001 example'])
    await user.selectOptions(tests, '')

    await user.type(screen.getByLabelText('From'), '2026-10-01')
    await user.type(screen.getByLabelText('To'), '2026-11-05')
    expect(names()).toEqual(['Ceph cluster November', 'Ceph cluster October'])
  })

  it('renames a run inline, and says why an empty name is refused', async () => {
    const user = userEvent.setup()
    await openHistory()
    await user.click(screen.getByRole('button', { name: 'Rename Ceph cluster October' }))
    const input = screen.getByRole('textbox', { name: 'New name for Ceph cluster October' })
    expect(document.activeElement).toBe(input)
    await user.clear(input)
    await user.keyboard('{Enter}')
    expect(screen.getByText('A run needs a name.')).toBeTruthy()
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(api.calls.some((c) => c.channel === 'runs:rename')).toBe(false)

    await user.type(input, 'Ceph cluster, October release{Enter}')
    await waitFor(() => expect(names()).toContain('Ceph cluster, October release'))
    expect(api.calls.filter((c) => c.channel === 'runs:rename').map((c) => c.payload)).toEqual([{ id: 'ceph-oct', name: 'Ceph cluster, October release' }])
  })

  it('hides a deleted run at once and never removes it when the deletion is undone', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    await openHistory()
    await user.click(screen.getByRole('button', { name: 'Delete Ceph cluster November' }))
    expect(names()).not.toContain('Ceph cluster November')
    expect(screen.getByText('3 runs')).toBeTruthy()
    expect(screen.getByText('Deleted “Ceph cluster November”.')).toBeTruthy()
    const undo = screen.getByRole('button', { name: 'Undo deleting Ceph cluster November' })
    expect(document.activeElement).toBe(undo)

    act(() => vi.advanceTimersByTime(UNDO_MS - 1000))
    await user.click(undo)
    expect(names()).toContain('Ceph cluster November')
    act(() => vi.advanceTimersByTime(UNDO_MS * 3))
    expect(api.calls.some((c) => c.channel === 'runs:remove')).toBe(false)
    expect(screen.queryByText('Deleted “Ceph cluster November”.')).toBeNull()
  })

  it('removes a deleted run with runs:remove once the undo time is over', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    await openHistory()
    await user.click(screen.getByRole('button', { name: 'Delete Ceph cluster November' }))
    act(() => vi.advanceTimersByTime(UNDO_MS - 500))
    expect(api.calls.some((c) => c.channel === 'runs:remove')).toBe(false)
    await act(async () => {
      vi.advanceTimersByTime(600)
    })
    await waitFor(() => expect(api.calls.filter((c) => c.channel === 'runs:remove').map((c) => c.payload)).toEqual([{ id: 'ceph-nov' }]))
    await waitFor(() => expect(screen.queryByText('Deleted “Ceph cluster November”.')).toBeNull())
    expect(useAppStore.getState().runs?.map((r) => r.id)).not.toContain('ceph-nov')
    expect(screen.getByText('3 runs')).toBeTruthy()
  })

  it('compares the ticked runs, the first one ticked as the reference', async () => {
    const user = userEvent.setup()
    await openHistory()
    const compare = screen.getByRole('button', { name: 'Compare' })
    expect((compare as HTMLButtonElement).disabled).toBe(true)
    await user.click(screen.getByRole('checkbox', { name: 'Select Ceph cluster October to compare' }))
    expect((screen.getByRole('button', { name: 'Compare (1)' }) as HTMLButtonElement).disabled).toBe(true)
    await user.click(screen.getByRole('checkbox', { name: 'Select Ceph cluster November to compare' }))
    expect(screen.getByText("Reference (100 %): Ceph cluster October's baseline.")).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Compare (2)' }))
    expect(useAppStore.getState().page).toBe('compare-runs')
    expect(useAppStore.getState().compareRunIds).toEqual(['ceph-oct', 'ceph-nov'])
  })

  it('opens a run', async () => {
    const user = userEvent.setup()
    await openHistory()
    await user.click(screen.getByRole('button', { name: 'Ceph cluster October' }))
    expect(useAppStore.getState().page).toBe('run')
    expect(useAppStore.getState().openRunId).toBe('ceph-oct')
  })

  it('exports a run document as a .json download', async () => {
    const user = userEvent.setup()
    const blobs: Blob[] = []
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob)
      return 'blob:virtbench/1'
    })
    const revokeObjectURL = vi.fn()
    Object.assign(URL, { createObjectURL, revokeObjectURL })
    const clicked: HTMLAnchorElement[] = []
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this)
    })
    try {
      await openHistory()
      await user.click(screen.getByRole('button', { name: 'Export Loopback quick comparison as .json' }))
      await waitFor(() => expect(clicked).toHaveLength(1))
      expect(clicked[0]?.download).toBe('loopback-quick-comparison-20261121-004506-13e070.json')
      expect(clicked[0]?.href).toBe('blob:virtbench/1')
      expect(blobs[0]?.type).toBe('application/json')
      const exported = JSON.parse(await (blobs[0] as Blob).text()) as RunDocument
      expect(exported).toEqual(JSON.parse(JSON.stringify(loopbackRun())))
    } finally {
      click.mockRestore()
    }
  })
})
