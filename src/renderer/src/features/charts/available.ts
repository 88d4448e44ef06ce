import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import { hasSurfaces } from '../../../../shared/studies/surface-maps'
import { iozoneChoices } from './iozone'
import { latencyData } from './latency'
import { monitorJobs } from './monitor'
import { matrixGrids } from './network-matrix'
import { relativeViews } from './relative'
import { metricChoices } from './rows'

/** In the order the results show them: the wide ones across first, then the narrow cards side by side. */
export const CHART_KINDS = ['grouped-bars', 'relative', 'latency', 'network-matrix', 'monitor', 'iozone'] as const
export type ChartKind = (typeof CHART_KINDS)[number]

/**
 * The charts there is data for, in the order the results show them. iozone's grid is left to the
 * study section's maps (IozoneStudyMaps: every machine's grid, then the relative maps) when they
 * have it (they are drawn from the comparison's rows, this from the run's samples), so that the
 * same grid is not shown twice.
 */
export function availableCharts(run: RunDocument | undefined, comparison: Comparison): ChartKind[] {
  const has: Record<ChartKind, () => boolean> = {
    'grouped-bars': () => metricChoices(comparison).length > 0,
    relative: () => relativeViews(comparison).length > 0,
    latency: () => latencyData(comparison).groups.length > 0,
    'network-matrix': () => run !== undefined && matrixGrids(run).length > 0,
    monitor: () => run !== undefined && monitorJobs(run).length > 0,
    iozone: () => run !== undefined && iozoneChoices(run).subtests.length > 0 && !hasSurfaces(comparison)
  }
  return CHART_KINDS.filter((kind) => has[kind]())
}
