import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { OverheadTable } from '../../../src/renderer/src/features/results/overhead-table'
import { differenceText } from '../../../src/renderer/src/features/results/cell-text'
import { flagExplanation } from '../../../src/renderer/src/features/results/flags'
import { compare } from '../../../src/shared/compare'
import { formatPct, formatValue } from '../../../src/shared/format'
import type { Comparison, ComparisonRow, VariantCell } from '../../../src/shared/model/comparison'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { rawValues } from '../charts/chart-fixtures'
import { groupedLoopbackRun, loopbackRun } from '../run-fixture'
import { cellsOf, medianOf, metricRow, metricRowCount, pairedDifferenceHull, pairedRatioHull, valuesOf } from './helpers'
import { oneMetricComparison, RANDOM_WRITES } from './one-metric-comparison'

const run = loopbackRun()
const comparison = compare(comparisonInputOf(run))
const BASELINE = 'host'
const VARIANT = 'guest (cache=none)'
const DERIVED_TITLE = 'Computed by VirtBench from what the tool printed; no output shows this figure as such.'

function text(element: Element | undefined | null): string {
  return element?.textContent ?? ''
}

function table(): HTMLElement {
  return screen.getByRole('table')
}

/** The comparison's cell of the (only) variant for a metric of a test, with `labels` as the table writes them. */
function comparedCell(testId: string, metric: string, labels = '', of: Comparison = comparison): { row: ComparisonRow; cell: VariantCell } {
  const row = of.rows.find((r) => r.testId === testId && r.metric === metric && Object.entries(r.labels).map(([k, v]) => `${k}=${v}`).join(', ') === labels)!
  return { row, cell: row.cells[0]! }
}

/** The verdict of a table cell: the words shown, and the reason it carries as its title (and, hidden, for screen readers). */
function verdictOf(cell: HTMLElement): { words: string; reason: string | null } {
  const mark = cell.querySelector('.results-verdict')
  if (!mark) throw new Error(`no verdict in the cell of ${cell.dataset.variant}`)
  const spoken = text(mark.querySelector('.visually-hidden'))
  return { words: text(mark).slice(0, text(mark).length - spoken.length), reason: mark.getAttribute('title') }
}

/** A cell whose verdict is no finding: no arrow, no overhead, no "better" or "worse", the neutral tone. */
function expectNoFinding(cell: HTMLElement): void {
  expect(text(cell)).not.toMatch(/[▲▼]/)
  expect(text(cell)).not.toContain('overhead')
  expect(text(cell)).not.toContain('than the baseline')
  expect(cell.className).toBe('results-cell results-tone-neutral')
}

describe('OverheadTable with the loopback run', () => {
  it('names the baseline and the variant in its columns', () => {
    render(<OverheadTable comparison={comparison} />)
    const head = table().querySelector('thead') as HTMLElement
    const headers = within(head).getAllByRole('columnheader').map((h) => h.textContent)
    expect(headers[0]).toBe('Metric')
    expect(headers[1]).toContain(BASELINE)
    expect(headers[1]).toContain('baseline')
    expect(headers[2]).toContain(VARIANT)
    expect(headers).toHaveLength(3)
  })

  it("shows 4 KiB random read IOPS as the repetitions' medians, with relative %, interval, n and the verdict: can't tell", () => {
    render(<OverheadTable comparison={comparison} />)
    const hostValues = valuesOf(run, BASELINE, 'fio-randread', 'fio.read.iops')
    const guestValues = valuesOf(run, VARIANT, 'fio-randread', 'fio.read.iops')
    expect(hostValues).toEqual([21055.944056, 21153.846154, 22376.623377])
    expect(guestValues).toEqual([21780.21978, 21872.127872, 21754.245754])
    const host = medianOf(hostValues)
    const guest = medianOf(guestValues)
    const relative = (guest / host) * 100

    const row = metricRow(table(), 'fio-randread', 'fio.read.iops')
    const { header, baseline, variants } = cellsOf(row)
    expect(text(header)).toContain('fio.read.iops')
    expect(text(header)).toContain('higher is better')
    expect(text(header)).not.toContain('derived')

    expect(text(baseline)).toContain(formatValue(host, 'op/s'))
    expect(formatValue(host, 'op/s')).toBe('21.2k op/s')
    expect(text(baseline)).toContain('n = 3')

    const cell = variants[0]!
    expect(text(cell)).toContain(formatValue(guest, 'op/s'))
    expect(text(cell)).toContain(formatPct(relative))
    expect(formatPct(relative)).toBe('103 %')
    expect(text(cell)).toContain('n = 3')

    // the repetitions ran interleaved, so they are compared pair by pair: log ratios of 3.38 %, 3.34 % and -2.82 %,
    // Student's t with 2 degrees of freedom; the interval also holds the 103 % shown x/÷ the same factor
    const ci = comparedCell('fio-randread', 'fio.read.iops').cell.ci95!
    const expected = pairedRatioHull(hostValues, guestValues, relative)
    expect(ci[0]).toBeCloseTo(expected[0], 8)
    expect(ci[1]).toBeCloseTo(expected[1], 8)
    // x/÷ 1.0927: the pairs' interval around their geometric mean (101.31 %) reaches lower, the 103 % shown higher
    expect(expected[0]).toBeCloseTo(92.71367053581, 8)
    expect(expected[1]).toBeCloseTo(112.50592085572, 8)
    expect(ci[0]).toBeLessThan(97)
    expect(ci[1]).toBeGreaterThan(103)
    expect(text(cell)).toContain(`CI ${formatPct(ci[0])} – ${formatPct(ci[1])}`)
    expect(`${formatPct(ci[0])} – ${formatPct(ci[1])}`).toBe('93 % – 113 %')
    expect(verdictOf(cell)).toEqual({
      words: "≈ can't tell",
      reason: 'the 95 % interval 92.7 % to 113 % is too wide to tell: it reaches past 100 % ± 3 % and includes 100 %'
    })
    // the reason is read out too, not only shown on hover
    expect(text(cell.querySelector('.results-verdict'))).toContain(": the 95 % interval 92.7 % to 113 % is too wide to tell")
  })

  it("shows no arrow, overhead or colour where the data cannot tell, even at 31 %", () => {
    render(<OverheadTable comparison={comparison} allMetrics />)
    const iops = cellsOf(metricRow(table(), 'fio-randread', 'fio.read.iops')).variants[0]!
    // fio's longest completion: 1.28 ms on the host, 4.08 ms on the guest in the middle repetition, and wildly apart in the others
    const host = valuesOf(run, BASELINE, 'fio-randread', 'fio.read.clat.max')
    const guest = valuesOf(run, VARIANT, 'fio-randread', 'fio.read.clat.max')
    const relative = (medianOf(host) / medianOf(guest)) * 100
    expect(formatPct(relative)).toBe('31 %')
    const { cell: compared } = comparedCell('fio-randread', 'fio.read.clat.max')
    expect(compared.verdict).toBe('inconclusive')
    expect(compared.ci95![0]).toBeLessThan(100)
    expect(compared.ci95![1]).toBeGreaterThan(100)
    const clatMax = cellsOf(metricRow(table(), 'fio-randread', 'fio.read.clat.max')).variants[0]!
    expect(text(clatMax)).toContain('31 %')
    for (const cell of [iops, clatMax]) {
      expect(verdictOf(cell).words).toBe("≈ can't tell")
      expectNoFinding(cell)
    }
  })

  it('does not call 114 % faster when the pairs that give it disagree: no arrow, overhead, colour or flag', () => {
    // mbw's second iteration: a part of the test's total, so it leads nowhere and shows with every metric
    render(<OverheadTable comparison={comparison} allMetrics />)
    const host = rawValues(run, 'mbw', BASELINE, 'mbw.mcblock.bandwidth', { iteration: '1' })
    const guest = rawValues(run, 'mbw', VARIANT, 'mbw.mcblock.bandwidth', { iteration: '1' })
    expect(host).toEqual([97541953683.456, 106861248380.928, 101067566088.192])
    expect(guest).toEqual([114912438255.616, 110376421163.008, 115704938364.928])
    const relative = (medianOf(guest) / medianOf(host)) * 100
    expect(formatPct(relative)).toBe('114 %')
    const { row, cell: compared } = comparedCell('mbw', 'mbw.mcblock.bandwidth', 'iteration=1')
    expect(row.primary).toBe(false)
    // side by side the guest did 117.8 %, 103.3 % and 114.5 % of the host: Student's t (2 degrees of freedom) of the mean
    // of their logs, x/÷ 1.1875, reaches below 100 %
    expect(guest.map((g, i) => formatPct((g / host[i]!) * 100, 1))).toEqual(['117.8 %', '103.3 %', '114.5 %'])
    const expected = pairedRatioHull(host, guest, relative)
    expect(compared.ci95![0]).toBeCloseTo(expected[0], 8)
    expect(compared.ci95![1]).toBeCloseTo(expected[1], 8)
    expect(expected[0]).toBeCloseTo(94.05248928227, 8)
    expect(expected[1]).toBeCloseTo(135.01297877988, 8)
    expect(compared.ci95![0]).toBeLessThan(100)
    expect(compared.verdict).toBe('inconclusive')

    const cell = cellsOf(metricRow(table(), 'mbw', 'mbw.mcblock.bandwidth', 'iteration=1')).variants[0]!
    expect(text(cell)).toContain(formatValue(medianOf(guest), 'B/s'))
    expect(text(cell)).toContain('114 %')
    expect(verdictOf(cell)).toEqual({
      words: "≈ can't tell",
      reason: 'the 95 % interval 94.1 % to 135 % is too wide to tell: it reaches past 100 % ± 3 % and includes 100 %'
    })
    expectNoFinding(cell)
    expect(within(cell).queryByRole('button', { name: 'too fast? (faster than the baseline): explanation' })).toBeNull()
  })

  it('marks a faster verdict with its arrow, its words, the overhead, the colour and the flag (the same figures run grouped)', () => {
    // run grouped, the repetitions are compared side against side by Welch's interval, and mbw's second iteration is faster
    const grouped = compare(comparisonInputOf(groupedLoopbackRun()))
    render(<OverheadTable comparison={grouped} allMetrics />)
    const host = rawValues(run, 'mbw', BASELINE, 'mbw.mcblock.bandwidth', { iteration: '1' })
    const guest = rawValues(run, 'mbw', VARIANT, 'mbw.mcblock.bandwidth', { iteration: '1' })
    const relative = (medianOf(guest) / medianOf(host)) * 100
    const { cell: compared } = comparedCell('mbw', 'mbw.mcblock.bandwidth', 'iteration=1', grouped)
    // Welch's t = 3.114 at 3.12 degrees of freedom on the logarithms: the ratio of the geometric means (111.7 %) x/÷ 1.0991,
    // widened to hold the 113.7 % shown x/÷ the same factor; the whole interval above 100 %
    expect(compared.ci95![0]).toBeCloseTo(101.61108835098, 8)
    expect(compared.ci95![1]).toBeCloseTo(124.96969519508, 8)

    const cell = cellsOf(metricRow(table(), 'mbw', 'mbw.mcblock.bandwidth', 'iteration=1')).variants[0]!
    expect(text(cell)).toContain(formatValue(medianOf(guest), 'B/s'))
    expect(text(cell)).toContain(`▲ ${formatPct(relative)} (better than the baseline)`)
    expect(formatPct(relative)).toBe('114 %')
    expect(text(cell)).toContain(`overhead ${formatPct(100 - relative)}`)
    expect(formatPct(100 - relative)).toBe('-14 %')
    // 105..125 %: the lighter blue step of the diverging scale
    expect(cell.className).toBe('results-cell results-tone-better')
    expect(verdictOf(cell)).toEqual({ words: 'faster', reason: 'the 95 % interval 102 % to 125 % lies above 100 %' })
    expect(within(cell).getByRole('button', { name: 'too fast? (faster than the baseline): explanation' })).toBeTruthy()
  })

  it('finds nothing where one machine was measured against itself: every cell is the same or cannot tell', () => {
    // the loopback run's host and guest are one machine (tests/fixtures/runs/README.md); compared pair by pair, no figure
    // of the 65 is slower or faster; the 6 that both sides measured exactly alike (fio's runtimes, dd's bytes, ping's
    // packets sent, received and lost) are the same
    render(<OverheadTable comparison={comparison} allMetrics />)
    const words = [...table().querySelectorAll('tr[data-metric]')].map((row) => verdictOf(cellsOf(row as HTMLTableRowElement).variants[0]!).words)
    expect(words).toHaveLength(65)
    expect(new Set(words)).toEqual(new Set(['same', "≈ can't tell"]))
    expect(words.filter((w) => w === 'same')).toHaveLength(6)
  })

  it("reads latency as lower is better: relative % is baseline / variant, and dd's time per block is marked derived", () => {
    render(<OverheadTable comparison={comparison} />)
    const hostValues = valuesOf(run, BASELINE, 'dd-latency', 'dd.lat.mean')
    const guestValues = valuesOf(run, VARIANT, 'dd-latency', 'dd.lat.mean')
    // derived: dd printed the elapsed time of 200 blocks, VirtBench divided it
    expect(hostValues).toEqual(valuesOf(run, BASELINE, 'dd-latency', 'dd.elapsed').map((elapsed) => elapsed / 200))
    const host = medianOf(hostValues)
    const guest = medianOf(guestValues)
    const { header, baseline, variants } = cellsOf(metricRow(table(), 'dd-latency', 'dd.lat.mean'))
    expect(text(header)).toContain('lower is better')
    expect(text(header)).toContain('· derived')
    expect(header.querySelector('.results-derived')!.getAttribute('title')).toBe(DERIVED_TITLE)
    expect(text(baseline)).toContain(formatValue(host, 's'))
    expect(text(variants[0])).toContain(formatValue(guest, 's'))
    expect(text(variants[0])).toContain(formatPct((host / guest) * 100))
    expect(formatPct((host / guest) * 100)).toBe('100 %')
  })

  it('marks only the derived figure: the bandwidth and elapsed time dd printed are not', () => {
    render(<OverheadTable comparison={comparison} allMetrics />)
    const derived = [...table().querySelectorAll('tr[data-metric]')].filter((r) => r.querySelector('.results-derived')).map((r) => r.getAttribute('data-metric'))
    expect(derived).toEqual(['dd.lat.mean'])
  })

  it('compares lost packets as a difference: 0 % against 0 % is the same, never "no result"', () => {
    render(<OverheadTable comparison={comparison} allMetrics />)
    expect(valuesOf(run, BASELINE, 'ping', 'ping.loss')).toEqual([0, 0, 0])
    expect(valuesOf(run, VARIANT, 'ping', 'ping.loss')).toEqual([0, 0, 0])
    const { header, baseline, variants } = cellsOf(metricRow(table(), 'ping', 'ping.loss'))
    expect(text(header)).toContain('lower is better · Δ')
    expect(text(baseline)).toContain(formatValue(0, '%'))
    const cell = variants[0]!
    expect(text(cell.querySelector('.results-rel'))).toBe('±0 %')
    expect(verdictOf(cell)).toEqual({ words: 'same', reason: 'both sides measured exactly the same value' })
    expect(text(cell)).not.toContain('—')
    expect(text(cell)).not.toContain('No ratio')
    expect(text(cell)).not.toContain('Not measured')
    expect(text(cell)).not.toContain('overhead')
    // a difference is no relative %, so it gets no tone of the relative scale
    expect(cell.className).toBe('results-cell')
  })

  it('compares retransmits as a difference with its interval, and says when it cannot tell', () => {
    render(<OverheadTable comparison={comparison} allMetrics />)
    const labels = { direction: 'target->peer' }
    const host = rawValues(run, 'iperf3', BASELINE, 'iperf3.retransmits', labels)
    const guest = rawValues(run, 'iperf3', VARIANT, 'iperf3.retransmits', labels)
    expect([host, guest]).toEqual([
      [45, 28, 27],
      [22, 38, 21]
    ])
    const { header, baseline, variants } = cellsOf(metricRow(table(), 'iperf3', 'iperf3.retransmits', 'direction=target->peer'))
    expect(text(header)).toContain('lower is better · Δ')
    expect(text(baseline)).toContain(formatValue(28, 'count'))
    const cell = variants[0]!
    expect(medianOf(guest) - medianOf(host)).toBe(-6)
    expect(text(cell)).toContain('−6')
    const ci = comparedCell('iperf3', 'iperf3.retransmits', 'direction=target->peer').cell.ci95!
    // pair by pair the guest retransmitted 23 fewer, 10 more and 6 fewer: Student's t with 2 degrees of freedom
    // (half-width 41.0), widened to hold the -6 shown (of the medians) ± the same half-width
    const expected = pairedDifferenceHull(host, guest, -6)
    expect(ci[0]).toBeCloseTo(expected[0], 8)
    expect(ci[1]).toBeCloseTo(expected[1], 8)
    // the pairs' mean, -19/3, minus 40.995 below; the -6 shown plus 40.995 above
    expect(expected[0]).toBeCloseTo(-47.32787817228, 8)
    expect(expected[1]).toBeCloseTo(34.99454483895, 8)
    expect(text(cell)).toContain(`CI ${differenceText(ci[0], 'count')} – ${differenceText(ci[1], 'count')}`)
    expect(verdictOf(cell)).toEqual({ words: "≈ can't tell", reason: 'the 95 % interval of the difference, -47.3 to 35.0, includes 0 and is too wide to tell' })
    // a count has no relative % and no overhead
    expect(text(cell.querySelector('.results-rel'))).toBe('−6')
    expect(cell.querySelector('.results-overhead')).toBeNull()
    expect(cell.className).toBe('results-cell')
  })

  it('shows the primary metrics by default and every metric with the toggle', async () => {
    const user = userEvent.setup()
    render(<OverheadTable comparison={comparison} />)
    // each test's primary figure (fio 4 KiB: IOPS; fio 1 MiB: bandwidth; dd 512 B: time per block; ping: mean
    // round trip; iperf3: the bandwidth that arrived) and mbw's three methods overall: its iterations are parts of a total
    const primary = [
      'fio.read.iops',
      'fio.write.bandwidth',
      'dd.lat.mean',
      'ping.rtt.avg',
      'iperf3.received.bandwidth',
      ...['memcpy', 'dumb', 'mcblock'].map((method) => `mbw.${method}.bandwidth`)
    ]
    expect([...table().querySelectorAll('tr[data-metric]')].map((r) => r.getAttribute('data-metric'))).toEqual(primary)
    expect(table().querySelectorAll('tr[data-metric^="mbw."]:not([data-labels])')).toHaveLength(3)
    expect(screen.getByText('8 primary metrics shown of 65')).toBeTruthy()
    expect(within(table()).queryByText('fio.read.clat.p99.9')).toBeNull()

    const toggle = screen.getByRole('checkbox', { name: 'All metrics' })
    await user.click(toggle)
    expect(metricRowCount(table())).toBe(comparison.rows.length)
    expect(comparison.rows.length).toBe(65)
    expect(screen.getByText('All 65 metrics shown')).toBeTruthy()
    expect(within(table()).getByText('fio.read.clat.p99.9')).toBeTruthy()

    await user.click(toggle)
    expect(metricRowCount(table())).toBe(primary.length)
  })

  it('starts with every metric when asked to', () => {
    render(<OverheadTable comparison={comparison} allMetrics />)
    expect(metricRowCount(table())).toBe(comparison.rows.length)
    expect((screen.getByRole('checkbox', { name: 'All metrics' }) as HTMLInputElement).checked).toBe(true)
  })

  it('says how many metrics of a test the primary view leaves out', () => {
    render(<OverheadTable comparison={comparison} />)
    // fio's 19 figures of the random read, IOPS shown
    const hidden = comparison.rows.filter((r) => r.testId === 'fio-randread').length - 1
    expect(hidden).toBe(18)
    const group = table().querySelector('tbody[data-test="fio-randread"]') as HTMLElement
    expect(text(within(group).getByRole('columnheader', { name: /4 KiB random read/ }))).toContain('18 more metrics with “All metrics”')
  })

  it("opens a flag's explanation from the keyboard, and closes it again", async () => {
    const user = userEvent.setup()
    render(<OverheadTable comparison={comparison} />)
    const noisy = comparedCell('ping', 'ping.rtt.avg').cell.flags.find((f) => f.kind === 'noisy')!
    expect(noisy).toBeDefined()
    expect(noisy.explanation).toBeDefined()

    const cell = cellsOf(metricRow(table(), 'ping', 'ping.rtt.avg')).variants[0]!
    const button = within(cell).getByRole('button', { name: /noisy/ })
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByText(noisy.explanation!)).toBeNull()

    // Tab through the controls until the flag has the focus, then press Enter.
    for (let i = 0; i < 200 && document.activeElement !== button; i++) await user.tab()
    expect(document.activeElement).toBe(button)
    await user.keyboard('{Enter}')
    expect(button.getAttribute('aria-expanded')).toBe('true')
    const explanation = document.getElementById(button.getAttribute('aria-controls')!)!
    // the explanation the comparison wrote, then what was seen (the message without it), each once
    expect(text(explanation)).toContain(flagExplanation(noisy))
    const seen = noisy.message.slice(0, -noisy.explanation!.length).trim()
    expect(seen).toMatch(/^The repetitions of ping.rtt.avg of ping ping vary a lot: the coefficient of variation is .* above 10 %\.$/)
    expect(text(explanation)).toContain(`What was seen: ${seen}`)
    expect(text(explanation).split(noisy.explanation!)).toHaveLength(2)

    await user.keyboard(' ')
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByText(noisy.explanation!)).toBeNull()
  })

  it('closes an explanation with Escape or its button, and gives the focus back to the flag', async () => {
    const user = userEvent.setup()
    render(<OverheadTable comparison={comparison} />)
    const cell = cellsOf(metricRow(table(), 'ping', 'ping.rtt.avg')).variants[0]!
    const button = within(cell).getByRole('button', { name: /noisy/ })

    await user.click(button)
    const close = screen.getByRole('button', { name: 'Close explanation' })
    await user.click(close)
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(button)

    await user.keyboard('{Enter}')
    expect(button.getAttribute('aria-expanded')).toBe('true')
    // Escape closes it from anywhere inside the explanation.
    screen.getByRole('button', { name: 'Close explanation' }).focus()
    await user.keyboard('{Escape}')
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('button', { name: 'Close explanation' })).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  it('renders pending tests as placeholder rows of the same height', () => {
    render(
      <OverheadTable
        comparison={comparison}
        pendingTests={[
          { id: 'bonnie', title: 'bonnie++ 2 GiB' },
          { id: 'fio-randread', title: '4 KiB random read' }
        ]}
      />
    )
    const placeholders = table().querySelectorAll('tr[data-pending]')
    expect(placeholders).toHaveLength(1)
    const placeholder = placeholders[0] as HTMLElement
    expect(placeholder.dataset.pending).toBe('bonnie')
    expect(text(placeholder)).toContain('bonnie++ 2 GiB: waiting for results')
    // Same row class as the measured rows: the CSS gives them one fixed height.
    const measured = metricRow(table(), 'fio-randread', 'fio.read.iops')
    expect(placeholder.className.split(' ')).toContain('results-row')
    expect(measured.className.split(' ')).toContain('results-row')
    // A test with rows already keeps them, and says more are coming.
    const group = table().querySelector('tbody[data-test="fio-randread"]') as HTMLElement
    expect(text(group)).toContain('more results to come')
    expect(text(placeholder)).not.toContain('%')
  })

  it('shows only placeholders before any result', () => {
    const empty: Comparison = { ...comparison, rows: [], variantFlags: {} }
    render(<OverheadTable comparison={empty} pendingTests={[{ id: 'fio-randread', title: '4 KiB random read' }]} />)
    expect(metricRowCount(table())).toBe(0)
    expect(text(table())).toContain('4 KiB random read: waiting for results')
  })
})

/** RANDOM_WRITES compared by compare(), as a run with these figures would be. */
const writes = oneMetricComparison(RANDOM_WRITES)

function writeCell(variant: string): HTMLElement {
  const cell = cellsOf(metricRow(table(), 'fio-4k-randwrite', 'fio.write.iops')).variants[writes.variants.indexOf(variant)]
  if (!cell || cell.dataset.variant !== variant) throw new Error(`no cell for ${variant}`)
  return cell
}

describe('OverheadTable with figures compared by compare()', () => {
  it('explains a faster-than-physical write as the host page cache (cache=writeback)', async () => {
    const user = userEvent.setup()
    render(<OverheadTable comparison={writes} />)
    const cell = writeCell('guest-wb')
    // medians 10289 and 7349
    expect(formatPct((10289 / 7349) * 100)).toBe('140 %')
    expect(text(cell)).toContain(formatValue(10289, 'op/s'))
    expect(text(cell)).toContain('▲ 140 % (better than the baseline)')
    expect(text(cell)).toContain('overhead -40 %')
    expect(cell.className).toBe('results-cell results-tone-much-better')
    expect(verdictOf(cell).words).toBe('faster')
    expect(verdictOf(cell).reason).toMatch(/^the 95 % interval 13\d % to 14\d % lies above 100 %$/)

    const flag = within(cell).getByRole('button', { name: 'too fast? (faster than the baseline): explanation' })
    await user.click(flag)
    const region = document.getElementById(flag.getAttribute('aria-controls')!)!
    expect(text(region)).toContain("The guest disk is cache=writeback, so the host's page cache most likely answered instead of the disk.")
    expect(text(region)).toContain("set the guest disk's cache mode to none (cache=none), run the test with direct=1")
    expect(text(region)).toContain('What was seen: guest-wb reached 140 % of host on fio.write.iops of 4 KiB random write: faster than the baseline beyond noise.')
  })

  it('marks a slower verdict with a down arrow, the overhead and the worse colour', () => {
    render(<OverheadTable comparison={writes} />)
    const cell = writeCell('guest-slow')
    expect(formatPct((5071 / 7349) * 100)).toBe('69 %')
    expect(text(cell)).toContain('▼ 69 % (worse than the baseline)')
    expect(text(cell)).toContain('overhead 31 %')
    expect(cell.className).toBe('results-cell results-tone-much-worse')
    expect(verdictOf(cell).words).toBe('slower')
    expect(verdictOf(cell).reason).toMatch(/^the 95 % interval 6\d\.\d % to 7\d\.\d % lies below 100 %$/)
    expect(within(cell).queryAllByRole('button')).toHaveLength(0)
  })

  it('says "same" for a twin of the baseline, with no arrow, overhead or colour', () => {
    render(<OverheadTable comparison={writes} />)
    const cell = writeCell('guest-twin')
    expect(text(cell)).toContain(formatPct((7352 / 7349) * 100))
    expect(verdictOf(cell).words).toBe('same')
    expect(verdictOf(cell).reason).toMatch(/^the 95 % interval .* lies within 100 % ± 3 %$/)
    expectNoFinding(cell)
  })

  it("never reads one repetition as an overhead: 60 % with no interval is \"can't tell\", grey, without arrow", () => {
    render(<OverheadTable comparison={writes} />)
    const cell = writeCell('guest-once')
    expect(formatPct((4409 / 7349) * 100)).toBe('60 %')
    expect(text(cell)).toContain('60 %')
    expect(text(cell)).toContain('n = 1')
    expect(text(cell)).toContain('CI —')
    expect(text(cell)).toContain('needs at least two repetitions')
    expect(verdictOf(cell)).toEqual({
      words: "≈ can't tell",
      reason: 'no interval with 3 and 1 values: one value a side cannot tell a difference from noise'
    })
    expectNoFinding(cell)
  })

  it('shows a variant without results as a dash with the reason, never as 0, and gives it no verdict', () => {
    render(<OverheadTable comparison={writes} />)
    const cell = writeCell('guest-lost')
    expect(text(cell)).toContain('—')
    expect(text(cell)).toContain('Not measured: no successful repetition of 4 KiB random write on guest-lost gave this metric.')
    expect(text(cell)).not.toContain('op/s')
    expect(text(cell)).not.toContain('%')
    expect(cell.querySelector('.results-verdict')).toBeNull()
    expect(within(cell).getByRole('button', { name: /missing/ }).getAttribute('aria-expanded')).toBe('false')
  })
})
