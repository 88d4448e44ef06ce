import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RunStore } from '../../src/main/store/run-store'
import { METRICS, VARIANTS, primaryMetricCount, syntheticRun } from '../../bench/ui-fixtures'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { startServe, type ServeProcess } from '../harness/serve'

const RUN_ID = 'e2e-large-results'
const TABLE = 'section.results table.results-table'

/** Per row of the overhead table: its metric, height, value cells and whether each cell's contents are drawn. */
interface RowState {
  metric: string
  height: number
  cells: number
  /** Cells whose text has "n = 3" in it (every value cell of the synthetic run has three repetitions). */
  withN: number
  /** The row has been drawn in full (one row per task after the table is shown). */
  rowDrawn: boolean
  /** Each cell's content-visibility. */
  visibility: string[]
  drawn: boolean[]
}

/**
 * A cell's own box always exists; content-visibility skips its contents until the cell is near the
 * window, which checkVisibility({ contentVisibilityAuto: true }) of its first child tells.
 */
const ROWS = `[...document.querySelectorAll('${TABLE} tr.results-row')].map((row) => ({
  metric: row.getAttribute('data-metric'),
  height: row.getBoundingClientRect().height,
  cells: row.querySelectorAll('td').length,
  withN: [...row.querySelectorAll('td')].filter((td) => /n = 3/.test(td.textContent)).length,
  rowDrawn: row.classList.contains('results-row-drawn'),
  visibility: [...row.children].map((cell) => getComputedStyle(cell).contentVisibility),
  drawn: [...row.children].map((cell) => !cell.firstElementChild || cell.firstElementChild.checkVisibility({ contentVisibilityAuto: true }))
}))`

describe('the overhead table of a run with 20 variants x 30 metrics', () => {
  let serve: ServeProcess
  let session: BrowserSession
  let primary = 0

  beforeAll(async () => {
    serve = await startServe()
    const run = syntheticRun(RUN_ID, 'Large comparison', new Date(Date.now() - 3_600_000))
    primary = primaryMetricCount(run)
    expect(await new RunStore(path.join(serve.dataDir, 'runs')).add(run)).toBe(true)
    session = await launchBrowser({ colorScheme: 'light' })
    await session.page.setViewportSize({ width: 1280, height: 800 })
  })

  afterAll(async () => {
    await session?.close()
    expect(await serve?.stop()).toBe(0)
  })

  const rows = (): Promise<RowState[]> => session.page.evaluate<RowState[]>(ROWS)

  it('has every row and cell in the document at once, and draws its rows one at a time without moving them', async () => {
    const { page } = session
    await page.goto(serve.url)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Runs' }).click()
    await page.getByRole('button', { name: 'Large comparison', exact: true }).click()
    await page.locator(`${TABLE} tr.results-row`).nth(primary - 1).waitFor({ state: 'attached' })

    const before = await rows()
    expect(before).toHaveLength(primary)
    for (const row of before) {
      // the whole table is there to read (screen readers, find in page, copying): every cell with its figures
      expect(row.cells, row.metric).toBe(VARIANTS + 1)
      expect(row.withN, row.metric).toBe(VARIANTS + 1)
    }
    // a row not drawn yet has its cells drawn only near the window; a drawn row has them all drawn
    for (const row of before) expect(row.visibility.every((v) => v === (row.rowDrawn ? 'visible' : 'auto')), row.metric).toBe(true)

    // then every row is drawn, the cells far right of the window too, before anyone scrolls there
    await expect.poll(async () => (await rows()).every((row) => row.rowDrawn && row.drawn.every(Boolean)), { timeout: 30_000 }).toBe(true)
    const after = await rows()
    // drawing a row moves nothing: every row keeps the height it had before its cells were drawn
    expect(after.map((row) => row.height)).toEqual(before.map((row) => row.height))
    await page.locator(TABLE).evaluate((table) => table.scrollIntoView({ block: 'start' }))
    await session.screenshot('results-large-table-1280')
  })

  it('shows all 30 rows with “All metrics”, each cell with its figures', async () => {
    const { page } = session
    await page.locator('section.results .results-toggle').getByText('All metrics').click()
    await page.locator(`${TABLE} tr.results-row`).nth(METRICS - 1).waitFor({ state: 'attached' })
    const all = await rows()
    expect(all).toHaveLength(METRICS)
    for (const row of all) expect(row.withN, row.metric).toBe(VARIANTS + 1)
    // the rows added are drawn too, one at a time
    await expect.poll(async () => (await rows()).every((row) => row.rowDrawn && row.drawn.every(Boolean)), { timeout: 30_000 }).toBe(true)
  })

  it('draws every cell of a row not drawn yet when printed', async () => {
    const { page } = session
    const lastRow = page.locator(`${TABLE} tr.results-row`).last()
    const state = (): Promise<{ visibility: string; drawn: boolean }> =>
      lastRow.evaluate((row) => {
        const cell = row.lastElementChild as HTMLElement
        return { visibility: getComputedStyle(cell).contentVisibility, drawn: (cell.firstElementChild as HTMLElement).checkVisibility({ contentVisibilityAuto: true }) }
      })
    // the last row as it is before its turn comes: far below and beside the window
    await lastRow.evaluate((row) => row.classList.remove('results-row-drawn'))
    try {
      expect(await state()).toEqual({ visibility: 'auto', drawn: false })
      await page.emulateMedia({ media: 'print' })
      expect(await state()).toEqual({ visibility: 'visible', drawn: true })
    } finally {
      await page.emulateMedia({ media: 'screen' })
      await lastRow.evaluate((row) => row.classList.add('results-row-drawn'))
    }
  })
})
