import type { StateCreator } from 'zustand'
import type { VirtbenchApi } from '../../../shared/contract'
import type { NewTargetInput, TargetId, TargetPatchInput, TargetRole } from '../../../shared/model/target'
import {
  ConnectionStageName,
  type ConnectionStage,
  type ConnectionTestResult,
  type HostKeyDecision,
  type HostKeyQuestion,
  type ImportPreview,
  type TargetList,
  type TargetSecrets,
  type TargetView
} from '../../../shared/targets-contract'
import type { AppState } from '.'
import { connectedApi } from './connected-api'
import { apiMessage } from '../lib/api-message'

/** One connection test of one target: the stages seen so far, then the final answer. */
export interface ConnectionTest {
  running: boolean
  stages: ConnectionStage[]
  result?: ConnectionTestResult
  /** Why the test could not run at all (the API refused or the connection to main dropped). */
  error?: string
}

export interface ImportOutcome {
  added: TargetView[]
  skipped: { name: string; reason: string }[]
}

export interface TargetsSlice {
  /** Undefined until the first list has arrived. */
  targets: TargetView[] | undefined
  secretsBackend: TargetList['secretsBackend'] | undefined
  targetsError: string | undefined
  tests: Record<TargetId, ConnectionTest>
  /** Host keys waiting for a person's decision, oldest first. */
  hostKeyQuestions: HostKeyQuestion[]
  watchTargets: (api: VirtbenchApi) => void
  loadTargets: () => Promise<void>
  addTarget: (target: NewTargetInput, secrets?: TargetSecrets) => Promise<TargetView>
  updateTarget: (id: TargetId, patch: TargetPatchInput, secrets?: TargetSecrets) => Promise<TargetView>
  removeTarget: (id: TargetId) => Promise<void>
  previewImport: (path?: string) => Promise<ImportPreview>
  /** Imports Host entries by name, each with the role chosen for it (Host when not given). */
  importTargets: (names: string[], path?: string, roles?: Record<string, TargetRole>) => Promise<ImportOutcome>
  testTarget: (id: TargetId) => Promise<void>
  dismissTest: (id: TargetId) => void
  decideHostKey: (requestId: string, decision: HostKeyDecision) => Promise<void>
}

/** The stages in the order a connection goes through them. */
export const STAGE_ORDER = ConnectionStageName.options

/** `stages` with `next` in its place (a stage reported again replaces its earlier report). */
export function mergeStage(stages: readonly ConnectionStage[], next: ConnectionStage): ConnectionStage[] {
  const merged = [...stages.filter((s) => s.stage !== next.stage), next]
  return merged.sort((a, b) => STAGE_ORDER.indexOf(a.stage) - STAGE_ORDER.indexOf(b.stage))
}

function withView(views: TargetView[] | undefined, view: TargetView): TargetView[] | undefined {
  if (!views) return views
  const known = views.some((v) => v.target.id === view.target.id)
  return known ? views.map((v) => (v.target.id === view.target.id ? view : v)) : [...views, view]
}

export const createTargetsSlice: StateCreator<AppState, [], [], TargetsSlice> = (set, get) => {
  /** Counts lists as they arrive, so a slow `targets:list` answer never overwrites a newer event. */
  let listGeneration = 0
  let watching: VirtbenchApi | undefined

  const api = (): VirtbenchApi => connectedApi(get())

  const applyList = (list: TargetList): void => {
    listGeneration++
    set({ targets: list.targets, secretsBackend: list.secretsBackend, targetsError: undefined })
  }

  const patchTest = (id: TargetId, change: (test: ConnectionTest) => ConnectionTest): void =>
    set((s) => ({ tests: { ...s.tests, [id]: change(s.tests[id] ?? { running: false, stages: [] }) } }))

  return {
    targets: undefined,
    secretsBackend: undefined,
    targetsError: undefined,
    tests: {},
    hostKeyQuestions: [],

    watchTargets: (source) => {
      if (watching === source) return
      watching = source
      source.on('targets:changed', applyList)
      source.on('targets:testProgress', ({ targetId, ...stage }) => {
        if (get().tests[targetId]?.running) patchTest(targetId, (t) => ({ ...t, stages: mergeStage(t.stages, stage) }))
      })
      source.on('hostkey:question', (question) =>
        set((s) =>
          s.hostKeyQuestions.some((q) => q.requestId === question.requestId)
            ? s
            : { hostKeyQuestions: [...s.hostKeyQuestions, question] }
        )
      )
    },

    loadTargets: async () => {
      const generation = listGeneration
      try {
        const list = await api().invoke('targets:list')
        if (generation === listGeneration) applyList(list)
      } catch (error) {
        set({ targetsError: apiMessage(error) })
      }
    },

    addTarget: async (target, secrets) => {
      const view = await api().invoke('targets:add', { target, secrets })
      set((s) => ({ targets: withView(s.targets, view) }))
      return view
    },

    updateTarget: async (id, patch, secrets) => {
      const view = await api().invoke('targets:update', { id, patch, secrets })
      set((s) => ({ targets: withView(s.targets, view) }))
      return view
    },

    removeTarget: async (id) => {
      await api().invoke('targets:remove', { id })
      set((s) => {
        const { [id]: _removed, ...tests } = s.tests
        return { targets: s.targets?.filter((v) => v.target.id !== id), tests }
      })
    },

    previewImport: (path) => api().invoke('targets:importPreview', path ? { path } : undefined),

    importTargets: async (names, path, roles) => {
      const outcome = await api().invoke('targets:import', { names, ...(path ? { path } : {}), ...(roles && Object.keys(roles).length > 0 ? { roles } : {}) })
      for (const view of outcome.added) set((s) => ({ targets: withView(s.targets, view) }))
      return outcome
    },

    testTarget: async (id) => {
      if (get().tests[id]?.running) return
      set((s) => ({ tests: { ...s.tests, [id]: { running: true, stages: [] } } }))
      try {
        const result = await api().invoke('targets:test', { id })
        patchTest(id, () => ({ running: false, stages: result.stages, result }))
        if (result.os) {
          const os = result.os
          set((s) => ({
            targets: s.targets?.map((v) =>
              v.target.id === id ? ({ ...v, target: { ...v.target, os } } as TargetView) : v
            )
          }))
        }
      } catch (error) {
        patchTest(id, (t) => ({ ...t, running: false, error: apiMessage(error) }))
      }
    },

    dismissTest: (id) =>
      set((s) => {
        const { [id]: _dismissed, ...tests } = s.tests
        return { tests }
      }),

    decideHostKey: async (requestId, decision) => {
      set((s) => ({ hostKeyQuestions: s.hostKeyQuestions.filter((q) => q.requestId !== requestId) }))
      try {
        await api().invoke('hostkey:decide', { requestId, decision })
      } catch (error) {
        get().addNotice({ level: 'error', message: apiMessage(error), at: new Date().toISOString() })
      }
    }
  }
}
