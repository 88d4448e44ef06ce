import type { StateCreator } from 'zustand'
import type { VirtbenchApi } from '../../../shared/contract'
import type { Preset, PresetInput } from '../../../shared/model/plan'
import type { PresetList, PresetSummary } from '../../../shared/presets-contract'
import type { AppState } from '.'
import { connectedApi } from './connected-api'
import { apiMessage } from '../lib/api-message'

/** A preset as presets:get gives it: the list's summary and the whole document. */
export interface LoadedPreset {
  summary: PresetSummary
  preset: Preset
}

/**
 * Presets kept by main (features/presets): the app's saved presets and the study presets shipped
 * with VirtBench. The list follows presets:changed; every change goes through the API.
 */
export interface PresetsSlice {
  /** Undefined until the first list has arrived. */
  presets: PresetSummary[] | undefined
  /** Files in the presets folder that are not readable presets, one sentence each. */
  presetProblems: string[]
  /** Why the list could not be loaded (shown while there is no list). */
  presetsError: string | undefined
  watchPresets: (api: VirtbenchApi) => void
  loadPresets: () => Promise<void>
  getPreset: (id: string) => Promise<LoadedPreset>
  /**
   * Saves a preset document as a new preset, or in place of the one with `id` (the page's undo of
   * a deletion). The wizard's "Save as preset" is the wizard slice's `savePreset`.
   */
  savePresetDocument: (preset: PresetInput, id?: string) => Promise<PresetSummary>
  duplicatePreset: (id: string, name: string) => Promise<PresetSummary>
  renamePreset: (id: string, name: string) => Promise<PresetSummary>
  /** Deletes a saved preset and gives back its document, so that the deletion can be undone. */
  removePreset: (id: string) => Promise<Preset>
  /** Reads a preset file's text; the error names every problem with its field. */
  importPreset: (text: string, fileName?: string) => Promise<PresetSummary>
  exportPreset: (id: string) => Promise<{ fileName: string; text: string }>
}

/** Sorted as main sorts them: by name, case and accents aside, numbers in numeric order. */
const byName = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })

function withSummary(list: PresetSummary[] | undefined, summary: PresetSummary, replacing?: string): PresetSummary[] | undefined {
  if (!list) return list
  const rest = list.filter((p) => p.id !== summary.id && p.id !== replacing)
  return [...rest, summary].sort((a, b) => byName.compare(a.name, b.name))
}

export const createPresetsSlice: StateCreator<AppState, [], [], PresetsSlice> = (set, get) => {
  /** Counts lists as they arrive, so a slow presets:list answer never overwrites a newer event. */
  let listGeneration = 0
  let watching: VirtbenchApi | undefined

  const api = (): VirtbenchApi => connectedApi(get())

  const applyList = (list: PresetList): void => {
    listGeneration++
    set({ presets: list.presets, presetProblems: list.problems, presetsError: undefined })
  }

  return {
    presets: undefined,
    presetProblems: [],
    presetsError: undefined,

    watchPresets: (source) => {
      if (watching === source) return
      watching = source
      source.on('presets:changed', applyList)
    },

    loadPresets: async () => {
      const generation = listGeneration
      try {
        const list = await api().invoke('presets:list')
        if (generation === listGeneration) applyList(list)
      } catch (error) {
        set({ presetsError: apiMessage(error) })
      }
    },

    getPreset: (id) => api().invoke('presets:get', { id }),

    savePresetDocument: async (preset, id) => {
      const summary = await api().invoke('presets:save', id === undefined ? { preset } : { id, preset })
      set((s) => ({ presets: withSummary(s.presets, summary, id) }))
      return summary
    },

    duplicatePreset: async (id, name) => {
      const summary = await api().invoke('presets:duplicate', { id, name })
      set((s) => ({ presets: withSummary(s.presets, summary) }))
      return summary
    },

    renamePreset: async (id, name) => {
      const summary = await api().invoke('presets:rename', { id, name })
      // A rename moves the preset to the slug of its new name: the old id is gone.
      set((s) => ({ presets: withSummary(s.presets, summary, id) }))
      return summary
    },

    removePreset: async (id) => {
      const { preset } = await api().invoke('presets:get', { id })
      await api().invoke('presets:remove', { id })
      set((s) => ({ presets: s.presets?.filter((p) => p.id !== id) }))
      return preset
    },

    importPreset: async (text, fileName) => {
      const summary = await api().invoke('presets:import', fileName === undefined ? { text } : { text, fileName })
      set((s) => ({ presets: withSummary(s.presets, summary) }))
      return summary
    },

    exportPreset: (id) => api().invoke('presets:export', { id })
  }
}
