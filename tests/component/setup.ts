import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'
import { polyfillDialog } from './dialog-polyfill'

// jsdom has no layout: recharts' ResponsiveContainer and virtualized lists measure with these.
class FixedResizeObserver {
  private readonly callback: ResizeObserverCallback
  constructor(callback: ResizeObserverCallback) {
    this.callback = callback
  }
  observe(target: Element): void {
    const rect = { x: 0, y: 0, top: 0, left: 0, width: 800, height: 400, right: 800, bottom: 400, toJSON: () => ({}) }
    this.callback([{ target, contentRect: rect } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver)
  }
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= FixedResizeObserver as unknown as typeof ResizeObserver

polyfillDialog()

// findBy* and waitFor give up after this long (Testing Library's default is 1 s): they return as
// soon as what they wait for is there, so only a machine under load ever waits longer
configure({ asyncUtilTimeout: 15_000 })

afterEach(() => {
  cleanup()
})
