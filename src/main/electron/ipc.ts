import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron'
import { INVOKE_CHANNELS } from '../../shared/channels'
import type { Envelope } from '../../shared/contract'
import { dispatch } from '../api/dispatch'
import type { Api } from '../api/handlers'
import { isTrustedRendererUrl } from './trusted-sender'

/**
 * The only place `ipcMain` is used: one handler per contract channel, each checking that the
 * message comes from our window's main frame before `dispatch` validates the payload.
 */
export function wireIpc(api: Api, rendererUrl: string, windows: () => BrowserWindow[]): () => void {
  const trusted = (event: IpcMainInvokeEvent): boolean => {
    const frame = event.senderFrame
    if (!frame || frame !== event.sender.mainFrame) return false
    if (!windows().some((w) => w.webContents === event.sender)) return false
    return isTrustedRendererUrl(frame.url, rendererUrl)
  }
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, async (event, payload: unknown): Promise<Envelope<unknown>> => {
      if (!trusted(event)) {
        return { ok: false, error: { code: 'forbidden', message: `${channel} refused: the sender is not the VirtBench window.` } }
      }
      return dispatch(api.handlers, channel, payload)
    })
  }
  const unsubscribe = api.hub.subscribe((event, payload) => {
    for (const window of windows()) {
      if (!window.isDestroyed()) window.webContents.send(event, payload)
    }
  })
  return () => {
    unsubscribe()
    for (const channel of INVOKE_CHANNELS) ipcMain.removeHandler(channel)
  }
}
