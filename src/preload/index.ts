import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import { isEventChannel, isInvokeChannel } from '../shared/channels'
import type { Envelope, VirtbenchPreloadApi } from '../shared/contract'

/**
 * Exposes the contract's channels, and nothing else, as `window.virtbench`. The renderer never
 * sees `ipcRenderer` or the IPC event object; unknown channels are refused here before main
 * refuses them again.
 */
const api: VirtbenchPreloadApi = {
  invoke(channel, payload) {
    if (!isInvokeChannel(channel)) {
      return Promise.resolve<Envelope<unknown>>({
        ok: false,
        error: { code: 'unknown-channel', message: `There is no API channel named ${JSON.stringify(channel)}.` }
      })
    }
    return ipcRenderer.invoke(channel, payload) as Promise<Envelope<unknown>>
  },
  on(event, listener) {
    if (!isEventChannel(event) || typeof listener !== 'function') return () => {}
    const wrapped = (_event: IpcRendererEvent, payload: unknown): void => listener(payload)
    ipcRenderer.on(event, wrapped)
    return () => {
      ipcRenderer.removeListener(event, wrapped)
    }
  }
}

contextBridge.exposeInMainWorld('virtbench', api)
