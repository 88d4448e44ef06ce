import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { compare } from '../../../src/shared/compare'
import type { Comparison } from '../../../src/shared/model/comparison'
import type { RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { compareInputOfRuns } from '../../../src/renderer/src/features/runs/compare-runs'
import { CompareRunsPage } from '../../../src/renderer/src/features/runs/compare-runs-page'
import { useAppStore } from '../../../src/renderer/src/store'
import { fakeApi, type FakeApi } from '../fake-api'
import { loopbackRun } from '../run-fixture'
import { resetStore } from './helpers'

vi.mock('../../../src/renderer/src/features/results/overhead-table', () => ({
  OverheadTable: ({ comparison }: { comparison: Comparison }) => (
    <div data-testid="overhead" data-columns={[comparison.baseline, ...comparison.variants].join('|')} data-rows={comparison.rows.length} />
  )
}))
vi.mock('../../../src/renderer/src/features/charts', () => ({
  ComparisonCharts: ({ comparison }: { comparison: Comparison }) => <div data-testid="charts" data-baseline={comparison.baseline} />
}))

/** Last month's run: the same loopback run, renamed, a month earlier, its guest relabelled, fio 20 % slower. */
function lastMonth(): RunDocument {
  const run = loopbackRun()
  return {
    ...run,
    id: 'run-october',
    name: 'Loopback October',
    createdAt: '2026-10-21T00:45:06.181Z',
    targets: run.targets.map((t) => (t.role === 'variant' ? { ...t, label: 'guest (writeback)' } : t)),
    tests: run.tests.filter((t) => t.id !== 'mbw'),
    jobs: run.jobs
      .filter((j) => j.testId !== 'mbw')
      .map((j) => ({
        ...j,
        side: j.side === 'host' ? 'host' : 'guest (writeback)',
        samples: j.samples.map((s) => (j.tool === 'fio' && s.better === 'higher' ? { ...s, value: s.value * 0.8 } : s))
      }))
  }
}

describe('runs compared side by side', () => {
  it('names every column "<run name> · <target label>", the first run’s baseline first', () => {
    const november = loopbackRun()
    const { input, columns } = compareInputOfRuns([november, lastMonth()])
    expect(columns.map((c) => c.name)).toEqual([
      'Loopback quick comparison · host',
      'Loopback quick comparison · guest (cache=none)',
      'Loopback October · host',
      'Loopback October · guest (writeback)'
    ])
    expect(input.baseline).toBe('Loopback quick comparison · host')
    expect(input.variants).toEqual(['Loopback quick comparison · guest (cache=none)', 'Loopback October · host', 'Loopback October · guest (writeback)'])
    // every succeeded compare job of both runs, under its renamed side (matrix jobs stay out)
    const compared = november.jobs.filter((j) => j.kind === 'compare' && j.status === 'succeeded').length
    const octoberCompared = lastMonth().jobs.filter((j) => j.kind === 'compare' && j.status === 'succeeded').length
    expect(input.measurements).toHaveLength(compared + octoberCompared)
    expect(new Set(input.measurements.map((m) => m.side))).toEqual(new Set(columns.map((c) => c.name)))
    // tests matched by id: mbw only in the first run
    expect(input.tests.map((t) => t.id)).toEqual(['fio-randread', 'fio-write', 'dd-latency', 'ping', 'iperf3', 'mbw'])
  })

  it('gives the same relative figures as the run itself for its own columns, and the other run’s against the reference', () => {
    const november = loopbackRun()
    const together = compare(compareInputOfRuns([november, lastMonth()]).input)
    const alone = compare(comparisonInputOf(november))
    const row = (c: Comparison): Comparison['rows'][number] | undefined =>
      c.rows.find((r) => r.testId === 'fio-randread' && r.metric === 'fio.read.iops')
    const ownGuest = row(together)?.cells.find((c) => c.variant === 'Loopback quick comparison · guest (cache=none)')
    expect(ownGuest?.relativePct).toBeDefined()
    expect(ownGuest?.relativePct).toBeCloseTo(row(alone)?.cells[0]?.relativePct as number, 9)
    // last month's host did 80 % of this month's host's IOPS (same samples, x 0.8)
    const octoberHost = row(together)?.cells.find((c) => c.variant === 'Loopback October · host')
    expect(octoberHost?.relativePct).toBeCloseTo(80, 9)
  })

  it('tells same-named runs apart', () => {
    const a = loopbackRun()
    const b = { ...loopbackRun(), id: 'run-b', createdAt: '2026-10-01T10:00:00.000Z' }
    const names = compareInputOfRuns([a, b]).columns.map((c) => c.runName)
    expect(names[0]).not.toBe(names[2])
    expect(names[0]).toMatch(/^Loopback quick comparison \(.+\)$/)
  })

  it('flags a guest that beats the reference host, never another run’s physical host', () => {
    // last month's run measured 4 KiB random read IOPS 25 % higher on both its targets
    const october: RunDocument = {
      ...loopbackRun(),
      id: 'run-october',
      name: 'Loopback October',
      createdAt: '2026-10-21T00:45:06.181Z',
      jobs: loopbackRun().jobs.map((j) => ({ ...j, samples: j.samples.map((s) => (s.metric === 'fio.read.iops' ? { ...s, value: s.value * 1.25 } : s)) }))
    }
    const row = compare(compareInputOfRuns([loopbackRun(), october]).input).rows.find((r) => r.testId === 'fio-randread' && r.metric === 'fio.read.iops')!
    const cell = (column: string) => row.cells.find((c) => c.variant === column)!
    const host = cell('Loopback October · host')
    expect(host.relativePct).toBeCloseTo(125, 9)
    expect([host.verdict, host.ci95![0] > 100]).toEqual(['faster', true])
    expect(host.flags.map((f) => f.kind)).toEqual([])
    // its guest: 1.25 x 21780.21978 against 21153.846154
    const guest = cell('Loopback October · guest (cache=none)')
    expect(guest.relativePct).toBeCloseTo(((1.25 * 21780.21978) / 21153.846154) * 100, 9)
    expect(guest.verdict).toBe('faster')
    expect(guest.flags.map((f) => f.kind)).toEqual(['faster-than-baseline'])
    // this month's guest: its interval includes 100 %, so no finding either way and no flag
    const own = cell('Loopback quick comparison · guest (cache=none)')
    expect([own.verdict, own.flags]).toEqual(['inconclusive', []])
  })
})

describe('the compare runs page', () => {
  let api: FakeApi
  const october = lastMonth()
  const november = loopbackRun()

  beforeEach(() => {
    api = fakeApi({ 'runs:get': ({ id }) => (id === october.id ? october : november) })
    resetStore(api, { page: 'compare-runs', compareRunIds: [november.id, october.id] })
  })

  it('shows the columns, says what 100 % is, and hands one comparison to the table and the charts', async () => {
    render(<CompareRunsPage />)
    const columns = await screen.findByRole('list', { name: 'Columns' })
    expect(within(columns).getAllByRole('listitem').map((li) => li.dataset.column)).toEqual([
      'Loopback quick comparison · host',
      'Loopback quick comparison · guest (cache=none)',
      'Loopback October · host',
      'Loopback October · guest (writeback)'
    ])
    expect(within(columns).getByText('reference, 100 %')).toBeTruthy()
    expect(screen.getByText(/every other column, the other runs' baselines included, is relative to it\./).textContent).toMatch(
      /^100 % is the baseline host of the run Loopback quick comparison \(.+\); every other column/
    )
    expect(screen.getByTestId('overhead').dataset.columns).toBe(
      'Loopback quick comparison · host|Loopback quick comparison · guest (cache=none)|Loopback October · host|Loopback October · guest (writeback)'
    )
    expect(screen.getByTestId('charts').dataset.baseline).toBe('Loopback quick comparison · host')
    expect(screen.getByText(/only in Loopback quick comparison; the other runs' columns show it as not measured\./)).toBeTruthy()
    expect(api.calls.map((c) => c.payload)).toEqual([{ id: november.id }, { id: october.id }])
  })

  it('makes another run the reference', async () => {
    const user = userEvent.setup()
    render(<CompareRunsPage />)
    await screen.findByRole('list', { name: 'Columns' })
    await user.selectOptions(screen.getByRole('combobox', { name: 'Reference run' }), october.id)
    expect(useAppStore.getState().compareRunIds).toEqual([october.id, november.id])
    expect(await screen.findByText('Loopback October · host', { selector: '.runs-column-name' })).toBeTruthy()
    const first = within(screen.getByRole('list', { name: 'Columns' })).getAllByRole('listitem')[0]
    expect(first?.dataset.column).toBe('Loopback October · host')
  })

  it('asks for runs when fewer than two are chosen', () => {
    resetStore(api, { page: 'compare-runs', compareRunIds: [november.id] })
    render(<CompareRunsPage />)
    expect(screen.getByRole('region', { name: 'Choose the runs first' })).toBeTruthy()
    expect(api.calls).toHaveLength(0)
  })
})
