import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { startServe, type ServeProcess } from '../harness/serve'
import { startSshd, type SshdServer } from '../harness/sshd'

/**
 * The whole path an admin takes, in Chromium against `virtbench serve` and two real sshd playing
 * the physical host and a guest: add both targets, accept their host keys, build a comparison
 * with a quick pack, check it, run it, read the overhead table and the charts, save the plan as a
 * preset and reopen it. A screenshot of each step goes to test-results/.
 */
describe('a comparison from the wizard to the results, in Chromium', () => {
  let serve: ServeProcess
  let session: BrowserSession
  let page: Page
  let host: SshdServer
  let guest: SshdServer
  let work: string

  beforeAll(async () => {
    ;[host, guest] = await Promise.all([startSshd(), startSshd()])
    work = mkdtempSync(path.join(os.tmpdir(), 'vb-e2e-work-'))
    serve = await startServe()
    session = await launchBrowser()
    page = session.page
    await page.goto(serve.url)
  })

  afterAll(async () => {
    await session?.close()
    await serve?.stop()
    await Promise.all([host?.stop(), guest?.stop()])
    if (work) rmSync(work, { recursive: true, force: true })
  })

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true })

  async function addTarget(name: string, server: SshdServer, role: 'Physical host' | 'Guest (virtual machine)'): Promise<void> {
    await page.getByRole('button', { name: 'Add target' }).first().click()
    const dialog = page.getByRole('dialog', { name: 'Add target' })
    await dialog.getByLabel('Name', { exact: true }).fill(name)
    await dialog.getByLabel('Address', { exact: true }).fill(server.host)
    await dialog.getByLabel('Port', { exact: true }).fill(String(server.port))
    await dialog.getByLabel('User', { exact: true }).fill(server.username)
    await dialog.getByLabel('Log in with').selectOption('key')
    await dialog.getByLabel('Private key file').fill(server.privateKeyPath)
    await dialog.getByText(role, { exact: true }).click()
    if (role !== 'Physical host') await dialog.getByLabel('Runs on host').selectOption({ label: 'phys' })
    await dialog.getByRole('button', { name: 'Add target' }).click()
    await dialog.waitFor({ state: 'detached' })
  }

  async function acceptHostKey(name: string, server: SshdServer): Promise<void> {
    await page.getByRole('button', { name: `Test connection to ${name}` }).click()
    const question = page.getByRole('alertdialog', { name: `Is this really ${name}?` })
    expect(await question.getByTestId('host-key-fingerprint').textContent()).toBe(server.hostKeyFingerprint)
    await question.getByRole('button', { name: 'Accept and remember' }).click()
    await page.getByRole('region', { name: `Connection test of ${name}` }).getByText('Connection works.').waitFor({ timeout: 30_000 })
  }

  it('adds the physical host and the guest, with their host keys accepted', async () => {
    await nav('Targets').click()
    await addTarget('phys', host, 'Physical host')
    await addTarget('vm1', guest, 'Guest (virtual machine)')
    await acceptHostKey('phys', host)
    await acceptHostKey('vm1', guest)
    await session.screenshot('e2e-1-targets')
  })

  it('builds a comparison: targets, scenario, a quick pack, two repetitions, a work directory', async () => {
    await nav('New comparison').click()
    await page.getByRole('radio', { name: 'Baseline: phys' }).check()
    await page.getByRole('checkbox', { name: 'Guest: vm1' }).check()
    await session.screenshot('e2e-2-wizard-targets')
    await page.getByRole('button', { name: /^Next: / }).click()

    const scenario = page.getByRole('region', { name: 'Scenario of vm1' })
    await scenario.getByLabel('Hypervisor').selectOption({ label: 'KVM' })
    await scenario.getByLabel('Disk cache').selectOption({ label: 'cache=none' })
    await session.screenshot('e2e-3-wizard-scenario')
    await page.getByRole('button', { name: /^Next: / }).click()

    const pack = page.getByRole('article', { name: /block device/i })
    await pack.getByRole('checkbox').check()
    await page.getByLabel('Runs of each test on each target').fill('2')
    await page.getByLabel('Work directory on each target').fill(work)
    await session.screenshot('e2e-4-wizard-tests')
    await page.getByRole('button', { name: /^Next: / }).click()
  })

  it('reviews the exact commands, runs preflight, saves the plan as a preset, and starts', async () => {
    await page.getByLabel('Name of this comparison').fill('e2e phys vs vm1')
    // the exact commands per target, from main's review
    const command = page.getByText(/dd if=\/dev\/zero/).first()
    await command.waitFor({ state: 'attached', timeout: 20_000 })
    expect(await command.textContent()).toContain(`cd '${work}/vb-<run id>-phys' && LC_ALL=C dd if=/dev/zero of=ddfile bs=64M count=1 oflag=direct`)
    // a preset is the plan under its name: saved before preflight, which checks the plan as it is
    await page.getByRole('button', { name: 'Save as preset' }).click()
    const save = page.getByRole('dialog', { name: 'Save as preset' })
    await save.getByLabel('Preset name').fill('e2e phys vs vm1')
    await save.getByRole('button', { name: /^Save/ }).click()
    await save.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Run preflight' }).click()
    await page.getByRole('button', { name: 'Run preflight again' }).waitFor({ timeout: 60_000 })
    const ack = page.getByRole('checkbox', { name: /want to start anyway/ })
    if ((await ack.count()) > 0) await ack.check()
    await session.screenshot('e2e-5-wizard-review')

    const start = page.getByRole('button', { name: 'Start', exact: true })
    // main re-checks the plan after each change: Start opens once that check is back
    for (let i = 0; i < 100 && (await start.getAttribute('aria-disabled')) === 'true'; i++) await page.waitForTimeout(100)
    expect(await start.getAttribute('aria-disabled'), (await page.locator('#wiz-start-why').textContent()) ?? '').not.toBe('true')
    await start.click()
    await page.getByRole('heading', { name: 'e2e phys vs vm1' }).waitFor({ timeout: 20_000 })
    await session.screenshot('e2e-6-run-live')
  })

  it('runs every job and shows the overhead table and the charts', async () => {
    // the run's own summary (from the run document) says it ended, with every job done
    await page.getByText('8 jobs: 8 succeeded').waitFor({ timeout: 120_000 })
    await page.getByText('still running').waitFor({ state: 'detached', timeout: 10_000 })
    const table = page.getByRole('table', { name: /overhead/i }).first()
    await table.waitFor()
    const text = (await table.textContent()) ?? ''
    expect(text).toContain('dd.bandwidth')
    expect(text).toMatch(/\d+(\.\d+)? [KMG]iB\/s/)
    expect(text).toMatch(/\d+ %/)
    expect(await page.getByRole('heading', { name: 'Charts' }).count()).toBeGreaterThan(0)
    await session.screenshot('e2e-7-results')
    expect(session.problems).toEqual([])
  })

  it('lists the saved preset and reopens it as a prefilled wizard', async () => {
    await nav('Presets').click()
    const card = page.getByRole('article', { name: /e2e phys vs vm1/ })
    await card.waitFor()
    await card.getByRole('button', { name: /^Open/ }).click()
    await page.getByText(/From preset/).waitFor()
    expect(await page.getByRole('radio', { name: 'Baseline: phys' }).isChecked()).toBe(true)
    expect(await page.getByRole('checkbox', { name: 'Guest: vm1' }).isChecked()).toBe(true)
    await session.screenshot('e2e-8-preset-reopened')
  })
})
