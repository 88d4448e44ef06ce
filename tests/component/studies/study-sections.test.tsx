import { readFileSync } from 'node:fs'
import path from 'node:path'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import { formatMultiple } from '../../../src/shared/format'
import type { Comparison } from '../../../src/shared/model/comparison'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { ChartPrintContext } from '../../../src/renderer/src/features/charts'
import { DiskActivityStudy } from '../../../src/renderer/src/features/studies/disk-activity-study'
import { JobFiles } from '../../../src/renderer/src/features/studies/job-files'
import { StudyMultiples } from '../../../src/renderer/src/features/studies/study-multiples'

/** A stored run folder (tests/fixtures/runs/README.md). */
function runOf(name: string): RunDocument {
  return describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/runs', name, 'run.json'), 'utf8'))))
}

/** The run as if its plan were study 004's pack (seq-dd), whose reader is told why a ratio is missing. */
const study004 = (run: RunDocument): RunDocument => ({ ...run, plan: { ...run.plan, tests: [{ pack: 'seq-dd', form: 'quick' }] } })

const cellsOf = (row: HTMLElement): string[] => [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? '')

describe("study 004's atop table (DiskActivityStudy)", () => {
  // seq-dd-host: the seq-dd pack (quick) on a loopback guest that runs on a loopback host, both monitored
  const run = runOf('seq-dd-host')

  it("shows one test's guest jobs with the guest's and the host's lines and the ratio, and another test on request", async () => {
    render(<DiskActivityStudy run={run} />)
    const table = screen.getByRole('table', { name: /the guest’s block devices, then its physical host’s/ })
    const rows = within(table).getAllByRole('row').map(cellsOf)
    expect(rows[0]).toEqual(['seen by', 'layer', 'machine', 'device', 'busy', 'reads/s', 'writes/s', 'read', 'written', 'avio', 'avg I/O size'])
    expect(rows[1]![0]).toBe('Write 64 MiB with dd bs=8k · guest, repetition 1 · monitored 600 ms on the guest, 650 ms on the host')
    // the second repetition, figures as tests/unit/shared/studies/disk-activity.test.ts worked them out from the kept counters
    expect(rows.slice(5, 9)).toEqual([
      ['Write 64 MiB with dd bs=8k · guest, repetition 2 · monitored 620 ms on the guest, 690 ms on the host'],
      ['guest', 'DSK', 'guest', 'vda', '5.81 %', '1.61 op/s', '113 op/s', '6.45 KiB/s', '103 MiB/s', '507 µs', '923 KiB'],
      ['host', 'DSK', 'host', 'vda', '5.22 %', '1.45 op/s', '101 op/s', '5.80 KiB/s', '92.8 MiB/s', '507 µs', '923 KiB'],
      ["Logical to physical writes: 1.0:1 (the guest's vda: 70 writes; the host's vda: 70 writes)"]
    ])
    expect(rows).toHaveLength(9)

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Test' }), 'cat-read')
    const read = within(screen.getByRole('table', { name: /physical host’s/ })).getAllByRole('row').map(cellsOf)
    expect(read[1]![0]).toMatch(/^Read it back with cat · guest, repetition 1/)
    expect(read[4]).toEqual(["Logical to physical writes: 1:1.4 (the guest's vda: 5 writes; the host's vda: 7 writes)"])
  })

  it('prints every test in the PDF, and says plainly when the host was not monitored (study 004)', () => {
    render(
      <ChartPrintContext.Provider value={{ width: 640 }}>
        <DiskActivityStudy run={run} />
        <DiskActivityStudy run={study004(runOf('loopback-quick'))} testIds={new Set(['dd-latency'])} />
      </ChartPrintContext.Provider>
    )
    expect(screen.queryByRole('combobox')).toBeNull()
    const [both, alone] = screen.getAllByRole('table', { name: /physical host’s/ })
    expect(within(both!).getAllByRole('rowgroup')).toHaveLength(5)
    const lone = within(alone!).getAllByRole('row').map(cellsOf)
    expect(lone).toHaveLength(1 + 3 * 3)
    expect(lone[3]).toEqual([
      "Its physical host was not monitored: the guest's target does not name the host it runs on (virtbench targets add --runs-on HOST, with HOST a saved target), so no logical-to-physical ratio can be given."
    ])
  })

  it('shows nothing for a run whose guests were not monitored, nor for a guest seen without its host outside study 004', () => {
    const { container } = render(<DiskActivityStudy run={{ ...run, jobs: run.jobs.map(({ monitor: _, ...job }) => job) }} />)
    expect(container.textContent).toBe('')
    const alone = render(<DiskActivityStudy run={runOf('loopback-quick')} />)
    expect(alone.container.textContent).toBe('')
  })
})

describe("study 003's multiples and the fio job files", () => {
  const base = runOf('seq-dd-host')
  const jobFile = '[virt]\nioengine=libaio\niodepth=4\nrw=randrw\nbs=64k\ndirect=1\nsize=16m\nnumjobs=4\n'

  it('reads each slower or faster primary figure as a multiple, for study 003 runs only', () => {
    const comparison: Comparison = compare(comparisonInputOf(base))
    // the fixture's figures are noise (one machine twice): make one a finding, as a run of an SSD against a RAID 1 would give
    const row = comparison.rows.find((r) => r.primary && r.testId === 'dd-write')!
    const cell = { ...row.cells[0]!, relativePct: 1120, ci95: [1080, 1160] as [number, number], verdict: 'faster' as const }
    const found: Comparison = { ...comparison, rows: comparison.rows.map((r) => (r === row ? { ...r, cells: [cell] } : r)) }
    const study003: RunDocument = { ...base, plan: { ...base.plan, tests: [{ pack: 'cluster-fio', form: 'quick' }] } }

    const { unmount } = render(<StudyMultiples run={base} comparison={found} />)
    expect(screen.queryByRole('table')).toBeNull()
    unmount()
    render(<StudyMultiples run={study003} comparison={found} />)
    const rows = within(screen.getByRole('table', { name: /as study 003 reads them/ })).getAllByRole('row').map(cellsOf)
    expect(rows.slice(1)).toEqual([['Write 64 MiB with dd bs=8k · dd.bandwidth', 'guest', formatMultiple(1120, [1080, 1160], 'faster', 'host')!]])
    expect(rows[1]![2]).toBe('11.2x faster than host [10.8–11.6]')
  })

  it('shows the job file verbatim, closed by default in the app and written out on paper', () => {
    const run: RunDocument = { ...base, tests: [...base.tests, { ...base.tests[0]!, id: 'own', title: 'own job', tool: 'fio', params: { jobFile } }] }
    const { container, unmount } = render(<JobFiles run={run} />)
    const details = container.querySelector('details')!
    expect(details.open).toBe(false)
    expect(details.querySelector('summary')!.textContent).toBe('fio job file of own job, as run')
    expect(details.querySelector('pre')!.textContent).toBe(jobFile)
    unmount()
    const printed = render(<JobFiles run={run} open />)
    expect(printed.container.querySelector('details')).toBeNull()
    expect(printed.container.querySelector('pre')!.textContent).toBe(jobFile)
    expect(render(<JobFiles run={base} />).container.textContent).toBe('')
  })
})
