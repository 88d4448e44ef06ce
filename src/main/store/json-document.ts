import { promises as fs } from 'node:fs'
import type { z } from 'zod'
import { writeFileAtomic } from '../fs/atomic-file'

/**
 * A versioned JSON document on disk: `{ "kind": ..., "version": N, "data": ... }`.
 * Writes are atomic (temp file in the same directory, fsync, rename), so a crash leaves either the
 * old or the new document, never half of one. A document that cannot be read is never
 * overwritten silently: it is moved aside as `<name>.unreadable-<time>` and the caller is told.
 */
export interface JsonDocumentOptions<T> {
  file: string
  kind: string
  version: number
  schema: z.ZodType<T>
  defaults: () => T
}

export interface LoadResult<T> {
  data: T
  /** Set when the file existed but could not be used; says where it was moved and why. */
  problem?: string
}

export class JsonDocument<T> {
  constructor(private readonly options: JsonDocumentOptions<T>) {}

  get file(): string {
    return this.options.file
  }

  async load(): Promise<LoadResult<T>> {
    const { file, kind, version, schema, defaults } = this.options
    let text: string
    try {
      text = await fs.readFile(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { data: defaults() }
      throw error
    }
    const reason = explainUnreadable(text, kind, version, schema)
    if (typeof reason !== 'string') return { data: reason.data }
    const aside = `${file}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`
    await fs.rename(file, aside)
    return {
      data: defaults(),
      problem: `${file} could not be read (${reason}); it was kept as ${aside} and defaults are in use.`
    }
  }

  async save(data: T): Promise<void> {
    const { file, kind, version, schema } = this.options
    const checked = schema.parse(data)
    await writeFileAtomic(file, `${JSON.stringify({ kind, version, data: checked }, null, 2)}\n`)
  }
}

function explainUnreadable<T>(
  text: string,
  kind: string,
  version: number,
  schema: z.ZodType<T>
): { data: T } | string {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`
  }
  if (typeof parsed !== 'object' || parsed === null) return 'not a JSON object'
  const doc = parsed as { kind?: unknown; version?: unknown; data?: unknown }
  if (doc.kind !== kind) return `expected kind "${kind}", found ${JSON.stringify(doc.kind)}`
  if (doc.version !== version) {
    return `version ${JSON.stringify(doc.version)} is not the supported version ${version}`
  }
  const result = schema.safeParse(doc.data)
  if (!result.success) {
    const first = result.error.issues[0]
    return `invalid data at ${first?.path.join('.') || '(root)'}: ${first?.message ?? 'unknown problem'}`
  }
  return { data: result.data }
}

