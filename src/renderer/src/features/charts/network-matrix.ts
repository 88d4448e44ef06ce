import type { RunDocument } from '../../../../shared/model/run'
import type { Aggregate } from '../../../../shared/model/tool-ids'
import type { Better, Unit } from '../../../../shared/model/sample'
import { networkMatrices, type NetworkMatrix } from '../../../../shared/network-tables'
import { shortMetric } from './rows'
import { runMetrics } from '../../../../shared/run-metrics'

/**
 * The network matrix as a source x destination grid, from the shared tables
 * (src/shared/network-tables), whose cells already run from where the data came from to where it went.
 */

export interface MatrixCellFigure {
  /** The test's aggregate of the repetitions. */
  value: number
  values: number[]
}

export interface MatrixGrid {
  key: string
  label: string
  testTitle: string
  metric: string
  direction?: string
  unit: Unit
  better: Better
  aggregate: Aggregate
  /** Row and column headers: every machine of the matrix, in the plan's order. */
  machines: string[]
  /** cells[source][destination]: undefined where nothing was measured (and on the diagonal). */
  cells: (MatrixCellFigure | undefined)[][]
}

/** Bandwidth first (what studies 000 and 001 tabulate), a test's primary figure before its others, then the rest in the run's order. */
export function matrixGrids(run: RunDocument): MatrixGrid[] {
  const metrics = runMetrics(run)
  const rank = (m: NetworkMatrix): number => (m.unit === 'bit/s' || m.unit === 'B/s' ? 0 : 2) + (metrics.factsOf(m.testId, m.metric)?.primary ? 0 : 1)
  return networkMatrices(run)
    .map((m, order) => ({ m, order }))
    .sort((a, b) => rank(a.m) - rank(b.m) || a.order - b.order)
    .map(({ m }) => gridOf(m))
    .filter((g) => g.cells.some((row) => row.some((c) => c !== undefined)))
}

function gridOf(m: NetworkMatrix): MatrixGrid {
  const machines = m.targets
  const cells: (MatrixCellFigure | undefined)[][] = machines.map(() => machines.map(() => undefined))
  for (const cell of m.cells) {
    if (cell.value === undefined) continue
    const source = machines.indexOf(cell.from)
    const destination = machines.indexOf(cell.to)
    if (source < 0 || destination < 0) continue
    cells[source]![destination] = { value: cell.value, values: cell.values }
  }
  const direction = m.direction ? ` (${m.direction})` : ''
  return {
    // one grid per network path: the path is in the key, and in the title (the jobs' title names it)
    key: [m.testId, m.metric, m.direction ?? '', ...(m.path ? [m.path] : [])].join('|'),
    label: `${m.testTitle} · ${shortMetric(m.metric)}${direction}`,
    testTitle: m.testTitle,
    metric: m.metric,
    ...(m.direction !== undefined ? { direction: m.direction } : {}),
    unit: m.unit,
    better: m.better,
    aggregate: m.aggregate,
    machines,
    cells
  }
}
