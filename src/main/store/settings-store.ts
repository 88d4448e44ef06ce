import path from 'node:path'
import { Settings, type SettingsPatch } from '../../shared/contract'
import { JsonDocument } from './json-document'

export const DEFAULT_SETTINGS: Settings = { theme: 'system' }

/** The user's preferences, one small document in the data directory. */
export class SettingsStore {
  private readonly doc: JsonDocument<Settings>
  private current: Settings | undefined
  private loading: Promise<Settings> | undefined
  private pending: Promise<unknown> = Promise.resolve()

  constructor(dataDir: string, private readonly onProblem: (message: string) => void = () => {}) {
    this.doc = new JsonDocument({
      file: path.join(dataDir, 'settings.json'),
      kind: 'virtbench.settings',
      version: 1,
      schema: Settings,
      defaults: () => ({ ...DEFAULT_SETTINGS })
    })
  }

  /** The first call reads the file; concurrent first calls share that one read. */
  async get(): Promise<Settings> {
    if (this.current) return this.current
    if (!this.loading) {
      const loading = this.doc.load().then(({ data, problem }) => {
        if (problem) this.onProblem(problem)
        this.current ??= data
        return this.current
      })
      // A failed read (permissions, I/O) is reported to its callers and retried by the next one.
      loading.catch(() => {
        if (this.loading === loading) this.loading = undefined
      })
      this.loading = loading
    }
    return this.loading
  }

  /** Applies a patch and saves; concurrent updates are serialised so none is lost. */
  update(patch: SettingsPatch): Promise<Settings> {
    const next = this.pending.then(async () => {
      const merged: Settings = { ...(await this.get()), ...definedOnly(patch) }
      await this.doc.save(merged)
      this.current = merged
      return merged
    })
    this.pending = next.catch(() => undefined)
    return next
  }
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>
}
