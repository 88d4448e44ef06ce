import path from 'node:path'
import { app, BrowserWindow, dialog, nativeTheme, shell } from 'electron'
import { isSafeExternalUrl } from '../../shared/contract'
import { createApi } from '../api/handlers'
import { MIN_WINDOW } from '../window-bounds'
import { printReportWindow } from './report-window'
import { wireIpc } from './ipc'
import { createSafeStorageSecretStore } from './safe-storage-secrets'
import { hardenSession, hardenWebContents, ISOLATED_PAGE } from './security'
import { WindowStateKeeper } from './window-state'

/** The desktop app's entry point: one window over the same API the CLI serves. */
const isDev = !app.isPackaged && Boolean(process.env.ELECTRON_RENDERER_URL)
const rendererFile = path.join(__dirname, '../renderer/index.html')
const rendererUrl = isDev ? process.env.ELECTRON_RENDERER_URL! : new URL(`file://${rendererFile}`).href
/** The PDF report's page (docs/export.md), printed in a hidden window. */
const reportPage = isDev ? { url: new URL('report.html', `${process.env.ELECTRON_RENDERER_URL!.replace(/\/?$/, '/')}`).href } : { file: path.join(__dirname, '../renderer/report.html') }

// A second launch hands over to the running window (see 'second-instance') and exits.
const isPrimaryInstance = app.requestSingleInstanceLock()
if (!isPrimaryInstance) app.quit()

app.enableSandbox()
hardenWebContents(rendererUrl)

async function createWindow(): Promise<void> {
  const dataDir = app.getPath('userData')
  let reportSecretsProblem = (message: string): void => console.warn(`VirtBench: ${message}`)
  const secrets = await createSafeStorageSecretStore(dataDir, (message) => reportSecretsProblem(message))
  const api = createApi({
    secrets,
    transport: 'ipc',
    dataDir,
    versions: { node: process.versions.node, electron: process.versions.electron, chrome: process.versions.chrome },
    openExternal: async (url) => {
      if (!isSafeExternalUrl(url)) throw new Error(`Refusing to open ${url}`)
      await shell.openExternal(url)
    },
    onSettingsChanged: (settings) => {
      nativeTheme.themeSource = settings.theme
    },
    printReport: (input) => printReportWindow(input, reportPage),
    chooseFile: async (title) => {
      const options: Electron.OpenDialogOptions = { title, properties: ['openFile'] }
      const owner = BrowserWindow.getFocusedWindow()
      const chosen = owner ? await dialog.showOpenDialog(owner, options) : await dialog.showOpenDialog(options)
      return chosen.canceled ? undefined : chosen.filePaths[0]
    }
  })
  // a sweep (or a setup) going when the app quits is cancelled and its domains put back first (docs/scenarios.md)
  app.on('before-quit', (event) => {
    const settling = api.beforeQuit()
    if (!settling) return
    event.preventDefault()
    void settling.finally(() => app.quit())
  })
  reportSecretsProblem = (message) => api.notify('warning', message)
  nativeTheme.themeSource = (await api.handlers['settings:get'](undefined)).theme

  const keeper = new WindowStateKeeper(dataDir)
  const state = await keeper.restore()
  const window = new BrowserWindow({
    ...state,
    minWidth: MIN_WINDOW.width,
    minHeight: MIN_WINDOW.height,
    show: false,
    title: 'VirtBench',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#15181d' : '#f6f7f9',
    icon: path.join(__dirname, '../../resources/icon.png'),
    autoHideMenuBar: true,
    webPreferences: { preload: path.join(__dirname, '../preload/index.js'), ...ISOLATED_PAGE }
  })
  keeper.track(window)
  const unwire = wireIpc(api, rendererUrl, () => BrowserWindow.getAllWindows())
  window.on('closed', unwire)
  window.once('ready-to-show', () => {
    if (state.maximized) window.maximize()
    window.show()
  })
  if (isDev) await window.loadURL(rendererUrl)
  else await window.loadFile(rendererFile)
}

app.on('second-instance', () => {
  const [window] = BrowserWindow.getAllWindows()
  if (window) {
    if (window.isMinimized()) window.restore()
    window.focus()
  }
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

void app.whenReady().then(async () => {
  if (!isPrimaryInstance) return
  hardenSession(isDev)
  await createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createWindow()
  })
})
