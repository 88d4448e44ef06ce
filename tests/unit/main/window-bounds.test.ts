import { describe, expect, it } from 'vitest'
import {
  DEFAULT_WINDOW_STATE,
  fitToDisplays,
  MIN_WINDOW,
  type Rect,
  WindowState
} from '../../../src/main/window-bounds'

// Two monitors side by side: a 1920x1040 primary work area (taskbar below) and a 2560x1400 one right of it.
const primary: Rect = { x: 0, y: 0, width: 1920, height: 1040 }
const right: Rect = { x: 1920, y: 0, width: 2560, height: 1400 }
const bothDisplays = [primary, right]

describe('fitToDisplays', () => {
  it('uses the limits it documents', () => {
    expect(MIN_WINDOW).toEqual({ width: 960, height: 640 })
    expect(WindowState.parse(DEFAULT_WINDOW_STATE)).toEqual({ width: 1280, height: 820, maximized: false })
  })

  it('keeps a window that is on a display that still exists where it was', () => {
    const state = { x: 2100, y: 150, width: 1400, height: 900, maximized: false }
    expect(fitToDisplays(state, bothDisplays, primary)).toEqual(state)
    const onPrimary = { x: 100, y: 50, width: 1280, height: 820, maximized: false }
    expect(fitToDisplays(onPrimary, bothDisplays, primary)).toEqual(onPrimary)
  })

  it('centres a window saved on an unplugged monitor on the primary display', () => {
    const state = { x: 2100, y: 150, width: 1400, height: 900, maximized: false }
    expect(fitToDisplays(state, [primary], primary)).toEqual({
      x: 260,
      y: 70,
      width: 1400,
      height: 900,
      maximized: false
    })
  })

  it('centres a window that has no remembered position on the primary display', () => {
    expect(fitToDisplays(DEFAULT_WINDOW_STATE, bothDisplays, primary)).toEqual({
      x: 320,
      y: 110,
      width: 1280,
      height: 820,
      maximized: false
    })
    expect(fitToDisplays({ x: 100, width: 1280, height: 820, maximized: false }, bothDisplays, primary)).toEqual({
      x: 320,
      y: 110,
      width: 1280,
      height: 820,
      maximized: false
    })
  })

  it('centres on a primary display that does not start at the origin, rounding to whole pixels', () => {
    const offsetPrimary: Rect = { x: -1366, y: 25, width: 1366, height: 743 }
    expect(fitToDisplays({ width: 1001, height: 700, maximized: false }, [offsetPrimary], offsetPrimary)).toEqual({
      x: -1183,
      y: 47,
      width: 1001,
      height: 700,
      maximized: false
    })
  })

  it('shrinks a window bigger than its display to fit it', () => {
    const laptop: Rect = { x: 0, y: 0, width: 1366, height: 728 }
    const state = { x: 0, y: 0, width: 2400, height: 1300, maximized: false }
    expect(fitToDisplays(state, [laptop], laptop)).toEqual({ x: 0, y: 0, width: 1366, height: 728, maximized: false })
  })

  it('shrinks and re-centres an oversized window from an unplugged monitor', () => {
    const laptop: Rect = { x: 0, y: 0, width: 1366, height: 728 }
    const state = { x: 2000, y: 100, width: 2400, height: 1300, maximized: false }
    expect(fitToDisplays(state, [laptop], laptop)).toEqual({ x: 0, y: 0, width: 1366, height: 728, maximized: false })
  })

  it('grows a window below the minimum size to MIN_WINDOW', () => {
    const state = { x: 100, y: 100, width: 400, height: 300, maximized: false }
    expect(fitToDisplays(state, bothDisplays, primary)).toEqual({
      x: 100,
      y: 100,
      width: MIN_WINDOW.width,
      height: MIN_WINDOW.height,
      maximized: false
    })
  })

  it('pulls a window that grew past the right edge of its display back inside', () => {
    const state = { x: 1400, y: 700, width: 500, height: 300, maximized: false }
    expect(fitToDisplays(state, [primary], primary)).toEqual({ x: 960, y: 400, width: 960, height: 640, maximized: false })
  })

  it('pulls a window that hangs half off the left of its display back inside', () => {
    const state = { x: -640, y: 100, width: 1280, height: 820, maximized: false }
    // Exactly half of the window lies on the primary display: enough to count as being on it.
    expect(fitToDisplays(state, [primary], primary)).toEqual({ x: 0, y: 100, width: 1280, height: 820, maximized: false })
  })

  it('pulls a window that hangs off the bottom right of its display back inside', () => {
    // 820 x 540 of its 1000 x 700 are on the display (63 %).
    const state = { x: 1100, y: 500, width: 1000, height: 700, maximized: false }
    expect(fitToDisplays(state, [primary], primary)).toEqual({ x: 920, y: 340, width: 1000, height: 700, maximized: false })
  })

  it('moves a window straddling two displays onto the one that holds most of it', () => {
    const state = { x: 1600, y: 100, width: 1000, height: 800, maximized: false }
    expect(fitToDisplays(state, bothDisplays, primary)).toEqual({ x: 1920, y: 100, width: 1000, height: 800, maximized: false })
  })

  it('centres a window with less than half of it on any display on the primary', () => {
    // 720 x 440 of its 1000 x 700 are on the display (45 %).
    const almostHalf = { x: 1200, y: 600, width: 1000, height: 700, maximized: false }
    expect(fitToDisplays(almostHalf, [primary], primary)).toEqual({ x: 460, y: 170, width: 1000, height: 700, maximized: false })
    const farOff = { x: 1600, y: 900, width: 1000, height: 800, maximized: false }
    expect(fitToDisplays(farOff, [primary], primary)).toEqual({ x: 460, y: 120, width: 1000, height: 800, maximized: false })
  })

  it('preserves the maximized flag whichever way the window is placed', () => {
    const kept = { x: 2100, y: 150, width: 1400, height: 900, maximized: true }
    expect(fitToDisplays(kept, bothDisplays, primary)).toEqual(kept)
    expect(fitToDisplays(kept, [primary], primary)).toEqual({ x: 260, y: 70, width: 1400, height: 900, maximized: true })
    expect(fitToDisplays({ width: 500, height: 400, maximized: true }, [primary], primary)).toEqual({
      x: 480,
      y: 200,
      width: 960,
      height: 640,
      maximized: true
    })
  })
})
