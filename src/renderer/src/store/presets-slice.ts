import type { StateCreator } from 'zustand'
import type { VirtbenchApi } from '../../../shared/contract'
import type { AppState } from '.'

/** Presets kept by main (features/presets). */
export interface PresetsSlice {
  watchPresets: (api: VirtbenchApi) => void
}

export const createPresetsSlice: StateCreator<AppState, [], [], PresetsSlice> = () => ({
  watchPresets: () => {}
})
