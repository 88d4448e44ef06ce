import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { OverheadTable } from '../../../src/renderer/src/features/results/overhead-table'
import { flagExplanation } from '../../../src/renderer/src/features/results/flags'
import { compare } from '../../../src/shared/compare'
import { formatPct, formatValue } from '../../../src/shared/format'
import { isHeadlineMetric } from '../../../src/shared/headline-metrics'
import type { Comparison, ComparisonRow } from '../../../src/shared/model/comparison'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { loopbackRun } from '../run-fixture'
import { cellsOf, medianOf, metricRow, metricRowCount, valuesOf } from './helpers'

const run = loopbackRun()
const comparison = compare(comparisonInputOf(run))
const BASELINE = 'host'
const VARIANT = 'guest (cache=none)'

function text(element: Element | undefined | null): string {
  return element?.textContent ?? ''
}

function table(): HTMLElement {
  return screen.getByRole('table')
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

  it("shows 4 KiB random read IOPS as the repetitions' medians, with relative %, overhead, interval and n", () => {
    render(<OverheadTable comparison={comparison} />)
    const hostValues = valuesOf(run, BASELINE, 'fio-randread', 'fio.read.iops')
    const guestValues = valuesOf(run, VARIANT, 'fio-randread', 'fio.read.iops')
    expect(hostValues).toHaveLength(3)
    expect(guestValues).toHaveLength(3)
    const host = medianOf(hostValues)
    const guest = medianOf(guestValues)
    const relative = (guest / host) * 100

    const row = metricRow(table(), 'fio-randread', 'fio.read.iops')
    const { header, baseline, variants } = cellsOf(row)
    expect(text(header)).toContain('fio.read.iops')
    expect(text(header)).toContain('higher is better')

    expect(text(baseline)).toContain(formatValue(host, 'op/s'))
    expect(formatValue(host, 'op/s')).toBe('21.2k op/s')
    expect(text(baseline)).toContain('n = 3')

    const cell = variants[0]!
    expect(text(cell)).toContain(formatValue(guest, 'op/s'))
    expect(text(cell)).toContain(formatPct(relative))
    expect(formatPct(relative)).toBe('103 %')
    expect(text(cell)).toContain(`overhead ${formatPct(100 - relative)}`)
    expect(text(cell)).toContain('n = 3')

    // The interval is a bootstrap: take it from the comparison the table was given.
    const ci = comparison.rows.find((r) => r.testId === 'fio-randread' && r.metric === 'fio.read.iops')!.cells[0]!.ci95!
    expect(text(cell)).toContain(`CI ${formatPct(ci[0])} – ${formatPct(ci[1])}`)
    expect(ci[0]).toBeLessThan(100)
    expect(ci[1]).toBeGreaterThan(100)
    expect(within(cell).getByText('≈ within noise')).toBeTruthy()
  })

  it('says a better figure with an arrow and words, not by colour alone', () => {
    render(<OverheadTable comparison={comparison} />)
    const cell = cellsOf(metricRow(table(), 'fio-randread', 'fio.read.iops')).variants[0]!
    expect(text(cell)).toContain('▲')
    expect(text(cell)).toContain('better than the baseline')
    // Within noise: the neutral tone of the charts' diverging scale.
    expect(cell.className).toContain('results-tone-neutral')
  })

  it('colours a difference outside the noise on the diverging scale, with its sign', () => {
    render(<OverheadTable comparison={comparison} />)
    const row = comparison.rows.find((r) => r.testId === 'mbw' && r.metric === 'mbw.mcblock.bandwidth' && Object.keys(r.labels).length === 0)!
    const relative = row.cells[0]!.relativePct!
    expect(row.cells[0]!.withinNoise).toBe(false)
    const cell = cellsOf(metricRow(table(), 'mbw', 'mbw.mcblock.bandwidth')).variants[0]!
    expect(text(cell)).toContain(formatPct(relative))
    expect(text(cell)).toContain('▲')
    expect(text(cell)).not.toContain('within noise')
    expect(cell.className).toMatch(/results-tone-(better|much-better)/)
  })

  it('reads latency as lower is better: relative % is baseline / variant', () => {
    render(<OverheadTable comparison={comparison} />)
    const host = medianOf(valuesOf(run, BASELINE, 'fio-randread', 'fio.read.lat.mean'))
    const guest = medianOf(valuesOf(run, VARIANT, 'fio-randread', 'fio.read.lat.mean'))
    const { header, baseline, variants } = cellsOf(metricRow(table(), 'fio-randread', 'fio.read.lat.mean'))
    expect(text(header)).toContain('lower is better')
    expect(text(baseline)).toContain(formatValue(host, 's'))
    expect(text(variants[0])).toContain(formatValue(guest, 's'))
    expect(text(variants[0])).toContain(formatPct((host / guest) * 100))
  })

  it('shows a dash with its reason where there is no ratio, never a made-up number', () => {
    render(<OverheadTable comparison={comparison} />)
    // Both sides lost no packet: 0 where lower is better has no ratio.
    const { baseline, variants } = cellsOf(metricRow(table(), 'ping', 'ping.loss'))
    expect(text(baseline)).toContain(formatValue(0, '%'))
    const cell = variants[0]!
    expect(text(cell)).toContain('—')
    expect(text(cell)).toContain(`No ratio: ${VARIANT} measured 0 where lower is better`)
    expect(text(cell)).not.toContain('%)')
    expect(text(cell)).not.toContain('CI')
  })

  it('shows the headline metrics by default and every metric with the toggle', async () => {
    const user = userEvent.setup()
    render(<OverheadTable comparison={comparison} />)
    const headline = comparison.rows.filter((r) => isHeadlineMetric(r.metric)).length
    expect(headline).toBe(24)
    expect(metricRowCount(table())).toBe(headline)
    expect(within(table()).queryByText('fio.read.clat.p99.9')).toBeNull()

    const toggle = screen.getByRole('checkbox', { name: 'All metrics' })
    await user.click(toggle)
    expect(metricRowCount(table())).toBe(comparison.rows.length)
    expect(comparison.rows.length).toBe(65)
    expect(within(table()).getByText('fio.read.clat.p99.9')).toBeTruthy()

    await user.click(toggle)
    expect(metricRowCount(table())).toBe(headline)
  })

  it('starts with every metric when asked to', () => {
    render(<OverheadTable comparison={comparison} allMetrics />)
    expect(metricRowCount(table())).toBe(comparison.rows.length)
    expect((screen.getByRole('checkbox', { name: 'All metrics' }) as HTMLInputElement).checked).toBe(true)
  })

  it('says how many metrics of a test the headline view leaves out', () => {
    render(<OverheadTable comparison={comparison} />)
    const hidden = comparison.rows.filter((r) => r.testId === 'fio-randread' && !isHeadlineMetric(r.metric)).length
    const group = table().querySelector('tbody[data-test="fio-randread"]') as HTMLElement
    expect(hidden).toBeGreaterThan(1)
    expect(text(within(group).getByRole('columnheader', { name: /4 KiB random read/ }))).toContain(`${hidden} more metrics`)
  })

  it("opens a flag's explanation from the keyboard, and closes it again", async () => {
    const user = userEvent.setup()
    render(<OverheadTable comparison={comparison} />)
    const row = comparison.rows.find((r) => r.testId === 'ping' && r.metric === 'ping.rtt.avg')!
    const noisy = row.cells[0]!.flags.find((f) => f.kind === 'noisy')!
    expect(noisy).toBeDefined()

    const cell = cellsOf(metricRow(table(), 'ping', 'ping.rtt.avg')).variants[0]!
    const button = within(cell).getByRole('button', { name: /noisy/ })
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByText(noisy.message)).toBeNull()

    // Tab through the controls until the flag has the focus, then press Enter.
    for (let i = 0; i < 200 && document.activeElement !== button; i++) await user.tab()
    expect(document.activeElement).toBe(button)
    await user.keyboard('{Enter}')
    expect(button.getAttribute('aria-expanded')).toBe('true')
    const explanation = document.getElementById(button.getAttribute('aria-controls')!)!
    expect(text(explanation)).toContain(flagExplanation(noisy))
    expect(text(explanation)).toContain(noisy.message)

    await user.keyboard(' ')
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByText(noisy.message)).toBeNull()
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

/** A storage row where the variant beat the baseline by 40 %: a writeback cache at work. */
function cachedWriteComparison(): Comparison {
  const stats = (value: number, values: number[]) => ({
    values,
    value,
    aggregate: 'median' as const,
    n: values.length,
    median: value,
    mean: value,
    min: Math.min(...values),
    max: Math.max(...values)
  })
  const row: ComparisonRow = {
    testId: 'fio-4k-randwrite',
    testTitle: '4 KiB random write',
    metric: 'fio.write.iops',
    labels: {},
    unit: 'op/s',
    better: 'higher',
    category: 'storage',
    baseline: stats(7349, [7349]),
    cells: [
      {
        variant: 'guest-wb',
        stats: stats(10289, [10289]),
        relativePct: 140,
        overheadPct: -40,
        flags: [
          {
            kind: 'faster-than-baseline',
            message: 'guest-wb reached 140 % of host on fio.write.iops of 4 KiB random write: faster than the baseline by more than 5 %.'
          }
        ]
      },
      {
        variant: 'guest-lost',
        flags: [{ kind: 'missing', message: 'No successful repetition of 4 KiB random write on guest-lost.' }]
      }
    ]
  }
  return { baseline: 'host', variants: ['guest-wb', 'guest-lost'], rows: [row], variantFlags: {}, method: 'method' }
}

describe('OverheadTable with a synthetic comparison', () => {
  it('explains a faster-than-physical write as the host page cache (cache=writeback)', async () => {
    const user = userEvent.setup()
    render(<OverheadTable comparison={cachedWriteComparison()} scenarios={{ 'guest-wb': { hypervisor: 'kvm', cache: 'writeback' } }} />)
    const cell = cellsOf(metricRow(table(), 'fio-4k-randwrite', 'fio.write.iops')).variants[0]!
    expect(text(cell)).toContain(formatValue(10289, 'op/s'))
    expect(text(cell)).toContain('140 %')
    expect(text(cell)).toContain('overhead -40 %')
    expect(text(cell)).toContain('CI —')
    expect(text(cell)).toContain('needs at least two repetitions')
    expect(cell.className).toContain('results-tone-much-better')

    const flag = within(cell).getByRole('button', { name: 'too fast? (faster than the baseline): explanation' })
    await user.click(flag)
    const region = document.getElementById(flag.getAttribute('aria-controls')!)!
    expect(text(region)).toContain('Faster than physical: the host page cache is probably serving these writes; cache=writeback.')
    expect(text(region)).toContain('set the guest disk to cache=none, run the test with direct=1')
    expect(text(region)).toContain('guest-wb reached 140 % of host')
  })

  it('shows a variant without results as a dash with the reason, never as 0', () => {
    render(<OverheadTable comparison={cachedWriteComparison()} />)
    const cell = cellsOf(metricRow(table(), 'fio-4k-randwrite', 'fio.write.iops')).variants[1]!
    expect(text(cell)).toContain('—')
    expect(text(cell)).toContain('Not measured: no successful repetition of 4 KiB random write on guest-lost gave this metric.')
    expect(text(cell)).not.toContain('op/s')
    expect(text(cell)).not.toContain('%')
    expect(within(cell).getByRole('button', { name: /missing/ }).getAttribute('aria-expanded')).toBe('false')
  })
})
