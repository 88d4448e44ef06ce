import { render, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { ReportPage } from '../../../src/renderer/src/report/report-page'
import { HeadlineTable } from '../../../src/renderer/src/report/report-tables'
import { formatPct } from '../../../src/shared/format'
import { ReportInputSchema, type ReportInput } from '../../../src/shared/report'
import { rawValues } from '../charts/chart-fixtures'
import { medianOf } from '../results/helpers'
import { oneMetricComparison, RANDOM_WRITES } from '../results/one-metric-comparison'
import { loopbackRun } from '../run-fixture'

const GUEST = 'guest (cache=none)'
const input = ReportInputSchema.parse({ run: loopbackRun(), options: {}, appVersion: '0.1.0', generatedAt: '2026-11-22T08:00:00.000Z' })

function text(element: Element | null | undefined): string {
  return element?.textContent ?? ''
}

/** A table's body rows: per variant line, its cells' texts (the figure's header only on its first line). */
function bodyRows(block: HTMLElement): string[][] {
  return within(block)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((c) => text(c).trim()))
}

/** The summary's table rows of one category. */
function summaryRows(category: string): string[][] {
  return bodyRows(document.querySelector(`section[data-section="summary"] [data-category="${category}"]`) as HTMLElement)
}

let summary: HTMLElement
beforeEach(() => {
  render(<ReportPage input={input} />)
  summary = document.querySelector('section[data-section="summary"]') as HTMLElement
})

describe('the PDF report’s summary', () => {
  it('says first that the baseline is a virtual machine, then each variant’s verdicts on its primary figures', () => {
    const verdicts = summary.querySelector('.report-verdicts') as HTMLElement
    expect(text(verdicts.querySelector('.report-warning'))).toMatch(
      /^The baseline is a virtual machine\. The baseline host is itself a virtual machine \(kvm, by systemd-detect-virt\)\./
    )
    // 8 primary figures (fio 2, dd, ping, iperf3, mbw's 3 methods overall), all too wide to tell; compared pair by pair (the
    // repetitions ran interleaved), no figure of the run, primary or not, is a finding
    expect(text(within(verdicts).getByRole('listitem'))).toBe(`${GUEST}: 8 inconclusive (primary figures)`)
  })

  it('has a Verdict column, with an arrow and an overhead only where the verdict is a finding', () => {
    const storage = summary.querySelector('[data-category="storage"] table') as HTMLElement
    expect(within(storage).getAllByRole('columnheader').map((h) => text(h))).toEqual(['Figure', 'Variant', 'Relative %', '95 % CI', 'Overhead', 'n', 'Verdict'])
    const iops = medianOf(rawValues(input.run, 'fio-randread', GUEST, 'fio.read.iops')) / medianOf(rawValues(input.run, 'fio-randread', 'host', 'fio.read.iops'))
    expect(summaryRows('storage')[0]).toEqual(['4 KiB random readfio.read.iops', GUEST, formatPct(iops * 100), '93 % – 113 %', '', '3 / 3', "can't tell"])

    // mbw's three methods overall: intervals of the pairs, holding the figure shown, none a finding, so no arrow and no overhead
    const mbw = (method: string): string => formatPct((medianOf(rawValues(input.run, 'mbw', GUEST, `mbw.${method}.bandwidth`)) / medianOf(rawValues(input.run, 'mbw', 'host', `mbw.${method}.bandwidth`))) * 100)
    expect(summaryRows('memory')).toEqual([
      ['mbw mbwmbw.memcpy.bandwidth', GUEST, mbw('memcpy'), '84 % – 129 %', '', '3 / 3', "can't tell; noisy"],
      ['mbw mbwmbw.dumb.bandwidth', GUEST, mbw('dumb'), '46 % – 180 %', '', '3 / 3', "can't tell; noisy"],
      ['mbw mbwmbw.mcblock.bandwidth', GUEST, mbw('mcblock'), '92 % – 137 %', '', '3 / 3', "can't tell"]
    ])
    expect([mbw('memcpy'), mbw('dumb'), mbw('mcblock')]).toEqual(['108 %', '93 %', '110 %'])
    expect(summary.querySelectorAll('.report-verdict-faster, .report-verdict-slower')).toHaveLength(0)

    // the summary's table of a figure with findings: guests behind a writeback cache and 31 % slower, and a twin of the host;
    // built by hand with no schedule, so compared side against side (Welch's interval on the logarithms, widened to hold the
    // figure shown x/÷ the same factor: guest-wb's runs from 137.4 %, the ratio of its geometric means ÷ 1.0176, to 142.5 %,
    // its medians' 140.0 % x 1.0176)
    const writes = oneMetricComparison({ ...RANDOM_WRITES, variants: RANDOM_WRITES.variants.slice(0, 3) })
    const { container } = render(<HeadlineTable comparison={writes} rows={writes.rows} caption="Storage: primary figures, relative to host" />)
    expect([(10289 / 7349) * 100, (5071 / 7349) * 100, (7352 / 7349) * 100].map((pct) => formatPct(pct))).toEqual(['140 %', '69 %', '100 %'])
    expect(bodyRows(container)).toEqual([
      ['4 KiB random writefio.write.iops', 'guest-wb', '▲ 140 %', '137 % – 142 %', '-40 %', '3 / 3', 'faster; too fast?'],
      ['guest-slow', '▼ 69 %', '67 % – 71 %', '31 %', '3 / 3', 'slower'],
      ['guest-twin', '100 %', '100 % – 100 %', '', '3 / 3', 'same']
    ])
    expect([...container.querySelectorAll('.report-verdict')].map((cell) => cell.getAttribute('title'))).toEqual([
      'the 95 % interval 137 % to 142 % lies above 100 %',
      'the 95 % interval 67.2 % to 70.8 % lies below 100 %',
      'the 95 % interval 99.7 % to 100 % lies within 100 % ± 3 %'
    ])
  })

  it('leads with the primary figures only, by category', () => {
    expect([...summary.querySelectorAll('[data-category]')].map((b) => b.getAttribute('data-category'))).toEqual(['storage', 'network', 'memory'])
    expect(summaryRows('storage').map((r) => r[0])).toEqual(['4 KiB random readfio.read.iops', '1 MiB sequential writefio.write.bandwidth', 'Latency: 200 x 512 B O_DIRECT writesdd.lat.mean'])
    expect(summaryRows('network').map((r) => r[0])).toEqual(['ping pingping.rtt.avg', 'iperf3 iperf3iperf3.received.bandwidth (direction=target->peer)'])
    expect(summaryRows('memory').map((r) => r[0])).toEqual(['mbw mbwmbw.memcpy.bandwidth', 'mbw mbwmbw.dumb.bandwidth', 'mbw mbwmbw.mcblock.bandwidth'])
    expect(screen.queryByText('fio.read.clat.p99.9', { selector: 'section[data-section="summary"] *' })).toBeNull()
  })
})

describe('the PDF report’s flags', () => {
  /** The loopback run as it is: both targets are one machine (its capture predates the ids; these are the ones it would report). */
  function oneMachine(): ReportInput {
    const run = loopbackRun()
    const ids = { machineId: '5f3c2a9e8b7d4c1f9a0e6b2d4c8f1a37', bootId: 'e0b1d6a2-4c59-4f1e-9d1b-7c3a2f6e8b10' }
    const environment = { ...run.environment, host: { ...run.environment.host!, ...ids }, guest: { ...run.environment.guest!, ...ids } }
    return ReportInputSchema.parse({ ...input, run: { ...run, environment } })
  }

  it('lists a variant-wide flag once, not once per figure, and says why once, above the list', () => {
    document.body.innerHTML = ''
    render(<ReportPage input={oneMachine()} />)
    const group = document.querySelector('[data-flag="same-machine"]') as HTMLElement
    expect(text(group.querySelector('h4'))).toBe('One machine measured twice · 1 time')
    const explanation = text(group.querySelector('.report-explain'))
    expect(explanation).toMatch(/^Both were reached as different targets, but they share one kernel/)
    const items = within(group).getAllByRole('listitem').map((li) => text(li))
    expect(items).toEqual([`${GUEST}: ${GUEST} and the baseline host are the same machine (same machine id and boot id).`])
    expect(text(group)).not.toContain('more figure')
    // the summary names it beside the variant's verdicts, in a few words
    const verdicts = document.querySelector('section[data-section="summary"] .report-verdicts') as HTMLElement
    expect(text(within(verdicts).getByRole('listitem'))).toBe(
      `${GUEST}: 8 inconclusive (primary figures) · One machine measured twice: ${GUEST} and the baseline host are the same machine (same machine id and boot id).`
    )
  })
})
