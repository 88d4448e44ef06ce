import { useId, useMemo, type ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import { GroupedBarsGrid } from './grouped-bars-grid'
import { IozoneHeatmap } from './iozone-heatmap'
import { LatencyChart } from './latency-chart'
import { MonitorSeriesChart } from './monitor-series-chart'
import { NetworkMatrixHeatmap } from './network-matrix-heatmap'
import { RelativeChart } from './relative-chart'
import { availableCharts, type ChartKind } from './available'
import { useStaged } from './staged'
import './charts.css'

/** Every chart a run has data for, side by side; charts without data are left out, never drawn empty. */
export function ChartsSection({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement | null {
  const kinds = useMemo(() => availableCharts(run, comparison), [run, comparison])
  const id = useId()
  const drawn = useStaged(kinds.length, run.id)
  // the same elements from one arrival to the next, so React leaves the charts already drawn alone
  const charts = useMemo(() => kinds.map((kind) => chartOf(kind, run, comparison)), [kinds, run, comparison])
  if (kinds.length === 0) return null
  return (
    <section className="charts-section" aria-labelledby={id}>
      <h2 id={id}>Charts</h2>
      <div className="charts-grid">{charts.slice(0, drawn)}</div>
    </section>
  )
}

function chartOf(kind: ChartKind, run: RunDocument, comparison: Comparison): ReactElement {
  switch (kind) {
    case 'grouped-bars':
      return <GroupedBarsGrid key={kind} comparison={comparison} />
    case 'relative':
      return <RelativeChart key={kind} comparison={comparison} />
    case 'latency':
      return <LatencyChart key={kind} comparison={comparison} />
    case 'network-matrix':
      return <NetworkMatrixHeatmap key={kind} run={run} />
    case 'monitor':
      return <MonitorSeriesChart key={kind} run={run} />
    case 'iozone':
      return <IozoneHeatmap key={kind} run={run} />
  }
}

/** The charts of a comparison alone (grouped bars, relative %), e.g. for runs compared side by side. */
export function ComparisonCharts({ comparison }: { comparison: Comparison }): ReactElement | null {
  const kinds = useMemo(() => availableCharts(undefined, comparison).filter((k) => k === 'grouped-bars' || k === 'relative'), [comparison])
  const id = useId()
  if (kinds.length === 0) return null
  return (
    <section className="charts-section" aria-labelledby={id}>
      <h2 id={id}>Charts</h2>
      <div className="charts-grid">
        {kinds.includes('grouped-bars') ? <GroupedBarsGrid comparison={comparison} /> : null}
        {kinds.includes('relative') ? <RelativeChart comparison={comparison} /> : null}
      </div>
    </section>
  )
}
