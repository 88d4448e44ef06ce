import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { startServe, type ServeProcess } from '../harness/serve'

/**
 * The release workflow in Chromium against `virtbench serve`: the recorded loopback run
 * (tests/fixtures/runs/loopback-quick) with acceptance criteria in its plan, an earlier run of the
 * same plan in which the guest was twice as fast, and a preset with criteria opened in the wizard.
 */
const FIXTURE = path.join('tests', 'fixtures', 'runs', 'loopback-quick')
const RUN_ID = '20261121-004506-13e070'
const EARLIER_ID = '20261101-004506-0e0e0e'
const ACCEPTANCE = {
  criteria: [
    { name: 'storage keeps 90 % of the host', scope: { category: 'storage' }, atLeastPct: 90 },
    { name: 'no primary figure undecided', noInconclusive: true }
  ]
}

type Doc = { id: string; name: string; createdAt: string; endedAt?: string; plan: Record<string, unknown>; targets: { role: string; label: string }[]; jobs: { side: string; samples: { value: number; better: string }[] }[] }

function putRun(dataDir: string, id: string, change: (doc: Doc) => Doc): void {
  const dir = path.join(dataDir, 'runs', id)
  cpSync(FIXTURE, dir, { recursive: true })
  const doc = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as Doc
  writeFileSync(path.join(dir, 'run.json'), JSON.stringify(change(doc)))
}

describe('acceptance criteria and the release comparison, in Chromium', () => {
  let serve: ServeProcess
  let session: BrowserSession

  beforeAll(async () => {
    serve = await startServe()
    putRun(serve.dataDir, RUN_ID, (doc) => ({ ...doc, plan: { ...doc.plan, acceptance: ACCEPTANCE } }))
    // the last release: the same plan three weeks earlier, with the guest twice as fast as now
    putRun(serve.dataDir, EARLIER_ID, (doc) => {
      const guest = doc.targets.find((t) => t.role === 'variant')!.label
      return {
        ...doc,
        id: EARLIER_ID,
        name: 'Loopback quick comparison (last release)',
        createdAt: '2026-11-01T00:45:06.181Z',
        endedAt: '2026-11-01T00:52:00.000Z',
        plan: { ...doc.plan, acceptance: ACCEPTANCE },
        jobs: doc.jobs.map((j) =>
          j.side !== guest
            ? j
            : { ...j, samples: j.samples.map((s) => ({ ...s, value: s.better === 'higher' ? s.value * 2 : s.better === 'lower' ? s.value / 2 : s.value })) }
        )
      }
    })
    mkdirSync(path.join(serve.dataDir, 'presets'), { recursive: true })
    const plan = (JSON.parse(readFileSync(path.join(FIXTURE, 'run.json'), 'utf8')) as Doc).plan
    writeFileSync(
      path.join(serve.dataDir, 'presets', 'release-gate.json'),
      JSON.stringify({ kind: 'virtbench-preset', version: 1, plan: { ...plan, name: 'release gate', acceptance: ACCEPTANCE } })
    )
    session = await launchBrowser({ colorScheme: 'light' })
  })

  afterAll(async () => {
    await session?.close()
    expect(await serve?.stop()).toBe(0)
  })

  const nav = (name: string) => session.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true })

  it('opens a run with criteria and shows the verdict at the top of its results', async () => {
    const { page } = session
    await page.goto(serve.url)
    await nav('Runs').click()
    await page.getByRole('button', { name: 'Loopback quick comparison', exact: true }).click()
    const verdict = page.getByRole('region', { name: /^Acceptance (passed|failed)$/ })
    await verdict.waitFor()
    // the first thing of the results, on the first screen
    expect(await page.locator('.results').evaluate((r) => r.firstElementChild?.classList.contains('acceptance'))).toBe(true)
    const box = (await verdict.boundingBox())!
    expect(box.y).toBeLessThan(800)
    expect(await verdict.textContent()).toContain('storage keeps 90 % of the host')
    expect(await verdict.textContent()).toContain('no primary figure undecided')
    await session.screenshot('acceptance-verdict-1280')
  })

  it('compares the run with the earlier run of its preset', async () => {
    const { page } = session
    await page.getByRole('button', { name: 'Compare with an earlier run' }).click()
    await page.getByRole('heading', { name: 'Release comparison', level: 1 }).waitFor()
    expect(await page.getByLabel(/^Old: an earlier run of /).inputValue()).toBe(EARLIER_ID)
    const table = page.getByRole('heading', { name: /^guest \(cache=none\) against host: .*\d+ regressed/ })
    await table.waitFor()
    await session.screenshot('release-comparison-1280')
    await page.getByRole('heading', { name: 'What changed on the machines' }).evaluate((h) => h.scrollIntoView({ block: 'end' }))
    await session.screenshot('release-comparison-end-1280')
    // then the trend of the preset over both runs: the guest's figures halved since the last release
    const trend = page.getByRole('region', { name: /^Trend of .* over its last 2 runs$/ })
    await trend.waitFor()
    expect(await trend.locator('tbody tr').first().textContent()).toMatch(/fio\.read\.iops.*%.*%/)
    await trend.evaluate((t) => t.scrollIntoView({ block: 'end' }))
    await session.screenshot('release-trend-1280')
    expect(session.problems).toEqual([])
  })

  it('shows a preset’s criteria in the wizard’s review step', async () => {
    const { page } = session
    await nav('Presets').click()
    await page.getByRole('button', { name: /^Open in the wizard/ }).filter({ hasText: 'release gate' }).click()
    await page.getByRole('navigation', { name: 'Steps of the new comparison' }).getByRole('button', { name: /Step 4: Review/ }).click()
    const editor = page.getByRole('region', { name: 'Acceptance criteria' })
    await editor.waitFor()
    expect(await editor.getByText('Reported as: storage keeps 90 % of the host').count()).toBe(1)
    await page.getByRole('heading', { name: 'Acceptance criteria', level: 3 }).evaluate((h) => h.scrollIntoView({ block: 'start' }))
    await session.screenshot('acceptance-criteria-wizard-1280')
  })
})
