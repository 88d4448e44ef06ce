import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { compare } from '../../../src/shared/compare'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import type { RunDocument } from '../../../src/shared/model/run'
import {
  ChartPrintContext,
  ChartsSection,
  ComparisonCharts,
  GroupedBarsChart,
  IozoneHeatmap,
  LatencyChart,
  MonitorSeriesChart,
  NetworkMatrixHeatmap,
  RelativeChart
} from '../../../src/renderer/src/features/charts'
import { groupedLoopbackRun, loopbackRun } from '../run-fixture'
import { iozoneRun, monitoredRun, queuedRun } from './chart-fixtures'
import { MONITOR_HEIGHT } from '../../../src/renderer/src/features/charts/monitor-series-chart'

const run = loopbackRun()
const comparison = compare(comparisonInputOf(run))
const GUEST = 'guest (cache=none)'

/** The body rows of a table, each as its header and cell texts. */
function tableRows(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? ''))
}

function card(title: string): HTMLElement {
  return screen.getByRole('region', { name: title })
}

describe('GroupedBarsChart', () => {
  it('draws the first primary metric for the baseline and the variant, with a table of the figures', () => {
    const { container } = render(<GroupedBarsChart comparison={comparison} />)
    const section = card('Baseline and variants side by side')
    expect(within(section).getByRole('combobox', { name: 'Metric' })).toHaveProperty('value', 'fio-randread|fio.read.iops|op/s|higher')
    const figure = within(section).getByRole('figure', { name: '4 KiB random read · Read IOPS: baseline and variants' })
    const table = within(figure).getByRole('table', { name: /Read IOPS, the median of its repetitions/ })
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Labels', 'host', GUEST])
    expect(tableRows(table)).toEqual([['Read IOPS', '21.2k op/s', '21.8k op/s']])
    expect(within(table).getByText('21.2k op/s').getAttribute('title')).toBe('3 repetitions: 21.1k op/s, 21.2k op/s, 22.4k op/s')
    expect(container.querySelectorAll('.recharts-bar')).toHaveLength(2)
    expect(container.querySelectorAll('.recharts-bar-rectangle')).toHaveLength(2)
    expect(within(figure).getByText('host: 21.2k op/s, guest (cache=none): 21.8k op/s.')).toBeTruthy()
  })

  it('switches metric from the keyboard and draws one group per label set', async () => {
    const user = userEvent.setup()
    const { container } = render(<GroupedBarsChart comparison={comparison} />)
    const select = screen.getByRole('combobox', { name: 'Metric' })
    // the card's SVG and PNG buttons come first, then its controls
    await user.tab()
    await user.tab()
    await user.tab()
    expect(document.activeElement).toBe(select)
    await user.selectOptions(select, 'mbw|mbw.memcpy.bandwidth|B/s|higher')
    const table = screen.getByRole('table', { name: /Memcpy bandwidth/ })
    expect(tableRows(table).map((r) => r[0])).toEqual(['iteration=0', 'iteration=1', 'overall'])
    expect(tableRows(table)[2]).toEqual(['overall', '20.9 GiB/s', '22.5 GiB/s'])
    expect(container.querySelectorAll('.recharts-bar-rectangle')).toHaveLength(6)
  })

  it('shows the numbers table on request', async () => {
    const user = userEvent.setup()
    render(<GroupedBarsChart comparison={comparison} />)
    const box = screen.getByRole('table').parentElement!
    expect(box.className).toContain('visually-hidden')
    const show = screen.getByRole('button', { name: 'Show the numbers' })
    expect(show.getAttribute('aria-controls')).toBe(box.id)
    await user.click(show)
    expect(box.className).not.toContain('visually-hidden')
    expect(screen.getByRole('button', { name: 'Hide the numbers' }).getAttribute('aria-expanded')).toBe('true')
  })

  it('says "not measured" where a side has no value, never 0', () => {
    const partial: RunDocument = { ...run, jobs: run.jobs.filter((j) => !(j.testId === 'fio-randread' && j.side === GUEST)) }
    render(<GroupedBarsChart comparison={compare(comparisonInputOf(partial))} />)
    const table = screen.getByRole('table')
    expect(tableRows(table)).toEqual([['Read IOPS', '21.2k op/s', '—']])
    expect(within(table).getByText('—').getAttribute('title')).toBe(`not measured: no successful repetition on ${GUEST}`)
    expect(screen.getByText(`host: 21.2k op/s, ${GUEST}: not measured.`)).toBeTruthy()
  })
})

describe('RelativeChart', () => {
  it('draws every primary metric of the variant with its interval, its verdict and the 100 % line', () => {
    const { container } = render(<RelativeChart comparison={comparison} />)
    const section = card('Relative to the baseline')
    const figure = within(section).getByRole('figure', { name: `${GUEST} relative to host, relative %` })
    const table = within(figure).getByRole('table')
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Figure', 'Relative %', '95 % interval', 'Verdict', 'Flags'])
    // the primary rows: fio 4 KiB IOPS, fio 1 MiB bandwidth, dd's time per block, ping, iperf3, mbw's 3 methods overall (its
    // iterations are parts of that total). The repetitions ran interleaved, so each interval comes from the pairs: Student's t
    // (2 degrees of freedom) of the mean of the three log ratios, holding the figure shown times and divided by the same factor
    expect(tableRows(table)).toEqual([
      ['4 KiB random read · Read IOPS', '103.0 %', '92.7 % to 112.5 %', "can't tell", 'none'],
      ['1 MiB sequential write · Write bandwidth', '99.8 %', '78.1 % to 127.9 %', "can't tell", 'none'],
      ['Latency: 200 x 512 B O_DIRECT writes · Mean latency', '99.7 %', '88.1 % to 110.0 %', "can't tell", 'none'],
      // 100 %, 93.8 % and 100 % pair by pair: far narrower than the 50.4 % to 198.4 % of the two sides' spreads (Welch)
      ['ping ping · Average round trip', '100.0 %', '89.2 % to 109.7 %', "can't tell", 'noisy'],
      ['iperf3 iperf3 · Received bandwidth (direction=target->peer)', '99.9 %', '77.0 % to 132.2 %', "can't tell", 'none'],
      ['mbw mbw · Memcpy bandwidth', '107.7 %', '84.3 % to 128.8 %', "can't tell", 'noisy'],
      ['mbw mbw · Plain loop copy bandwidth', '93.2 %', '46.2 % to 179.8 %', "can't tell", 'noisy'],
      ['mbw mbw · Block memcpy bandwidth', '110.3 %', '92.1 % to 136.6 %', "can't tell", 'none']
    ])
    expect(container.querySelectorAll('.charts-relative-bar')).toHaveLength(8)
    expect(container.querySelectorAll('.charts-reference-line')).toHaveLength(1)
    expect(container.querySelectorAll('.charts-whisker').length).toBeGreaterThanOrEqual(8)
    expect(within(figure).getByText(`${GUEST} relative to host: 8 inconclusive of 8.`)).toBeTruthy()
    // the bar labels carry the verdict in text, and no arrow where the data cannot tell
    expect(container.textContent).toContain("103 % ≈ can't tell")
    expect(container.textContent).toContain("110 % ≈ can't tell")
    expect(container.textContent).not.toMatch(/[▲▼]/)
  })

  it.each([
    // the recorded run, pair by pair: mbw's second iteration read 117.8 %, 103.3 % and 114.5 % of the host's, too far
    // apart to tell; no sign in any label
    {
      schedule: 'interleaved',
      of: comparison,
      rows: [
        [`${GUEST} (iteration=0)`, '111.4 %', '92.3 % to 140.0 %', "can't tell", 'noisy'],
        [`${GUEST} (iteration=1)`, '113.7 %', '94.1 % to 135.0 %', "can't tell", 'none'],
        [GUEST, '110.3 %', '92.1 % to 136.6 %', "can't tell", 'none']
      ],
      label: "114 % ≈ can't tell"
    },
    // the same figures run grouped, side against side (Welch): the second iteration is faster, its sign in the label
    {
      schedule: 'grouped',
      of: compare(comparisonInputOf(groupedLoopbackRun())),
      rows: [
        [`${GUEST} (iteration=0)`, '111.4 %', '89.4 % to 144.5 %', "can't tell", 'noisy'],
        [`${GUEST} (iteration=1)`, '113.7 %', '101.6 % to 125.0 %', 'faster', 'faster than baseline'],
        [GUEST, '110.3 %', '93.6 % to 134.4 %', "can't tell", 'none']
      ],
      label: '114 % ▲ faster'
    }
  ])("shows mbw's mcblock in every label set with each verdict ($schedule)", async ({ of, rows, label }) => {
    const user = userEvent.setup()
    const { container } = render(<RelativeChart comparison={of} />)
    await user.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'metric:mbw|mbw.mcblock.bandwidth|B/s|higher')
    expect(tableRows(screen.getByRole('table'))).toEqual(rows)
    expect(container.textContent).toContain(label)
    expect(container.textContent).not.toContain('110 % ▲')
  })

  it('lists a primary figure without a relative % below the others, and counts it apart', () => {
    const partial: RunDocument = { ...run, jobs: run.jobs.filter((j) => !(j.testId === 'fio-randread' && j.side === GUEST)) }
    const { container } = render(<RelativeChart comparison={compare(comparisonInputOf(partial))} />)
    const rows = tableRows(screen.getByRole('table'))
    expect(rows).toHaveLength(8)
    expect(rows[7]).toEqual(['4 KiB random read · Read IOPS', '—', '—', 'not compared', ''])
    expect(container.querySelectorAll('.charts-relative-bar')).toHaveLength(7)
    expect(screen.getByText(`${GUEST} relative to host: 7 inconclusive of 7. 1 without a relative figure.`)).toBeTruthy()
  })

  it('shows one metric for every variant', async () => {
    const user = userEvent.setup()
    const { container } = render(<RelativeChart comparison={comparison} />)
    await user.selectOptions(screen.getByRole('combobox', { name: 'Show' }), 'metric:iperf3|iperf3.received.bandwidth|bit/s|higher')
    expect(tableRows(screen.getByRole('table'))).toEqual([[GUEST, '99.9 %', '77.0 % to 132.2 %', "can't tell", 'none']])
    expect(container.querySelectorAll('.charts-relative-bar')).toHaveLength(1)
  })

  it('draws a figure without an interval when a side has one repetition', () => {
    const once: RunDocument = { ...run, jobs: run.jobs.filter((j) => j.repetition === 1) }
    const { container } = render(<RelativeChart comparison={compare(comparisonInputOf(once))} />)
    const rows = tableRows(screen.getByRole('table'))
    // 103.4 % from one value a side: no interval, so no verdict but "can't tell"
    expect(rows[0]).toEqual(['4 KiB random read · Read IOPS', `${((21780.21978 / 21055.944056) * 100).toFixed(1)} %`, '—', "can't tell", 'none'])
    // both sides' one mean round trip read 19 µs: the same value, so the same
    expect(rows.find((r) => r[0] === 'ping ping · Average round trip')).toEqual(['ping ping · Average round trip', '100.0 %', '—', 'same', 'none'])
    expect(screen.getByText(`${GUEST} relative to host: 1 same, 7 inconclusive of 8.`)).toBeTruthy()
    expect(container.querySelectorAll('.charts-relative-bar')).toHaveLength(8)
    expect(container.querySelectorAll('.charts-whisker')).toHaveLength(0)
  })
})

describe('LatencyChart', () => {
  it('draws one marker per target and latency, lower is better', () => {
    const { container } = render(<LatencyChart comparison={comparison} />)
    const section = card('Latency')
    expect(within(section).getByText(/Lower is better/)).toBeTruthy()
    const table = within(section).getByRole('table', { name: 'Latency per target (lower is better)' })
    const rows = tableRows(table)
    expect(rows).toHaveLength(8)
    expect(rows[7]).toEqual(['ping ping · Average round trip', '19.0 µs', '19.0 µs'])
    expect(rows[0]).toEqual(['4 KiB random read · Read completion latency p50', '45.8 µs', '44.8 µs'])
    // drawn as plain SVG (latency-plot.tsx): a group of markers per target, one per latency, each named on hover
    expect(container.querySelectorAll('.charts-latency-series')).toHaveLength(2)
    expect(container.querySelectorAll('.charts-latency-marker')).toHaveLength(16)
    // the whisker's ends are the lowest and the highest of the repetitions the table lists
    expect(within(table).getByText('45.8 µs').getAttribute('title')).toBe('3 repetitions: 45.8 µs, 46.3 µs, 42.8 µs')
    expect(container.querySelector('.charts-latency-series title')?.textContent).toBe('host, 4 KiB random read · Read completion latency p50: 45.8 µs (repetitions 42.8 µs to 46.3 µs)')
    expect(within(section).getByRole('list', { name: 'Targets' }).textContent).toBe(`host${GUEST}`)
  })
})

describe('NetworkMatrixHeatmap', () => {
  it('writes each pair’s median bandwidth and round trip in a source x destination table', async () => {
    const user = userEvent.setup()
    render(<NetworkMatrixHeatmap run={run} />)
    const section = card('Network matrix')
    // bandwidth leads (iperf3's received bandwidth), then the other figures with the network-table role: ping's mean round trip
    const figure = within(section).getByRole('combobox', { name: 'Figure' }) as HTMLSelectElement
    expect([...figure.options].map((o) => o.value)).toEqual(['iperf3|iperf3.received.bandwidth|target->peer', 'ping|ping.rtt.avg|'])
    const table = within(section).getByRole('table', { name: /Received bandwidth \(target->peer\): source \(rows\) to destination \(columns\)/ })
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['from ↓ to →', 'host', GUEST])
    expect(tableRows(table)).toEqual([
      ['host', '— (the same machine: not measured)', '29.1 Gbit/s'],
      [GUEST, '30.2 Gbit/s', '— (the same machine: not measured)']
    ])
    expect(within(table).getByText('29.1 Gbit/s').getAttribute('title')).toBe('3 repetitions: 29.1 Gbit/s, 27.8 Gbit/s, 30.5 Gbit/s')
    await user.selectOptions(figure, 'ping|ping.rtt.avg|')
    expect(tableRows(within(section).getByRole('table', { name: /Average round trip: source \(rows\) to destination \(columns\)/ }))).toEqual([
      ['host', '— (the same machine: not measured)', '17.0 µs'],
      [GUEST, '29.0 µs', '— (the same machine: not measured)']
    ])
    expect(within(section).getByRole('region', { name: /source by destination/ }).tabIndex).toBe(0)
  })
})

describe('MonitorSeriesChart', () => {
  it('draws the summary bars and says the per-second series was not recorded', () => {
    const { container } = render(<MonitorSeriesChart run={run} />)
    const section = card('Host monitor: guest-visible and host-visible I/O')
    expect(within(section).getByRole('combobox', { name: 'Job' })).toHaveProperty('value', 'j0002')
    expect(within(section).getByRole('combobox', { name: 'Measure' })).toHaveProperty('value', 'readBytesPerSecond')
    expect(within(section).getByText(/per-second series was not recorded/)).toBeTruthy()
    expect(tableRows(within(section).getByRole('table'))).toEqual([[`${GUEST} · vda, as the guest sees it`, '55.5 MiB/s', '1.54 s']])
    expect(container.querySelectorAll('.recharts-bar-rectangle')).toHaveLength(1)
  })

  it('draws guest-visible and host-visible lines when the series was recorded', async () => {
    const user = userEvent.setup()
    const { container } = render(<MonitorSeriesChart run={monitoredRun()} />)
    expect(screen.queryByText(/per-second series was not recorded/)).toBeNull()
    expect(container.querySelectorAll('.recharts-line')).toHaveLength(2)
    await user.selectOptions(screen.getByRole('combobox', { name: 'Measure' }), 'readIops')
    const table = screen.getByRole('table', { name: /second by second/ })
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Second', `${GUEST} · vda, as the guest sees it`, 'host · sda, as its physical host sees it'])
    expect(tableRows(table)).toEqual([
      ['0 s', '14.0k op/s', '1.00k op/s'],
      ['1 s', '14.4k op/s', '800 op/s'],
      ['2 s', '—', '850 op/s']
    ])
  })
})

describe('MonitorSeriesChart time axis', () => {
  /** The tick labels of the chart's time axis, left to right, once recharts has drawn them (after its first render). */
  const timeTicks = async (container: HTMLElement): Promise<string[]> => {
    const labels = (): Element[] => [...container.querySelectorAll('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value')]
    await waitFor(() => expect(labels().length).toBeGreaterThan(0), { timeout: 20_000 })
    return labels().map((t) => t.textContent ?? '')
  }

  /** The monitored run with its series sampled at `times` (seconds since the first sample, as diskstats rounds them). */
  const sampledAt = (times: readonly number[]): RunDocument => {
    const r = monitoredRun()
    const job = r.jobs.find((j) => j.id === 'j0002')!
    const point = job.monitor![0]!.series![0]!
    job.monitor = job.monitor!.map((m) => ({ ...m, series: times.map((at) => ({ ...point, at })) }))
    return r
  }

  it('puts the ticks on round seconds from 0, not on the samples\' odd times (no "1.0075 s")', async () => {
    const times = Array.from({ length: 31 }, (_, i) => Math.round(i * 1.0075 * 1000) / 1000)
    const { container } = render(<MonitorSeriesChart run={sampledAt(times)} />)
    expect(times.at(-1)).toBe(30.225)
    expect(await timeTicks(container)).toEqual(['0', '10 s', '20 s', '30 s'])
  })

  it('draws a job of one monitored second as bars of its averages, not a lone point on an axis of milliseconds', () => {
    const { container } = render(<MonitorSeriesChart run={sampledAt([0])} />)
    const section = card('Host monitor: guest-visible and host-visible I/O')
    expect(within(section).getByText(/^The job was monitored for a single interval, too short for a line: each bar is the\s+average over the job's monitored time\.$/)).toBeTruthy()
    expect(container.querySelectorAll('.recharts-line')).toHaveLength(0)
    expect(container.querySelectorAll('.recharts-bar-rectangle')).toHaveLength(2)
    expect(tableRows(within(section).getByRole('table', { name: /average over the job/ }))).toEqual([
      [`${GUEST} · vda, as the guest sees it`, '55.5 MiB/s', '1.54 s'],
      ['host · sda, as its physical host sees it', '3.52 MiB/s', '2.00 s']
    ])
  })

  it('marks the sample of a source that has a single second among longer ones (a line of one point draws nothing)', async () => {
    const r = monitoredRun()
    const job = r.jobs.find((j) => j.id === 'j0002')!
    job.monitor = job.monitor!.map((m, i) => (i === 0 ? { ...m, series: m.series!.slice(0, 1) } : m))
    const { container } = render(<MonitorSeriesChart run={r} />)
    expect(container.querySelectorAll('.recharts-line')).toHaveLength(2)
    await waitFor(() => expect(container.querySelectorAll('.recharts-line-dots .recharts-dot')).toHaveLength(1), { timeout: 20_000 })
  })

  it("keeps the legend's line clear of the time axis in print, where the page is not laid out on screen to measure it", async () => {
    const { container } = render(
      <ChartPrintContext.Provider value={{ width: 640 }}>
        <MonitorSeriesChart run={sampledAt([0, 1, 2, 3])} />
      </ChartPrintContext.Provider>
    )
    await timeTicks(container)
    const legend = container.querySelector<HTMLElement>('.recharts-legend-wrapper')!
    expect(legend.style.bottom).toBe('4px')
    // the seconds' labels (13 px text on their baseline) end above the legend's 24 px line
    const labels = [...container.querySelectorAll('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value')]
    const lowest = Math.max(...labels.map((t) => Number(t.closest('text')!.getAttribute('y'))))
    expect(lowest).toBeGreaterThan(MONITOR_HEIGHT / 2)
    expect(lowest + 13).toBeLessThanOrEqual(MONITOR_HEIGHT - 24)
  })

  it('steps by half seconds over a short job, and by 20 s over a long one', async () => {
    const short = render(<MonitorSeriesChart run={sampledAt([0, 1.004, 2.009])} />)
    expect(await timeTicks(short.container)).toEqual(['0', '0.5 s', '1 s', '1.5 s', '2 s'])
    short.unmount()
    const long = render(<MonitorSeriesChart run={sampledAt(Array.from({ length: 95 }, (_, i) => i + 0.003 * i))} />)
    expect(await timeTicks(long.container)).toEqual(['0', '20 s', '40 s', '60 s', '80 s'])
  })
})

describe('IozoneHeatmap', () => {
  it('shows file size x record size for a sub-test and a target', async () => {
    const user = userEvent.setup()
    const r = iozoneRun()
    render(<IozoneHeatmap run={r} />)
    const section = card('iozone: file size × record size')
    const table = within(section).getByRole('table', { name: /iozone write on host/ })
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual([
      'file ↓ record →',
      '4 KiB',
      '8 KiB',
      '16 KiB',
      '32 KiB',
      '64 KiB',
      '128 KiB',
      '256 KiB',
      '512 KiB',
      '1 MiB'
    ])
    const rows = tableRows(table)
    expect(rows.map((row) => row[0])).toEqual(['64 KiB', '128 KiB', '256 KiB', '512 KiB', '1 MiB'])
    expect(rows.flat().filter((t) => t.endsWith('/s'))).toHaveLength(35)
    expect(rows[0]![6]).toBe('— (not measured: the record is larger than the file)')
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Target' }), GUEST)
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Sub-test' }), 'random_read')
    const guest = within(section).getByRole('table', { name: /iozone random_read on guest/ })
    expect(tableRows(guest)).toHaveLength(10)
    expect(tableRows(guest)[9]![1]).toBe('— (not measured: iozone skipped this record size for this file (files over 16 MiB without -z))')
  })
})

describe('ChartsSection', () => {
  it('lays out every chart the run has data for, each titled with how to read it', () => {
    render(<ChartsSection run={run} comparison={comparison} />)
    const section = screen.getByRole('region', { name: 'Charts' })
    expect(within(section).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Baseline and variants side by side',
      'Relative to the baseline',
      'Latency',
      'Network matrix',
      'Host monitor: guest-visible and host-visible I/O'
    ])
    expect(section.querySelectorAll('.charts-how')).toHaveLength(5)
  })

  it("leaves iozone's grid to the study section's maps, and draws it when the comparison has none of its rows", () => {
    const r = iozoneRun()
    const { unmount } = render(<ChartsSection run={r} comparison={compare(comparisonInputOf(r))} />)
    expect(within(screen.getByRole('region', { name: 'Charts' })).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).not.toContain('iozone: file size × record size')
    unmount()
    render(<ChartsSection run={r} comparison={comparison} />)
    expect(screen.getByRole('heading', { name: 'iozone: file size × record size' })).toBeTruthy()
  })

  it('draws no empty chart before anything was measured', () => {
    const r = queuedRun()
    const { container } = render(<ChartsSection run={r} comparison={compare(comparisonInputOf(r))} />)
    expect(container.innerHTML).toBe('')
  })
})

describe('ComparisonCharts', () => {
  it('shows the grouped bars and the relative % of a comparison', () => {
    render(<ComparisonCharts comparison={comparison} />)
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Baseline and variants side by side', 'Relative to the baseline'])
  })
})
