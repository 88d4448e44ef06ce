import { createContext, startTransition, useContext, useEffect, useState } from 'react'

/**
 * Whether charts arrive one at a time (the results view, after its table) or all at once (print,
 * a chart shown alone). recharts takes tens of milliseconds per chart and a page of results has
 * dozens: drawn together they would hold the page for a second or more.
 */
export const ChartStagingContext = createContext(false)

/**
 * How many of `count` drawings to show now. Staged: none at first, then one more in each task
 * after the last one was committed (a transition, so a click or a scroll goes first), and again
 * from none when `key` (what is drawn) changes. Not staged: all of them.
 */
export function useStaged(count: number, key = ''): number {
  return useOneMorePerTask(count, key, useContext(ChartStagingContext))
}

/**
 * useStaged() for any list: with `staged`, none of `count` at first, then one more in each task
 * after the last one was committed (a transition), and again from none when `key` changes; a
 * `count` that grows goes on from where it was. Without `staged`, all of them. `perFrame` waits
 * for a frame between two, for items whose cost is the browser's layout and paint (which would
 * otherwise pile up into one frame) rather than their script.
 */
export function useOneMorePerTask(count: number, key: string, staged: boolean, perFrame = false): number {
  const [state, setState] = useState({ key, shown: 0 })
  const shown = state.key === key ? state.shown : 0
  useEffect(() => {
    if (!staged || shown >= count) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const next = (): void => {
      timer = setTimeout(() => startTransition(() => setState({ key, shown: shown + 1 })), 0)
    }
    const frame = perFrame ? requestAnimationFrame(next) : undefined
    if (!perFrame) next()
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame)
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [staged, key, shown, count, perFrame])
  return staged ? Math.min(shown, count) : count
}
