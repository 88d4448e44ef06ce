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
    let heat = screen.getByRole('table', { name: /^write: guest against host, relative %/ })
    const rows = bodyRows(heat)
    expect(rows.map((r) => r[0])).toEqual(['64 KiB', '128 KiB', '256 KiB', '512 KiB', '1 MiB', '2 MiB', '4 MiB'])
    // the 1 MiB file with 4 KiB records, as the comparison computed it; a 64 KiB file has no 128 KiB records
    expect(rows[4]![1]).toBe(`${write.cells[4]![0]!.relativePct.toFixed(0)} % (${verdictWords(write.cells[4]![0]!.verdict)})`)
    expect(rows[0]![6]).toBe('— (not measured: the record is larger than the file)')

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sub-test' }), 'random_read')
    heat = screen.getByRole('table', { name: /^random read: guest against host, relative %/ })
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
    expect(screen.getAllByRole('table', { name: /: guest against host, relative %/ })).toHaveLength(13)
    expect(screen.getAllByRole('table', { name: /^[a-z ]+ on (host \(baseline\)|guest): throughput by file size/ })).toHaveLength(26)
    // two sub-tests a card, the 13th alone
    const titles = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)
    expect(titles).toEqual([
      'iozone, every sub-test: iozone -Raz up to 4 MiB files',
      'iozone write and rewrite: host, guest',
      'iozone read and reread: host, guest',
      'iozone random read and random write: host, guest',
      'iozone backward read and record rewrite: host, guest',
      'iozone stride read and fwrite: host, guest',
      'iozone frewrite and fread: host, guest',
      'iozone freread: host, guest'
    ])
    // on paper a machine's grid names itself in its corner
    const freread = screen.getByRole('table', { name: /^freread on guest: throughput/ })
    expect(within(freread).getAllByRole('columnheader')[0]!.textContent).toBe('freread on guest: file ↓ record →')
    expect(bodyRows(freread)[4]![1]).toBe('5.28 GiB/s')
  })

  it("shows the chosen sub-test's figures on every machine, with their units, on one colour scale", async () => {
    render(<IozoneStudyMaps comparison={comparison} />)
    const host = screen.getByRole('table', { name: /^write on host \(baseline\): throughput/ })
    const guest = screen.getByRole('table', { name: /^write on guest: throughput/ })
    // the 1 MiB file with 4 KiB records: the median of host's 1007781 and 1000969 kB/s, of guest's 964986 and 1053512 kB/s
    expect(bodyRows(host)[4]![1]).toBe('981 MiB/s')
    expect(bodyRows(guest)[4]![1]).toBe('986 MiB/s')
    expect(bodyRows(host)[0]).toEqual(['64 KiB', '863 MiB/s', '1.26 GiB/s', '1.69 GiB/s', '2.10 GiB/s', '1.41 GiB/s', ...Array(6).fill('— (not measured: the record is larger than the file)')])
    // the darkest step is the highest figure of either machine: host's 2 MiB file with 1 MiB records
    const darkest = within(host).getAllByRole('cell').filter((c) => (c as HTMLElement).style.background === 'var(--chart-heat-5)')
    expect(darkest.map((c) => c.textContent)).toContain('5.28 GiB/s')
    expect(within(host).getAllByRole('cell')[0]!.getAttribute('title')).toBe('write on host: 863 MiB/s, 2 repetitions')
    expect(screen.getByText('Throughput colours, one scale per sub-test for host, guest: 0 (lightest) to the highest figure (darkest), write 5.28 GiB/s.')).toBeDefined()

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sub-test' }), 'fwrite')
    expect(bodyRows(screen.getByRole('table', { name: /^fwrite on host \(baseline\): throughput/ }))[4]![1]).toBe('2.56 GiB/s')
    expect(bodyRows(screen.getByRole('table', { name: /^fwrite on guest: throughput/ }))[4]![1]).toBe('2.11 GiB/s')
    expect(bodyRows(screen.getByRole('table', { name: /^fwrite: guest against host, relative %/ }))[4]![1]).toMatch(/^83 % /)
    expect(screen.queryByRole('table', { name: /^write on host/ })).toBeNull()
  })

  it('draws nothing for a run without iozone', () => {
    const { container } = render(<IozoneStudyMaps comparison={{ ...comparison, rows: [] }} />)
    expect(container.textContent).toBe('')
  })
})

function verdictWords(verdict: string): string {
  return { slower: 'slower', faster: 'faster', same: 'same', inconclusive: "can't tell" }[verdict]!
}
