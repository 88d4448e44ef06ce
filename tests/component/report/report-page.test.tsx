import { render, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { ReportPage } from '../../../src/renderer/src/report/report-page'
import { HeadlineTable } from '../../../src/renderer/src/report/report-tables'
import { commandList, drawnRelativeViews, rawOutputIndex, testNotes, worthDrawing } from '../../../src/renderer/src/report/report-data'
import { comparisonOf } from '../../../src/renderer/src/features/results/comparison-of'
import { formatPct, formatValue } from '../../../src/shared/format'
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

/** A table's body rows: per line, its cells' texts (a figure's header and the baseline's value only on its first line). */
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

/** The median of one side's repetitions, as the tables print it. */
function median(test: string, side: string, metric: string, unit: Parameters<typeof formatValue>[1]): string {
  return formatValue(medianOf(rawValues(input.run, test, side, metric)), unit)
}

let summary: HTMLElement
beforeEach(() => {
  render(<ReportPage input={input} />)
  summary = document.querySelector('section[data-section="summary"]') as HTMLElement
})

describe('the PDF report’s first page', () => {
  it('says first that the baseline is a virtual machine, then per variant and category how many primary figures got each verdict', () => {
    const verdicts = summary.querySelector('.report-verdicts') as HTMLElement
    expect(text(verdicts.querySelector('.report-warning'))).toMatch(
      /^The baseline is a virtual machine\. The baseline host is itself a virtual machine \(kvm, by systemd-detect-virt\)\./
    )
    // 8 primary figures (fio 2, dd, ping, iperf3, mbw's 3 methods overall), all too wide to tell; compared pair by pair (the
    // repetitions ran interleaved), no figure of the run, primary or not, is a finding
    const table = verdicts.querySelector('table') as HTMLElement
    expect(within(table).getAllByRole('columnheader').map((h) => text(h))).toEqual(['Variant', 'Storage', 'Network', 'Memory', 'All primary figures'])
    expect(bodyRows(table)).toEqual([[GUEST, "3 can't tell", "2 can't tell", "3 can't tell", "8 can't tell"]])
  })

  it('gives each primary figure with the baseline’s and the guest’s values, its relative %, interval and verdict', () => {
    const storage = summary.querySelector('[data-category="storage"] table') as HTMLElement
    expect(within(storage).getAllByRole('columnheader').map((h) => text(h))).toEqual(['Figure', 'host (baseline)', GUEST, 'Relative %', '95 % CI', 'n', 'Overhead', 'Verdict'])
    const iops = medianOf(rawValues(input.run, 'fio-randread', GUEST, 'fio.read.iops')) / medianOf(rawValues(input.run, 'fio-randread', 'host', 'fio.read.iops'))
    expect(summaryRows('storage')[0]).toEqual([
      '4 KiB random read fio.read.iops',
      median('fio-randread', 'host', 'fio.read.iops', 'op/s'),
      median('fio-randread', GUEST, 'fio.read.iops', 'op/s'),
      formatPct(iops * 100),
      '93 % – 113 %',
      '3/3',
      '',
      "can't tell"
    ])
    expect(summaryRows('storage')[0]!.slice(1, 3)).toEqual(['21.2k op/s', '21.8k op/s'])

    // mbw's three methods overall: intervals of the pairs, holding the figure shown, none a finding, so no arrow and no overhead
    const mbw = (method: string): string => formatPct((medianOf(rawValues(input.run, 'mbw', GUEST, `mbw.${method}.bandwidth`)) / medianOf(rawValues(input.run, 'mbw', 'host', `mbw.${method}.bandwidth`))) * 100)
    expect(summaryRows('memory').map((r) => [r[0], r[3], r[4], r[6], r[7]])).toEqual([
      ['mbw mbw mbw.memcpy.bandwidth', mbw('memcpy'), '84 % – 129 %', '', "can't tell; noisy"],
      ['mbw mbw mbw.dumb.bandwidth', mbw('dumb'), '46 % – 180 %', '', "can't tell; noisy"],
      ['mbw mbw mbw.mcblock.bandwidth', mbw('mcblock'), '92 % – 137 %', '', "can't tell"]
    ])
    expect([mbw('memcpy'), mbw('dumb'), mbw('mcblock')]).toEqual(['108 %', '93 %', '110 %'])
    expect(summary.querySelectorAll('.report-verdict-faster, .report-verdict-slower')).toHaveLength(0)
  })

  it('with several variants, gives the figure and the baseline’s value on a line, then a line per variant: relative %, interval, value and verdict', () => {
    // guests behind a writeback cache and 31 % slower, and a twin of the host; built by hand with no schedule, so compared side
    // against side (Welch's interval on the logarithms, widened to hold the figure shown x/÷ the same factor: guest-wb's runs
    // from 137.4 %, the ratio of its geometric means ÷ 1.0176, to 142.5 %, its medians' 140.0 % x 1.0176)
    const writes = oneMetricComparison({ ...RANDOM_WRITES, variants: RANDOM_WRITES.variants.slice(0, 3) })
    const { container } = render(<HeadlineTable comparison={writes} rows={writes.rows} caption="Storage: primary figures" />)
    expect([(10289 / 7349) * 100, (5071 / 7349) * 100, (7352 / 7349) * 100].map((pct) => formatPct(pct))).toEqual(['140 %', '69 %', '100 %'])
    expect(within(container).getAllByRole('columnheader').map((h) => text(h))).toEqual(['Figure · variant', 'Relative %', '95 % CI', 'Value', 'n', 'Overhead', 'Verdict'])
    expect(bodyRows(container)).toEqual([
      [`4 KiB random write fio.write.iops · ${writes.baseline} (baseline): 7.35k op/s (7.34k op/s – 7.36k op/s)`],
      ['guest-wb', '▲ 140 %', '137 % – 142 %', '10.3k op/s', '3/3', '-40 %', 'faster; too fast?'],
      ['guest-slow', '▼ 69 %', '67 % – 71 %', '5.07k op/s', '3/3', '31 %', 'slower'],
      ['guest-twin', '100 %', '100 % – 100 %', '7.35k op/s', '3/3', '', 'same']
    ])
    // as plain text (pdftotext), a variant's line reads from its name to its verdict
    const lines = [...container.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map((c) => text(c)).join('  '))
    expect(lines[2]).toMatch(/^guest-slow +▼ ?69 ?%.*slower$/)
    expect([...container.querySelectorAll('.report-verdict')].map((cell) => cell.getAttribute('title'))).toEqual([
      'the 95 % interval 137 % to 142 % lies above 100 %',
      'the 95 % interval 67.2 % to 70.8 % lies below 100 %',
      'the 95 % interval 99.7 % to 100 % lies within 100 % ± 3 %'
    ])
  })

  it('leads with the primary figures only, by category', () => {
    expect([...summary.querySelectorAll('[data-category]')].map((b) => b.getAttribute('data-category'))).toEqual(['storage', 'network', 'memory'])
    expect(summaryRows('storage').map((r) => r[0])).toEqual(['4 KiB random read fio.read.iops', '1 MiB sequential write fio.write.bandwidth', 'Latency: 200 x 512 B O_DIRECT writes dd.lat.mean ↓ †'])
    expect(summaryRows('network').map((r) => r[0])).toEqual(['ping ping ping.rtt.avg ↓', 'iperf3 iperf3 iperf3.received.bandwidth (direction=target->peer)'])
    expect(summaryRows('memory').map((r) => r[0])).toEqual(['mbw mbw mbw.memcpy.bandwidth', 'mbw mbw mbw.dumb.bandwidth', 'mbw mbw mbw.mcblock.bandwidth'])
    expect(screen.queryByText('fio.read.clat.p99.9', { selector: 'section[data-section="summary"] *' })).toBeNull()
  })
})

describe('the PDF report’s order and category pages', () => {
  it('has the answer, the flags, one part per category, the environment, the method and the raw-output index, in this order', () => {
    expect([...document.querySelectorAll('[data-section]')].map((s) => s.getAttribute('data-section'))).toEqual([
      'title',
      'summary',
      'flags',
      'category-storage',
      'category-network',
      'category-memory',
      'environment',
      'method',
      'raw-output'
    ])
    // each part follows on where the one before ends (no page left near empty), its title kept with its first chart
    expect([...document.querySelectorAll('section.report-section')].every((s) => s.classList.contains('report-section-flow'))).toBe(true)
    const storageHead = document.querySelector('section[data-section="category-storage"] > .report-section-head') as HTMLElement
    expect([...storageHead.children].map((c) => c.tagName.toLowerCase() + (c.className ? `.${c.className}` : ''))).toEqual(['h2', 'p.report-lead', 'div.report-relative'])
  })

  it('tabulates every figure once, under its test, on its category’s page', () => {
    const comparison = comparisonOf(input.run)
    const tests = (category: string): string[] =>
      [...document.querySelectorAll(`section[data-section="category-${category}"] tbody[data-test]`)].map((t) => t.getAttribute('data-test') ?? '')
    expect(tests('storage')).toEqual(['fio-randread', 'fio-write', 'dd-latency'])
    expect(tests('network')).toEqual(['ping', 'iperf3'])
    expect(tests('memory')).toEqual(['mbw'])
    const lines = document.querySelectorAll('section[data-section^="category-"] tr[data-verdict]')
    expect(lines).toHaveLength(comparison.rows.length * comparison.variants.length)
    // a test's line says what ran: tool, parameters, repetitions and jobs
    const head = document.querySelector('section[data-section="category-storage"] tbody[data-test="dd-latency"] .report-test-head') as HTMLElement
    expect(text(head)).toMatch(/^Latency: 200 x 512 B O_DIRECT writes · dd .*blockSize=512 count=200.* · 3 per target, compared by their median · 6 jobs: 6 succeeded$/)
  })

  it('draws a chart only where there is something to draw: two points or more, not all zero', () => {
    expect(worthDrawing([])).toBe(false)
    expect(worthDrawing([103])).toBe(false)
    expect(worthDrawing([0, 0])).toBe(false)
    expect(worthDrawing([0, 3])).toBe(true)
    // ping's lost packets, 0 against 0, are a difference: no relative chart of them alone
    const comparison = comparisonOf(input.run)
    const loss = { ...comparison, rows: comparison.rows.filter((r) => r.metric === 'ping.loss') }
    expect(loss.rows).toHaveLength(1)
    expect(drawnRelativeViews(loss)).toEqual([])
    const one = { ...comparison, rows: comparison.rows.filter((r) => r.metric === 'fio.read.iops') }
    expect(drawnRelativeViews(one)).toEqual([])
    // one relative chart per category (three primary figures, two, three); the two-machine network matrix is a table;
    // and no study 002 bars, though the plan chose its pack (block-dd): with one guest they would repeat its relative chart
    expect(document.querySelectorAll('.charts-card')).toHaveLength(3)
    expect(document.querySelectorAll('.studies-002-chart')).toHaveLength(0)
    const pairs = bodyRows(document.querySelector('.report-pairs') as HTMLElement)
    expect(pairs.map((r) => [r[0]!.split(' ')[0], r[1]])).toEqual([
      ['iperf3', 'host → guest (cache=none)'],
      ['iperf3', 'guest (cache=none) → host'],
      ['ping', 'host → guest (cache=none)'],
      ['ping', 'guest (cache=none) → host']
    ])
  })
})

describe('advice said once', () => {
  it('says a warning that jobs repeat with other figures once, with the targets and how many jobs said it', () => {
    const notes = testNotes(input.run, 'mbw')
    expect(notes.map((n) => [n.text.slice(0, 24), n.sides, n.jobs, n.varies])).toEqual([
      ['this mbw is older than 1', ['host', GUEST], 6, false],
      ['MEMCPY copies took only ', ['host', GUEST], 6, true],
      ['DUMB copies took only 0.', ['host', GUEST], 6, true],
      ['MCBLOCK copies took only', ['host', GUEST], 6, true]
    ])
    const memory = document.querySelector('section[data-section="category-memory"]') as HTMLElement
    expect(text(memory).match(/use a larger array/g)).toHaveLength(3)
  })

  it('explains each kind of flag once, and the relative charts once, in the summary', () => {
    const report = document.querySelector('article') as HTMLElement
    expect(text(report).match(/Make sure the targets are idle/g)).toHaveLength(1)
    expect(text(summary)).toContain('Only a finding (slower, faster) has an arrow and an overhead, here and in the charts, whose whiskers are the interval.')
  })

  it('gives a variant’s system in full and only the other facts that differ from the baseline’s', () => {
    const guest = document.querySelector(`section[data-section="environment"] [data-target="guest"]`) as HTMLElement
    const rows = bodyRows(guest.querySelector('table') as HTMLElement)
    expect(rows.map((r) => r[0])).toEqual(['System', 'OS', 'Kernel', 'Architecture', 'Host name', 'Virtualization'])
    expect(text(guest)).toMatch(/\d+ other facts are the same as on host\./)
  })

  it('lists each distinct command once with the targets that ran it, and where every measured step’s output is', () => {
    const ping = commandList(input.run).find((c) => c.command.includes('ping -c'))!
    expect(ping.targets).toEqual(['host', GUEST])
    const index = rawOutputIndex(input.run)
    expect(index).toHaveLength(12)
    expect(index[0]).toEqual({ test: '4 KiB random read', target: 'host', jobs: 3, failed: 0, files: ['raw/j0001-a1-run.stdout', 'raw/j0003-a1-run.stdout', 'raw/j0005-a1-run.stdout'] })
    const raw = document.querySelector('section[data-section="raw-output"] table') as HTMLElement
    expect(bodyRows(raw)[0]).toEqual(['4 KiB random read', 'host', '3', 'raw/j0001-a1-run.stdout raw/j0003-a1-run.stdout raw/j0005-a1-run.stdout'])
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
    // the first page says it above the verdicts, in a few words
    const warnings = [...document.querySelectorAll('section[data-section="summary"] .report-verdicts .report-warning')].map((p) => text(p))
    expect(warnings[1]).toBe(`One machine measured twice: ${GUEST} and the baseline host are the same machine (same machine id and boot id).`)
  })
})

describe("the PDF report's study 003 reading", () => {
  const storage = (): HTMLElement => document.querySelector('section[data-section="category-storage"]') as HTMLElement

  it('reads the storage figures as multiples of the baseline for a study 003 run, as the CLI and the results do, and only there', () => {
    document.body.innerHTML = ''
    const run = loopbackRun()
    const study003 = ReportInputSchema.parse({ ...input, run: { ...run, plan: { ...run.plan, tests: [...run.plan.tests, { pack: 'cluster-fio', form: 'quick' }] } } })
    render(<ReportPage input={study003} />)
    const section = within(storage()).getByRole('region', { name: 'As multiples of the baseline' })
    // the loopback run's storage figures are one machine twice: no finding, so no multiple, and it says so
    expect(text(section.querySelector('p'))).toBe('No primary figure is slower or faster than host by its verdict, so there is no multiple to give.')
    expect(document.querySelectorAll('[aria-label="As multiples of the baseline"]').length).toBe(1)
    document.body.innerHTML = ''
    render(<ReportPage input={input} />)
    expect(document.querySelector('[aria-label="As multiples of the baseline"]')).toBeNull()
  })
})
