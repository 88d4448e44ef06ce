import { readFileSync } from 'node:fs'
import path from 'node:path'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { OverheadTable } from '../../../src/renderer/src/features/results/overhead-table'
import { flagEntries, flagGroups } from '../../../src/renderer/src/report/report-data'

/** The stored iozone run: host against guest, 13 sub-tests x 56 cells, every cell flagged as disturbed (tests/fixtures/runs/README.md). */
const file = path.join(__dirname, '../../fixtures/runs/iozone-local/run.json')
const comparison = compare(comparisonInputOf(describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8'))))))

describe('an iozone-only run', () => {
  it('says in the overhead table that its 728 cells are compared in the heat maps, not that it has no results', () => {
    const { container } = render(<OverheadTable comparison={comparison} />)
    expect(container.textContent).not.toContain('No results yet')
    expect(container.textContent).not.toContain('0 primary metrics shown')
    expect(screen.getByText('728 file size x record size cells, compared in the heat maps below')).toBeTruthy()
    expect(screen.getByText(/^728 file size x record size cells: compared in the heat maps per sub-test below/)).toBeTruthy()
    expect(container.textContent).not.toContain('more metrics with “All metrics”')
    expect(container.querySelectorAll('tbody tr.results-row')).toHaveLength(0)
  })

  it("lists each kind of flag of its cells once per test and variant in the report's flags", () => {
    const entries = flagEntries(comparison).filter((e) => e.flag.kind === 'contaminated')
    expect(entries).toHaveLength(1)
    expect(entries[0]!.figure).toBe('iozone -Raz up to 4 MiB files · on 728 of its 728 file size x record size cells (13 sub-tests), the first')
    const group = flagGroups(flagEntries(comparison)).find((g) => g.kind === 'contaminated')!
    expect([group.detailed.length, group.others.length]).toEqual([1, 0])
  })
})
