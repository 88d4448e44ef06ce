import { useMemo, useState, type ReactElement } from 'react'
import type { RunDocument } from '../../../../shared/model/run'
import { formatValue } from '../../../../shared/format'
import { sizeText } from '../../../../shared/studies/surface-maps'
import { ChartCard, ChartSelect } from './chart-parts'
import { HeatTable, type HeatCell } from './heat-table'
import { iozoneChoices, iozoneGrid, type IozoneGrid } from './iozone'
import { aggregateWords } from './rows'

export function iozoneRows(grid: IozoneGrid): { header: string; cells: HeatCell[] }[] {
  return grid.fileSizes.map((file, r) => ({
    header: sizeText(file),
    cells: grid.recordSizes.map((record, c) => {
      const cell = grid.cells[r]?.[c]
      if (cell) return { value: cell.value, values: cell.values }
      return {
        reason:
          record > file
            ? 'not measured: the record is larger than the file'
            : 'not measured: iozone skipped this record size for this file (files over 16 MiB without -z)'
      }
    })
  }))
}

/** iozone's throughput as file size x record size, one sub-test and one target at a time. */
export function IozoneHeatmap({ run, initial }: { run: RunDocument; /** What is shown first: the test (id), the target (side label) and the sub-test. */ initial?: { testId?: string; side?: string; subtest?: string } }): ReactElement | null {
  const choices = useMemo(() => iozoneChoices(run), [run])
  const [testId, setTestId] = useState<string | undefined>(initial?.testId)
  const [side, setSide] = useState<string | undefined>(initial?.side)
  const [subtest, setSubtest] = useState<string | undefined>(initial?.subtest)
  const test = choices.tests.find((t) => t.id === testId) ?? choices.tests[0]
  const target = choices.sides.find((s) => s === side) ?? choices.sides[0]
  const sub = choices.subtests.find((s) => s === subtest) ?? choices.subtests[0]
  const grid = useMemo(() => (test && target && sub ? iozoneGrid(run, test.id, target, sub) : undefined), [run, test, target, sub])
  if (!test || !target || !sub || !grid) return null
  const name = `iozone ${sub} on ${target}`
  return (
    <ChartCard
      wide
      title="iozone: file size × record size"
      shown={`${test.title} · ${name}`}
      howToRead={`Each cell is the ${sub} throughput for one file size (rows) and record size (columns), ${aggregateWords(grid.aggregate)}. Darker is faster. Small files are mostly served from the page cache.`}
      controls={
        <>
          {choices.tests.length > 1 ? <ChartSelect label="Test" value={test.id} onChange={setTestId} options={choices.tests.map((t) => ({ value: t.id, label: t.title }))} /> : null}
          <ChartSelect label="Target" value={target} onChange={setSide} options={choices.sides.map((s) => ({ value: s, label: s }))} />
          <ChartSelect label="Sub-test" value={sub} onChange={setSubtest} options={choices.subtests.map((s) => ({ value: s, label: s.replace(/_/g, ' ') }))} />
        </>
      }
    >
      {grid.fileSizes.length > 0 ? (
        <>
          <HeatTable name={`${name}, file size by record size`} caption={`${name}: file size (rows) by record size (columns)`} corner="file ↓ record →" columns={grid.recordSizes.map(sizeText)} rows={iozoneRows(grid)} unit="B/s" />
          <p className="charts-note">{iozoneSummary(grid, sub, target)}</p>
        </>
      ) : (
        <p className="charts-note">{`iozone measured no ${sub} on ${target}.`}</p>
      )}
    </ChartCard>
  )
}

/** "write on host: 63 cells measured, from 1.2 GiB/s (64 MiB file, 4 KiB records) to 39.5 GiB/s (…)." */
export function iozoneSummary(grid: IozoneGrid, subtest: string, side: string): string {
  const cells = grid.fileSizes.flatMap((file, r) => grid.recordSizes.flatMap((record, c) => (grid.cells[r]?.[c] ? [{ file, record, value: grid.cells[r]![c]!.value }] : [])))
  if (cells.length === 0) return `iozone measured no ${subtest} on ${side}.`
  const low = cells.reduce((a, b) => (b.value < a.value ? b : a))
  const high = cells.reduce((a, b) => (b.value > a.value ? b : a))
  const where = (c: { file: number; record: number }) => `${sizeText(c.file)} file, ${sizeText(c.record)} records`
  return `${subtest.replace(/_/g, ' ')} on ${side}: ${cells.length} cells measured, from ${formatValue(low.value, 'B/s')} (${where(low)}) to ${formatValue(high.value, 'B/s')} (${where(high)}).`
}
