import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { launchBrowser, type BrowserSession } from '../harness/browser'
import { startServe, type ServeProcess } from '../harness/serve'
import { startSshd, type SshdServer } from '../harness/sshd'

/** This machine's PRETTY_NAME, read here independently of the app. */
function prettyOsName(): string {
  const line = readFileSync('/etc/os-release', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('PRETTY_NAME='))
  return (line ?? '').slice('PRETTY_NAME='.length).replace(/^"|"$/g, '')
}

/** A loopback port nothing listens on (bound, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** The accessible label or the text of the focused element (page code, so given as a string). */
function focusedText(page: Page): Promise<string> {
  return page.evaluate<string>(
    "(() => { const el = document.activeElement; return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '') : '' })()"
  )
}

function focusedId(page: Page): Promise<string> {
  return page.evaluate<string>("document.activeElement?.id ?? ''")
}

/** The error text a field's aria-describedby points at. */
async function describedError(page: Page, field: Locator): Promise<string> {
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean)
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()))
  return texts.join(' | ')
}

describe('the Targets screen in Chromium, against virtbench serve and a real sshd', () => {
  let serve: ServeProcess
  let session: BrowserSession
  let sshd: SshdServer
  let tempDir: string
  /** alpha's port in the imported ssh config: nothing listens there. */
  let alphaPort: number

  beforeAll(async () => {
    tempDir = mkdtempSync(path.join(os.tmpdir(), 'virtbench-targets-e2e-'))
    sshd = await startSshd()
    serve = await startServe()
    session = await launchBrowser({ colorScheme: 'light' })
    await session.page.goto(serve.url)
    await session.page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Targets' }).click()
  })

  // A failed step must not leave a modal dialog over the page for the steps after it.
  afterEach(async () => {
    for (let i = 0; i < 3 && (await session.page.locator('dialog[open]').count()) > 0; i++) {
      await session.page.keyboard.press('Escape')
    }
  })

  afterAll(async () => {
    await session?.close()
    await sshd?.stop()
    if (serve) expect(await serve.stop()).toBe(0)
    rmSync(tempDir, { recursive: true, force: true })
  })

  it('starts empty, with both ways in and the warning that serve keeps secrets in memory only', async () => {
    const { page } = session
    const empty = page.getByRole('region', { name: 'No targets yet' })
    await empty.waitFor()
    expect(await empty.getByRole('button', { name: 'Add target' }).count()).toBe(1)
    expect(await empty.getByRole('button', { name: 'Import from ~/.ssh/config' }).count()).toBe(1)
    const banner = page.locator('.banner-warning')
    expect(await banner.textContent()).toContain('kept in memory only')
    expect(await banner.textContent()).toContain('Secret store: memory')
  })

  it('adds an SSH target with key login and a label, and lists it', async () => {
    const { page } = session
    await page.getByRole('button', { name: 'Add target' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add target' })
    await dialog.waitFor()
    expect(await dialog.getAttribute('aria-modal')).toBe('true')
    expect(await focusedId(page)).toBe(await dialog.getByLabel('Name', { exact: true }).getAttribute('id'))

    await dialog.getByLabel('Name', { exact: true }).fill('bench-host')
    await dialog.getByLabel('Address', { exact: true }).fill(sshd.host)
    await dialog.getByLabel('Port', { exact: true }).fill(String(sshd.port))
    await dialog.getByLabel('User', { exact: true }).fill(sshd.username)
    await dialog.getByLabel('Log in with').selectOption('key')
    await dialog.getByLabel('Private key file').fill(sshd.privateKeyPath)
    await page.evaluate("document.querySelector('dialog[open] .dialog-body').scrollTop = 0")
    await session.screenshot('targets-form')
    await dialog.getByRole('button', { name: 'Add label' }).click()
    await dialog.getByLabel('Label 1 name').fill('rack')
    await dialog.getByLabel('Label 1 value').fill('r1')
    await dialog.getByLabel('sudo', { exact: true }).selectOption('password')
    const sudo = dialog.getByLabel('sudo password')
    expect(await sudo.getAttribute('type')).toBe('password')
    expect(await sudo.getAttribute('autocomplete')).toBe('off')
    await dialog.getByLabel('sudo', { exact: true }).selectOption('none')
    expect(await dialog.getByLabel('sudo password').count()).toBe(0)
    await session.screenshot('targets-form-labels')

    await dialog.getByRole('button', { name: 'Add target' }).click()
    await dialog.waitFor({ state: 'detached' })

    const row = page.locator('tr[data-target="bench-host"]')
    await row.waitFor()
    const text = (await row.textContent()) ?? ''
    expect(await row.locator('td').first().textContent()).toBe('Host')
    expect(text).toContain(`${sshd.username}@127.0.0.1:${sshd.port}`)
    expect(text).toContain('Key file')
    expect(await row.locator('.key-path').textContent()).toBe(sshd.privateKeyPath)
    expect(text).toContain('sudo not used')
    expect(text).toContain('not tested yet')
    expect(await row.getByRole('listitem').allTextContents()).toEqual(['rack=r1'])
    await session.screenshot('targets-list')
  })

  it('asks about the unknown host key; Escape rejects it and the test fails at that stage', async () => {
    const { page } = session
    await page.getByRole('button', { name: 'Test connection to bench-host' }).click()
    const question = page.getByRole('alertdialog', { name: 'Is this really bench-host?' })
    await question.waitFor()
    expect(await question.getByTestId('host-key-fingerprint').textContent()).toBe(sshd.hostKeyFingerprint)
    expect(await focusedText(page)).toBe('Reject')
    await page.keyboard.press('Escape')
    await question.waitFor({ state: 'detached' })

    const panel = page.getByRole('region', { name: 'Connection test of bench-host' })
    await panel.getByText(/^Connection failed/).waitFor()
    expect(await panel.locator('[data-stage="tcp"]').getAttribute('data-status')).toBe('ok')
    expect(await panel.locator('[data-stage="host-key"]').getAttribute('data-status')).toBe('failed')
    expect(await panel.locator('[data-stage="auth"]').getAttribute('data-status')).toBe('skipped')
    expect(await page.locator('tr[data-target="bench-host"]').textContent()).toContain('not tested yet')
  })

  it('shows the fingerprint sshd really has, and after "Accept and remember" every stage passes', async () => {
    const { page } = session
    await page.getByRole('button', { name: 'Test connection to bench-host' }).click()
    const question = page.getByRole('alertdialog', { name: 'Is this really bench-host?' })
    await question.waitFor()
    expect(await question.getByTestId('host-key-fingerprint').textContent()).toBe(sshd.hostKeyFingerprint)
    const body = (await question.textContent()) ?? ''
    expect(body).toContain(`127.0.0.1:${sshd.port}`)
    expect(body).toContain('ssh-ed25519')
    expect(body).toContain('ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub')
    expect(await focusedText(page)).toBe('Reject')
    await session.screenshot('targets-host-key')
    await question.getByRole('button', { name: 'Accept and remember' }).click()

    const panel = page.getByRole('region', { name: 'Connection test of bench-host' })
    await panel.getByText('Connection works.').waitFor()
    const status = (stage: string): Promise<string | null> => panel.locator(`[data-stage="${stage}"]`).getAttribute('data-status')
    expect([await status('tcp'), await status('host-key'), await status('auth'), await status('sudo'), await status('os')]).toEqual([
      'ok',
      'ok',
      'ok',
      'skipped',
      'ok'
    ])
    expect(await panel.locator('[data-stage="host-key"] .stage-detail').textContent()).toContain(sshd.hostKeyFingerprint)
    expect(await panel.locator('[data-stage="auth"] .stage-detail').textContent()).toContain(sshd.username)
    expect(await panel.locator('[data-stage="os"] .stage-time').textContent()).toMatch(/^\d+ ms$|^\d+\.\d\d s$/)
    const osName = prettyOsName()
    expect(await panel.locator('[data-stage="os"] .stage-detail').textContent()).toContain(osName)
    await session.screenshot('targets-stages')

    const row = page.locator('tr[data-target="bench-host"]')
    await expect.poll(() => row.textContent()).toContain(osName)
    expect(await row.textContent()).not.toContain('not tested yet')
  })

  it('remembers the key: a second test asks nothing and passes', async () => {
    const { page } = session
    const button = page.getByRole('button', { name: 'Test connection to bench-host' })
    await button.click()
    await expect.poll(() => button.textContent()).toBe('Test')
    expect(await page.getByRole('alertdialog').count()).toBe(0)
    expect(await page.getByRole('region', { name: 'Connection test of bench-host' }).getByRole('status').textContent()).toBe(
      'Connection works.'
    )
  })

  it('renames the target, and shows the API’s message next to a bad port', async () => {
    const { page } = session
    await page.getByRole('button', { name: 'Edit bench-host' }).click()
    let dialog = page.getByRole('dialog', { name: 'Edit “bench-host”' })
    await dialog.getByLabel('Name', { exact: true }).fill('bench-host-1')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.locator('tr[data-target="bench-host-1"]').waitFor()
    expect(await page.locator('tr[data-target="bench-host"]').count()).toBe(0)
    // The key path and the label came through the edit untouched.
    expect(await page.locator('tr[data-target="bench-host-1"] .key-path').textContent()).toBe(sshd.privateKeyPath)

    await page.getByRole('button', { name: 'Edit bench-host-1' }).click()
    dialog = page.getByRole('dialog', { name: 'Edit “bench-host-1”' })
    const port = dialog.getByLabel('Port', { exact: true })
    await port.fill('70000')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(() => port.getAttribute('aria-invalid')).toBe('true')
    expect(await describedError(page, port)).toBe('a port is between 1 and 65535')
    expect(await dialog.getByRole('alert').textContent()).toContain('One field needs a change')
    expect(await focusedId(page)).toBe(await port.getAttribute('id'))
    await session.screenshot('targets-form-invalid')

    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await focusedText(page)).toBe('Edit bench-host-1')
    expect(await page.locator('tr[data-target="bench-host-1"]').textContent()).toContain(`:${sshd.port}`)
  })

  it('keeps a sudo password without ever showing it, and forgets it on request', async () => {
    const { page } = session
    const secret = 'sudo-secret-4f9a'
    await page.getByRole('button', { name: 'Edit bench-host-1' }).click()
    let dialog = page.getByRole('dialog', { name: 'Edit “bench-host-1”' })
    await dialog.getByLabel('sudo', { exact: true }).selectOption('password')
    await dialog.getByLabel('sudo password').fill(secret)
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await dialog.waitFor({ state: 'detached' })
    const row = page.locator('tr[data-target="bench-host-1"]')
    await expect.poll(() => row.textContent()).toContain('sudo with password (stored)')

    await page.getByRole('button', { name: 'Edit bench-host-1' }).click()
    dialog = page.getByRole('dialog', { name: 'Edit “bench-host-1”' })
    const stored = dialog.getByRole('group', { name: 'sudo password' })
    expect(await stored.textContent()).toContain('Stored')
    expect(await dialog.locator('input[type="password"]').count()).toBe(0)
    expect(await page.content()).not.toContain(secret)
    await stored.getByRole('button', { name: 'Replace' }).click()
    const input = dialog.getByLabel('sudo password')
    expect(await input.inputValue()).toBe('')
    await dialog.getByRole('button', { name: 'Keep stored' }).click()
    await stored.getByRole('button', { name: 'Clear' }).click()
    expect(await stored.textContent()).toContain('Removed when you save')
    await session.screenshot('targets-form-secret')
    await dialog.getByLabel('sudo', { exact: true }).selectOption('none')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => row.textContent()).toContain('sudo not used')
  })

  it('refuses to delete a host a guest runs on, saying why, then deletes after confirmation', async () => {
    const { page } = session
    await page.getByRole('button', { name: 'Add target' }).click()
    const add = page.getByRole('dialog', { name: 'Add target' })
    await add.getByLabel('Name', { exact: true }).fill('bench-guest')
    await add.getByText('This computer', { exact: true }).click()
    await add.getByText('Guest (virtual machine)', { exact: true }).click()
    await add.getByLabel('Runs on host').selectOption({ label: 'bench-host-1' })
    expect(await add.getByLabel('Address', { exact: true }).count()).toBe(0)
    await add.getByRole('button', { name: 'Add target' }).click()
    await add.waitFor({ state: 'detached' })
    const guest = page.locator('tr[data-target="bench-guest"]')
    expect(await guest.textContent()).toContain('Guest')
    expect(await guest.textContent()).toContain('on bench-host-1')
    expect(await guest.textContent()).toContain('This computer')

    await page.getByRole('button', { name: 'Delete bench-host-1' }).click()
    let confirm = page.getByRole('alertdialog', { name: 'Delete “bench-host-1”?' })
    expect(await focusedText(page)).toBe('Cancel')
    await confirm.getByRole('button', { name: 'Delete target' }).click()
    const refusal = confirm.getByRole('alert')
    await refusal.waitFor()
    expect(await refusal.textContent()).toContain('cannot be removed')
    expect(await refusal.textContent()).toContain('bench-guest')
    await session.screenshot('targets-delete-refused')
    await confirm.getByRole('button', { name: 'Close' }).last().click()
    await confirm.waitFor({ state: 'detached' })
    expect(await page.locator('tr[data-target="bench-host-1"]').count()).toBe(1)

    for (const name of ['bench-guest', 'bench-host-1']) {
      await page.getByRole('button', { name: `Delete ${name}` }).click()
      confirm = page.getByRole('alertdialog', { name: `Delete “${name}”?` })
      await confirm.getByRole('button', { name: 'Delete target' }).click()
      await confirm.waitFor({ state: 'detached' })
      await page.locator(`tr[data-target="${name}"]`).waitFor({ state: 'detached' })
    }
    await page.getByRole('region', { name: 'No targets yet' }).waitFor()
  })

  it('imports two hosts from an ssh config file, with the jump host, and shows them afterwards as already there', async () => {
    const { page } = session
    alphaPort = await closedPort()
    const config = path.join(tempDir, 'ssh_config')
    writeFileSync(
      config,
      [
        'Host alpha',
        '  HostName 127.0.0.1',
        `  Port ${alphaPort}`,
        '  User alice',
        `  IdentityFile ${sshd.privateKeyPath}`,
        '',
        'Host beta',
        '  HostName 127.0.0.1',
        '  User bob',
        '  ProxyJump alpha',
        ''
      ].join('\n')
    )

    await page.getByRole('button', { name: 'Import from ~/.ssh/config' }).click()
    let dialog = page.getByRole('dialog', { name: 'Import from ~/.ssh/config' })
    await dialog.getByLabel('SSH client config file').fill(config)
    await dialog.getByRole('button', { name: 'Read file' }).click()
    await dialog.getByRole('checkbox', { name: 'Import alpha' }).waitFor()
    expect(await dialog.getByRole('checkbox', { name: 'Import alpha' }).isChecked()).toBe(true)
    expect(await dialog.getByRole('checkbox', { name: 'Import beta' }).isChecked()).toBe(true)
    expect(await dialog.locator('tbody tr').nth(1).textContent()).toContain('alpha')
    await session.screenshot('targets-import')
    await dialog.getByRole('button', { name: 'Import 2 targets' }).click()
    const summary = dialog.getByRole('status')
    await summary.waitFor()
    expect(await summary.textContent()).toContain('Added 2 targets: alpha, beta')
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.waitFor({ state: 'detached' })

    expect(await page.locator('tr[data-target="alpha"]').textContent()).toContain(`alice@127.0.0.1:${alphaPort}`)
    expect(await page.locator('tr[data-target="alpha"] .key-path').textContent()).toBe(sshd.privateKeyPath)
    expect(await page.locator('tr[data-target="beta"]').textContent()).toContain('via alpha')
    await session.screenshot('targets-list-imported')

    // Read again: both exist now, so neither can be chosen and the reason is on each row.
    await page.getByRole('button', { name: 'Import from ~/.ssh/config' }).click()
    dialog = page.getByRole('dialog', { name: 'Import from ~/.ssh/config' })
    await dialog.getByLabel('SSH client config file').fill(config)
    await dialog.getByRole('button', { name: 'Read file' }).click()
    const alpha = dialog.getByRole('checkbox', { name: 'Import alpha' })
    await alpha.waitFor()
    expect(await alpha.isDisabled()).toBe(true)
    expect(await dialog.locator('tbody tr').first().textContent()).toContain('a target named "alpha" already exists')
    expect(await dialog.getByRole('button', { name: 'Import 0 targets' }).isDisabled()).toBe(true)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
  })

  it('shows where a connection fails: nothing listens on alpha’s port', async () => {
    const { page } = session
    await page.getByRole('button', { name: 'Test connection to alpha' }).click()
    const panel = page.getByRole('region', { name: 'Connection test of alpha' })
    await panel.getByText(/^Connection failed/).waitFor()
    expect(await panel.locator('[data-stage="tcp"]').getAttribute('data-status')).toBe('failed')
    expect(await panel.locator('[data-stage="tcp"] .stage-detail').textContent()).toContain(`Connection refused by 127.0.0.1:${alphaPort}`)
    expect(await panel.getByRole('status').textContent()).toBe('Connection failed at TCP connection.')
    for (const stage of ['host-key', 'auth', 'sudo', 'os']) {
      expect(await panel.locator(`[data-stage="${stage}"]`).getAttribute('data-status')).toBe('skipped')
    }
    await session.screenshot('targets-test-failed')
    await page.emulateMedia({ colorScheme: 'dark' })
    await session.screenshot('targets-test-failed-dark')
    await page.emulateMedia({ colorScheme: 'light' })
  })

  it('ran without console errors or Content-Security-Policy violations', () => {
    expect(session.problems).toEqual([])
  })
})
