import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readRun } from '../../src/main/store/run-store'
import { publishToTeamStore } from '../../src/main/team-store/publish'
import type { RunDocument } from '../../src/shared/model/run'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { PG_SUPERUSER, startPostgres, type PostgresServer } from '../harness/postgres'
import { startServe, type ServeProcess } from '../harness/serve'
import { startLab, type Lab } from '../integration/engine/run-harness'
import { makeRun } from '../integration/team-store/team-store-fixture'

/**
 * The team's history in Chromium against `virtbench serve`: a run the engine made on loopback
 * sshd (the checked-in fixture) is published to a real PostgreSQL by a teammate; here, with no
 * local run, the user sets the team store in Settings (the password goes to the keychain, here
 * serve's memory), finds the run on the Runs page marked as the team store's, filters by author,
 * and opens it: its overhead table, read from the store.
 */
describe('the team store in the app, in Chromium', () => {
  let pg: PostgresServer
  let serve: ServeProcess
  let session: BrowserSession
  let page: Page
  let run: RunDocument
  let lab: Lab | undefined
  const fixture = path.resolve(__dirname, '../fixtures/runs/loopback-quick')

  beforeAll(async () => {
    ;[pg, serve, session] = await Promise.all([startPostgres(), startServe(), launchBrowser()])
    pg.psql('CREATE DATABASE team_e2e')
    run = await readRun(fixture)
    const status = await publishToTeamStore(pg.url(PG_SUPERUSER, 'team_e2e'), run, fixture, { raw: 'pointer', author: 'ci@runner', appVersion: 'test' }, { env: { PGPASSWORD: pg.password } })
    expect(status).toBe('published')
    page = session.page
    await page.goto(serve.url)
  })

  afterAll(async () => {
    await session?.close()
    await serve?.stop()
    await pg?.stop()
    await lab?.stop()
  })

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true })

  it('sets the team store in Settings, refusing a URL with a password first', async () => {
    await nav('Settings').click()
    const card = page.getByRole('region', { name: 'Team store' })
    await card.getByLabel('Team store URL').fill(`postgres://${PG_SUPERUSER}:oops@127.0.0.1:${pg.port}/team_e2e`)
    await card.getByRole('button', { name: 'Save team store' }).click()
    await card.getByText('the team store URL holds a password').waitFor()
    await card.getByLabel('Team store URL').fill(pg.url(PG_SUPERUSER, 'team_e2e'))
    await card.getByLabel('Password').fill(pg.password)
    await card.getByRole('button', { name: 'Save team store' }).click()
    await card.getByRole('status').getByText('Saved.').waitFor()
    expect(await card.getByLabel('Password').inputValue()).toBe('')
    await card.getByText('A password is saved').waitFor()
    await session.screenshot('e2e-team-1-settings')
  })

  it("lists the team's run beside the (empty) local history, filters it by author, and opens it from the store", async () => {
    await nav('Runs').click()
    const team = page.getByRole('region', { name: 'Team store' })
    const row = team.locator(`tr[data-team-run="${run.id}"]`)
    await row.waitFor()
    expect(await row.getByText('team store', { exact: true }).count()).toBe(1)
    expect(await row.getByRole('cell', { name: 'ci@runner' }).count()).toBe(1)
    expect(await row.getByRole('cell', { name: run.plan.name }).count()).toBe(1)

    await team.getByLabel('Author').fill('someone-else')
    await team.getByRole('button', { name: 'Search the team store' }).click()
    await team.getByText('No run of the team store matches.').waitFor()
    await team.getByLabel('Author').fill('ci@runner')
    await team.getByRole('button', { name: 'Search the team store' }).click()
    await row.waitFor()

    await row.getByRole('button', { name: run.name }).click()
    const opened = page.getByRole('region', { name: `Team store run ${run.name}` })
    await opened.getByRole('heading', { name: 'Overhead' }).waitFor()
    await opened.getByText('published by ci@runner').waitFor()
    // the table shows the run's variant, computed from the samples read back from the store
    expect(await opened.getByText('guest (cache=none)').count()).toBeGreaterThan(0)
    // main prints a PDF by run id from this computer's history: a team run offers its JSON and the CLI instead
    expect(await opened.getByRole('button', { name: 'Save PDF report' }).count()).toBe(0)
    expect(await opened.getByRole('button', { name: 'Save JSON' }).count()).toBe(1)
    await opened.getByText('This run is read from the team store, so the app cannot print it').waitFor()
    await session.screenshot('e2e-team-2-opened')
    expect(session.problems).toEqual([])
  })

  it('compares a new local run of the preset with the earlier run from the team store (release comparison)', async () => {
    lab = await startLab()
    // a new run of the same preset, made here by the engine (two of the fixture's tests)
    const local = await makeRun(lab, path.join(serve.dataDir, 'runs'), 'local-new', run.plan.name, [
      { pack: 'block-dd', form: 'quick', only: ['dd-latency'] },
      { id: 'ping', tool: 'ping', params: { count: 3, intervalSeconds: 0.2 } }
    ])
    await nav('New comparison').click()
    await nav('Runs').click()
    await page.locator('tr[data-run="local-new"]').getByRole('button', { name: local.run.name, exact: true }).click()
    await page.getByRole('button', { name: 'Compare with an earlier run' }).click()
    const team = page.getByRole('region', { name: 'Compare with a run of the team store' })
    const picker = team.getByLabel(`Old: a run of ${run.plan.name} from the team store`)
    await picker.waitFor()
    expect(await picker.locator('option', { hasText: 'ci@runner' }).count()).toBe(1)
    await picker.selectOption(run.id)
    await team.getByRole('heading', { name: `Release comparison of ${run.plan.name}` }).waitFor()
    // dd-latency and ping are in both runs: each has a verdict row for the guest
    expect(await team.getByText('guest (cache=none)').count()).toBeGreaterThan(0)
    await session.screenshot('e2e-team-3-release')

    // published by hand from the Runs page, it joins the team's history
    await nav('Runs').click()
    const publish = page.getByRole('form', { name: 'Publish a local run' })
    await publish.getByLabel('Publish a local run').selectOption('local-new')
    await publish.getByRole('button', { name: 'Publish' }).click()
    await publish.getByRole('status').getByText('Run local-new is published to the team store.').waitFor()
    await page.getByRole('region', { name: 'Team store' }).locator('tr[data-team-run="local-new"]').waitFor()
    expect(pg.psql("SELECT count(*) FROM virtbench.runs WHERE id = 'local-new'", 'team_e2e').trim()).toBe('1')
    expect(session.problems).toEqual([])
  }, 120_000)
})
