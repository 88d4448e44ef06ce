import { render, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ReportPage } from '../../../src/renderer/src/report/report-page'
import { AcceptanceSchema, type AcceptanceInput } from '../../../src/shared/model/criteria'
import { ReportInputSchema } from '../../../src/shared/report'
import { loopbackRun } from '../run-fixture'

/** The report of the recorded loopback run (tests/fixtures/runs/loopback-quick), its plan given acceptance criteria. */
function reportWith(acceptance: AcceptanceInput | undefined): HTMLElement {
  const run = loopbackRun()
  const withCriteria = { ...run, plan: { ...run.plan, acceptance: acceptance ? AcceptanceSchema.parse(acceptance) : undefined } }
  const input = ReportInputSchema.parse({ run: withCriteria, options: {}, appVersion: '0.1.0', generatedAt: '2026-11-22T08:00:00.000Z' })
  return render(<ReportPage input={input} />).container
}

describe('the acceptance verdict on the PDF report’s first page', () => {
  it('says failed, then each criterion with its status and summary, after the run’s facts and before the summary’s verdict table', () => {
    const report = reportWith({
      criteria: [
        // the recorded guest is the host itself: no primary figure is anywhere near 10 %
        { name: 'nothing below 10 %', atLeastPct: 10 },
        // its intervals are wide (three repetitions on one loaded machine): none lies wholly above 99.9 %
        { name: 'all at least 99.9 %', atLeastPct: 99.9 }
      ]
    })
    const verdict = report.querySelector('[data-acceptance]') as HTMLElement
    expect(verdict.dataset.acceptance).toBe('failed')
    expect(within(verdict).getByRole('heading', { level: 2 }).textContent).toBe('✗ Acceptance failed')
    expect(within(verdict).getByText('1 of 2 criteria passed; not passed: all at least 99.9 %')).toBeTruthy()

    const criteria = [...verdict.querySelectorAll('.report-acceptance-criteria > li')] as HTMLElement[]
    expect(criteria.map((li) => li.dataset.status)).toEqual(['passed', 'failed'])
    // 8 primary figures of one guest (fio 2, dd, ping, iperf3, mbw's 3 methods)
    expect(criteria[0]!.textContent).toBe('Passed nothing below 10 % · 8 of 8 figures passed')
    // every interval reaches below 99.9 %: all 8 undecided, and an undecided figure fails unless the plan says otherwise
    expect(criteria[1]!.querySelector('.report-muted')!.textContent).toBe(' · 8 of 8 figures failed (8 undecided, counted as failed)')
    // under the failed one, its first three failing figures in words, and how many more
    expect([...criteria[1]!.querySelectorAll('.report-acceptance-figures > li')].map((li) => li.textContent)).toEqual([
      'guest (cache=none), 4 KiB random read fio.read.iops: 103 % [95 % interval 92.7 % to 113 %], inconclusive: the interval reaches below 99.9 % (undecided, counted as failed)',
      'guest (cache=none), 1 MiB sequential write fio.write.bandwidth: 99.8 % [95 % interval 78.1 % to 128 %], inconclusive: the interval reaches below 99.9 % (undecided, counted as failed)',
      'guest (cache=none), Latency: 200 x 512 B O_DIRECT writes dd.lat.mean: 99.7 % [95 % interval 88.1 % to 110 %], inconclusive: the interval reaches below 99.9 % (undecided, counted as failed)',
      'and 5 more failing figures, in the tables below'
    ])

    // on the first page: after the run's facts, before the summary and its verdict table
    const title = report.querySelector('section[data-section="title"]') as HTMLElement
    expect(title.contains(verdict)).toBe(true)
    expect(title.querySelector('dl.report-facts')!.compareDocumentPosition(verdict) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
    expect(verdict.compareDocumentPosition(report.querySelector('.report-verdict-table')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('says passed when every criterion passes', () => {
    const verdict = reportWith({ criteria: [{ name: 'nothing below 10 %', atLeastPct: 10 }, { atMostPct: 1000 }] }).querySelector('[data-acceptance]') as HTMLElement
    expect(verdict.dataset.acceptance).toBe('passed')
    expect(verdict.querySelector('h2')!.textContent).toBe('✓ Acceptance passed')
    expect([...verdict.querySelectorAll('.report-acceptance-criteria > li')].map((li) => li.textContent)).toEqual([
      'Passed nothing below 10 % · 8 of 8 figures passed',
      'Passed primary figures at most 1000 % of the baseline · 8 of 8 figures passed'
    ])
  })

  it('prints no verdict for a plan without criteria', () => {
    expect(reportWith(undefined).querySelector('[data-acceptance]')).toBeNull()
  })
})
