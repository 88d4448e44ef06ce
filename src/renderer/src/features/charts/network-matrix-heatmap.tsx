import { useMemo, useState, type ReactElement } from 'react'
import type { RunDocument } from '../../../../shared/model/run'
import { formatValue } from '../../../../shared/format'
import { ChartCard, ChartSelect } from './chart-parts'
import { HeatTable, type HeatCell } from './heat-table'
import { matrixGrids, type MatrixGrid } from './network-matrix'
import { aggregateWords } from './rows'

/** The network matrix: every ordered pair of machines, source by destination. */
export function NetworkMatrixHeatmap({ run, grid: initial }: { run: RunDocument; /** The grid shown first (a MatrixGrid key). */ grid?: string }): ReactElement | null {
  const grids = useMemo(() => matrixGrids(run), [run])
  const [selected, setSelected] = useState<string | undefined>(initial)
  const grid = grids.find((g) => g.key === selected) ?? grids[0]
  if (!grid) return null
  return (
    <ChartCard
      title="Network matrix"
      shown={grid.label}
      howToRead={`Rows send, columns receive; each cell is ${aggregateWords(grid.aggregate)} between that pair. Darker is a larger figure; ${grid.better === 'higher' ? 'higher' : 'lower'} is better.`}
      controls={grids.length > 1 ? <ChartSelect label="Figure" value={grid.key} onChange={setSelected} options={grids.map((g) => ({ value: g.key, label: g.label }))} /> : undefined}
    >
      <HeatTable
        name={`${grid.label}, source by destination`}
        caption={`${grid.label}: source (rows) to destination (columns)`}
        corner="from ↓ to →"
        columns={grid.machines}
        rows={matrixRows(grid)}
        unit={grid.unit}
      />
      <p className="charts-note">{matrixSummary(grid)}</p>
    </ChartCard>
  )
}

export function matrixRows(grid: MatrixGrid): { header: string; cells: HeatCell[] }[] {
  return grid.machines.map((source, r) => ({
    header: source,
    cells: grid.machines.map((destination, c) => {
      if (r === c) return { reason: 'the same machine: not measured' }
      const cell = grid.cells[r]?.[c]
      return cell ? { value: cell.value, values: cell.values } : { reason: `not measured: no successful matrix job from ${source} to ${destination}` }
    })
  }))
}

/** "Highest: guest → host, 30.2 Gbit/s; lowest: host → guest, 29.1 Gbit/s." */
export function matrixSummary(grid: MatrixGrid): string {
  const measured = grid.machines.flatMap((source, r) =>
    grid.machines.flatMap((destination, c) => {
      const cell = grid.cells[r]?.[c]
      return cell ? [{ pair: `${source} → ${destination}`, value: cell.value }] : []
    })
  )
  const high = measured.reduce((a, b) => (b.value > a.value ? b : a))
  const low = measured.reduce((a, b) => (b.value < a.value ? b : a))
  const count = `${measured.length} pair${measured.length === 1 ? '' : 's'} measured.`
  if (measured.length === 1) return `${count} ${high.pair}: ${formatValue(high.value, grid.unit)}.`
  return `${count} Highest: ${high.pair}, ${formatValue(high.value, grid.unit)}; lowest: ${low.pair}, ${formatValue(low.value, grid.unit)}.`
}
