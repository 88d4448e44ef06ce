import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactElement, type UIEvent } from 'react'
import type { LogLines } from '../../models/log-buffer'

/** Every line has this height (px): the list is positioned by arithmetic, never by measuring. */
export const LOG_ROW_HEIGHT = 18
/** Rows rendered above and below the visible ones, so a fast scroll shows no blank band. */
const OVERSCAN = 12
/** Used until the scroller has been measured (and where nothing measures, as in tests). */
const FALLBACK_HEIGHT = 320

/**
 * A log of any length that stays smooth: only the rows in view are in the DOM (fixed row height,
 * one translated block), it follows the newest line unless the reader scrolls up, and "Jump to
 * latest" brings it back. `version` changes when lines were added (at most once a frame).
 */
export function LogView({
  lines,
  version,
  label,
  empty = 'No output yet.'
}: {
  lines: LogLines | undefined
  version: number
  /** Names the log for screen readers, e.g. "Live log of Nightly". */
  label: string
  empty?: string
}): ReactElement {
  const scroller = useRef<HTMLDivElement>(null)
  const [viewport, setViewport] = useState(FALLBACK_HEIGHT)
  const [scrollTop, setScrollTop] = useState(0)
  const [follow, setFollow] = useState(true)
  /** Lines there were when the reader scrolled away, to say how many came since. */
  const [seenTotal, setSeenTotal] = useState(0)
  const lastDropped = useRef(0)
  /** The scroll position last seen, to tell the reader's scrolling up from the tail growing. */
  const lastTop = useRef(0)

  const count = lines?.length ?? 0
  const dropped = lines?.dropped ?? 0
  const total = count + dropped
  const contentHeight = count * LOG_ROW_HEIGHT
  const maxTop = Math.max(0, contentHeight - viewport)
  // While following, the window is the tail, whatever the last scroll event said.
  const top = follow ? maxTop : Math.min(scrollTop, maxTop)
  const first = Math.max(0, Math.floor(top / LOG_ROW_HEIGHT) - OVERSCAN)
  const last = Math.min(count, Math.ceil((top + viewport) / LOG_ROW_HEIGHT) + OVERSCAN)

  useEffect(() => {
    const element = scroller.current
    if (!element || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver((entries) => {
      const height = entries[0]?.contentRect.height
      if (height && height > 0) setViewport(height)
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    const removed = dropped - lastDropped.current
    lastDropped.current = dropped
    if (follow) {
      if (element.scrollTop !== maxTop) element.scrollTop = maxTop
    }
    // Lines dropped from the front move the rest up; keep the reader's lines where they were.
    else if (removed > 0) element.scrollTop = Math.max(0, element.scrollTop - removed * LOG_ROW_HEIGHT)
    lastTop.current = element.scrollTop
  }, [version, follow, maxTop, dropped])

  const onScroll = (event: UIEvent<HTMLDivElement>): void => {
    const element = event.currentTarget
    const movedUp = element.scrollTop < lastTop.current - 1
    lastTop.current = element.scrollTop
    setScrollTop(element.scrollTop)
    const atEnd = element.scrollTop + element.clientHeight >= element.scrollHeight - LOG_ROW_HEIGHT / 2
    // Only the reader moving up stops following; our own scroll to a tail that has grown since does not.
    if (follow && movedUp && !atEnd) {
      setFollow(false)
      setSeenTotal(total)
    } else if (!follow && atEnd) setFollow(true)
  }

  // Stop following as soon as the reader means to go up, before the scroll event: at 60 updates a
  // second the next frame would otherwise pull the view back to the tail.
  const stopFollowing = (): void => {
    if (!follow) return
    setFollow(false)
    setSeenTotal(total)
    if (scroller.current) setScrollTop(scroller.current.scrollTop)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.key === 'ArrowUp' || event.key === 'PageUp' || event.key === 'Home') stopFollowing()
  }

  const jumpToLatest = (): void => {
    setFollow(true)
    scroller.current?.focus()
  }

  const rows: ReactElement[] = []
  for (let i = first; i < last && lines; i++) {
    const source = lines.source(i)
    const text = lines.text(i)
    rows.push(
      <div key={dropped + i} className={`runs-log-line runs-log-${source.stream}`} data-line={dropped + i + 1}>
        <span className="runs-log-job">{source.jobId}</span>
        <span className="runs-log-stream">{source.stream === 'stderr' ? 'err' : ''}</span>
        <span className="runs-log-text" title={text.length > 120 ? text : undefined}>
          {text}
        </span>
      </div>
    )
  }

  const newLines = total - seenTotal
  return (
    <div className="runs-log">
      <div
        ref={scroller}
        className="runs-log-scroller"
        role="log"
        aria-live="off"
        aria-label={label}
        tabIndex={0}
        onScroll={onScroll}
        onWheel={(event) => {
          if (event.deltaY < 0) stopFollowing()
        }}
        onKeyDown={onKeyDown}
        // A press on the scroller itself (its scrollbar), not on a line.
        onPointerDown={(event) => {
          if (event.target === event.currentTarget) stopFollowing()
        }}
      >
        {count === 0 ? (
          <p className="runs-log-empty muted">{empty}</p>
        ) : (
          <div className="runs-log-content" style={{ height: contentHeight }}>
            <div className="runs-log-window" style={{ transform: `translateY(${first * LOG_ROW_HEIGHT}px)` }}>
              {rows}
            </div>
          </div>
        )}
      </div>
      <div className="runs-log-foot">
        <span className="muted runs-log-count">
          {total.toLocaleString()} {total === 1 ? 'line' : 'lines'}
          {dropped > 0 ? ` (the oldest ${dropped.toLocaleString()} dropped; every job's full output is in its raw files)` : ''}
        </span>
        {follow ? null : (
          <button type="button" className="button button-small runs-log-jump" onClick={jumpToLatest}>
            Jump to latest{newLines > 0 ? ` (${newLines.toLocaleString()} new)` : ''}
          </button>
        )}
      </div>
    </div>
  )
}
