import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { PresetTrend, Sparkline } from '../../../src/renderer/src/features/release/preset-trend'
import { ReleasePage } from '../../../src/renderer/src/features/release/release-page'
import { summarizeRun, type RunDocument } from '../../../src/shared/model/run'
import { fakeApi } from '../fake-api'
import { loopbackRun } from '../run-fixture'
import { resetStore } from '../runs/helpers'

/** The loopback run made again at `createdAt`, with the guest's figures multiplied by `factor` (rates; times divided). */
function rerun(id: string, createdAt: string, factor: number): RunDocument {
  const run = loopbackRun()
  const guest = run.targets.find((t) => t.role === 'variant')!.label
  return {
    ...run,
    id,
    name: `${run.name} ${createdAt.slice(0, 10)}`,
    createdAt,
    jobs: run.jobs.map((j) =>
      j.side !== guest
        ? j
        : { ...j, samples: j.samples.map((s) => ({ ...s, value: s.better === 'higher' ? s.value * factor : s.better === 'lower' ? s.value / factor : s.value })) }
    )
  }
}

const OLDEST = rerun('r-oldest', '2026-09-01T10:00:00.000Z', 1)
const OLD = rerun('r-old', '2026-10-01T10:00:00.000Z', 0.8)
const NEW = rerun('r-new', '2026-11-01T10:00:00.000Z', 0.5)
const GUEST = 'guest (cache=none)'

/** The trend table's body rows: per line, its cells' texts. */
function rows(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((c) => (c.textContent ?? '').trim()))
}

describe('the trend of a preset’s primary figures over its runs', () => {
  it('gives a line per variant and primary figure, with a small chart and each run’s relative %, oldest first', () => {
    // given newest first: the table is in time order all the same
    render(<PresetTrend runs={[NEW, OLDEST, OLD]} plan={NEW.plan.name} />)
    const section = screen.getByRole('region', { name: `Trend of ${NEW.plan.name} over its last 3 runs` })
    const table = within(section).getByRole('table')
    const head = within(table).getAllByRole('columnheader')
    expect(head.map((h) => h.textContent)).toEqual(expect.arrayContaining(['Variant', 'Test · metric', 'Trend', 'This run']))
    expect(head.slice(3).map((h) => h.getAttribute('title'))).toEqual([OLDEST.name, OLD.name, NEW.name])
    // the guest made 0.8 then 0.5 times as fast: each figure falls by as much, from the recorded run's (the guest is the host itself)
    expect(rows(table)).toEqual([
      [GUEST, '4 KiB random read · fio.read.iops', '', '103 %', '82.4 %', '51.5 %'],
      [GUEST, '1 MiB sequential write · fio.write.bandwidth', '', '99.8 %', '79.8 %', '49.9 %'],
      [GUEST, 'Latency: 200 x 512 B O_DIRECT writes · dd.lat.mean', '', '99.7 %', '79.7 %', '49.8 %'],
      [GUEST, 'ping ping · ping.rtt.avg', '', '100 %', '80 %', '50 %'],
      [GUEST, 'iperf3 iperf3 · iperf3.received.bandwidth (direction=target->peer)', '', '99.9 %', '79.9 %', '49.9 %'],
      [GUEST, 'mbw mbw · mbw.memcpy.bandwidth', '', '108 %', '86.2 %', '53.9 %'],
      [GUEST, 'mbw mbw · mbw.dumb.bandwidth', '', '93.2 %', '74.5 %', '46.6 %'],
      [GUEST, 'mbw mbw · mbw.mcblock.bandwidth', '', '110 %', '88.3 %', '55.2 %']
    ])
    // each line's chart: one point per run, falling (SVG y grows downwards), and the dashed 100 % line
    const chart = table.querySelector('tbody tr .release-sparkline') as SVGElement
    const ys = [...chart.querySelectorAll('circle')].map((c) => Number(c.getAttribute('cy')))
    expect(ys).toHaveLength(3)
    expect(ys[0]!).toBeLessThan(ys[1]!)
    expect(ys[1]!).toBeLessThan(ys[2]!)
    expect(chart.querySelectorAll('polyline')).toHaveLength(1)
    expect(chart.querySelector('.release-sparkline-base')).not.toBeNull()
    // the interval of each figure on hover
    expect(table.querySelector('tbody tr td.num')!.getAttribute('title')).toMatch(/^95 % interval [\d.]+ % to [\d.]+ %$/)
  })

  it('breaks a line at a run without the figure, and shows nothing for a single run', () => {
    const { container } = render(
      <Sparkline
        points={[
          { runId: 'a', createdAt: '2026-01-01T00:00:00.000Z', value: 100 },
          { runId: 'b', createdAt: '2026-02-01T00:00:00.000Z', value: 90 },
          { runId: 'c', createdAt: '2026-03-01T00:00:00.000Z' },
          { runId: 'd', createdAt: '2026-04-01T00:00:00.000Z', value: 80 }
        ]}
      />
    )
    expect(container.querySelectorAll('circle')).toHaveLength(3)
    expect(container.querySelectorAll('polyline')).toHaveLength(1)
    expect(render(<PresetTrend runs={[NEW]} plan={NEW.plan.name} />).container.innerHTML).toBe('')
  })

  it('follows the release comparison, over the run and its preset’s earlier runs', async () => {
    const runs = [OLDEST, OLD, NEW]
    const api = fakeApi({
      'runs:list': () => ({ runs: runs.map(summarizeRun), problems: [], active: [] }),
      'runs:get': ({ id }) => {
        const run = runs.find((r) => r.id === id)
        if (!run) throw new Error(`no run ${id}`)
        return run
      }
    })
    resetStore(api, { page: 'release', releaseRunIds: { newer: NEW.id, older: undefined } })
    render(<ReleasePage />)
    const section = await screen.findByRole('region', { name: `Trend of ${NEW.plan.name} over its last 3 runs` })
    expect(rows(within(section).getByRole('table'))[0]).toEqual([GUEST, '4 KiB random read · fio.read.iops', '', '103 %', '82.4 %', '51.5 %'])
  })
})
