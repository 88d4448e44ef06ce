import type { Preset } from '../../shared/model/plan'
import type { PresetList, PresetSummary } from '../../shared/presets-contract'
import { listExamplePresets, normalizePreset, parsePresetText, PresetError, renderPreset } from '../presets/presets'
import { presetSlug, PresetsStore, PresetStoreError, type SavedPreset } from '../presets/presets-store'
import { ApiError } from './api-error'
import type { Handlers } from './dispatch'
import type { EventHub } from './event-hub'
import { dottedPath } from './plan-review'

export type PresetsHandlerNames =
  | 'presets:list'
  | 'presets:get'
  | 'presets:save'
  | 'presets:duplicate'
  | 'presets:rename'
  | 'presets:remove'
  | 'presets:import'
  | 'presets:export'

export interface PresetsServices {
  dataDir: string
  /** The resources/ directory: its presets/ folder holds the built-in (study) presets. */
  resourcesDir: string
}

const BUILTIN = 'builtin:'

interface Loaded {
  summary: PresetSummary
  preset: Preset
}

/**
 * Presets through the API (docs/presets.md): the user's saved presets (PresetsStore, id = slug)
 * and the study presets shipped in resources/presets/ (id = 'builtin:<file name>', read-only).
 * Every change is followed by presets:changed with the whole list.
 */
export function createPresetsHandlers(svc: PresetsServices, hub: EventHub): Pick<Handlers, PresetsHandlerNames> {
  const store = new PresetsStore(svc.dataDir)

  const builtins = async (): Promise<{ loaded: Loaded[]; problems: string[] }> => {
    try {
      const examples = await listExamplePresets(svc.resourcesDir)
      return { loaded: examples.map((e) => ({ preset: e.preset, summary: summaryOf(`${BUILTIN}${e.id}`, e.preset, true) })), problems: [] }
    } catch (error) {
      return { loaded: [], problems: [`The study presets shipped with VirtBench cannot be read: ${(error as Error).message}`] }
    }
  }

  const list = async (): Promise<PresetList> => {
    const [shipped, saved] = await Promise.all([builtins(), store.list()])
    const presets = [...shipped.loaded.map((l) => l.summary), ...saved.presets.map(savedSummary)]
    presets.sort((a, b) => compareNames(a.name, b.name) || (a.builtin === b.builtin ? 0 : a.builtin ? -1 : 1) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    return { presets, problems: [...shipped.problems, ...saved.problems] }
  }

  const changed = async (): Promise<void> => hub.emit('presets:changed', await list())

  const load = async (id: string): Promise<Loaded> => {
    if (id.startsWith(BUILTIN)) {
      const found = (await builtins()).loaded.find((l) => l.summary.id === id)
      if (!found) throw new ApiError('failed', `There is no built-in preset "${id.slice(BUILTIN.length)}"; reload the list of presets.`)
      return found
    }
    const saved = await storeCall(() => store.get(id), 'id')
    return { summary: savedSummary(saved), preset: saved.preset }
  }

  const refuseBuiltin = (id: string, what: string): void => {
    if (id.startsWith(BUILTIN)) {
      throw new ApiError('invalid-request', `The study presets that ship with VirtBench cannot be ${what}; duplicate it and ${what === 'deleted' ? 'delete' : 'change'} the copy.`, [
        { path: 'id', message: 'a built-in preset is read-only' }
      ])
    }
  }

  return {
    'presets:list': list,

    'presets:get': async ({ id }) => load(id),

    'presets:save': async ({ id, preset }) => {
      if (id !== undefined) refuseBuiltin(id, 'changed')
      // checked here first, so that every problem (a secret-like field) comes back with its field
      const checked = await storeCall(async () => normalizePreset(preset), 'preset.plan.name', 'preset')
      const saved = await storeCall(() => (id === undefined ? store.save(checked) : store.replace(id, checked)), 'preset.plan.name')
      await changed()
      return savedSummary(saved)
    },

    'presets:duplicate': async ({ id, name }) => {
      const { preset } = await load(id)
      const saved = await storeCall(() => store.save({ ...preset, plan: { ...preset.plan, name } }), 'name')
      await changed()
      return savedSummary(saved)
    },

    'presets:rename': async ({ id, name }) => {
      refuseBuiltin(id, 'renamed')
      const saved = await storeCall(() => store.rename(id, name), 'name')
      await changed()
      return savedSummary(saved)
    },

    'presets:remove': async ({ id }) => {
      refuseBuiltin(id, 'deleted')
      await storeCall(() => store.remove(id), 'id')
      await changed()
      return { removed: id }
    },

    'presets:import': async ({ text, fileName }) => {
      let preset: Preset
      try {
        preset = parsePresetText(text, fileName ?? 'the imported file')
      } catch (error) {
        if (error instanceof PresetError) throw new ApiError('invalid-request', error.message)
        throw error
      }
      const taken = new Set((await list()).presets.map((p) => p.name.toLowerCase()))
      const base = preset.plan.name
      let saved: SavedPreset | undefined
      for (let n = 1; !saved; n++) {
        const name = n === 1 ? base : withCount(base, n)
        if (taken.has(name.toLowerCase()) || (await store.has(presetSlug(name)))) continue
        try {
          saved = await store.save({ ...preset, plan: { ...preset.plan, name } })
        } catch (error) {
          // another save took this name meanwhile: try the next number
          if (!(error instanceof PresetStoreError && error.code === 'conflict')) throw toApiError(error, 'text')
          if (n > 1000) throw toApiError(error, 'text')
        }
      }
      await changed()
      return savedSummary(saved)
    },

    'presets:export': async ({ id }) => {
      const { preset } = await load(id)
      const slug = id.startsWith(BUILTIN) ? id.slice(BUILTIN.length) : id
      return { fileName: `${slug}.json`, text: renderPreset(preset) }
    }
  }
}

/** "Name (2)", cut so that the name stays within 120 characters. */
function withCount(name: string, n: number): string {
  const suffix = ` (${n})`
  return `${Array.from(name).slice(0, 120 - suffix.length).join('').trimEnd()}${suffix}`
}

function summaryOf(id: string, preset: Preset, builtin: boolean, modifiedAt?: string): PresetSummary {
  const plan = preset.plan
  return {
    id,
    name: plan.name,
    ...(preset.description !== undefined ? { description: preset.description } : {}),
    builtin,
    ...(modifiedAt !== undefined ? { modifiedAt } : {}),
    baseline: plan.baseline.target,
    variants: plan.variants.map((v) => v.target),
    tests: plan.tests.map((t) => ('pack' in t ? t.pack : t.id))
  }
}

function savedSummary(saved: SavedPreset): PresetSummary {
  return summaryOf(saved.slug, saved.preset, false, saved.modifiedAt)
}

/** Runs a store call; its refusals become API errors, pointing at `field` for a name clash. */
async function storeCall<T>(work: () => Promise<T>, field: string, documentRoot?: string): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw toApiError(error, field, documentRoot)
  }
}

function toApiError(error: unknown, field: string, documentRoot?: string): unknown {
  if (error instanceof PresetError) return new ApiError('invalid-request', error.message, problemIssues(error.problems, documentRoot))
  if (!(error instanceof PresetStoreError)) return error
  if (error.code === 'not-found') return new ApiError('failed', error.message)
  if (error.code === 'conflict') return new ApiError('invalid-request', error.message, [{ path: field, message: error.message }])
  return new ApiError('invalid-request', error.message)
}

/** A PresetError's `plan.tests[0].params.password: looks like a secret` lines as request issues. */
function problemIssues(problems: readonly string[], root: string | undefined): { path: string; message: string }[] | undefined {
  if (root === undefined || problems.length === 0) return undefined
  return problems.map((line) => {
    const at = line.indexOf(': ')
    return at < 0 ? { path: root, message: line } : { path: `${root}.${dottedPath(line.slice(0, at))}`, message: line.slice(at + 2) }
  })
}

function compareNames(a: string, b: string): number {
  return a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true })
}
