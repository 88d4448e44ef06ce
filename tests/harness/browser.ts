import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { RESULTS_DIR } from './paths'

export const CHROMIUM = process.env.VIRTBENCH_CHROMIUM ?? '/usr/bin/chromium'

export interface BrowserSession {
  browser: Browser
  context: BrowserContext
  page: Page
  /** Console errors and CSP violations seen so far. */
  problems: string[]
  screenshot: (name: string) => Promise<string>
  close: () => Promise<void>
}

/** Debian's Chromium, headless, with no network of its own beyond loopback. */
export async function launchBrowser(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}. Install it with: sudo apt-get install chromium`)
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic'
    ]
  })
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light'
  })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  return {
    browser,
    context,
    page,
    problems,
    screenshot: async (name) => {
      mkdirSync(RESULTS_DIR, { recursive: true })
      const file = path.join(RESULTS_DIR, `${name}.png`)
      await page.screenshot({ path: file, fullPage: true })
      return file
    },
    close: async () => {
      // Playwright gives each launch a fresh temporary profile and removes it on close.
      await browser.close()
    }
  }
}
