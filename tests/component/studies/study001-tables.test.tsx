import { readFileSync } from 'node:fs'
import path from 'node:path'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { ChartPrintContext } from '../../../src/renderer/src/features/charts'
import { Study001Tables } from '../../../src/renderer/src/features/studies/study001-tables'
import { StudySections } from '../../../src/renderer/src/features/studies/study-sections'

/** A stored run folder (tests/fixtures/runs/README.md). */
function runOf(name: string): RunDocument {
  return describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/runs', name, 'run.json'), 'utf8'))))
}

const cellsOf = (row: HTMLElement): string[] => [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? '')

describe("study 001's tables (Study001Tables)", () => {
  // study001-local: the cloud-acceptance pack (quick, without iperf3) on host and guest, one machine, 2 repetitions
  const run = runOf('study001-local')
  const comparison = compare(comparisonInputOf(run))

  it("shows the CPU and memory figures in the tools' units with the overhead, its interval and verdict, under the study's formula", () => {
    render(<Study001Tables run={run} comparison={comparison} />)
    const cpu = screen.getByRole('table', { name: /^CPU \(UnixBench\): Virtualization overhead = \(Physical − Virtual\) \/ Physical \(host as Physical\)/ })
    // the figures as tests/unit/shared/studies/study001-tables.test.ts reads them from the raw UnixBench reports
    expect(within(cpu).getAllByRole('row').map(cellsOf)).toEqual([
      ['Metric', 'host', 'guest', 'Overhead of guest'],
      ['Dhrystone', '39704224.5 lps', '42407476.9 lps', "−6.8 % [−118.9 to 47.8] (can't tell)"],
      ['Double-Precision Whetstone', '7055.1 MWIPS', '6516.0 MWIPS', "7.6 % [−102.5 to 58.0] (can't tell)"],
      ['File Copy', '1495748.0 KBps', '1793062.0 KBps', "−19.9 % [−302.1 to 64.0] (can't tell)"]
    ])
    const memory = screen.getByRole('table', { name: /^Memory \(mbw\): / })
    expect(within(memory).getAllByRole('row').map(cellsOf)[1]).toEqual(['MEMCPY AVG', '9091.398 MiB/s', '8897.028 MiB/s', "2.1 % [−133.1 to 58.7] (can't tell)"])
    // Debian's mbw 1.2.2 swaps its labels: said under the table
    expect(screen.getByText(/^host, guest: this mbw is older than 1\.4 and labels its results the wrong way round/)).toBeTruthy()
  })

  it("shows the fio table: the jobs as column groups, each machine's IOPS and throughput, a guest's % under its figure", () => {
    render(<Study001Tables run={run} comparison={comparison} />)
    const fio = screen.getByRole('table', { name: /^fio per scenario: .*its % of host/ })
    const rows = within(fio).getAllByRole('row').map(cellsOf)
    expect(rows[0]).toEqual(['', '4 KiB random read', '4 KiB random write', '4 KiB sequential read', '4 KiB sequential write', '1 MiB sequential read', '1 MiB sequential write'])
    expect(rows[1]!.slice(0, 3)).toEqual(['Scenario', 'IOPS', 'Throughput'])
    expect(rows[2]!.slice(0, 3)).toEqual(['host', '14.7k op/s(100 %)', '57.5 MiB/s(100 %)'])
    expect(rows[3]!.slice(0, 3)).toEqual(['guest', "14.0k op/s(95 %, can't tell)", "54.8 MiB/s(95 %, can't tell)"])
  })

  it('puts each table in its part of the PDF: CPU and memory in theirs, fio with storage', () => {
    const part = (category: 'cpu' | 'memory' | 'storage' | 'network'): string[] => {
      const printed = render(
        <ChartPrintContext.Provider value={{ width: 640 }}>
          <Study001Tables run={run} comparison={comparison} category={category} />
        </ChartPrintContext.Provider>
      )
      const captions = printed.queryAllByRole('table').map((t) => t.querySelector('caption')!.textContent!.split(':')[0]!)
      printed.unmount()
      return captions
    }
    expect(part('cpu')).toEqual(['CPU (UnixBench)'])
    expect(part('memory')).toEqual(['Memory (mbw)'])
    expect(part('storage')).toEqual(['fio per scenario'])
    expect(part('network')).toEqual([])
  })

  it('is shown in the results beside the other studies, and not for a run of another pack', () => {
    const shown = render(<StudySections run={run} comparison={comparison} />)
    expect(screen.getByRole('heading', { name: 'CPU and memory overhead (study 001)' })).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'fio per scenario (study 001)' })).toBeTruthy()
    shown.unmount()
    const other = runOf('loopback-quick')
    const { container } = render(<Study001Tables run={other} comparison={compare(comparisonInputOf(other))} />)
    expect(container.textContent).toBe('')
  })
})
