import { z } from 'zod'

export const WindowState = z.object({
  width: z.number().int().min(400).max(20000),
  height: z.number().int().min(300).max(20000),
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  maximized: z.boolean()
})
export type WindowState = z.infer<typeof WindowState>

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 820, maximized: false }
export const MIN_WINDOW = { width: 960, height: 640 }

/**
 * Fits a remembered window onto the displays there are now: a window saved on a monitor that has
 * since been unplugged comes back centred on the primary display instead of off-screen, and one
 * larger than its display is shrunk to it.
 */
export function fitToDisplays(state: WindowState, workAreas: Rect[], primary: Rect): WindowState {
  const { x, y } = state
  const host =
    x !== undefined && y !== undefined
      ? workAreas.find((a) => overlap(a, { x, y, width: state.width, height: state.height }) >= 0.5)
      : undefined
  const area = host ?? primary
  const width = Math.min(Math.max(state.width, MIN_WINDOW.width), area.width)
  const height = Math.min(Math.max(state.height, MIN_WINDOW.height), area.height)
  if (host && x !== undefined && y !== undefined) {
    return {
      ...state,
      width,
      height,
      x: Math.min(Math.max(x, area.x), area.x + area.width - width),
      y: Math.min(Math.max(y, area.y), area.y + area.height - height)
    }
  }
  return {
    maximized: state.maximized,
    width,
    height,
    x: Math.round(area.x + (area.width - width) / 2),
    y: Math.round(area.y + (area.height - height) / 2)
  }
}

/** The share of `window` that lies inside `area`, 0 to 1. */
function overlap(area: Rect, window: Rect): number {
  const w = Math.min(area.x + area.width, window.x + window.width) - Math.max(area.x, window.x)
  const h = Math.min(area.y + area.height, window.y + window.height) - Math.max(area.y, window.y)
  return w > 0 && h > 0 ? (w * h) / (window.width * window.height) : 0
}
