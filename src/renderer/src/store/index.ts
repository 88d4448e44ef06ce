import { create, type StateCreator } from 'zustand'
import type { AppInfo, Notice, Settings, Theme, VirtbenchApi } from '../../../shared/contract'
import type { ConnectionState } from '../api/bridge-client'
import { createPresetsSlice, type PresetsSlice } from './presets-slice'
import { createRunsSlice, type RunsSlice } from './runs-slice'
import { createTargetsSlice, type TargetsSlice } from './targets-slice'
import { createWizardSlice, type WizardSlice } from './wizard-slice'

export type Page = 'home' | 'targets' | 'comparison' | 'runs' | 'run' | 'compare-runs' | 'release' | 'presets' | 'settings'

export interface NavigationSlice {
  page: Page
  /** The run the 'run' page shows (live while it runs, results after). */
  openRunId: string | undefined
  /** The runs the 'compare-runs' page puts side by side, the first one as the reference. */
  compareRunIds: string[]
  /** The runs the 'release' page compares: a run and an earlier run of its preset (until one is picked, none). */
  releaseRunIds: { newer: string; older: string | undefined } | undefined
  navigate: (page: Page) => void
  openRun: (id: string) => void
  openRunComparison: (ids: string[]) => void
  /** The release comparison of `newer` with `older`; without `older`, the page lists the earlier runs to pick from. */
  openReleaseComparison: (newer: string, older?: string) => void
}

export interface ConnectionSlice {
  api: VirtbenchApi | undefined
  connection: ConnectionState | 'ipc'
  info: AppInfo | undefined
  notices: (Notice & { id: number })[]
  setConnection: (state: ConnectionState | 'ipc') => void
  connect: (api: VirtbenchApi) => Promise<void>
  addNotice: (notice: Notice) => void
  dismissNotice: (id: number) => void
}

export interface SettingsSlice {
  settings: Settings | undefined
  setTheme: (theme: Theme) => Promise<void>
}

export type AppState = NavigationSlice & ConnectionSlice & SettingsSlice & TargetsSlice & WizardSlice & RunsSlice & PresetsSlice

/** Screens a restart can reopen by themselves (not one run, nor a comparison of chosen runs). */
const RESTORABLE: readonly Page[] = ['home', 'targets', 'comparison', 'runs', 'presets', 'settings']
export const LAST_PAGE_KEY = 'virtbench.lastPage'

/** The screen the app was last on (a UI preference, kept by the window, not by main). */
export function lastPage(): Page {
  try {
    const saved = globalThis.localStorage?.getItem(LAST_PAGE_KEY)
    return RESTORABLE.includes(saved as Page) ? (saved as Page) : 'home'
  } catch {
    return 'home'
  }
}

function rememberPage(page: Page): void {
  try {
    globalThis.localStorage?.setItem(LAST_PAGE_KEY, RESTORABLE.includes(page) ? page : 'runs')
  } catch {
    // storage refused (private window): the app opens on the start screen next time
  }
}

export const createNavigationSlice: StateCreator<AppState, [], [], NavigationSlice> = (set) => ({
  page: lastPage(),
  openRunId: undefined,
  compareRunIds: [],
  releaseRunIds: undefined,
  navigate: (page) => {
    rememberPage(page)
    set({ page })
  },
  openRun: (id) => {
    rememberPage('run')
    set({ page: 'run', openRunId: id })
  },
  openRunComparison: (ids) => {
    rememberPage('compare-runs')
    set({ page: 'compare-runs', compareRunIds: ids })
  },
  openReleaseComparison: (newer, older) => {
    rememberPage('release')
    set({ page: 'release', releaseRunIds: { newer, older } })
  }
})

let noticeId = 0

export const createConnectionSlice: StateCreator<AppState, [], [], ConnectionSlice> = (set, get) => ({
  api: undefined,
  connection: 'connecting',
  info: undefined,
  notices: [],
  setConnection: (connection) => set({ connection }),
  connect: async (api) => {
    set({ api })
    api.on('app:notice', (notice) => get().addNotice(notice))
    api.on('settings:changed', (settings) => set({ settings }))
    get().watchTargets(api)
    get().watchRuns(api)
    get().watchPresets(api)
    try {
      const [info, settings] = await Promise.all([api.invoke('app:info'), api.invoke('settings:get')])
      set({ info, settings })
    } catch (error) {
      get().addNotice({ level: 'error', message: errorText(error), at: new Date().toISOString() })
    }
  },
  addNotice: (notice) => set((s) => ({ notices: [...s.notices.slice(-4), { ...notice, id: ++noticeId }] })),
  dismissNotice: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }))
})

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set, get) => ({
  settings: undefined,
  setTheme: async (theme) => {
    const api = get().api
    if (!api) return
    try {
      set({ settings: await api.invoke('settings:update', { theme }) })
    } catch (error) {
      get().addNotice({ level: 'error', message: errorText(error), at: new Date().toISOString() })
    }
  }
})

export const useAppStore = create<AppState>()((...a) => ({
  ...createNavigationSlice(...a),
  ...createConnectionSlice(...a),
  ...createSettingsSlice(...a),
  ...createTargetsSlice(...a),
  ...createWizardSlice(...a),
  ...createRunsSlice(...a),
  ...createPresetsSlice(...a)
}))

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
