import type { StateCreator } from 'zustand'
import type { AppState } from '.'

/** The "New comparison" wizard's state (features/comparison). */
export interface WizardSlice {
  wizardStep: number
}

export const createWizardSlice: StateCreator<AppState, [], [], WizardSlice> = () => ({
  wizardStep: 0
})
