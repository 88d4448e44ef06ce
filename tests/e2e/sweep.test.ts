import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { RESULTS_DIR } from '../harness/paths'
import { startServe, type ServeProcess } from '../harness/serve'
import { startSshd, type SshdServer } from '../harness/sshd'
import { connectBridge, type BridgeConnection } from '../harness/ws-client'

/**
 * The sweep in the wizard, in Chromium against `virtbench serve`: the guest's physical host is a
 * real sshd whose logins reach libvirt's own test driver (test:///default, one domain "test"
 * with a virtio disk and 2 vCPUs), so the domain list and the XML diff are real virsh answers.
 * Nothing is started: the run of a sweep is the lab's (tests/integration/lab/sweep.test.ts).
 * Screenshots of the scenario step and the review's diff go to test-results/.
 */
describe('sweeping a guest in the wizard, in Chromium', () => {
  let serve: ServeProcess
  let bridge: BridgeConnection
  let session: BrowserSession
  let page: Page
  let host: SshdServer

  beforeAll(async () => {
    host = await startSshd({ extraConfig: ['SetEnv LIBVIRT_DEFAULT_URI=test:///default'] })
    serve = await startServe()
    bridge = await connectBridge(serve.origin, serve.token)
    const added = (await bridge.invoke('targets:add', {
      target: { kind: 'ssh', name: 'kvm-host', role: 'host', address: host.host, port: host.port, user: host.username, auth: { method: 'key', keyPath: host.privateKeyPath } }
    })) as { ok: boolean; value: { target: { id: string } } }
    expect(added.ok).toBe(true)
    await bridge.invoke('targets:add', { target: { kind: 'local', name: 'vm1', role: 'guest', hostId: added.value.target.id } })
    // the host's key accepted once and for all, as the Targets screen does
    const tested = bridge.invoke('targets:test', { id: added.value.target.id })
    for (let i = 0; i < 300; i++) {
      const question = bridge.events.find((e) => e.event === 'hostkey:question')
      if (question) {
        await bridge.invoke('hostkey:decide', { requestId: (question.payload as { requestId: string }).requestId, decision: 'accept-and-remember' })
        break
      }
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(await tested).toMatchObject({ ok: true, value: { ok: true } })
    session = await launchBrowser()
    page = session.page
    await page.goto(serve.url)
  })

  afterAll(async () => {
    await session?.close()
    await bridge?.close()
    await serve?.stop()
    await host?.stop()
  })

  const shot = (name: string, locator: ReturnType<Page['locator']>): Promise<Buffer> => locator.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`) })

  it('picks the domain from the host, sweeps cache x queues, and shows the matrix and the time', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'New comparison', exact: true }).click()
    await page.getByRole('radio', { name: 'Baseline: kvm-host' }).check()
    await page.getByRole('checkbox', { name: 'Guest: vm1' }).check()
    await page.getByRole('button', { name: /^Next: / }).click()

    const sweep = page.getByRole('region', { name: 'Sweep a guest' })
    await sweep.getByRole('button', { name: 'Sweep a guest…' }).click()
    await sweep.getByRole('button', { name: 'List the domains on kvm-host' }).click()
    await sweep.getByRole('list', { name: 'Domains on kvm-host' }).getByRole('button', { name: 'test' }).click({ timeout: 30_000 })
    expect(await sweep.getByLabel('libvirt domain').inputValue()).toBe('test')
    await sweep.getByRole('checkbox', { name: 'Sweep disk cache' }).check()
    await sweep.getByRole('checkbox', { name: 'cache=none' }).check()
    await sweep.getByRole('checkbox', { name: 'cache=writeback' }).check()
    await sweep.getByRole('checkbox', { name: 'Sweep disk queues' }).check()
    await sweep.getByLabel('Disk queues values').fill('1, 2')
    const matrix = sweep.getByRole('table')
    expect(await matrix.locator('td').allTextContents()).toEqual(['#1 cache=none, queues=1', '#2 cache=none, queues=2', '#3 cache=writeback, queues=1', '#4 cache=writeback, queues=2'])
    // the tests come later: until then main names what the plan lacks
    await page.getByRole('button', { name: /^Next: / }).click()
    await page.getByRole('article', { name: /block device/i }).getByRole('checkbox').check()
    await page.getByRole('button', { name: 'Back', exact: true }).click()
    await sweep.getByText(/^Estimated time: /).waitFor({ timeout: 20_000 })
    expect(await sweep.locator('.wiz-sweep-time').textContent()).toMatch(/^Estimated time: about \d+ min \(4 runs, .* up to 5 restarts of the guest, one per step and the restore, counted 90 s each/)
    await shot('sweep-1-scenario-step', sweep)
  })

  it('reviews the exact XML diff of each combination, read from the host, and asks for consent', async () => {
    await page.getByRole('button', { name: /^Next: / }).click()
    await page.getByRole('button', { name: /^Next: / }).click()
    const domains = page.locator('section.wiz-domains')
    await domains.getByRole('button', { name: 'Show the XML changes of test' }).click()
    const first = domains.getByLabel('XML diff for cache=none, queues=1')
    await first.waitFor({ timeout: 30_000 })
    expect(await first.textContent()).toContain("+       <driver name='qemu' cache='none' queues='1'/>")
    expect(await domains.getByRole('listitem', { name: 'cache=writeback, queues=2' }).textContent()).toContain('test restarts: the new vda driver takes effect at its next boot')
    const consent = domains.getByRole('checkbox', { name: 'VirtBench will edit and restart domain test on host kvm-host; the original XML is saved and restored at the end.' })
    expect(await consent.isChecked()).toBe(false)
    await consent.check()
    await shot('sweep-2-review-diff', domains)
    // the review's time is the sweep's (every step and the restarts), and Start says where a sweep runs today
    expect(await page.locator('.wiz-start .wiz-total').textContent()).toMatch(/^Estimated time: about \d+ min \(4 runs, /)
    expect(await page.locator('#wiz-start-why').textContent()).toMatch(/^(Run preflight first|The app does not run sweeps yet)/)
    expect(session.problems).toEqual([])
  })
})
