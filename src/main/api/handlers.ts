import type { AppInfo, Notice, Settings, Transport } from '../../shared/contract'
import type { Target } from '../../shared/model/target'
import { MemorySecretStore, type SecretStore } from '../secrets/secrets'
import { openLocalSession } from '../ssh/open-local'
import { resourcesDir, scriptsDir } from '../resources'
import { SettingsStore } from '../store/settings-store'
import { ApiError } from './api-error'
import { createCatalogHandlers } from './catalog-handlers'
import type { Handlers } from './dispatch'
import { EventHub } from './event-hub'
import type { HostKeyDecisions } from './host-key-decisions'
import { createPresetsHandlers } from './presets-handlers'
import { createReportHandlers, type ReportPrinter } from './report-handlers'
import { createRunsHandlers } from './runs-handlers'
import { createScenarioHandlers } from './scenario-handlers'
import { createTargetsHandlers } from './targets-handlers'
import { createTeamStoreHandlers } from './team-store-handlers'
import { createToolArchiveHandlers } from './tool-archive-handlers'

/** What differs between the desktop app and `virtbench serve`. */
export interface HostServices {
  transport: Transport
  dataDir: string
  versions: AppInfo['versions']
  /** Opens a vetted URL in the user's browser; absent where main has no desktop to open it on. */
  openExternal?: (url: string) => Promise<void>
  /** Called after settings change, e.g. so Electron can follow the chosen theme. */
  onSettingsChanged?: (settings: Settings) => void
  /** Where passwords and passphrases are kept: the OS keychain in the app; memory in `serve`. */
  secrets?: SecretStore
  /** The user's home, for ~/.ssh/config and ~/.ssh/known_hosts (default: os.homedir()). */
  homeDir?: string
  /** Prints the PDF report: webContents.printToPDF in the app, a system Chromium in `serve`. */
  printReport?: ReportPrinter
  /** The desktop's open-file dialog, for a tool's source archive; absent in `serve` (the path is typed). */
  chooseFile?: (title: string) => Promise<string | undefined>
}

export interface Api {
  handlers: Handlers
  hub: EventHub
  notify(level: Notice['level'], message: string): void
  hostKeys: HostKeyDecisions
  /** Before quitting: puts back the domains of runs that changed them (cancelled, awaited); undefined when none does. */
  beforeQuit(): Promise<void> | undefined
}

/** Builds the API handlers shared by the Electron IPC wiring, the bridge and the tests. */
export function createApi(host: HostServices): Api {
  const hub = new EventHub()
  const notify = (level: Notice['level'], message: string): void =>
    hub.emit('app:notice', { level, message, at: new Date().toISOString() })
  const settings = new SettingsStore(host.dataDir, (problem) => notify('warning', problem))
  const secrets = host.secrets ?? memorySecrets()
  const { decisions, ...targets } = createTargetsHandlers(
    {
      dataDir: host.dataDir,
      secrets,
      openLocal: (target) => openLocalSession(target.name),
      notify,
      ...(host.homeDir !== undefined && { homeDir: host.homeDir })
    },
    hub
  )

  // what the handlers that open sessions to targets share
  const sessions = {
    dataDir: host.dataDir,
    secrets,
    decisions,
    openLocal: (target: Target) => openLocalSession(target.name),
    notify,
    ...(host.homeDir !== undefined && { homeDir: host.homeDir })
  }
  const { active: activeRuns, beforeQuit, ...runs } = createRunsHandlers(sessions, hub)
  void activeRuns

  const catalog = createCatalogHandlers({ ...sessions, scriptsDir: scriptsDir(), appVersion: __APP_VERSION__ })
  const scenario = createScenarioHandlers(sessions)
  const presets = createPresetsHandlers({ dataDir: host.dataDir, resourcesDir: resourcesDir() }, hub)
  const report = createReportHandlers({
    getRun: async (id) => runs['runs:get']({ id }),
    getSweep: async (id) => {
      const sweep = await runs['runs:sweep']({ id })
      return sweep.sweep ? { total: sweep.total, steps: sweep.steps } : undefined
    },
    appVersion: __APP_VERSION__,
    ...(host.printReport ? { printReport: host.printReport } : {})
  })

  const team = createTeamStoreHandlers({ dataDir: host.dataDir, secrets, appVersion: __APP_VERSION__, notify, ...(host.homeDir !== undefined && { homeDir: host.homeDir }) }, hub)

  const handlers: Handlers = {
    'app:info': () => ({
      name: 'VirtBench',
      version: __APP_VERSION__,
      platform: process.platform,
      arch: process.arch,
      versions: host.versions,
      transport: host.transport,
      dataDir: host.dataDir
    }),
    'settings:get': () => settings.get(),
    'settings:update': async (patch) => {
      const next = await settings.update(patch)
      host.onSettingsChanged?.(next)
      hub.emit('settings:changed', next)
      return next
    },
    'shell:openExternal': async ({ url }) => {
      if (!host.openExternal) {
        throw new ApiError('unavailable', 'Opening links is done by the browser in this mode.')
      }
      await host.openExternal(url)
      return { opened: true }
    },
    ...targets,
    ...runs,
    ...catalog,
    ...scenario,
    ...presets,
    ...report,
    ...team,
    ...createToolArchiveHandlers(host.chooseFile ? { chooseFile: host.chooseFile } : {})
  }
  return { handlers, hub, notify, hostKeys: decisions, beforeQuit }
}

/** Without a keychain (`virtbench serve`), secrets live only as long as the process. */
function memorySecrets(): SecretStore {
  const store = new MemorySecretStore()
  return Object.assign(store, {
    backend: 'memory',
    warning: 'Passwords and passphrases entered here are kept in memory only, until virtbench serve stops.'
  })
}
