import { randomUUID } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import {
  applyTargetPatch,
  createTarget,
  describeIssues,
  NewTargetSchema,
  sameTargetName,
  TargetPatchSchema,
  TargetSchema,
  targetLinkProblems,
  type NewTargetInput,
  type Target,
  type TargetCheck,
  type TargetPatchInput
} from '../../shared/model/target'
import { writeFileAtomic } from '../fs/atomic-file'
import { JsonDocument } from './json-document'

export const TARGETS_FILE = 'targets.json'
export const TARGETS_KIND = 'virtbench.targets'
export const TARGETS_VERSION = 1

export const TargetsDocumentData = z.object({
  targets: z.array(TargetSchema)
})
export type TargetsDocumentData = z.infer<typeof TargetsDocumentData>

/**
 * Upgrades of older `targets.json` documents: the function at key N turns the `data` of a
 * version-N document into version N+1 data. When the model changes, bump TARGETS_VERSION and add
 * the step from the previous version here; a document is upgraded on first read (the original is
 * kept next to it as `targets.json.v<N>-<time>`).
 */
export type Migrations = Readonly<Record<number, (data: unknown) => unknown>>
export const TARGETS_MIGRATIONS: Migrations = {}

export type TargetStoreErrorCode = 'not-found' | 'invalid' | 'conflict' | 'in-use'

/** A refused change, with a message for people and a code the API maps to its own. */
export class TargetStoreError extends Error {
  constructor(
    readonly code: TargetStoreErrorCode,
    message: string
  ) {
    super(message)
    this.name = 'TargetStoreError'
  }
}

export interface TargetsStoreOptions {
  /** Told once when targets.json could not be used (moved aside), was upgraded, or has broken links. */
  onProblem?: (message: string) => void
  /** New target ids; random UUIDs by default. */
  newId?: () => string
  /** The time stamped on created and updated targets, ISO 8601. */
  now?: () => string
  /** For tests of the upgrade path; TARGETS_MIGRATIONS by default. */
  migrations?: Migrations
  version?: number
}

/**
 * The saved targets: one versioned document, `targets.json`, in the data directory. Every change
 * is validated against the whole collection (unique names, existing jump hosts and physical
 * hosts, no jump loops) before it is written, and changes are applied one at a time in the order
 * they were asked for, so concurrent callers never lose each other's work.
 */
export class TargetsStore {
  private readonly doc: JsonDocument<TargetsDocumentData>
  private readonly onProblem: (message: string) => void
  private readonly newId: () => string
  private readonly now: () => string
  private readonly migrations: Migrations
  private readonly version: number
  private targets: Target[] | undefined
  private queue: Promise<unknown> = Promise.resolve()

  constructor(dataDir: string, options: TargetsStoreOptions = {}) {
    this.onProblem = options.onProblem ?? (() => {})
    this.newId = options.newId ?? randomUUID
    this.now = options.now ?? (() => new Date().toISOString())
    this.migrations = options.migrations ?? TARGETS_MIGRATIONS
    this.version = options.version ?? TARGETS_VERSION
    this.doc = new JsonDocument({
      file: path.join(dataDir, TARGETS_FILE),
      kind: TARGETS_KIND,
      version: this.version,
      schema: TargetsDocumentData,
      defaults: () => ({ targets: [] })
    })
  }

  get file(): string {
    return this.doc.file
  }

  async list(): Promise<Target[]> {
    return this.serially(async () => structuredClone(await this.loaded()))
  }

  async get(id: string): Promise<Target | undefined> {
    return this.serially(async () => {
      const found = (await this.loaded()).find((target) => target.id === id)
      return found && structuredClone(found)
    })
  }

  async findByName(name: string): Promise<Target | undefined> {
    return this.serially(async () => {
      const found = (await this.loaded()).find((target) => sameTargetName(target.name, name))
      return found && structuredClone(found)
    })
  }

  async add(input: NewTargetInput): Promise<Target> {
    return this.serially(async () => {
      const targets = await this.loaded()
      const parsed = NewTargetSchema.safeParse(input)
      if (!parsed.success) throw new TargetStoreError('invalid', `The target is not valid: ${describeIssues(parsed.error)}.`)
      const id = this.newId()
      if (targets.some((target) => target.id === id)) {
        throw new TargetStoreError('conflict', `A target with id ${JSON.stringify(id)} already exists.`)
      }
      const target = checked(createTarget(parsed.data, id, this.now()), parsed.data.name)
      await this.commit(targets, [...targets, target])
      return structuredClone(target)
    })
  }

  async update(id: string, patch: TargetPatchInput): Promise<Target> {
    return this.serially(async () => {
      const targets = await this.loaded()
      const current = targets.find((target) => target.id === id)
      if (!current) throw notFound(id)
      const parsed = TargetPatchSchema.safeParse(patch)
      if (!parsed.success) {
        throw new TargetStoreError('invalid', `The change to "${current.name}" is not valid: ${describeIssues(parsed.error)}.`)
      }
      const target = checked(applyTargetPatch(current, parsed.data, this.now()), current.name)
      await this.commit(
        targets,
        targets.map((t) => (t.id === id ? target : t))
      )
      return structuredClone(target)
    })
  }

  /** Refused while other targets use this one as their jump host or physical host. */
  async remove(id: string): Promise<void> {
    return this.serially(async () => {
      const targets = await this.loaded()
      const target = targets.find((t) => t.id === id)
      if (!target) throw notFound(id)
      const users = dependentsOf(target, targets)
      if (users.length > 0) {
        throw new TargetStoreError(
          'in-use',
          `"${target.name}" cannot be removed: ${users.join('; ')}. Change or remove those targets first.`
        )
      }
      await this.commit(
        targets,
        targets.filter((t) => t.id !== id)
      )
    })
  }

  /** Runs `task` after every earlier call has finished; a failure does not block later calls. */
  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task)
    this.queue = run.catch(() => undefined)
    return run
  }

  /** Writes `next` if it brings no new problem between targets, then makes it current. */
  private async commit(before: Target[], next: Target[]): Promise<void> {
    const known = new Set(targetLinkProblems(before).map((problem) => problem.message))
    const introduced = targetLinkProblems(next).filter((problem) => !known.has(problem.message))
    if (introduced.length > 0) {
      const code = introduced.some((p) => p.code === 'duplicate-name' || p.code === 'duplicate-id') ? 'conflict' : 'invalid'
      throw new TargetStoreError(code, introduced.map((problem) => problem.message).join(' '))
    }
    await this.doc.save({ targets: next })
    this.targets = next
  }

  /** The targets on disk, read once (only ever called inside `serially`). */
  private async loaded(): Promise<Target[]> {
    if (this.targets) return this.targets
    const upgraded = await upgradeDocument(this.doc.file, TARGETS_KIND, this.version, this.migrations)
    if (upgraded) this.onProblem(upgraded)
    const { data, problem } = await this.doc.load()
    if (problem) this.onProblem(problem)
    const links = targetLinkProblems(data.targets)
    if (links.length > 0) {
      const messages = links.map((problem) => problem.message).join(' ')
      this.onProblem(`${this.doc.file} has problems between targets: ${messages} Fix them by editing the targets named.`)
    }
    this.targets = data.targets
    return this.targets
  }
}

function checked(result: TargetCheck, name: string): Target {
  if (result.ok) return result.target
  throw new TargetStoreError('invalid', `The target "${name}" is not valid: ${result.message}.`)
}

function notFound(id: string): TargetStoreError {
  return new TargetStoreError('not-found', `There is no target with id ${JSON.stringify(id)}; it may have been removed.`)
}

/** What makes `target` needed by others, one phrase per kind of use, naming the targets. */
function dependentsOf(target: Target, targets: readonly Target[]): string[] {
  const names = (list: Target[]): string => list.map((t) => `"${t.name}"`).join(', ')
  const jumpers = targets.filter((t) => t.kind === 'ssh' && t.jumpHostId === target.id)
  const guests = targets.filter((t) => t.hostId === target.id)
  const uses: string[] = []
  if (jumpers.length > 0) uses.push(`it is the jump host of ${names(jumpers)}`)
  if (guests.length > 0) uses.push(`it is the physical host of ${names(guests)}`)
  return uses
}

/**
 * Brings a document of an older version up to `version` with `migrations`, keeping the original
 * beside it. Returns a note saying what was done, or undefined when nothing was to be done.
 * Documents it cannot upgrade (no step, unreadable, newer) are left for JsonDocument to report.
 */
export async function upgradeDocument(
  file: string,
  kind: string,
  version: number,
  migrations: Migrations
): Promise<string | undefined> {
  let text: string
  try {
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  let doc: { kind?: unknown; version?: unknown; data?: unknown }
  try {
    doc = JSON.parse(text) as typeof doc
  } catch {
    return undefined
  }
  if (typeof doc !== 'object' || doc === null || doc.kind !== kind) return undefined
  const from = doc.version
  if (typeof from !== 'number' || !Number.isInteger(from) || from >= version) return undefined
  let data = doc.data
  for (let step = from; step < version; step++) {
    const migrate = migrations[step]
    if (!migrate) return undefined
    try {
      data = migrate(data)
    } catch {
      return undefined
    }
  }
  const kept = `${file}.v${from}-${new Date().toISOString().replace(/[:.]/g, '-')}`
  await fs.copyFile(file, kept)
  await writeFileAtomic(file, `${JSON.stringify({ kind, version, data }, null, 2)}\n`)
  return `${file} was upgraded from version ${from} to ${version}; the original is kept as ${kept}.`
}
