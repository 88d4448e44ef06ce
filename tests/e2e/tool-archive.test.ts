import { mkdtempSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cacheDir, cacheRoot } from '../../src/main/tools/provision'
import { TOOLS } from '../../src/main/tools/registry'
import { formatValue } from '../../src/shared/format'
import type { RunDocument } from '../../src/shared/model/run'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { RESULTS_DIR } from '../harness/paths'
import { startServe, type ServeProcess } from '../harness/serve'
import { startSshd, type SshdServer } from '../harness/sshd'
import { makeStandInIozoneArchive } from '../harness/stand-in-iozone'
import { connectBridge, type BridgeConnection } from '../harness/ws-client'

/**
 * A tool brought from this computer in the wizard (docs/tools-offline.md), in Chromium against
 * `virtbench serve` and two real sshd on 127.0.0.1 where iozone is not installed: the plan (a
 * preset, which has no file in it) runs iozone; the review step takes the path of a source archive
 * on this computer (a stand-in laid out as iozone's tarball, tests/harness/stand-in-iozone.ts),
 * main checks it, preflight uploads and builds it on both targets with their gcc and make and says
 * so, and the run takes it from the targets' cache and measures with it.
 */
describe('bringing iozone from this computer in the wizard, in Chromium', () => {
  let serve: ServeProcess
  let bridge: BridgeConnection
  let session: BrowserSession
  let page: Page
  let host: SshdServer
  let guest: SshdServer
  let dir: string
  let archive: ReturnType<typeof makeStandInIozoneArchive>

  /** The targets log in as this user: what they build is cached in this home, by the archive's SHA-256. */
  const cached = (): string => cacheDir(cacheRoot(os.homedir()), 'iozone', archive.sha256)

  async function addTarget(name: string, role: 'host' | 'guest', server: SshdServer, hostId?: string): Promise<string> {
    const added = (await bridge.invoke('targets:add', {
      target: { kind: 'ssh', name, role, address: server.host, port: server.port, user: server.username, auth: { method: 'key', keyPath: server.privateKeyPath }, ...(hostId ? { hostId } : {}) }
    })) as { ok: boolean; value: { target: { id: string } } }
    expect(added.ok).toBe(true)
    // its host key accepted once, as the Targets screen does
    const tested = bridge.invoke('targets:test', { id: added.value.target.id })
    for (let i = 0; i < 300; i++) {
      const question = bridge.events.find((e) => e.event === 'hostkey:question' && (e.payload as { targetName: string }).targetName === name)
      if (question) {
        await bridge.invoke('hostkey:decide', { requestId: (question.payload as { requestId: string }).requestId, decision: 'accept-and-remember' })
        break
      }
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(await tested).toMatchObject({ ok: true, value: { ok: true } })
    return added.value.target.id
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vb-e2e-tool-archive-'))
    archive = makeStandInIozoneArchive(dir)
    ;[host, guest] = await Promise.all([startSshd(), startSshd()])
    serve = await startServe()
    bridge = await connectBridge(serve.origin, serve.token)
    const hostId = await addTarget('phys', 'host', host)
    await addTarget('vm1', 'guest', guest, hostId)
    // the plan as a team shares it: a preset, which names no file of this computer
    const saved = (await bridge.invoke('presets:save', {
      preset: {
        kind: 'virtbench-preset',
        version: 2,
        plan: {
          name: 'iozone offline',
          baseline: { target: 'phys' },
          variants: [{ target: 'vm1' }],
          storage: { kind: 'directory', path: path.join(dir, 'work') },
          repetitions: 1,
          idleSeconds: 0,
          tests: [{ id: 'iozone', tool: 'iozone', params: { maxFileSize: '1M', spreadsheet: 'out.wks' } }]
        }
      }
    })) as { ok: boolean }
    expect(saved).toMatchObject({ ok: true })
    session = await launchBrowser()
    page = session.page
    await page.goto(serve.url)
  })

  afterAll(async () => {
    await session?.close()
    await bridge?.close()
    await serve?.stop()
    await Promise.all([host?.stop(), guest?.stop()])
    if (archive) rmSync(cached(), { recursive: true, force: true })
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('takes the archive on the review step, checked by main, with the pinned release named', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Presets', exact: true }).click()
    await page.getByRole('article', { name: /iozone offline/ }).getByRole('button', { name: /^Open/ }).click()
    await page.getByRole('navigation', { name: 'Steps of the new comparison' }).getByRole('button', { name: /Review/ }).click()

    const control = page.getByRole('group', { name: 'IOzone: bring from this computer' })
    await control.getByText(/^Pinned release: IOzone 3\.489/).waitFor({ timeout: 20_000 })
    const file = control.getByLabel('IOzone source archive or program')
    await file.fill(path.join(dir, 'nothing-here.tar.gz'))
    await file.blur()
    await control.getByText(/does not exist on this computer/).waitFor()
    expect(await file.getAttribute('aria-invalid')).toBe('true')

    await file.fill(archive.file)
    await file.blur()
    const status = control.getByRole('status')
    await status.getByText(/^✓ /).waitFor()
    expect(await status.textContent()).toBe(
      `✓ ${formatValue(statSync(archive.file).size, 'B')} source archive (built on each target), SHA-256 ${archive.sha256}: not a pinned release and no SHA-256 given: the run records its checksum (a warning in its findings).`
    )
    await control.screenshot({ path: path.join(RESULTS_DIR, 'e2e-tool-archive-control.png') })
  })

  it('preflight brings it to both targets and says how it arrived; the run measures with it', async () => {
    await page.getByRole('button', { name: 'Run preflight' }).click()
    // the upload and the build by each target's gcc take their time on a loaded machine
    await page.getByRole('button', { name: 'Run preflight again' }).waitFor({ timeout: 300_000 })
    const warnings = page.getByRole('region', { name: /^Warnings/ })
    // both targets log in as one user here, so they share its cache: a target whose preflight
    // checks it after the other's build is done reuses that build (and says so)
    let built = 0
    for (const target of ['phys', 'vm1']) {
      // the upload's and the build's times as measured (they vary, their form does not)
      const fresh = new RegExp(`IOzone on ${target}: uploaded in .+ s and built with ${target}'s compiler in .+ s from replay-iozone\\.tar\\.gz \\(sha256 ${archive.sha256},`)
      const reused = new RegExp(`IOzone on ${target}: built earlier from replay-iozone\\.tar\\.gz \\(sha256 ${archive.sha256},.*\\), reused from `)
      await warnings.getByText(new RegExp(`${fresh.source}|${reused.source}`)).waitFor()
      if ((await warnings.getByText(fresh).count()) === 1) built++
    }
    expect(built).toBeGreaterThanOrEqual(1)
    expect(await page.getByRole('region', { name: /^Errors/ }).count()).toBe(0)
    await page.getByRole('checkbox', { name: /want to start anyway/ }).check()
    await page.locator('.wiz-preflight').screenshot({ path: path.join(RESULTS_DIR, 'e2e-tool-archive-preflight.png') })

    const start = page.getByRole('button', { name: 'Start', exact: true })
    for (let i = 0; i < 100 && (await start.getAttribute('aria-disabled')) === 'true'; i++) await page.waitForTimeout(100)
    expect(await start.getAttribute('aria-disabled'), (await page.locator('#wiz-start-why').textContent()) ?? '').not.toBe('true')
    await start.click()
    await page.getByRole('heading', { name: 'iozone offline' }).waitFor({ timeout: 20_000 })
    await page.getByText('2 jobs: 2 succeeded').waitFor({ timeout: 300_000 })

    const list = (await bridge.invoke('runs:list', undefined)) as { value: { runs: { id: string }[] } }
    const got = (await bridge.invoke('runs:get', { id: list.value.runs[0]!.id })) as { ok: boolean; value: RunDocument }
    const run = got.value
    expect(run.jobs.map((j) => `${j.target} ${j.status}`)).toEqual(['phys succeeded', 'vm1 succeeded'])
    // built by preflight, taken from the cache by the run: the run names the file and its SHA-256
    for (const target of ['phys', 'vm1']) {
      const arrival = run.preflight.find((f) => f.target === target && f.code === 'tool-from-cache')
      expect(arrival?.message).toBe(`IOzone on ${target}: built earlier from replay-iozone.tar.gz (sha256 ${archive.sha256}, not a release VirtBench knows and no SHA-256 given: its checksum is recorded in this run), reused from ${cached()}.`)
    }
    // each job ran the program built in the cache, and kept what it printed as iozone's figures
    const parsed = TOOLS.iozone.parse({ stdout: archive.output, stderr: '', exitCode: 0 })
    for (const job of run.jobs) {
      expect(job.steps.find((step) => step.measured)?.command).toContain(`${cached()}/bin/iozone -Raz -g 1M -b out.wks`)
      expect(job.samples.length).toBe(parsed.ok ? parsed.samples.length : -1)
    }
    expect(job0Value(run)).toBe(parsed.ok ? parsed.samples[0]!.value : NaN)
    expect(JSON.stringify(run.plan)).not.toContain(archive.file)
    expect(session.problems).toEqual([])
  })
})

/** The first figure of the first job, as the run kept it. */
function job0Value(run: RunDocument): number | undefined {
  return run.jobs[0]?.samples[0]?.value
}
