import { type ReactElement } from 'react'
import type { Unit } from '../../../../shared/model/sample'
import { formatValue } from '../../../../shared/format'
import { HEAT_STEPS, heatColours, heatStep } from './palette'

/** One cell of a heatmap: a figure, or the reason there is none. */
export type HeatCell = { value: number; values?: readonly number[] } | { reason: string }

/**
 * A heatmap as an HTML table: each cell's figure always written in it (colour only repeats what
 * the text says), row and column headers for screen readers, a legend with the two ends of the scale.
 */
export function HeatTable({
  caption,
  corner,
  columns,
  rows,
  unit,
  name
}: {
  caption: string
  /** What the rows and the columns are: "from ↓ / to →". */
  corner: string
  columns: string[]
  rows: { header: string; cells: HeatCell[] }[]
  unit: Unit
  /** The scrolling region's accessible name. */
  name: string
}): ReactElement {
  const values = rows.flatMap((r) => r.cells.flatMap((c) => ('value' in c ? [c.value] : [])))
  // From zero (as a bar's axis), so figures a few % apart look alike instead of at both ends.
  const low = Math.min(...values)
  const min = low >= 0 ? 0 : low
  const max = Math.max(...values)
  return (
    <>
      <div className="charts-scroll" role="region" aria-label={name} tabIndex={0}>
        <table className="charts-heat">
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col" className="charts-heat-axis">
                {corner}
              </th>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.header}>
                <th scope="row">{row.header}</th>
                {row.cells.map((cell, i) => {
                  if (!('value' in cell)) {
                    return (
                      <td key={i} className="charts-heat-empty" title={cell.reason}>
                        —<span className="visually-hidden"> ({cell.reason})</span>
                      </td>
                    )
                  }
                  const colours = heatColours(heatStep(cell.value, min, max))
                  const reps = cell.values && cell.values.length > 0 ? `${cell.values.length} repetition${cell.values.length === 1 ? '' : 's'}: ${cell.values.map((v) => formatValue(v, unit)).join(', ')}` : undefined
                  return (
                    <td key={i} style={{ background: colours.background, color: colours.text }} title={reps}>
                      {formatValue(cell.value, unit)}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {values.length > 0 ? (
        <p className="charts-legend" aria-hidden="true">
          <span>{min === 0 ? '0' : formatValue(min, unit)}</span>
          <span className="charts-legend-steps">
            {Array.from({ length: HEAT_STEPS }, (_, i) => (
              <span key={i} style={{ background: heatColours(i).background }} />
            ))}
          </span>
          <span>{`${formatValue(max, unit)} (highest)`}</span>
        </p>
      ) : null}
    </>
  )
}
