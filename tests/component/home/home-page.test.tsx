import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ApiCallError, type InvokeResponse } from '../../../src/shared/contract'
import type { TargetView } from '../../../src/shared/targets-contract'
import { HomePage } from '../../../src/renderer/src/features/home/home-page'
import { useAppStore } from '../../../src/renderer/src/store'
import { fakeApi, type FakeApi, type FakeHandlers } from '../fake-api'

type RunSummary = InvokeResponse<'runs:list'>['runs'][number]

const initial = useAppStore.getState()


const NOW = '2025-03-14T09:00:00.000Z'

function localView(name: string): TargetView {
  return {
    target: { id: 't-local', kind: 'local', name, role: 'host', addresses: {}, sudo: 'none', labels: {}, createdAt: NOW, updatedAt: NOW },
    secrets: { password: false, passphrase: false, sudo: false },
    jumpChain: []
  }
}

function sshView(name: string, id: string): TargetView {
  return {
    target: {
      id,
      kind: 'ssh',
      name,
      role: 'guest',
      address: `${name}.lab`,
      port: 22,
      user: 'root',
      auth: { method: 'agent' },
      addresses: {},
      sudo: 'none',
      labels: {},
      createdAt: NOW,
      updatedAt: NOW
    },
    secrets: { password: false, passphrase: false, sudo: false },
    jumpChain: []
  }
}

function run(id: string, createdAt: string, status: RunSummary['status'], jobs = { total: 12, succeeded: 12, failed: 0 }): RunSummary {
  return { id, name: `run ${id}`, plan: 'phys-01 vs guests', status, createdAt, baseline: 'phys-01', variants: ['guest-none', 'guest-wb'], jobs }
}

function setup(targets: TargetView[] | undefined, handlers: FakeHandlers = {}): FakeApi {
  const api = fakeApi(handlers)
  useAppStore.setState(initial, true)
  useAppStore.setState({ api, page: 'home', targets })
  render(<HomePage />)
  return api
}

function channels(api: FakeApi): string[] {
  return api.calls.map((c) => c.channel)
}

const OFFERS = ['Add a target', 'Import from ~/.ssh/config', 'Measure this computer', 'Open the example comparison']

describe('first start', () => {
  it('shows nothing to click while the targets are still loading', async () => {
    const api = setup(undefined, { 'targets:list': () => new Promise(() => {}) })
    await waitFor(() => expect(channels(api)).toEqual(['targets:list']))
    for (const offer of OFFERS) expect(screen.queryByRole('button', { name: offer })).toBeNull()
    expect(screen.queryByRole('heading', { name: 'Recent runs' })).toBeNull()
    // The page still says what VirtBench is.
    expect(screen.getByRole('heading', { level: 1, name: 'What does virtualization cost you?' })).toBeTruthy()
  })

  it('says why the targets could not be loaded and tries again on request', async () => {
    let fail = true
    const api = setup(undefined, {
      'targets:list': () => {
        if (fail) throw new ApiCallError('targets:list', { code: 'failed', message: 'targets.json is not valid JSON (line 4)' })
        return { targets: [], secretsBackend: { name: 'memory' } }
      }
    })
    expect(await screen.findByText(/targets.json is not valid JSON \(line 4\)/)).toBeTruthy()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('button', { name: 'Measure this computer' })).toBeTruthy()
    expect(channels(api)).toEqual(['targets:list', 'targets:list'])
  })

  it('with no targets, says what VirtBench does and makes the four offers', () => {
    const api = setup([])
    expect(screen.getByRole('list', { name: 'What VirtBench does' }).textContent).toContain('Your physical host is 100 %.')
    for (const offer of OFFERS) expect(screen.getByRole('button', { name: offer })).toBeTruthy()
    // No runs list and no call before the person chooses.
    expect(screen.queryByRole('heading', { name: 'Recent runs' })).toBeNull()
    expect(api.calls).toEqual([])
  })

  it('labels the example as published figures with its source', () => {
    setup([])
    const offer = screen.getByRole('heading', { name: 'Open the example comparison' }).closest('li')
    expect(offer).toBeTruthy()
    const card = within(offer as HTMLElement)
    expect(card.getByText('Published figures, not measured here')).toBeTruthy()
    expect(card.getByText(/^Source: Study 001, “Cloud platform acceptance test: CPU, memory, local disk, Ceph, network”$/)).toBeTruthy()
  })

  it('“Add a target” goes to the targets page', async () => {
    setup([])
    await userEvent.click(screen.getByRole('button', { name: 'Add a target' }))
    expect(useAppStore.getState().page).toBe('targets')
  })

  it('“Measure this computer” adds a local physical host, confirms it and shows the targets', async () => {
    const api = setup([], { 'targets:add': () => localView('This computer') })
    await userEvent.click(screen.getByRole('button', { name: 'Measure this computer' }))

    await waitFor(() => expect(useAppStore.getState().page).toBe('targets'))
    expect(api.calls.filter((c) => c.channel === 'targets:add')).toEqual([
      { channel: 'targets:add', payload: { target: { kind: 'local', name: 'This computer', role: 'host' }, secrets: undefined } }
    ])
    expect(useAppStore.getState().targets?.map((v) => v.target.name)).toEqual(['This computer'])
    const notices = useAppStore.getState().notices
    expect(notices).toHaveLength(1)
    expect(notices[0]?.level).toBe('info')
    expect(notices[0]?.message).toContain('Added “This computer” as a physical host.')
  })

  it('shows why this computer could not be added, beside its offer', async () => {
    setup([], {
      'targets:add': () => {
        throw new ApiCallError('targets:add', { code: 'failed', message: 'a target named "This computer" already exists' })
      }
    })
    await userEvent.click(screen.getByRole('button', { name: 'Measure this computer' }))

    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('“This computer” was not added: a target named "This computer" already exists')
    expect(alert.closest('li')?.querySelector('h3')?.textContent).toBe('Measure this computer')
    expect(useAppStore.getState().page).toBe('home')
  })

  it('“Open the example comparison” asks main for it and opens that run', async () => {
    const api = setup([], { 'runs:example': () => ({ id: 'example-study-001' }) })
    await userEvent.click(screen.getByRole('button', { name: 'Open the example comparison' }))

    await waitFor(() => expect(useAppStore.getState().page).toBe('run'))
    expect(useAppStore.getState().openRunId).toBe('example-study-001')
    expect(api.calls).toEqual([{ channel: 'runs:example', payload: undefined }])
  })

  it('“Import from ~/.ssh/config” opens the import here, and keeps it open when targets arrive', async () => {
    const api = setup([], {
      'targets:importPreview': () => ({
        file: '/home/qa/.ssh/config',
        candidates: [{ name: 'phys-01', address: 'phys-01.lab', port: 22, user: 'root', auth: { method: 'agent' }, jumps: [] }],
        warnings: []
      }),
      'targets:import': () => ({ added: [sshView('phys-01', 't-phys')], skipped: [] })
    })
    await userEvent.click(screen.getByRole('button', { name: 'Import from ~/.ssh/config' }))

    const dialog = await screen.findByRole('dialog', { name: 'Import from ~/.ssh/config' })
    expect(useAppStore.getState().page).toBe('home')
    expect(await within(dialog).findByText('/home/qa/.ssh/config')).toBeTruthy()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Import 1 target' }))

    // The home page now has a target (quick actions behind the dialog), and the dialog shows what was added.
    expect(await within(dialog).findByText(/Added 1 target/)).toBeTruthy()
    expect(useAppStore.getState().targets?.map((v) => v.target.name)).toEqual(['phys-01'])
    expect(screen.getByRole('dialog', { name: 'Import from ~/.ssh/config' })).toBe(dialog)
    expect(channels(api)).toContain('targets:import')

    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('with targets', () => {
  const runs = [
    run('r1', '2025-03-01T10:00:00.000Z', 'completed'),
    run('r2', '2025-03-02T10:00:00.000Z', 'failed', { total: 12, succeeded: 9, failed: 3 }),
    run('r3', '2025-03-03T10:00:00.000Z', 'completed'),
    run('r4', '2025-03-04T10:00:00.000Z', 'cancelled', { total: 12, succeeded: 4, failed: 0 }),
    run('r5', '2025-03-05T10:00:00.000Z', 'interrupted', { total: 12, succeeded: 7, failed: 0 }),
    run('r6', '2025-03-06T10:00:00.000Z', 'running', { total: 12, succeeded: 1, failed: 0 })
  ]
  const listOf = (list: RunSummary[]): InvokeResponse<'runs:list'> => ({ runs: list, problems: [], active: [] })

  it('offers a new comparison and lists the five latest runs with their status', async () => {
    setup([sshView('phys-01', 't-phys')], { 'runs:list': () => listOf(runs) })
    for (const offer of OFFERS.slice(0, 3)) expect(screen.queryByRole('button', { name: offer })).toBeNull()

    const recent = screen.getByRole('region', { name: 'Recent runs' })
    const rows = await within(recent).findAllByRole('listitem')
    expect(rows.map((row) => row.querySelector('.home-run-name')?.textContent)).toEqual(['run r6', 'run r5', 'run r4', 'run r3', 'run r2'])
    expect(rows.map((row) => row.querySelector('.home-run-status')?.textContent)).toEqual([
      '▶ Running',
      '⏸ Interrupted',
      '■ Cancelled',
      '✓ Completed',
      '✕ Failed'
    ])
    expect(rows[4]?.textContent).toContain('9 of 12 jobs succeeded, 3 failed')
    expect(rows[4]?.textContent).toContain('phys-01 vs guest-none, guest-wb')
    expect(within(recent).getByRole('button', { name: 'All 6 runs' })).toBeTruthy()

    await userEvent.click(screen.getByRole('button', { name: /New comparison/ }))
    expect(useAppStore.getState().page).toBe('comparison')
  })

  it('marks the example run as published figures, not measured here', async () => {
    const example: RunSummary = {
      ...run('example-study-001', '2025-03-07T10:00:00.000Z', 'completed'),
      name: 'Example: cloud platform acceptance (study 001)',
      source: { kind: 'published', title: 'Study 001: cloud platform acceptance test' }
    }
    setup([sshView('phys-01', 't-phys')], { 'runs:list': () => listOf([example, ...runs.slice(0, 2)]) })
    const row = await screen.findByRole('button', { name: /Example: cloud platform acceptance/ })
    expect(row.querySelector('.home-run-meta')?.textContent).toBe('Published figures, not measured here (Study 001: cloud platform acceptance test)')
    expect(row.querySelector('time')).toBeNull()
    const measured = screen.getByRole('button', { name: /run r2/ })
    expect(measured.querySelector('.home-run-meta')?.textContent).toContain('9 of 12 jobs succeeded, 3 failed')
  })

  it('opens a run on click', async () => {
    setup([sshView('phys-01', 't-phys')], { 'runs:list': () => listOf(runs) })
    await userEvent.click(await screen.findByRole('button', { name: /run r3/ }))
    expect(useAppStore.getState().page).toBe('run')
    expect(useAppStore.getState().openRunId).toBe('r3')
  })

  it('reads the list again when a run ends', async () => {
    let list = runs.slice(0, 2)
    const api = setup([sshView('phys-01', 't-phys')], { 'runs:list': () => listOf(list) })
    useAppStore.getState().watchRuns(api)
    expect(await screen.findByRole('button', { name: /run r2/ })).toBeTruthy()
    expect(screen.queryByRole('button', { name: /All \d+ runs/ })).toBeNull()

    list = runs
    api.emit('runs:event', { type: 'job-progress', runId: 'r6', jobId: 'j0001' })
    api.emit('runs:event', { type: 'run-finished', runId: 'r6', status: 'completed' })
    expect(await screen.findByRole('button', { name: /run r6/ })).toBeTruthy()
    expect(channels(api).filter((c) => c === 'runs:list')).toHaveLength(2)
  })

  it('says why the runs could not be listed', async () => {
    setup([sshView('phys-01', 't-phys')], {
      'runs:list': () => {
        throw new ApiCallError('runs:list', { code: 'failed', message: 'the runs folder is not readable' })
      }
    })
    expect((await screen.findByRole('alert')).textContent).toContain('The runs could not be listed: the runs folder is not readable')
  })

  it('still offers the example comparison, labelled as published figures', async () => {
    const api = setup([sshView('phys-01', 't-phys')], { 'runs:list': () => listOf([]), 'runs:example': () => ({ id: 'example-study-001' }) })
    expect(await screen.findByText('No runs yet. Start a new comparison, or open a preset and run it.')).toBeTruthy()
    const example = screen.getByRole('region', { name: 'The example comparison' })
    expect(within(example).getByText('Published figures, not measured here')).toBeTruthy()
    await userEvent.click(within(example).getByRole('button', { name: 'Open the example comparison' }))
    await waitFor(() => expect(useAppStore.getState().openRunId).toBe('example-study-001'))
    expect(channels(api)).toEqual(['runs:list', 'runs:example'])
  })
})
