import { readFileSync } from 'node:fs'
import path from 'node:path'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { ChartPrintContext } from '../../../src/renderer/src/features/charts'
import { BonnieStudyTables } from '../../../src/renderer/src/features/studies/bonnie-study'
import { StudySections } from '../../../src/renderer/src/features/studies/study-sections'

/** A stored run folder (tests/fixtures/runs/README.md). */
function runOf(name: string): RunDocument {
  return describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/runs', name, 'run.json'), 'utf8'))))
}

const cellsOf = (row: HTMLElement): string[] => [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? '')

describe("study 000's bonnie++ table (BonnieStudyTables)", () => {
  // bonnie-local: bonnie++ -s 64 -r 32 -n 0 -x 2 on host and guest, 2 jobs each (4 runs per machine)
  const run = runOf('bonnie-local')
  const comparison = compare(comparisonInputOf(run))

  it("shows each machine's figures under bonnie++'s column groups, with %CPU, the guest's % of the host, and +++++ where bonnie++ could not time a test", () => {
    render(<BonnieStudyTables run={run} comparison={comparison} />)
    const table = screen.getByRole('table', { name: /bonnie\+\+ 64 MiB, 2 runs: each figure the median of the runs bonnie\+\+ timed; guests' figures as % of host/ })
    const rows = within(table).getAllByRole('row').map(cellsOf)
    expect(rows[0]).toEqual(['', 'Sequential output', 'Sequential input', 'Random'])
    expect(rows[1]).toEqual(['machine', 'per char', '%CPU', 'block', '%CPU', 'rewrite', '%CPU', 'per char', '%CPU', 'block', '%CPU', 'seeks', '%CPU'])
    // the medians of the CSV lines in raw/ (host putc 1016, 731, 742, 730 KiB/s; guest 1031, 1078, 479, 458), as bonnie-study.test.ts checks them
    expect(rows.slice(2)).toEqual([
      ['host', '737 KiB/s', '69.0 %', '+++++ (too fast)', '–', '+++++ (too fast)', '–', '1.17 MiB/s', '72.5 %', '+++++ (too fast)', '–', '+++++ (too fast)', '–'],
      ['guest', '755 KiB/s (103 %)', '72.0 %', '+++++ (too fast)', '–', '+++++ (too fast)', '–', '1.15 MiB/s (98.2 %)', '68.0 %', '+++++ (too fast)', '–', '+++++ (too fast)', '–']
    ])
    expect(within(table).getAllByText('+++++ (too fast)')[0]!.getAttribute('title')).toBe('Sequential output, block on host: +++++ (too fast)')
    expect(screen.getByText(/^host: sequential output, block; sequential output, rewrite; sequential input, block; random seeks: bonnie\+\+ printed \+\+\+\+\+ in every run \(4\)/)).toBeTruthy()
  })

  it('is printed in the PDF for the tests of its category only, and shown in the results beside the other studies', () => {
    const printed = render(
      <ChartPrintContext.Provider value={{ width: 640 }}>
        <BonnieStudyTables run={run} comparison={comparison} testIds={new Set(['bonnie'])} />
        <BonnieStudyTables run={run} comparison={comparison} testIds={new Set(['iozone'])} />
      </ChartPrintContext.Provider>
    )
    expect(printed.getAllByRole('table')).toHaveLength(1)
    expect(printed.getByText('1 test')).toBeTruthy()
    printed.unmount()

    render(<StudySections run={run} comparison={comparison} />)
    expect(screen.getByRole('heading', { name: 'bonnie++ per machine (study 000)' })).toBeTruthy()
  })

  it('shows nothing for a run without bonnie++', () => {
    const other = runOf('loopback-quick')
    const { container } = render(<BonnieStudyTables run={other} comparison={compare(comparisonInputOf(other))} />)
    expect(container.textContent).toBe('')
  })
})
