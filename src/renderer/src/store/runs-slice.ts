import type { StateCreator } from 'zustand'
import type { VirtbenchApi } from '../../../shared/contract'
import type { AppState } from '.'

/** Runs: the history list, the open run and its live events (features/runs). */
export interface RunsSlice {
  watchRuns: (api: VirtbenchApi) => void
}

export const createRunsSlice: StateCreator<AppState, [], [], RunsSlice> = () => ({
  watchRuns: () => {}
})
