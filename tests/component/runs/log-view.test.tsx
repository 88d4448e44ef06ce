import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { LogBuffer, LOG_LINE_CHARS } from '../../../src/renderer/src/models/log-buffer'
import { LOG_ROW_HEIGHT, LogView } from '../../../src/renderer/src/features/runs/log-view'
import { RunPage } from '../../../src/renderer/src/features/runs/run-page'
import { useAppStore } from '../../../src/renderer/src/store'
import { fakeApi, type FakeApi } from '../fake-api'
import { freshId, resetStore, startedRun } from './helpers'

vi.mock('../../../src/renderer/src/features/results/overhead-table', () => ({ OverheadTable: () => <div data-testid="overhead" /> }))

function texts(log: LogBuffer): string[] {
  return Array.from({ length: log.length }, (_, i) => log.text(i))
}

describe('LogBuffer', () => {
  it('splits chunks into lines wherever the chunks were cut, per job and stream', () => {
    const log = new LogBuffer()
    log.append('j0001', 'stdout', 'first li')
    log.append('j0002', 'stdout', 'other job\nsecond ')
    log.append('j0001', 'stdout', 'ne\nsecond line\nthi')
    log.append('j0001', 'stderr', 'warning: slow\n')
    expect(texts(log)).toEqual(['other job', 'first line', 'second line', 'warning: slow'])
    expect([0, 1, 2, 3].map((i) => `${log.source(i).jobId}/${log.source(i).stream}`)).toEqual([
      'j0002/stdout',
      'j0001/stdout',
      'j0001/stdout',
      'j0001/stderr'
    ])
    // the unfinished lines come out when their job ends
    log.flush('j0001')
    expect(log.text(log.length - 1)).toBe('thi')
    expect(log.length).toBe(5)
  })

  it('ends lines at CRLF and shows what a terminal shows after a lone CR', () => {
    const log = new LogBuffer()
    log.append('j1', 'stdout', 'windows line\r')
    log.append('j1', 'stdout', '\n 10%\r 55%\r100% done\r\n')
    expect(texts(log)).toEqual(['windows line', '100% done'])
  })

  it('cuts very long lines and keeps only the newest lines up to its cap', () => {
    const log = new LogBuffer(1000)
    log.append('j1', 'stdout', `${'x'.repeat(LOG_LINE_CHARS + 500)}\n`)
    expect(log.text(0)).toBe(`${'x'.repeat(LOG_LINE_CHARS)} …`)
    for (let i = 1; i <= 2500; i++) log.append('j1', 'stdout', `line ${i}\n`)
    expect(log.length).toBe(1000)
    expect(log.dropped).toBe(1501)
    expect(log.text(0)).toBe('line 1501')
    expect(log.text(999)).toBe('line 2500')
  })
})

function lineCount(total: number, from = 1): string {
  return Array.from({ length: total }, (_, i) => `line ${from + i} of the job output`).join('\n') + '\n'
}

describe('LogView', () => {
  it('renders only a window of 100,000 lines, follows the tail, and jumps back to it', async () => {
    const user = userEvent.setup()
    const log = new LogBuffer()
    log.append('j0007', 'stdout', lineCount(100_000))
    const { rerender } = render(<LogView lines={log} version={1} label="Live log" />)
    const scroller = screen.getByRole('log', { name: 'Live log' })
    const rows = scroller.querySelectorAll('[data-line]')
    expect(rows.length).toBeGreaterThan(10)
    expect(rows.length).toBeLessThan(60)
    expect(rows[rows.length - 1]?.textContent).toContain('line 100000 of the job output')
    expect(screen.getByText('100,000 lines')).toBeTruthy()
    // the content has the full height, so the scrollbar is right
    const content = scroller.querySelector<HTMLElement>('.runs-log-content')
    expect(content?.style.height).toBe(`${100_000 * LOG_ROW_HEIGHT}px`)

    // The reader scrolls up to line ~1000: that is what is shown, and it stays put as lines arrive.
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 400 })
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 100_000 * LOG_ROW_HEIGHT })
    scroller.scrollTop = 1000 * LOG_ROW_HEIGHT
    fireEvent.scroll(scroller)
    expect(scroller.querySelector('[data-line="1001"]')?.textContent).toContain('line 1001 of the job output')
    expect(scroller.querySelector('[data-line="100000"]')).toBeNull()
    log.append('j0007', 'stdout', lineCount(500, 100_001))
    rerender(<LogView lines={log} version={2} label="Live log" />)
    expect(scroller.querySelector('[data-line="1001"]')).toBeTruthy()
    const jump = screen.getByRole('button', { name: 'Jump to latest (500 new)' })

    await user.click(jump)
    await waitFor(() => expect(scroller.querySelector('[data-line="100500"]')?.textContent).toContain('line 100500 of the job output'))
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()
    expect(scroller.querySelectorAll('[data-line]').length).toBeLessThan(60)
  })

  it('stops following the moment the reader scrolls up with the wheel or the keyboard', () => {
    const log = new LogBuffer()
    log.append('j0001', 'stdout', lineCount(5_000))
    render(<LogView lines={log} version={1} label="Live log" />)
    const scroller = screen.getByRole('log', { name: 'Live log' })
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()
    fireEvent.wheel(scroller, { deltaY: 120 })
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()
    fireEvent.wheel(scroller, { deltaY: -120 })
    expect(screen.getByRole('button', { name: 'Jump to latest' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Jump to latest' }))
    expect(screen.queryByRole('button', { name: /Jump to latest/ })).toBeNull()
    fireEvent.keyDown(scroller, { key: 'PageUp' })
    expect(screen.getByRole('button', { name: 'Jump to latest' })).toBeTruthy()
  })

  it('says so while there is no output', () => {
    render(<LogView lines={undefined} version={0} label="Live log" />)
    expect(screen.getByText('No output yet.')).toBeTruthy()
    expect(screen.getByText('0 lines')).toBeTruthy()
  })
})

describe('the live log of a run', () => {
  let id: string
  let api: FakeApi

  beforeEach(() => {
    id = freshId()
    const doc = startedRun(id)
    api = fakeApi({ 'runs:get': () => doc })
    resetStore(api, { page: 'run', openRunId: id, activeRuns: [id] })
  })

  it('stays a small DOM while 100,000 lines stream in as job-log chunks, one store update per frame', async () => {
    render(<RunPage />)
    await screen.findByRole('heading', { level: 1, name: 'Loopback quick comparison' })
    const ticks = useAppStore.getState().logTick
    act(() => {
      api.emit('runs:event', { type: 'job-started', runId: id, jobId: 'j0001', attempt: 1, estimatedSeconds: 10 })
      // 100 chunks of 1,000 lines, each cut in the middle of a line
      const text = lineCount(100_000)
      const size = Math.ceil(text.length / 100)
      for (let at = 0; at < text.length; at += size) {
        api.emit('runs:event', { type: 'job-log', runId: id, jobId: 'j0001', stream: 'stdout', text: text.slice(at, at + size) })
      }
    })
    const scroller = screen.getByRole('log', { name: 'Live log of Loopback quick comparison' })
    await waitFor(() => expect(scroller.querySelector('[data-line]:last-child')?.textContent).toContain('line 100000 of the job output'))
    // one line of our own ("started") plus the job's 100,000
    expect(screen.getByText('100,001 lines')).toBeTruthy()
    expect(scroller.querySelectorAll('[data-line]').length).toBeLessThan(60)
    expect(useAppStore.getState().logTick - ticks).toBeLessThanOrEqual(2)
    expect(scroller.querySelector('[data-line]:last-child .runs-log-job')?.textContent).toBe('j0001')
  })
})
