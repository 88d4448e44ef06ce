import { readFileSync } from 'node:fs'
import path from 'node:path'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import { RunDocumentSchema } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { surfaceMaps } from '../../../src/shared/studies/surface-maps'
import { ChartPrintContext } from '../../../src/renderer/src/features/charts'
import { IozoneStudyMaps } from '../../../src/renderer/src/features/studies/iozone-heatmap'

/** The stored iozone run: host against guest, 13 sub-tests of 56 cells each (tests/fixtures/runs/README.md). */
const file = path.join(__dirname, '../../fixtures/runs/iozone-local/run.json')
const comparison = compare(comparisonInputOf(describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8'))))))
const maps = surfaceMaps(comparison)

function bodyRows(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('th, td')].map((c) => c.textContent ?? ''))
}

describe('IozoneStudyMaps', () => {
  it('lists all 13 sub-tests and draws the chosen one as relative % by file size and record size', async () => {
    render(<IozoneStudyMaps comparison={comparison} />)
    const summary = screen.getByRole('table', { name: /Relative % of guest over each sub-test/ })
    expect(bodyRows(summary).map((r) => r[0])).toEqual([
      'write', 'rewrite', 'read', 'reread', 'random read', 'random write', 'backward read',
      'record rewrite', 'stride read', 'fwrite', 'frewrite', 'fread', 'freread'
    ])
    const write = maps.find((m) => m.subtest === 'write')!
    let heat = screen.getByRole('table', { name: /^write: relative %/ })
    const rows = bodyRows(heat)
    expect(rows.map((r) => r[0])).toEqual(['64 KiB', '128 KiB', '256 KiB', '512 KiB', '1 MiB', '2 MiB', '4 MiB'])
    // the 1 MiB file with 4 KiB records, as the comparison computed it; a 64 KiB file has no 128 KiB records
    expect(rows[4]![1]).toBe(`${write.cells[4]![0]!.relativePct.toFixed(0)} % (${verdictWords(write.cells[4]![0]!.verdict)})`)
    expect(rows[0]![6]).toBe('— (not measured: the record is larger than the file)')

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sub-test' }), 'random_read')
    heat = screen.getByRole('table', { name: /^random read: relative %/ })
    const random = maps.find((m) => m.subtest === 'random_read')!
    expect(bodyRows(heat)[6]![1]).toContain(`${random.cells[6]![0]!.relativePct.toFixed(0)} %`)
  })

  it('prints every sub-test as its own heat map in the PDF', () => {
    render(
      <ChartPrintContext.Provider value={{ width: 700 }}>
        <IozoneStudyMaps comparison={comparison} />
      </ChartPrintContext.Provider>
    )
    expect(screen.queryByRole('combobox')).toBeNull()
    expect(screen.getAllByRole('table', { name: /: relative % by file size/ })).toHaveLength(13)
  })

  it('draws nothing for a run without iozone', () => {
    const { container } = render(<IozoneStudyMaps comparison={{ ...comparison, rows: [] }} />)
    expect(container.textContent).toBe('')
  })
})

function verdictWords(verdict: string): string {
  return { slower: 'slower', faster: 'faster', same: 'same', inconclusive: "can't tell" }[verdict]!
}
