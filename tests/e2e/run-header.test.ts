import { cpSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { startServe, type ServeProcess } from '../harness/serve'

/** The recorded loopback run (tests/fixtures/runs/), copied into serve's run store under its id. */
const RUN_ID = '20261121-004506-13e070'
const RUN_NAME = 'Loopback quick comparison'

describe('the run page header in a 1280 x 800 window', () => {
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
