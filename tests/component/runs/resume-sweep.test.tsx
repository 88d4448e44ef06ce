import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { summarizeRun, type RunDocument, type RunSummary } from '../../../src/shared/model/run'
import { RunPage } from '../../../src/renderer/src/features/runs/run-page'
import { RunsPage } from '../../../src/renderer/src/features/runs/runs-page'
import { sweepRemainder } from '../../../src/renderer/src/features/runs/resume-consent'
import { fakeApi, type FakeApi } from '../fake-api'
import { loopbackRun } from '../run-fixture'
import { freshId, resetStore } from './helpers'

// The results are other components' business: here they only show what they were given.
vi.mock('../../../src/renderer/src/features/results/results-view', () => ({
  ResultsView: ({ run }: { run: RunDocument }) => <section aria-label="Results">results of {run.name}</section>
}))

/** The loopback run made a sweep of guest vm1 (domain vm1-dom), cache x queues, interrupted. */
function sweepRun(id: string): RunDocument {
  const run = loopbackRun()
  return {
    ...run,
    id,
    name: 'Cache and queues sweep',
    status: 'interrupted',
    plan: {
      ...run.plan,
      variants: [],
      sweep: { target: 'vm1', domain: 'vm1-dom', scenario: {}, factors: { cache: ['none', 'writeback'], queues: [1, 4] }, order: 'grouped' }
    }
  }
}

/** The sweep as runs:list gives it: its four combinations, `completed` of its four steps done. */
function sweepSummary(run: RunDocument, completed: number): RunSummary {
  const variants = ['cache=none, queues=1', 'cache=none, queues=4', 'cache=writeback, queues=1', 'cache=writeback, queues=4']
  return { ...summarizeRun(run), variants, sweep: { guest: 'vm1', domain: 'vm1-dom', steps: 4, completed } }
}

function resumes(api: FakeApi): unknown[] {
  return api.calls.filter((c) => c.channel === 'runs:resume').map((c) => c.payload)
}

async function openRunPage(run: RunDocument, summaries: RunSummary[]): Promise<FakeApi> {
  const api = fakeApi({
    'runs:get': () => run,
    'runs:list': () => ({ runs: summaries, problems: [], active: [] }),
    'runs:resume': ({ id }) => ({ id })
  })
  resetStore(api, { page: 'run', openRunId: run.id })
  render(<RunPage />)
  await screen.findByRole('region', { name: 'Results' })
  return api
}

describe('resuming a sweep', () => {
  it('asks for the consent, naming the domain, its host and the combinations left; confirm resumes with changeDomains', async () => {
    const user = userEvent.setup()
    const run = sweepRun(freshId('sweep'))
    const baseline = run.plan.baseline.target
    const api = await openRunPage(run, [sweepSummary(run, 1)])
    await user.click(screen.getByRole('button', { name: 'Resume' }))

    const dialog = await screen.findByRole('alertdialog', { name: 'Resume this sweep?' })
    expect(within(dialog).getByText(`VirtBench will edit and restart domain vm1-dom on host ${baseline}; the original XML is saved and restored at the end.`)).toBeTruthy()
    // the history was not read yet: the dialog reads it for the completed steps
    const left = await within(dialog).findByRole('list', { name: 'Combinations still to measure' })
    expect(within(left).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['cache=none, queues=4', 'cache=writeback, queues=1', 'cache=writeback, queues=4'])
    expect(within(dialog).getByText('Still to measure: 3 steps, under these combinations:')).toBeTruthy()
    expect(resumes(api)).toEqual([])

    await user.click(within(dialog).getByRole('button', { name: 'Change the domain and resume' }))
    await waitFor(() => expect(resumes(api)).toEqual([{ id: run.id, changeDomains: true }]))
    expect(screen.queryByRole('alertdialog')).toBeNull()
  })

  it('resumes nothing when the consent is cancelled', async () => {
    const user = userEvent.setup()
    const run = sweepRun(freshId('sweep'))
    const api = await openRunPage(run, [sweepSummary(run, 3)])
    await user.click(screen.getByRole('button', { name: 'Resume' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Resume this sweep?' })
    const left = await within(dialog).findByRole('list', { name: 'Combinations still to measure' })
    expect(within(left).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['cache=writeback, queues=4'])

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(resumes(api)).toEqual([])
    // and so does the × button
    await user.click(screen.getByRole('button', { name: 'Resume' }))
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Resume this sweep?' })).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(resumes(api)).toEqual([])
  })

  it('resumes a run that changes no domain at once, without asking', async () => {
    const user = userEvent.setup()
    const run: RunDocument = { ...loopbackRun(), id: freshId(), status: 'interrupted' }
    const api = await openRunPage(run, [summarizeRun(run)])
    await user.click(screen.getByRole('button', { name: 'Resume' }))
    await waitFor(() => expect(resumes(api)).toEqual([{ id: run.id }]))
    expect(screen.queryByRole('alertdialog')).toBeNull()
  })
})

describe('what a resumed sweep still measures', () => {
  it('counts the steps after the completed ones, interleaved rounds included, and names each combination once', () => {
    const plan = { ...sweepRun('x').plan, repetitions: 2 }
    const interleaved = { ...plan, sweep: { ...plan.sweep!, factors: { cache: ['none', 'writeback'] as ('none' | 'writeback')[] }, order: 'interleaved' as const } }
    expect(sweepRemainder(interleaved, 1)).toEqual({ steps: 3, combinations: ['cache=writeback', 'cache=none'] })
    expect(sweepRemainder({ ...interleaved, sweep: { ...interleaved.sweep, order: 'grouped' } }, 1)).toEqual({ steps: 1, combinations: ['cache=writeback'] })
    expect(sweepRemainder(loopbackRun().plan, 0)).toBeUndefined()
  })
})

describe('a sweep in the history', () => {
  it('is marked with its number of combinations; a plain run is not', async () => {
    const sweep = sweepRun('sweep-badge')
    const plain = loopbackRun()
    const api = fakeApi({ 'runs:list': () => ({ runs: [sweepSummary(sweep, 4), summarizeRun(plain)], problems: [], active: [] }), 'runs:get': ({ id }) => (id === sweep.id ? sweep : plain) })
    resetStore(api, { page: 'runs' })
    render(<RunsPage />)
    const row = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('tr[data-run="sweep-badge"]')
      if (!found) throw new Error('the sweep is not listed yet')
      return found
    })
    const badge = within(row).getByText('sweep · 4 combinations')
    expect(badge.getAttribute('title')).toBe('vm1 (domain vm1-dom) measured under each combination, one step each')
    expect(screen.getAllByText(/^sweep · /)).toHaveLength(1)
  })
})
