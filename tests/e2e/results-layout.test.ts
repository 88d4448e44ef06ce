import { cpSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { startServe, type ServeProcess } from '../harness/serve'

/** The recorded loopback run (tests/fixtures/runs/), copied into serve's run store under its id. */
const RUN_ID = '20261121-004506-13e070'
const RUN_NAME = 'Loopback quick comparison'

describe('the results and the run history lay out in a 1280 x 800 window', () => {
  let serve: ServeProcess
  let session: BrowserSession

  beforeAll(async () => {
    serve = await startServe()
    cpSync(path.join('tests', 'fixtures', 'runs', 'loopback-quick'), path.join(serve.dataDir, 'runs', RUN_ID), { recursive: true })
    session = await launchBrowser({ colorScheme: 'light' })
    await session.page.setViewportSize({ width: 1280, height: 800 })
  })

  afterAll(async () => {
    await session?.close()
    expect(await serve?.stop()).toBe(0)
  })

  it('fits the filter bar and every row’s buttons in the run history', async () => {
    const { page } = session
    await page.goto(serve.url)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Runs' }).click()
    await page.getByRole('button', { name: RUN_NAME, exact: true }).waitFor()
    const overflow = await page.evaluate(() =>
      [...document.querySelectorAll('.runs-filters, .runs-history .table-scroll')].map((e) => ({ cls: e.className, over: e.scrollWidth - e.clientWidth }))
    )
    for (const o of overflow) expect(o.over, `${o.cls} is wider than the page`).toBeLessThanOrEqual(0)
    const main = (await page.getByRole('main').boundingBox())!
    for (const name of ['Clear filters', `Delete ${RUN_NAME}`]) {
      const box = (await page.getByRole('button', { name, exact: true }).boundingBox())!
      expect(box.x + box.width, `${name} is cut off`).toBeLessThanOrEqual(main.x + main.width)
    }
    await session.screenshot('results-layout-runs-1280')
  })

  it('opens a run at its top, with no blank page below it and no text left over from measuring', async () => {
    const { page } = session
    // read the history to its end first: the run must not open down there
    await page.getByRole('main').evaluate((m) => (m.scrollTop = m.scrollHeight))
    await page.getByRole('button', { name: RUN_NAME, exact: true }).click()
    await page.getByRole('heading', { name: 'Charts' }).waitFor()
    await page.locator('.charts-static-svg').first().waitFor()
    expect(await page.getByRole('main').evaluate((m) => m.scrollTop)).toBe(0)
    // hidden chart tables are clipped inside the page: the document is the window, nothing more
    const sizes = await page.evaluate(() => ({ doc: document.documentElement.scrollHeight, body: document.body.scrollHeight, win: window.innerHeight }))
    expect(sizes.doc).toBeLessThanOrEqual(sizes.win)
    expect(sizes.body).toBeLessThanOrEqual(sizes.win)
    // recharts measured its labels and its span went with it
    expect(await page.locator('#recharts_measurement_span').count()).toBe(0)
    // the results use the whole window: no 1200 px column
    const content = (await page.locator('.runs-run-page').boundingBox())!
    expect(content.width).toBeGreaterThan(1000)
    await session.screenshot('results-layout-run-1280')
  })

  it('writes each job’s test title in full in the job table', async () => {
    const { page } = session
    await page.getByText(/^Jobs \(/).first().click()
    await page.locator('.runs-test-title').first().waitFor()
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.runs-test-title')].filter((e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)
    )
    expect(clipped).toEqual([])
    // and the other columns keep their room: the target of each job is there to read
    const columns = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.runs-jobs thead th')].map((th) => [th.textContent?.trim() ?? '', th.clientWidth] as const))
    for (const [name, width] of columns.filter(([n]) => n === 'Test' || n === 'Target')) expect(width, `the ${name} column`).toBeGreaterThan(140)
    await page.locator('.runs-jobs').first().scrollIntoViewIfNeeded()
    await session.screenshot('results-layout-jobs-1280')
  })

  it('opens the next screen at its top', async () => {
    const { page } = session
    await page.getByRole('main').evaluate((m) => (m.scrollTop = 1747))
    expect(await page.getByRole('main').evaluate((m) => m.scrollTop)).toBeGreaterThan(0)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Presets' }).click()
    await page.getByText('Study preset', { exact: true }).first().waitFor()
    expect(await page.getByRole('main').evaluate((m) => m.scrollTop)).toBe(0)
    expect(await page.locator('#recharts_measurement_span').count()).toBe(0)
  })

  it('keeps the date on one line, on the line of the status, beside every button of the toolbar', async () => {
    const { page } = session
    await page.goto(serve.url)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Runs' }).click()
    await page.getByRole('button', { name: RUN_NAME, exact: true }).click()
    await page.getByRole('heading', { name: RUN_NAME, level: 1 }).waitFor()
    await session.screenshot('run-header-1280')
    const header = await page.locator('.runs-run-header').evaluate((h) => {
      const lead = h.querySelector('.runs-run-lead') as HTMLElement
      const date = lead.querySelector('.runs-run-date') as HTMLElement | null
      const chip = lead.querySelector('.runs-status') as HTMLElement
      const buttons = [...h.querySelectorAll('.toolbar .button')].map((b) => (b as HTMLElement).getBoundingClientRect())
      const rect = (e: Element) => e.getBoundingClientRect()
      return {
        dateText: date?.textContent ?? '',
        sides: lead.querySelector('.runs-run-sides')?.textContent ?? '',
        dateLines: date ? date.getClientRects().length : 0,
        dateTop: date ? rect(date).top : -1,
        dateBottom: date ? rect(date).bottom : -1,
        chipTop: rect(chip).top,
        chipBottom: rect(chip).bottom,
        headerRight: rect(h).right,
        buttonsRight: Math.max(...buttons.map((b) => b.right)),
        buttonTops: [...new Set(buttons.map((b) => Math.round(b.top)))]
      }
    })
    expect(header.dateText).toMatch(/2026/)
    expect(header.sides).toBe('host (baseline) vs guest (cache=none)')
    // one box, one line: the date never breaks
    expect(header.dateLines).toBe(1)
    expect(header.dateBottom - header.dateTop).toBeLessThan(30)
    // on the status chip's line, not pushed below it
    expect(header.dateTop).toBeLessThan(header.chipBottom)
    expect(header.dateBottom).toBeGreaterThan(header.chipTop)
    // the toolbar stays in the header, in one row
    expect(header.buttonsRight).toBeLessThanOrEqual(header.headerRight + 0.5)
    expect(header.buttonTops).toHaveLength(1)
  })
})
