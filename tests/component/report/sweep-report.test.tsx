/**
 * The PDF report of a sweep, drawn from a real sweep folder (tests/fixtures/runs/sweep-cache-io:
 * cache {none, writeback} x io {threads, io_uring} on libvirt's test driver, dd and fio, 3
 * repetitions per step) read as `virtbench report` and the app read it.
 */
import { render, within } from '@testing-library/react'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ReportDocument } from '../../../src/renderer/src/report/sweep-report'
import { comparisonOf } from '../../../src/renderer/src/features/results/comparison-of'
import { reportInputOf } from '../../../src/shared/report-input'
import { ReportInputSchema, type ReportInput } from '../../../src/shared/report'
import { sweepFixture } from './sweep-fixture'

const COMBINATIONS = ['cache=none, io=threads', 'cache=none, io=io_uring', 'cache=writeback, io=threads', 'cache=writeback, io=io_uring']

/**
 * What `virtbench run` printed at the end of this sweep (its table, each cell "value % (verdict)"),
 * written down when the fixture was made: the report must say the same.
 */
const PRINTED = [
  ['2.29 GiB/s 80 % (can\'t tell)', '12.3k op/s 85 % (can\'t tell)'],
  ['2.58 GiB/s 108 % (can\'t tell)', '13.8k op/s 167 % (faster)'],
  ['2.96 GiB/s 259 % (can\'t tell)', '11.4k op/s 141 % (can\'t tell)'],
  ['1.30 GiB/s 126 % (can\'t tell)', '10.1k op/s 88 % (can\'t tell)']
]

let input: ReportInput
beforeAll(() => {
  const { run, steps } = sweepFixture()
  input = ReportInputSchema.parse(reportInputOf(run, ReportInputSchema.shape.options.parse({}), { appVersion: '0.1.0', now: new Date('2026-11-26T15:00:00Z') }, { total: steps.length, steps }))
})

const text = (element: Element | null | undefined): string => (element?.textContent ?? '').replace(/\s+/g, ' ').trim()
/** A table's body rows, each cell's text. */
const bodyRows = (table: HTMLElement): string[][] => within(table).getAllByRole('row').slice(1).map((row) => [...row.querySelectorAll('th, td')].map((c) => text(c)))
/** "2.29 GiB/s 80 % can't tell" as the CLI prints it: "2.29 GiB/s 80 % (can't tell)". */
const asPrinted = (cell: string): string => cell.replace(/ (slower|faster|the same|can't tell)$/, ' ($1)')

describe('the PDF report of a sweep', () => {
  beforeEach(() => {
    render(<ReportDocument input={input} />)
  })

  it('opens with the sweep table: a row per combination, each primary figure’s value, relative % and verdict as the CLI printed them', () => {
    const sections = [...document.querySelectorAll<HTMLElement>('[data-section]')].map((s) => s.dataset.section)
    expect(sections.slice(0, 3)).toEqual(['title', 'sweep', 'step-1'])
    const table = document.querySelector('section[data-section="sweep"] table[aria-label="Sweep table"]') as HTMLElement
    expect(within(table).getAllByRole('columnheader').map((h) => text(h))).toEqual(['Scenario', 'dd 1 MiB write · dd.bandwidth', '4 KiB random read · fio.read.iops'])
    expect(bodyRows(table)).toEqual(COMBINATIONS.map((c, i) => [c, ...PRINTED[i]!.map((p) => p.replace(/ \((.+)\)$/, ' $1'))]))
    expect(bodyRows(table).map((r) => r.slice(1).map(asPrinted))).toEqual(PRINTED)
    // the verdict is the step's, kept on the cell for the reader (and the one finding of the sweep is marked)
    expect([...table.querySelectorAll('td[data-verdict="faster"]')].map((c) => text(c))).toEqual(['13.8k op/s 167 % faster'])
  })

  it('then, for its two factors, a matrix per figure: cache down, io across', () => {
    const matrices = [...document.querySelectorAll<HTMLElement>('section[data-section="sweep"] table.report-sweep-matrix')]
    expect(matrices.map((m) => text(m.querySelector('caption')))).toEqual(['dd 1 MiB write · dd.bandwidth', '4 KiB random read · fio.read.iops'])
    expect(within(matrices[1]!).getAllByRole('columnheader').map((h) => text(h))).toEqual(['io=threads', 'io=io_uring'])
    expect(bodyRows(matrices[1]!).map((r) => [r[0], ...r.slice(1).map(asPrinted)])).toEqual([
      ['cache=none', PRINTED[0]![1], PRINTED[1]![1]],
      ['cache=writeback', PRINTED[2]![1], PRINTED[3]![1]]
    ])
  })

  it('then each step’s own parts, under ids of their own, with the reading paragraph said once and the method once', () => {
    const sections = [...document.querySelectorAll<HTMLElement>('[data-section]')].map((s) => s.dataset.section ?? '')
    expect(new Set(sections).size).toBe(sections.length)
    for (const n of [1, 2, 3, 4]) expect(sections).toEqual(expect.arrayContaining([`step-${n}`, `step-${n}-summary`, `step-${n}-flags`, `step-${n}-category-storage`]))
    expect(sections.slice(-3)).toEqual(['environment', 'method', 'raw-output'])
    const step2 = document.querySelector('section[data-section="step-2"]') as HTMLElement
    expect(text(step2.querySelector('h2'))).toBe('Step 2 of 4: cache=none, io=io_uring')
    expect(text(step2)).toContain('Domain test on kvm-host: vda io: threads -> io_uring')
    // the step's summary gives its figures against its own baseline, without the paragraph on how to read them
    const summary = document.querySelector('section[data-section="step-2-summary"]') as HTMLElement
    expect(summary.querySelector('.report-lead')).toBeNull()
    expect(text(summary)).toContain('cache=none, io=io_uring')
    // kept short: no host-monitor charts in a step (its figures stay in the disk activity table)
    expect(document.body.textContent).not.toContain('Host monitor: guest-visible and host-visible I/O')
    expect(document.querySelectorAll('section[data-section="step-2-category-storage"] table.report-disk')).toHaveLength(1)
    const method = comparisonOf(input.sweep!.steps[0]!.run!).method
    expect(document.body.textContent!.split(method).length - 1).toBe(1)
    expect(document.body.textContent!.split('Each verdict comes from').length - 1).toBe(0)
  })

  it('lists every step’s raw output under its own folder', () => {
    const raw = document.querySelector('section[data-section="raw-output"] table') as HTMLElement
    const files = bodyRows(raw).map((r) => r[3]!)
    for (const dir of input.sweep!.steps.map((s) => s.dir)) expect(files.some((f) => f.startsWith(`${dir}/raw/`))).toBe(true)
  })
})
