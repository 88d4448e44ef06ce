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
  const staged = useContext(ChartStagingContext)
  const [state, setState] = useState({ key, shown: 0 })
  const shown = state.key === key ? state.shown : 0
  useEffect(() => {
    if (!staged || shown >= count) return
    const timer = setTimeout(() => startTransition(() => setState({ key, shown: shown + 1 })), 0)
    return () => clearTimeout(timer)
  }, [staged, key, shown, count])
  return staged ? Math.min(shown, count) : count
}
