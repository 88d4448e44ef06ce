/** The room a plain-SVG plot's layout leaves around its plot area. */
export interface PlotLayout {
  left: number
  right: number
  bottom: number
  yAxisWidth: number
  xAxisHeight: number
}

/**
 * Where a plot's area lies in a figure of `width` x `height` (`fallbackHeight` when the figure
 * gives none): its left edge (past the y axis), its width, and its bottom (above the x axis).
 */
export function plotFrame(layout: PlotLayout, width: number, height: number | undefined, fallbackHeight: number): { h: number; left: number; plotWidth: number; bottom: number } {
  const h = height ?? fallbackHeight
  const left = layout.left + layout.yAxisWidth
  return { h, left, plotWidth: Math.max(1, width - left - layout.right), bottom: h - layout.bottom - layout.xAxisHeight }
}
