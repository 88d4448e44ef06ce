import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { RESULTS_DIR } from '../harness/paths'
import { startServe, type ServeProcess } from '../harness/serve'
import { startSshd, type SshdServer } from '../harness/sshd'
import { connectBridge, type BridgeConnection } from '../harness/ws-client'
import { startTestLibvirtd, type TestLibvirtd } from '../integration/scenario/test-libvirtd'

/**
 * The sweep in the wizard, in Chromium against `virtbench serve`: the guest's physical host is a
 * real sshd whose logins reach libvirt's own test driver behind a libvirtd of the test's own
 * (tests/integration/scenario/test-libvirtd.ts: one domain "test" with a virtio disk and 2 vCPUs,
 * whose changes last from one virsh to the next), so the domain list, the XML diff, and every
 * define, restart and live XML of the sweep are real virsh answers. The guest is this computer.
 * The app starts a sweep of io mode x vCPUs (checked on the host's live XML and the guest's
 * processors), shows its reconfigurations as stages, and its results as the sweep's table and
 * matrix. Screenshots go to test-results/ (the run view and the results at 1280x800).
 */
describe('sweeping a guest in the wizard, in Chromium', () => {
  let serve: ServeProcess
  let bridge: BridgeConnection
  let session: BrowserSession
  let page: Page
  let host: SshdServer
  let libvirt: TestLibvirtd
  let work: string
  /** The guest is this computer: its processors are what the vCPU check sees. */
  const cpus = os.cpus().length

  beforeAll(async () => {
    libvirt = await startTestLibvirtd()
    work = mkdtempSync(path.join(os.tmpdir(), 'vb-e2e-sweep-work-'))
    host = await startSshd({ extraConfig: [`SetEnv LIBVIRT_DEFAULT_URI=${libvirt.uri}`] })
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
    await libvirt?.stop()
    if (work) rmSync(work, { recursive: true, force: true })
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
    // the review's time is the sweep's (every step and the restarts); the summary lists every combination
    expect(await page.locator('.wiz-start .wiz-total').textContent()).toMatch(/^Estimated time: about \d+ min \(4 runs, /)
    expect(await page.getByRole('list', { name: 'Combinations of the sweep' }).getByRole('listitem').allTextContents()).toEqual([
      'vm1 (test): cache=none, queues=1',
      'vm1 (test): cache=none, queues=2',
      'vm1 (test): cache=writeback, queues=1',
      'vm1 (test): cache=writeback, queues=2'
    ])
    expect(await page.locator('#wiz-start-why').textContent()).toMatch(/^Run preflight first/)
    expect(session.problems).toEqual([])
  })

  it('starts a sweep of io mode x vCPUs: the run view shows each reconfiguration as a stage, the results the sweep table and matrix', async () => {
    // this computer's guest cannot show a cache mode or queues of a disk it does not have: sweep what the host's XML and its processors show
    await page.getByRole('button', { name: 'Change the scenarios' }).click()
    const sweep = page.getByRole('region', { name: 'Sweep a guest' })
    await sweep.getByRole('checkbox', { name: 'Sweep disk cache' }).uncheck()
    await sweep.getByRole('checkbox', { name: 'Sweep disk queues' }).uncheck()
    await sweep.getByRole('checkbox', { name: 'Sweep io mode' }).check()
    await sweep.getByRole('checkbox', { name: 'io=threads' }).check()
    await sweep.getByRole('checkbox', { name: 'io=io_uring' }).check()
    await sweep.getByRole('checkbox', { name: 'Sweep vCPUs' }).check()
    await sweep.getByLabel('vCPUs values').fill(String(cpus))
    await page.getByRole('button', { name: /^Next: / }).click()
    await page.getByLabel('Runs of each test on each target').fill('1')
    await page.getByLabel('Work directory on each target').fill(work)
    await page.getByRole('button', { name: /^Next: / }).click()
    await page.getByLabel('Name of this comparison').fill('e2e sweep')
    const combos = [`io=threads, vcpus=${cpus}`, `io=io_uring, vcpus=${cpus}`]
    expect(await page.getByRole('list', { name: 'Combinations of the sweep' }).getByRole('listitem').allTextContents()).toEqual(combos.map((c) => `vm1 (test): ${c}`))
    // preflight checks the swept guest too, not the baseline alone
    await page.getByRole('button', { name: 'Run preflight' }).click()
    await page.getByRole('button', { name: 'Run preflight again' }).waitFor({ timeout: 60_000 })
    expect(await page.locator('section.wiz-preflight').textContent()).toContain('vm1')
    const ack = page.getByRole('checkbox', { name: /want to start anyway/ })
    if ((await ack.count()) > 0) await ack.check()
    const consent = page.locator('section.wiz-domains').getByRole('checkbox', { name: /^VirtBench will edit and restart domain test on host kvm-host/ })
    if (!(await consent.isChecked())) await consent.check()
    const start = page.getByRole('button', { name: 'Start', exact: true })
    for (let i = 0; i < 100 && (await start.getAttribute('aria-disabled')) === 'true'; i++) await page.waitForTimeout(100)
    expect(await start.getAttribute('aria-disabled'), (await page.locator('#wiz-start-why').textContent()) ?? '').not.toBe('true')
    await start.click()
    await page.getByRole('heading', { name: 'e2e sweep' }).first().waitFor({ timeout: 20_000 })

    // the last combination's reconfiguration, every step done, then the restore of the original XML
    const stages = page.getByRole('list', { name: 'Domain changes' })
    const last = stages.getByRole('listitem', { name: `Step 2 of 2: ${combos[1]} on test (kvm-host)` })
    await last.waitFor({ timeout: 120_000 })
    await stages.getByRole('listitem', { name: 'Restore test on kvm-host' }).waitFor({ timeout: 120_000 })
    expect(await last.getByRole('progressbar').getAttribute('aria-valuetext')).toBe('5 of 5 steps')
    expect(await last.locator('.runs-domain-step').allTextContents()).toEqual([
      expect.stringMatching(/^✓ Define the new XML \(virsh define\) \(done\)vda io: threads -> io_uring/),
      '✓ Restart the guest (done)',
      "✓ Wait for the guest's SSH (done)",
      expect.stringMatching(/^✓ Verify on the host and in the guest \(done\)host vda io io_uring, host vCPUs \d+, guest processors \d+/),
      `✓ Run the jobs under this setup (done)${combos[1]}`
    ])
    await stages.scrollIntoViewIfNeeded()
    await page.screenshot({ path: path.join(RESULTS_DIR, 'sweep-3-run-view.png') })

    // the results: the study's own table (rows: combinations; columns: primary figures) and the matrix of two factors
    const table = page.getByRole('table', { name: 'Sweep table' })
    await table.waitFor({ timeout: 120_000 })
    await page.getByRole('list', { name: 'Steps of the sweep' }).getByText(/^02-.*: completed in/).waitFor({ timeout: 120_000 })
    expect(await table.locator('tbody th').allTextContents()).toEqual(combos)
    const headers = await table.locator('thead th').allTextContents()
    expect(headers[0]).toBe('scenario')
    expect(headers.some((h) => h.endsWith('· dd.bandwidth'))).toBe(true)
    // every cell a value with its unit and its relative % (each combination measured)
    const cells = await table.locator('tbody td').allTextContents()
    expect(cells).toHaveLength(2 * (headers.length - 1))
    // one repetition per step: each % has the verdict beside it that says the data cannot tell
    for (const cell of cells) expect(cell).toMatch(/^\d+(\.\d+)? \S+ \d+ % can't tell$/)
    const matrix = page.getByRole('table', { name: /^Matrix of .*dd\.bandwidth/ })
    expect(await matrix.locator('thead th').allTextContents()).toEqual([`vcpus=${cpus}`])
    expect(await matrix.locator('tbody th').allTextContents()).toEqual(['io=threads', 'io=io_uring'])
    expect(libvirt.virsh('dumpxml', '--inactive', 'test')).not.toContain("io='io_uring'")
    await table.scrollIntoViewIfNeeded()
    await page.screenshot({ path: path.join(RESULTS_DIR, 'sweep-4-results.png') })

    // the history lists the sweep as one run, with its steps
    const listed = (await bridge.invoke('runs:list', undefined)) as { ok: boolean; value: { runs: { name: string; status: string; sweep?: { steps: number; completed: number } }[] } }
    expect(listed.value.runs.find((r) => r.name === 'e2e sweep')).toMatchObject({ status: 'completed', sweep: { steps: 2, completed: 2 } })
    expect(session.problems).toEqual([])
    // two runs with preflight, the idle checks and their jobs, on a loaded machine: the deadline is generous
  }, 600_000)
})
