import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { startServe, type ServeProcess } from '../harness/serve'

describe('the app shell in Chromium, against virtbench serve', () => {
  let serve: ServeProcess
  let session: BrowserSession

  beforeAll(async () => {
    serve = await startServe()
    session = await launchBrowser({ colorScheme: 'light' })
  })

  afterAll(async () => {
    await session?.close()
    expect(await serve?.stop()).toBe(0)
  })

  it('opens on the start screen, connected, with the real version and data folder', async () => {
    const { page } = session
    await page.goto(serve.url)
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Connected to virtbench serve')
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain(`v${__APP_VERSION__}`)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('What does virtualization cost you?')
    // The token leaves the address bar as soon as the page has read it.
    expect(page.url()).not.toContain(serve.token)
    const nav = page.getByRole('navigation', { name: 'Main' })
    for (const label of ['Targets', 'New comparison', 'Runs', 'Presets', 'Settings']) {
      expect(await nav.getByRole('button', { name: label }).count()).toBe(1)
    }
    await session.screenshot('app-shell-home-light')
  })

  it('shows honest empty states on every screen, with no invented numbers', async () => {
    const { page } = session
    const nav = page.getByRole('navigation', { name: 'Main' })
    const expected: [string, string][] = [
      ['Targets', 'No targets yet'],
      ['New comparison', 'A comparison needs targets first'],
      ['Runs', 'No runs yet']
    ]
    for (const [label, emptyTitle] of expected) {
      await nav.getByRole('button', { name: label }).click()
      expect(await nav.getByRole('button', { name: label }).getAttribute('aria-current')).toBe('page')
      await page.getByRole('heading', { name: emptyTitle }).waitFor()
      // "the 100 % baseline" defines the scale; any other figure with a unit would be invented.
      const text = ((await page.locator('main').textContent()) ?? '').replace('the 100 % baseline', '')
      expect(text, `${label} shows a number that no run produced`).not.toMatch(/\d+(\.\d+)?\s*(%|MB|MiB|GB|IOPS|ms)/)
    }
    // the study presets are there on first start (their parameters are settings, not results)
    await nav.getByRole('button', { name: 'Presets' }).click()
    await page.getByText('Study preset', { exact: true }).first().waitFor()
    expect(await page.getByText('Study preset', { exact: true }).count()).toBe(6)
    await nav.getByRole('button', { name: 'Targets' }).click()
    await session.screenshot('app-shell-targets-empty')
  })

  it('follows the OS theme, and a chosen theme is saved by main and survives a reload', async () => {
    const { page } = session
    const background = (): Promise<string> => page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor')
    expect(await background()).toBe('rgb(246, 247, 249)')
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await background()).toBe('rgb(21, 24, 29)')
    await session.screenshot('app-shell-targets-dark')
    await page.emulateMedia({ colorScheme: 'dark' })

    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('button', { name: 'Settings' }).click()
    await page.getByText(serve.dataDir, { exact: true }).waitFor()
    await page.getByText('Light', { exact: true }).click()
    await expect.poll(background).toBe('rgb(246, 247, 249)')
    await session.screenshot('app-shell-settings')

    await page.reload()
    await nav.getByRole('button', { name: 'Settings' }).click()
    await expect.poll(() => page.locator('input[value="light"]').isChecked()).toBe(true)
    expect(await background()).toBe('rgb(246, 247, 249)')
    await page.getByText('Follow the system', { exact: true }).click()
    await expect.poll(background).toBe('rgb(21, 24, 29)')
  })

  it('ran without console errors or Content-Security-Policy violations', () => {
    expect(session.problems).toEqual([])
  })

  it('without the token, explains what to open instead of failing silently', async () => {
    const page = await session.context.newPage()
    await page.goto(serve.origin + '/')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('VirtBench needs its access token')
    await page.close()
  })
})
