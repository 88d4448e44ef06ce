import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { Preset, PresetInput } from '../../shared/model/plan'
import { normalizePreset, PresetError, readPresetFile, writePresetFile } from './presets'

/**
 * The presets a user saved: one preset file per comparison, `<dataDir>/presets/<slug>.json`,
 * the slug made from the plan's name. Every file is an ordinary preset (docs/presets.md), so it
 * can be copied out, edited and run with `virtbench run <file>`. Writes are atomic and applied one
 * at a time; a save never replaces another preset unless the caller says `overwrite`.
 */

export const PRESETS_DIR = 'presets'

/** At most this many characters of the name make the slug (file names stay far below 255 bytes). */
const SLUG_MAX = 48

/** Names Windows refuses as file names, whatever the extension. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/

const SLUG = /^[\p{L}\p{M}\p{N}]+(?:-[\p{L}\p{M}\p{N}]+)*$/u

export type PresetStoreErrorCode = 'not-found' | 'invalid' | 'conflict'

/** A refused request, with a message for people and a code the API maps to its own. */
export class PresetStoreError extends Error {
  override readonly name = 'PresetStoreError'
  constructor(
    readonly code: PresetStoreErrorCode,
    message: string
  ) {
    super(message)
  }
}

export interface SavedPreset {
  /** The file name without .json; how the store names this preset. */
  slug: string
  file: string
  preset: Preset
  /** When the file was last written, ISO 8601. */
  modifiedAt: string
}

export interface PresetListing {
  /** By plan name (case and accents do not count), then slug. */
  presets: SavedPreset[]
  /** Files in the folder that are not readable presets, one sentence each; they are left alone. */
  problems: string[]
}

export interface SaveOptions {
  /** Replace a saved preset that has the same slug. Without it, such a save is refused. */
  overwrite?: boolean
}

/**
 * The file name (without .json) of a preset called `name`: lower case, accents dropped, every run
 * of other characters than letters and digits made one "-"; letters of any script are kept.
 */
export function presetSlug(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
  const slug = Array.from(words).slice(0, SLUG_MAX).join('').replace(/-+$/, '') || 'preset'
  return WINDOWS_RESERVED.test(slug) ? `${slug}-preset` : slug
}

export function isPresetSlug(slug: string): boolean {
  return slug.length > 0 && Array.from(slug).length <= SLUG_MAX + '-preset'.length && SLUG.test(slug) && slug === slug.toLowerCase()
}

export class PresetsStore {
  readonly dir: string
  private queue: Promise<unknown> = Promise.resolve()

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, PRESETS_DIR)
  }

  async list(): Promise<PresetListing> {
    let names: string[]
    try {
      names = await fs.readdir(this.dir)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { presets: [], problems: [] }
      throw error
    }
    const presets: SavedPreset[] = []
    const problems: string[] = []
    for (const name of names.filter((n) => n.endsWith('.json') && !n.startsWith('.'))) {
      const slug = name.slice(0, -'.json'.length)
      try {
        presets.push(await this.load(slug))
      } catch (error) {
        problems.push(error instanceof PresetError ? error.message : `${path.join(this.dir, name)} cannot be read: ${(error as Error).message}`)
      }
    }
    presets.sort((a, b) => compareNames(a.preset.plan.name, b.preset.plan.name) || (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    return { presets, problems }
  }

  async get(slug: string): Promise<SavedPreset> {
    checkSlug(slug)
    try {
      return await this.load(slug)
    } catch (error) {
      throw this.explain(error, slug)
    }
  }

  /** Saves under the slug of the plan's name; refused when another preset has that slug, unless `overwrite`. */
  async save(preset: PresetInput | Preset, options: SaveOptions = {}): Promise<SavedPreset> {
    return this.serially(async () => {
      const checked = this.checked(preset)
      const slug = presetSlug(checked.plan.name)
      await this.refuseTaken(slug, checked.plan.name, options)
      return this.write(slug, checked)
    })
  }

  /** Gives a saved preset a new name (and so a new file); refused when the new name's file is another preset's. */
  async rename(slug: string, name: string, options: SaveOptions = {}): Promise<SavedPreset> {
    checkSlug(slug)
    return this.serially(async () => {
      const current = await this.get(slug)
      const renamed = this.checked({ ...current.preset, plan: { ...current.preset.plan, name } })
      const next = presetSlug(renamed.plan.name)
      if (next !== slug) await this.refuseTaken(next, renamed.plan.name, options)
      const saved = await this.write(next, renamed)
      if (next !== slug) await fs.rm(this.fileOf(slug), { force: true })
      return saved
    })
  }

  /**
   * Replaces the saved preset `slug` with `preset`; when the new plan name gives another slug, the
   * preset moves there (refused when that slug is another preset's, unless `overwrite`).
   */
  async replace(slug: string, preset: PresetInput | Preset, options: SaveOptions = {}): Promise<SavedPreset> {
    checkSlug(slug)
    return this.serially(async () => {
      await this.get(slug)
      const checked = this.checked(preset)
      const next = presetSlug(checked.plan.name)
      if (next !== slug) await this.refuseTaken(next, checked.plan.name, options)
      const saved = await this.write(next, checked)
      if (next !== slug) await fs.rm(this.fileOf(slug), { force: true })
      return saved
    })
  }

  /** Whether a file (readable preset or not) already holds this slug. */
  async has(slug: string): Promise<boolean> {
    return isPresetSlug(slug) && exists(this.fileOf(slug))
  }

  async remove(slug: string): Promise<void> {
    checkSlug(slug)
    return this.serially(async () => {
      try {
        await fs.unlink(this.fileOf(slug))
      } catch (error) {
        throw this.explain(error, slug)
      }
    })
  }

  fileOf(slug: string): string {
    return path.join(this.dir, `${slug}.json`)
  }

  private async load(slug: string): Promise<SavedPreset> {
    const file = this.fileOf(slug)
    const preset = await readPresetFile(file)
    const stat = await fs.stat(file)
    return { slug, file, preset, modifiedAt: stat.mtime.toISOString() }
  }

  private async write(slug: string, preset: Preset): Promise<SavedPreset> {
    const file = this.fileOf(slug)
    await writePresetFile(file, preset)
    const stat = await fs.stat(file)
    return { slug, file, preset, modifiedAt: stat.mtime.toISOString() }
  }

  private checked(preset: PresetInput | Preset): Preset {
    try {
      return normalizePreset(preset)
    } catch (error) {
      if (error instanceof PresetError) throw new PresetStoreError('invalid', error.message)
      throw error
    }
  }

  private async refuseTaken(slug: string, name: string, options: SaveOptions): Promise<void> {
    if (options.overwrite) return
    const file = this.fileOf(slug)
    let existing: Preset
    try {
      existing = await readPresetFile(file)
    } catch (error) {
      if (!(await exists(file))) return
      throw new PresetStoreError(
        'conflict',
        `"${name}" would be saved as ${file}, where a file that is not a readable preset already is (${(error as Error).message}). Move that file away, or save with overwrite to replace it.`
      )
    }
    const same = existing.plan.name === name ? `A preset named "${name}"` : `The preset "${existing.plan.name}"`
    throw new PresetStoreError(
      'conflict',
      `${same} is already saved as ${path.basename(file)}; "${name}" would replace it. Save with overwrite to replace it, or give this one another name.`
    )
  }

  private explain(error: unknown, slug: string): Error {
    const missing = error instanceof PresetError ? error.code === 'missing' : (error as NodeJS.ErrnoException).code === 'ENOENT'
    if (missing) return new PresetStoreError('not-found', `There is no saved preset "${slug}" (${this.fileOf(slug)}); it may have been removed or renamed.`)
    if (error instanceof PresetError) return new PresetStoreError('invalid', error.message)
    return error instanceof Error ? error : new Error(String(error))
  }

  /** Runs `task` after every earlier change has finished; a failure does not block later calls. */
  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task)
    this.queue = run.catch(() => undefined)
    return run
  }
}

function checkSlug(slug: string): void {
  if (!isPresetSlug(slug)) {
    throw new PresetStoreError('invalid', `${JSON.stringify(slug)} is not the name of a saved preset (a lower-case slug such as "block-dd-xen-vs-kvm")`)
  }
}

function compareNames(a: string, b: string): number {
  return a.localeCompare(b, 'en', { sensitivity: 'base', numeric: true })
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file)
    return true
  } catch {
    return false
  }
}
