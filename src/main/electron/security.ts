import { app, session, shell, type WebContents } from 'electron'
import { isSafeExternalUrl } from '../../shared/contract'
import { contentSecurityPolicy } from '../../shared/csp'

/**
 * Locks down every web contents the app creates: no navigation away from the renderer, no new
 * windows, no webviews, no permissions; links the user clicks open in their browser only when
 * they are https:// or mailto:.
 */
export function hardenWebContents(rendererUrl: string): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (url !== rendererUrl) event.preventDefault()
    })
    contents.on('will-redirect', (event) => event.preventDefault())
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      if (isSafeExternalUrl(url)) void shell.openExternal(url)
      return { action: 'deny' }
    })
  })
}

export function hardenSession(isDev: boolean): void {
  const ses = session.defaultSession
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  ses.setPermissionCheckHandler(() => false)
  // The page declares the same policy in a <meta> tag; the header also covers http (dev server),
  // where Vite's HMR needs its inline preamble and websocket.
  const csp = contentSecurityPolicy({ dev: isDev })
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } })
  })
}

/** The web preferences of every window VirtBench opens: isolated, sandboxed, no Node. */
export const ISOLATED_PAGE = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  spellcheck: false
} as const
