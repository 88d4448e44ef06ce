import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { INVOKE_CHANNELS } from '../../../../src/shared/channels'
import { createApi, type Api } from '../../../../src/main/api/handlers'

// Electron cannot run here: ipcMain is stood in by a recorder of the handlers wireIpc registers,
// which the test then calls with the sender shapes Electron would pass.
type Handler = (event: unknown, payload: unknown) => Promise<unknown>
const handlers = new Map<string, Handler>()
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: Handler) => handlers.set(channel, handler),
    removeHandler: (channel: string) => handlers.delete(channel)
  }
}))

const RENDERER = 'file:///opt/VirtBench/resources/app.asar/out/renderer/index.html'

function fakeWindow(frameUrl: string) {
  const mainFrame = { url: frameUrl }
  const sent: [string, unknown][] = []
  const webContents = { mainFrame, send: (event: string, payload: unknown) => sent.push([event, payload]) }
  return { window: { webContents, isDestroyed: () => false }, mainFrame, webContents, sent }
}

describe('wireIpc', () => {
  let dataDir: string
  let api: Api

  beforeEach(() => {
    handlers.clear()
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'virtbench-ipc-'))
    api = createApi({ transport: 'ipc', dataDir, versions: { node: process.versions.node } })
  })
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }))

  async function wire(windows: unknown[]) {
    const { wireIpc } = await import('../../../../src/main/electron/ipc')
    return wireIpc(api, RENDERER, () => windows as never)
  }

  it('registers exactly the contract channels and removes them on unwire', async () => {
    const unwire = await wire([])
    expect([...handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort())
    unwire()
    expect(handlers.size).toBe(0)
  })

  it('answers our window main frame, validated by dispatch', async () => {
    const ours = fakeWindow(RENDERER + '#/')
    await wire([ours.window])
    const event = { sender: ours.webContents, senderFrame: ours.mainFrame }
    expect(await handlers.get('app:info')!(event, undefined)).toMatchObject({ ok: true, value: { transport: 'ipc', dataDir } })
    expect(await handlers.get('settings:update')!(event, { theme: 'neon' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-request' }
    })
  })

  it('refuses subframes, foreign pages and windows that are not ours', async () => {
    const ours = fakeWindow(RENDERER)
    const stranger = fakeWindow(RENDERER)
    const navigated = fakeWindow('https://evil.example/')
    await wire([ours.window, navigated.window])
    const refusals = [
      { sender: ours.webContents, senderFrame: { url: RENDERER } },
      { sender: stranger.webContents, senderFrame: stranger.mainFrame },
      { sender: navigated.webContents, senderFrame: navigated.mainFrame },
      { sender: ours.webContents, senderFrame: null }
    ]
    for (const event of refusals) {
      expect(await handlers.get('settings:get')!(event, undefined)).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    }
  })

  it('sends main events to every window', async () => {
    const a = fakeWindow(RENDERER)
    const b = fakeWindow(RENDERER)
    await wire([a.window, b.window])
    api.notify('warning', 'Linux offers only the basic_text secret store')
    expect(a.sent).toHaveLength(1)
    expect(b.sent[0]).toMatchObject(['app:notice', { level: 'warning', message: 'Linux offers only the basic_text secret store' }])
  })
})
