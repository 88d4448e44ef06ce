import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Comparison } from '../../../src/shared/model/comparison'
import type { RunDocument, RunEvent } from '../../../src/shared/model/run'
import { formatDuration } from '../../../src/renderer/src/features/runs/job-view'
import { RunPage } from '../../../src/renderer/src/features/runs/run-page'
import { useAppStore } from '../../../src/renderer/src/store'
import { REFETCH_MS } from '../../../src/renderer/src/store/runs-slice'
import { fakeApi, type FakeApi } from '../fake-api'
import { loopbackRun } from '../run-fixture'
import { freshId, resetStore, startedRun, withFinished } from './helpers'

// The results and charts are other components' business: here they only show what they were given.
vi.mock('../../../src/renderer/src/features/results/overhead-table', () => ({
  OverheadTable: ({ comparison, pendingTests }: { comparison: Comparison; pendingTests?: { id: string }[] }) => (
    <div
      data-testid="overhead"
      data-rows={[...new Set(comparison.rows.map((r) => r.testId))].join(',')}
      data-pending={(pendingTests ?? []).map((t) => t.id).join(',')}
      data-columns={[comparison.baseline, ...comparison.variants].join('|')}
    />
  )
}))
vi.mock('../../../src/renderer/src/features/results/results-view', () => ({
  ResultsView: ({ run }: { run: RunDocument }) => <section aria-label="Results">results of {run.name}</section>
}))

function emit(api: FakeApi, event: RunEvent): void {
  act(() => api.emit('runs:event', event))
}

function row(jobId: string): HTMLElement {
  const found = document.querySelector<HTMLElement>(`tr[data-job="${jobId}"]`)
  if (!found) throw new Error(`no row for ${jobId}`)
  return found
}

describe('the run page while a run goes on', () => {
  let id: string
  let doc: RunDocument
  let api: FakeApi

  beforeEach(() => {
    id = freshId()
    doc = startedRun(id)
    api = fakeApi({ 'runs:get': () => doc, 'runs:list': () => ({ runs: [], problems: [], active: [id] }), 'runs:cancel': () => ({ cancelled: true }) })
    resetStore(api, { page: 'run', openRunId: id, activeRuns: [id] })
  })

  it('shows one row per job with its test, target and repetition, all queued at first', async () => {
    render(<RunPage />)
    await screen.findByRole('heading', { level: 1, name: 'Loopback quick comparison' })
    const rows = document.querySelectorAll('tr[data-job]')
    expect(rows).toHaveLength(48)
    const second = within(row('j0002'))
    expect(second.getByText('4 KiB random read')).toBeTruthy()
    expect(second.getByText('guest (cache=none)')).toBeTruthy()
    expect(second.getByText('1 of 3')).toBeTruthy()
    expect(row('j0002').dataset.state).toBe('queued')
    // iperf3 against its peer; the matrix jobs show the direction
    expect(within(row('j0031')).getByText('host (peer guest (cache=none))')).toBeTruthy()
    expect(within(row('j0040')).getByText('guest (cache=none) → host')).toBeTruthy()
    expect(screen.getByText('0 of 48 jobs done')).toBeTruthy()
  })

  it('moves a job through running (progress and ETA), reattaching and done', async () => {
    render(<RunPage />)
    await screen.findByRole('heading', { level: 1, name: 'Loopback quick comparison' })

    emit(api, { type: 'run-started', runId: id, jobs: 48 })
    emit(api, { type: 'job-started', runId: id, jobId: 'j0001', attempt: 1, estimatedSeconds: 40 })
    expect(row('j0001').dataset.state).toBe('running')
    expect(within(row('j0001')).getByText('running')).toBeTruthy()

    emit(api, { type: 'job-progress', runId: id, jobId: 'j0001', elapsedSeconds: 17, percent: 42, etaSeconds: 23 })
    const bar = within(row('j0001')).getByRole('progressbar')
    expect(bar.getAttribute('aria-valuenow')).toBe('42')
    expect(within(row('j0001')).getByText('42 % · 23 s left')).toBeTruthy()

    emit(api, { type: 'job-reattached', runId: id, jobId: 'j0001', message: 'host: connection lost (ECONNRESET)' })
    expect(row('j0001').dataset.state).toBe('reattaching')
    expect(within(row('j0001')).getByText('reattaching')).toBeTruthy()
    expect(within(row('j0001')).getByText('host: connection lost (ECONNRESET)')).toBeTruthy()
    // progress keeps ticking while the engine waits for the target: still reattaching
    emit(api, { type: 'job-progress', runId: id, jobId: 'j0001', elapsedSeconds: 18, percent: 45, etaSeconds: 22 })
    expect(row('j0001').dataset.state).toBe('reattaching')

    doc = withFinished(doc, ['j0001'])
    emit(api, { type: 'job-finished', runId: id, jobId: 'j0001', status: 'succeeded', samples: 19 })
    expect(row('j0001').dataset.state).toBe('succeeded')
    expect(within(row('j0001')).getByText('done')).toBeTruthy()
    expect(screen.getByText('1 of 48 jobs done')).toBeTruthy()
  })

  it("keeps a sweep's earlier steps in the domain changes when its next step starts", async () => {
    render(<RunPage />)
    await screen.findByRole('heading', { level: 1, name: 'Loopback quick comparison' })
    const step = (index: number, combination: string) =>
      ({ domain: 'vm1-dom', host: 'phys', guest: 'vm1', combination, step: { index, total: 2 } }) as const
    emit(api, { type: 'run-started', runId: id, jobs: 4 })
    emit(api, { type: 'stage', runId: id, message: 'vm1-dom: vdb cache: none -> writeback', target: 'vm1', domain: { ...step(1, 'cache=writeback'), kind: 'define', status: 'done' } })
    emit(api, { type: 'stage', runId: id, message: 'vm1 is measured with vm1', target: 'vm1', domain: { ...step(1, 'cache=writeback'), kind: 'jobs', status: 'running' } })
    // the sweep's second step: a new run under the sweep's id
    emit(api, { type: 'run-started', runId: id, jobs: 4 })
    emit(api, { type: 'stage', runId: id, message: 'vm1-dom: vdb cache: writeback -> none', target: 'vm1', domain: { ...step(2, 'cache=none'), kind: 'define', status: 'running' } })
    const changes = screen.getByRole('list', { name: 'Domain changes' })
    const titles = within(changes)
      .getAllByRole('listitem')
      .map((li) => li.getAttribute('aria-label'))
      .filter((t): t is string => t !== null)
    expect(titles).toEqual(['Step 1 of 2: cache=writeback on vm1-dom (phys)', 'Step 2 of 2: cache=none on vm1-dom (phys)'])
  })

  it('shows the overall progress and the time left from the estimates', async () => {
    // Every job of the fixture has an estimate: progress is weighted by them, and the time left is
    // the running job's ETA plus the queued jobs' estimates.
    const estimates = doc.jobs.map((j) => j.estimatedSeconds ?? NaN)
    expect(estimates.every((e) => e > 0)).toBe(true)
    const first = estimates[0] as number
    const total = estimates.reduce((a, b) => a + b, 0)
    const left = estimates.slice(1).reduce((a, b) => a + b, 0) + 1
    render(<RunPage />)
    await screen.findByRole('heading', { level: 1, name: 'Loopback quick comparison' })
    emit(api, { type: 'job-started', runId: id, jobId: 'j0001', attempt: 1, estimatedSeconds: first })
    emit(api, { type: 'job-progress', runId: id, jobId: 'j0001', elapsedSeconds: first / 2, percent: 50, etaSeconds: 1 })
    const percent = Math.floor(((first * 0.5) / total) * 100)
    const overall = screen.getByRole('progressbar', { name: 'Overall progress' })
    expect(overall.getAttribute('aria-valuenow')).toBe(String(percent))
    expect(overall.getAttribute('aria-valuetext')).toBe(`${percent} %, about ${formatDuration(left)} left`)
    expect(screen.getByText(`· about ${formatDuration(left)} left`)).toBeTruthy()
    expect(screen.getByText('· 1 running')).toBeTruthy()
  })

  it('writes times left as people read them', () => {
    expect(formatDuration(45)).toBe('45 s')
    expect(formatDuration(200)).toBe('3 min 20 s')
    expect(formatDuration(180)).toBe('3 min')
    expect(formatDuration(3900)).toBe('1 h 05 min')
  })

  it('fills the overhead table in as results arrive, fetching the run again after a job ends', async () => {
    render(<RunPage />)
    await screen.findByRole('heading', { level: 1, name: 'Loopback quick comparison' })
    const table = screen.getByTestId('overhead')
    expect(table.dataset.rows).toBe('')
    expect(table.dataset.pending).toBe('fio-randread,fio-write,dd-latency,ping,iperf3,mbw')
    expect(table.dataset.columns).toBe('host|guest (cache=none)')

    const gets = api.calls.filter((c) => c.channel === 'runs:get').length
    doc = withFinished(doc, ['j0001', 'j0002'])
    emit(api, { type: 'job-finished', runId: id, jobId: 'j0001', status: 'succeeded', samples: 19 })
    emit(api, { type: 'job-finished', runId: id, jobId: 'j0002', status: 'succeeded', samples: 19 })
    // fetched again at most every REFETCH_MS (the page's own first fetch counts)
    await waitFor(() => expect(screen.getByTestId('overhead').dataset.rows).toBe('fio-randread'), { timeout: REFETCH_MS * 4 })
    expect(screen.getByTestId('overhead').dataset.pending).toBe('fio-write,dd-latency,ping,iperf3,mbw')
    // two job-finished events, one fetch (throttled), then maybe a trailing one
    await new Promise((r) => setTimeout(r, REFETCH_MS + 150))
    const fetched = api.calls.filter((c) => c.channel === 'runs:get').length - gets
    expect(fetched).toBeGreaterThanOrEqual(1)
    expect(fetched).toBeLessThanOrEqual(2)
  })

  it('asks before cancelling, then sends runs:cancel', async () => {
    const user = userEvent.setup()
    render(<RunPage />)
    await screen.findByRole('heading', { level: 1, name: 'Loopback quick comparison' })
    await user.click(screen.getByRole('button', { name: 'Cancel run' }))
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel this run?' })
    await user.click(within(dialog).getByRole('button', { name: 'Keep running' }))
    expect(api.calls.some((c) => c.channel === 'runs:cancel')).toBe(false)

    await user.click(screen.getByRole('button', { name: 'Cancel run' }))
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel run' }))
    await waitFor(() => expect(api.calls.filter((c) => c.channel === 'runs:cancel')).toEqual([{ channel: 'runs:cancel', payload: { id } }]))
  })

  it('keeps a failed job visible with its error, and its retry waits for the run to end', async () => {
    const user = userEvent.setup()
    render(<RunPage />)
    await screen.findByRole('heading', { level: 1, name: 'Loopback quick comparison' })
    emit(api, { type: 'job-started', runId: id, jobId: 'j0003', attempt: 1 })
    emit(api, { type: 'job-finished', runId: id, jobId: 'j0003', status: 'failed', error: 'fio exited with 1: no space left', logTail: 'fio: io_u error', samples: 0 })
    expect(row('j0003').dataset.state).toBe('failed')
    expect(within(row('j0003')).getByText('fio exited with 1: no space left')).toBeTruthy()
    const retry = within(row('j0003')).getByRole('button', { name: /^Retry j0003/ })
    expect(retry.getAttribute('aria-disabled')).toBe('true')
    await user.click(retry)
    expect(api.calls.some((c) => c.channel === 'runs:retry')).toBe(false)
  })

  it('shows the results once the run ends', async () => {
    render(<RunPage />)
    await screen.findByRole('heading', { level: 1, name: 'Loopback quick comparison' })
    expect(screen.queryByRole('region', { name: 'Results' })).toBeNull()
    doc = { ...loopbackRun(), id }
    emit(api, { type: 'run-finished', runId: id, status: 'completed' })
    expect(await screen.findByRole('region', { name: 'Results' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Cancel run' })).toBeNull()
  })
})

describe('the run page of a finished run', () => {
  it('shows the results with the jobs collapsed below, each job’s command and raw output one click away', async () => {
    const user = userEvent.setup()
    const run = loopbackRun()
    const api = fakeApi({
      'runs:get': () => run,
      'runs:raw': ({ file }) => (file.endsWith('.stdout') ? { text: `output of ${file}`, bytes: 1536, truncated: false } : { text: '', bytes: 0, truncated: false })
    })
    resetStore(api, { page: 'run', openRunId: run.id })
    render(<RunPage />)
    expect(await screen.findByRole('region', { name: 'Results' })).toBeTruthy()
    const details = document.querySelector('details.runs-jobs-details') as HTMLDetailsElement
    expect(details.open).toBe(false)
    expect(within(details).getByText('(48: 48 done)')).toBeTruthy()

    await user.click(within(details).getByText('Jobs'))
    await user.click(screen.getByRole('button', { name: 'Output of j0031 iperf3 iperf3 on host, repetition 1' }))
    const step = screen.getByRole('region', { name: 'Step client of j0031' })
    const job = run.jobs.find((j) => j.id === 'j0031')
    const command = job?.steps.find((s) => s.id === 'client')?.command
    expect(command).toMatch(/^iperf3 -c /)
    expect(within(step).getByLabelText('Command of step client').textContent).toBe(command)
    expect(await within(step).findByText('output of raw/j0031-a1-client.stdout')).toBeTruthy()
    expect(within(step).getByText(/1\.50 KiB/)).toBeTruthy()
    expect(within(step).getByText('(empty)')).toBeTruthy()
    expect(api.calls.filter((c) => c.channel === 'runs:raw').map((c) => c.payload)).toContainEqual({ id: run.id, file: 'raw/j0031-a1-client.stdout' })
  })

  it('retries one failed job or all of them with runs:retry and the right ids', async () => {
    const user = userEvent.setup()
    const base = loopbackRun()
    const run: RunDocument = {
      ...base,
      status: 'failed',
      jobs: base.jobs.map((j) => (j.id === 'j0008' || j.id === 'j0020' ? { ...j, status: 'failed', error: `${j.target}: gone`, samples: [] } : j))
    }
    const api = fakeApi({ 'runs:get': () => run, 'runs:retry': ({ id }) => ({ id }) })
    resetStore(api, { page: 'run', openRunId: run.id })
    render(<RunPage />)
    await screen.findByRole('region', { name: 'Results' })
    expect(screen.getByText('2 jobs failed')).toBeTruthy()

    await user.click(screen.getByRole('button', { name: 'Show the jobs' }))
    await user.click(screen.getByRole('button', { name: 'Retry j0020 ping ping on guest (cache=none), repetition 1' }))
    await waitFor(() => expect(api.calls.filter((c) => c.channel === 'runs:retry').map((c) => c.payload)).toEqual([{ id: run.id, jobIds: ['j0020'] }]))

    await user.click(screen.getByRole('button', { name: 'Retry all failed (2)' }))
    await waitFor(() =>
      expect(api.calls.filter((c) => c.channel === 'runs:retry').map((c) => c.payload)).toEqual([
        { id: run.id, jobIds: ['j0020'] },
        { id: run.id, jobIds: ['j0008', 'j0020'] }
      ])
    )
  })

  it('says in the banner why a failed run failed: the first failed job, where, and what to do', async () => {
    const base = loopbackRun()
    const error = 'iperf3 exited with 1: iperf3: error - unable to start listener for connections: Address already in use'
    const run: RunDocument = {
      ...base,
      status: 'failed',
      jobs: base.jobs.map((j) => (j.tool === 'iperf3' && j.kind === 'compare' ? { ...j, status: 'failed', error, samples: [] } : j))
    }
    const failed = run.jobs.filter((j) => j.status === 'failed')
    expect(failed.length).toBeGreaterThan(1)
    const first = failed[0]!
    const server = first.steps.find((s) => s.background)?.on
    expect(server).toBeDefined()
    resetStore(fakeApi({ 'runs:get': () => run }), { page: 'run', openRunId: run.id })
    render(<RunPage />)
    await screen.findByRole('region', { name: 'Results' })
    const banner = document.querySelector('.runs-ended-banner') as HTMLElement
    expect(within(banner).getByText('This run failed.')).toBeTruthy()
    expect(banner.querySelector('.runs-ended-reason')?.textContent).toBe(`${first.title} on ${first.target} failed first: ${error}`)
    expect(banner.querySelector('.runs-ended-fix')?.textContent).toBe(
      `A program on ${server} already listens on the port the test needs (often an iperf3 server left running): stop it or give the test another port, then “Retry all failed”.`
    )
  })

  it('says the run’s own error in the banner, and points at the jobs’ output when the cause is not a known one', async () => {
    const base = loopbackRun()
    const withRunError: RunDocument = { ...base, status: 'failed', error: 'preflight found 1 problem:\n- iperf3 is missing on guest. Install it.' }
    resetStore(fakeApi({ 'runs:get': () => withRunError }), { page: 'run', openRunId: withRunError.id })
    const { unmount } = render(<RunPage />)
    await screen.findByRole('region', { name: 'Results' })
    let banner = document.querySelector('.runs-ended-banner') as HTMLElement
    expect(banner.querySelector('.runs-ended-reason')?.textContent).toBe(withRunError.error)
    expect(banner.querySelector('.runs-ended-fix')?.textContent).toBe('Each problem says what to do; fix them, then start the comparison again.')
    unmount()

    const odd: RunDocument = { ...base, status: 'failed', jobs: base.jobs.map((j) => (j.id === 'j0008' ? { ...j, status: 'failed', error: 'fio: bad magic', samples: [] } : j)) }
    resetStore(fakeApi({ 'runs:get': () => odd }), { page: 'run', openRunId: odd.id })
    render(<RunPage />)
    await screen.findByRole('region', { name: 'Results' })
    banner = document.querySelector('.runs-ended-banner') as HTMLElement
    expect(banner.querySelector('.runs-ended-reason')?.textContent).toMatch(/ failed first: fio: bad magic$/)
    expect(banner.querySelector('.runs-ended-fix')?.textContent).toBe('“Show the jobs”, then the job\'s “Output”, has its exact command and raw output; fix the cause, then “Retry all failed”.')
  })

  it('says why a retry was refused, beside the buttons', async () => {
    const user = userEvent.setup()
    const base = loopbackRun()
    const run: RunDocument = { ...base, status: 'failed', jobs: base.jobs.map((j) => (j.id === 'j0008' ? { ...j, status: 'failed' } : j)) }
    const api = fakeApi({
      'runs:get': () => run,
      'runs:retry': () => {
        throw new Error('that run is still going; cancel it first, or wait until it ends')
      }
    })
    resetStore(api, { page: 'run', openRunId: run.id })
    render(<RunPage />)
    await screen.findByRole('region', { name: 'Results' })
    await user.click(screen.getByRole('button', { name: 'Retry all failed (1)' }))
    expect((await screen.findByRole('alert')).textContent).toBe('Could not retry: that run is still going; cancel it first, or wait until it ends')
  })

  it('offers Resume for an interrupted run', async () => {
    const user = userEvent.setup()
    const run: RunDocument = { ...loopbackRun(), status: 'interrupted' }
    const api = fakeApi({ 'runs:get': () => run, 'runs:resume': ({ id }) => ({ id }) })
    resetStore(api, { page: 'run', openRunId: run.id })
    render(<RunPage />)
    await screen.findByRole('region', { name: 'Results' })
    await user.click(screen.getByRole('button', { name: 'Resume' }))
    await waitFor(() => expect(api.calls.filter((c) => c.channel === 'runs:resume').map((c) => c.payload)).toEqual([{ id: run.id }]))
  })

  it('says so when the run cannot be read', async () => {
    const api = fakeApi({
      'runs:get': () => {
        throw new Error('run.json is not a run document: jobs.3.status: invalid')
      }
    })
    resetStore(api, { page: 'run', openRunId: 'broken-run' })
    render(<RunPage />)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Could not read run broken-run.')
    expect(alert.textContent).toContain('jobs.3.status: invalid')
    expect(useAppStore.getState().openRunDoc).toBeUndefined()
  })
})

describe('starting a run', () => {
  it('sends the plan with runs:start and opens the new run live', async () => {
    const id = freshId()
    const doc = startedRun(id)
    const api = fakeApi({ 'runs:start': () => ({ id }), 'runs:get': () => doc })
    resetStore(api, { page: 'comparison' })
    const started = await useAppStore.getState().startRun(doc.plan)
    expect(started).toBe(id)
    expect(api.calls[0]).toEqual({ channel: 'runs:start', payload: { plan: doc.plan } })
    expect(useAppStore.getState().page).toBe('run')
    expect(useAppStore.getState().openRunId).toBe(id)
    render(<RunPage />)
    expect(await screen.findByRole('button', { name: 'Cancel run' })).toBeTruthy()
    expect(screen.getByRole('progressbar', { name: 'Overall progress' }).getAttribute('aria-valuenow')).toBe('0')
  })

  it('hands the API’s refusal to the caller (the wizard shows it beside its Start button)', async () => {
    const api = fakeApi({
      'runs:start': () => {
        throw new Error('tests[0] fio-randread (fio): bs: not a block size')
      }
    })
    resetStore(api, { page: 'comparison' })
    await expect(useAppStore.getState().startRun(loopbackRun().plan)).rejects.toThrow('bs: not a block size')
    expect(useAppStore.getState().page).toBe('comparison')
  })
})
