import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { VirtbenchPreloadApi } from '../../../src/shared/contract'

// Electron cannot run here, so its two preload APIs are stood in by recorders: the test checks
// what the preload hands to them, which is all the preload decides.
const exposed = new Map<string, unknown>()
const ipc = {
  invoke: vi.fn(async (channel: string, payload: unknown) => ({ ok: true, value: { channel, payload } })),
  on: vi.fn(),
  removeListener: vi.fn()
}
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: ipc
}))

async function loadPreload(): Promise<VirtbenchPreloadApi> {
  vi.resetModules()
  exposed.clear()
  await import('../../../src/preload/index')
  return exposed.get('virtbench') as VirtbenchPreloadApi
}

describe('preload', () => {
  beforeEach(() => {
    ipc.invoke.mockClear()
    ipc.on.mockClear()
    ipc.removeListener.mockClear()
  })

  it('exposes only window.virtbench with invoke and on, never ipcRenderer itself', async () => {
    const api = await loadPreload()
    expect([...exposed.keys()]).toEqual(['virtbench'])
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on'])
    expect(Object.values(api)).not.toContain(ipc)
  })

  it('forwards contract channels and refuses others without touching IPC', async () => {
    const api = await loadPreload()
    expect(await api.invoke('settings:update', { theme: 'dark' })).toEqual({
      ok: true,
      value: { channel: 'settings:update', payload: { theme: 'dark' } }
    })
    expect(await api.invoke('fs:readFile' as never, '/etc/shadow')).toMatchObject({
      ok: false,
      error: { code: 'unknown-channel' }
    })
    expect(ipc.invoke).toHaveBeenCalledTimes(1)
  })

  it('passes event payloads without the IPC event object, and unsubscribes', async () => {
    const api = await loadPreload()
    const seen: unknown[] = []
    const off = api.on('settings:changed', (payload) => seen.push(payload))
    const [channel, wrapped] = ipc.on.mock.calls[0] as [string, (event: unknown, payload: unknown) => void]
    expect(channel).toBe('settings:changed')
    wrapped({ sender: 'the ipc event' }, { theme: 'light' })
    expect(seen).toEqual([{ theme: 'light' }])
    off()
    expect(ipc.removeListener).toHaveBeenCalledWith('settings:changed', wrapped)
    expect(typeof api.on('ipc:anything' as never, () => {})).toBe('function')
    expect(ipc.on).toHaveBeenCalledTimes(1)
  })
})
