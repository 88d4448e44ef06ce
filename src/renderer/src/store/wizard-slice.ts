import type { StateCreator } from 'zustand'
import type { Catalog, PlanReview, PreflightReport } from '../../../shared/catalog-contract'
import type { VirtbenchApi } from '../../../shared/contract'
import { PRESET_KIND, PRESET_VERSION, type ComparisonPlanInput } from '../../../shared/model/plan'
import type { PresetSummary } from '../../../shared/presets-contract'
import { archiveToolsOf, draftOfPlan, emptyDraft, planOfDraft, toolArchivesOfDraft, type StepIndex, type WizardDraft } from '../models/wizard-draft'
import type { ToolArchiveInput } from '../../../shared/tool-archive-contract'
import type { AppState } from '.'
import { connectedApi } from './connected-api'
import { apiMessage } from '../lib/api-message'

/** Where the wizard's plan came from, when it came from a preset. */
export interface WizardSource {
  presetId?: string
  name?: string
}

/** The last answer of plans:review, for the plan whose JSON is `key`. */
export interface WizardReview {
  key: string
  review?: PlanReview
  error?: string
}

/** The last preflight, for the plan whose JSON is `key` (and the tools brought from this computer, `archives`). */
export interface WizardPreflight {
  key: string
  /** The JSON of the files sent with it: preflight is current only while they are the same. */
  archives?: string
  running: boolean
  report?: PreflightReport
  error?: string
  /** The user read the warnings and wants to run anyway. */
  acknowledged: boolean
}

/** The "New comparison" wizard's state (features/comparison). */
export interface WizardSlice {
  wizardStep: StepIndex
  /** The furthest step reached; the stepper goes to any step up to it. */
  wizardReached: StepIndex
  /** Steps whose problems are shown beside their fields (after Next was pressed there, or from the review). */
  wizardChecked: boolean[]
  wizardDraft: WizardDraft
  wizardSource: WizardSource | undefined
  /** A field (DOM id) to focus once its step is shown. */
  wizardFocus: string | undefined
  wizardCatalog: { catalog?: Catalog; error?: string; loading: boolean }
  wizardReview: WizardReview | undefined
  /** True while a plans:review is on its way. */
  wizardReviewing: boolean
  wizardPreflight: WizardPreflight | undefined

  /** Fills the wizard with a plan (from a preset) and shows it. */
  loadPlan: (plan: ComparisonPlanInput, source?: WizardSource) => void
  /** The wizard's current plan (for "Save as preset"). */
  wizardPlan: () => ComparisonPlanInput
  /** The tools of the plan brought from this computer, as runs:start and plans:preflight carry them (never in the plan). */
  wizardToolArchives: () => ToolArchiveInput[]
  setWizardStep: (step: StepIndex, focus?: string) => void
  checkWizardStep: (step: StepIndex) => void
  clearWizardFocus: () => void
  updateDraft: (change: (draft: WizardDraft) => WizardDraft) => void
  resetWizard: () => void
  loadCatalog: () => Promise<void>
  reviewPlan: () => Promise<void>
  runPreflight: () => Promise<void>
  acknowledgeWarnings: (acknowledged: boolean) => void
  /** Starts the run of the current plan and opens its page; throws with the reason it could not. */
  startComparison: (options?: StartOptions) => Promise<void>
  /**
   * Saves the current plan as a preset named `name` (the preset's plan carries that name); the
   * comparison in the wizard keeps its own name, so its review and preflight stay current. Throws
   * with the reason it could not.
   */
  savePreset: (name: string, description?: string) => Promise<PresetSummary>
}

/** The wizard as it is before anyone touched it (tests reset the store to this). */
export function wizardInitialState(): Pick<
  WizardSlice,
  | 'wizardStep'
  | 'wizardReached'
  | 'wizardChecked'
  | 'wizardDraft'
  | 'wizardSource'
  | 'wizardFocus'
  | 'wizardCatalog'
  | 'wizardReview'
  | 'wizardReviewing'
  | 'wizardPreflight'
> {
  return {
    wizardStep: 0,
    wizardReached: 0,
    wizardChecked: [false, false, false, false],
    wizardDraft: emptyDraft(),
    wizardSource: undefined,
    wizardFocus: undefined,
    wizardCatalog: { loading: false },
    wizardReview: undefined,
    wizardReviewing: false,
    wizardPreflight: undefined
  }
}

/** The JSON of a plan, which tells whether a review or a preflight is about the current plan. */
export function planKey(plan: ComparisonPlanInput): string {
  return JSON.stringify(plan)
}

/** How a run starts: `changeDomains` is the user's consent to change the plan's libvirt domains; `toolArchives`, tools brought from this computer (runs:start). */
export interface StartOptions {
  changeDomains?: boolean
  toolArchives?: ToolArchiveInput[]
}

/** The runs:start payload beyond the plan, from the start options. */
export function startPayloadOf(options: StartOptions | undefined): { changeDomains?: true; toolArchives?: ToolArchiveInput[] } {
  return {
    ...(options?.changeDomains ? { changeDomains: true as const } : {}),
    ...(options?.toolArchives && options.toolArchives.length > 0 ? { toolArchives: options.toolArchives } : {})
  }
}

/** The JSON of the files sent with a preflight, to tell whether it is still current. */
export function archivesKey(archives: readonly ToolArchiveInput[]): string {
  return JSON.stringify(archives)
}

type StartRun = (plan: ComparisonPlanInput, options?: StartOptions) => Promise<unknown>

export const createWizardSlice: StateCreator<AppState, [], [], WizardSlice> = (set, get) => {
  /** Counts reviews sent, so that a slow answer never replaces a newer one. */
  let reviewSeq = 0

  const api = (): VirtbenchApi => connectedApi(get())

  return {
    ...wizardInitialState(),

    loadPlan: (plan, source) => {
      set({
        ...wizardInitialState(),
        wizardCatalog: get().wizardCatalog,
        // the files of tools brought from this computer are this computer's, not the preset's: kept
        wizardDraft: { ...draftOfPlan(plan), ...(get().wizardDraft.toolArchives ? { toolArchives: get().wizardDraft.toolArchives } : {}) },
        wizardSource: source,
        wizardReached: 3,
        page: 'comparison'
      })
    },

    wizardPlan: () => planOfDraft(get().wizardDraft),

    wizardToolArchives: () => toolArchivesOfDraft(get().wizardDraft, archiveToolsOf(get().wizardReview?.review?.jobs)),

    setWizardStep: (step, focus) =>
      set((s) => ({
        wizardStep: step,
        wizardReached: step > s.wizardReached ? step : s.wizardReached,
        wizardChecked: step === 3 ? [true, true, true, true] : s.wizardChecked,
        wizardFocus: focus
      })),

    checkWizardStep: (step) => set((s) => ({ wizardChecked: s.wizardChecked.map((c, i) => c || i === step) })),

    clearWizardFocus: () => set({ wizardFocus: undefined }),

    updateDraft: (change) => set((s) => ({ wizardDraft: change(s.wizardDraft) })),

    resetWizard: () => set({ ...wizardInitialState(), wizardCatalog: get().wizardCatalog }),

    loadCatalog: async () => {
      if (get().wizardCatalog.loading) return
      set((s) => ({ wizardCatalog: { ...s.wizardCatalog, loading: true, error: undefined } }))
      try {
        const catalog = await api().invoke('catalog:get')
        set({ wizardCatalog: { catalog, loading: false } })
      } catch (error) {
        set((s) => ({ wizardCatalog: { ...s.wizardCatalog, loading: false, error: apiMessage(error) } }))
      }
    },

    reviewPlan: async () => {
      const plan = get().wizardPlan()
      const key = planKey(plan)
      if (get().wizardReview?.key === key && get().wizardReview?.review) return
      const seq = ++reviewSeq
      set({ wizardReviewing: true })
      try {
        const review = await api().invoke('plans:review', { plan: plan as Record<string, unknown> })
        if (seq === reviewSeq) set({ wizardReview: { key, review }, wizardReviewing: false })
      } catch (error) {
        if (seq === reviewSeq) set({ wizardReview: { key, error: apiMessage(error) }, wizardReviewing: false })
      }
    },

    runPreflight: async () => {
      if (get().wizardPreflight?.running) return
      const plan = get().wizardPlan()
      const key = planKey(plan)
      const toolArchives = get().wizardToolArchives()
      const archives = archivesKey(toolArchives)
      set((s) => ({ wizardPreflight: { key, archives, running: true, acknowledged: false, report: s.wizardPreflight?.report } }))
      try {
        const report = await api().invoke('plans:preflight', { plan, ...(toolArchives.length > 0 ? { toolArchives } : {}) })
        set({ wizardPreflight: { key, archives, running: false, report, acknowledged: false } })
      } catch (error) {
        set({ wizardPreflight: { key, archives, running: false, error: apiMessage(error), acknowledged: false } })
      }
    },

    acknowledgeWarnings: (acknowledged) => set((s) => (s.wizardPreflight ? { wizardPreflight: { ...s.wizardPreflight, acknowledged } } : s)),

    startComparison: async (given) => {
      const plan = get().wizardPlan()
      const toolArchives = get().wizardToolArchives()
      const options: StartOptions | undefined = toolArchives.length > 0 ? { ...given, toolArchives } : given
      // The runs slice starts runs (and opens the run page) once it has startRun.
      const state: object = get()
      const startRun: unknown = 'startRun' in state ? state.startRun : undefined
      if (typeof startRun === 'function') {
        await (startRun as StartRun)(plan, ...(options ? [options] : []))
        return
      }
      const { id } = await api().invoke('runs:start', { plan, ...startPayloadOf(options) })
      get().openRun(id)
    },

    savePreset: async (name, description) => {
      const plan = { ...get().wizardPlan(), name: name.trim() }
      const summary = await api().invoke('presets:save', {
        preset: { kind: PRESET_KIND, version: PRESET_VERSION, ...(description?.trim() ? { description: description.trim() } : {}), plan }
      })
      set({ wizardSource: { presetId: summary.id, name: summary.name } })
      return summary
    }
  }
}
