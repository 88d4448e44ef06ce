import { promises as fs } from 'node:fs'
import path from 'node:path'
import type { z } from 'zod'
import {
  PRESET_KIND,
  PRESET_VERSION,
  PresetSchema,
  type ComparisonPlanInput,
  type Preset,
  type PresetInput
} from '../../shared/model/plan'
import { writeFileAtomic } from '../fs/atomic-file'
import { PRESET_SCHEMA_FILE } from './schema'

/**
 * Presets on disk: a comparison plan saved as a versioned JSON document (docs/presets.md).
 * Reading explains every problem with its place in the document; writing is atomic. A preset
 * never holds a secret: a document with a password-, key- or token-like field is refused.
 */

export type PresetErrorCode = 'missing' | 'unreadable' | 'not-json' | 'not-a-preset' | 'newer-version' | 'secret' | 'invalid'

/** A preset that cannot be read or written: what happened, in which file, and what to do. */
export class PresetError extends Error {
  override readonly name = 'PresetError'
  readonly code: PresetErrorCode
  /** One line per problem, each starting with its place in the document (plan.variants[1].scenario.cache). */
  readonly problems: readonly string[]
  constructor(message: string, options: { code?: PresetErrorCode; problems?: readonly string[] } = {}) {
    super(message)
    this.code = options.code ?? 'invalid'
    this.problems = options.problems ?? []
  }
}

/** A preset is a few KiB; anything far bigger is not one. */
export const MAX_PRESET_BYTES = 1024 * 1024

/**
 * Upgrades of older preset documents: the function at key N turns a whole version-N document
 * into a version N+1 document. Changing the format means bumping PRESET_VERSION and adding the
 * step from the previous version here (docs/presets.md, "Versions").
 */
export type PresetMigrations = Readonly<Record<number, (doc: Record<string, unknown>) => Record<string, unknown>>>
export const PRESET_MIGRATIONS: PresetMigrations = {
  // Version 2 only added fields (sweep, scenario.setup, network.paths and peerRole, acceptance,
  // precision), each optional or defaulted: a version-1 document is a valid version-2 one.
  1: (doc) => doc
}

// ---- reading --------------------------------------------------------------------------------

/** Reads, upgrades and checks a preset file; every refusal is a PresetError naming the file. */
export async function readPresetFile(file: string): Promise<Preset> {
  let text: string
  try {
    const stat = await fs.stat(file)
    if (stat.isDirectory()) throw new PresetError(`${file} is a folder, not a preset file`, { code: 'unreadable' })
    if (!stat.isFile()) throw new PresetError(`${file} is not a regular file (a device, socket or pipe), so not a preset`, { code: 'unreadable' })
    if (stat.size > MAX_PRESET_BYTES) {
      throw new PresetError(`${file} is ${stat.size} bytes; a preset is a small JSON document (at most ${MAX_PRESET_BYTES} bytes), so this is not one`, { code: 'not-a-preset' })
    }
    text = await fs.readFile(file, 'utf8')
  } catch (error) {
    if (error instanceof PresetError) throw error
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new PresetError(`there is no preset at ${file}: check the path`, { code: 'missing' })
    throw new PresetError(`cannot read the preset ${file}: ${(error as Error).message}`, { code: 'unreadable' })
  }
  return parsePresetText(text, file)
}

/** Checks the text of a preset document; `source` names it in messages (a file path). */
export function parsePresetText(text: string, source = 'the preset'): Preset {
  let json: unknown
  try {
    // Editors on Windows may start the file with a byte order mark.
    json = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new PresetError(`${source} is not JSON: ${(error as Error).message}. A preset is a JSON document (docs/presets.md)`, { code: 'not-json' })
  }
  return parsePresetDocument(json, source)
}

/** Checks a parsed preset document: kind, version (older ones upgraded), secrets, then the model. */
export function parsePresetDocument(json: unknown, source = 'the preset'): Preset {
  if (!isRecord(json)) {
    throw new PresetError(`${source} is not a VirtBench preset: it is ${describeValue(json)}, where a preset is a JSON object with "kind": "${PRESET_KIND}"`, {
      code: 'not-a-preset'
    })
  }
  if (json.kind !== PRESET_KIND) {
    const found = json.kind === undefined ? 'has no "kind"' : `has "kind": ${JSON.stringify(json.kind)}`
    throw new PresetError(`${source} is not a VirtBench preset: it ${found}, where a preset has "kind": "${PRESET_KIND}"`, { code: 'not-a-preset' })
  }
  const upgraded = upgradePreset(json, source)
  refuseSecrets(upgraded, source)
  refuseDeviceParams(upgraded, source)
  return checkPreset(upgraded, source)
}

/**
 * Brings an older preset document to the current version. Refuses a newer version (made by a
 * newer VirtBench) and anything that is not a version number.
 */
export function upgradePreset(
  doc: Record<string, unknown>,
  source = 'the preset',
  migrations: PresetMigrations = PRESET_MIGRATIONS,
  current: number = PRESET_VERSION
): Record<string, unknown> {
  const version = doc.version
  if (version === undefined) throw new PresetError(`${source} has no "version"; this VirtBench reads presets of version ${readableVersions(current)}`, { code: 'not-a-preset' })
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    throw new PresetError(`${source} has "version": ${JSON.stringify(version)}, which is not a preset version; this VirtBench reads version ${readableVersions(current)}`, {
      code: 'not-a-preset'
    })
  }
  if (version > current) {
    throw new PresetError(
      `${source} was made by a newer VirtBench (version ${version}); this one reads version ${readableVersions(current)}. Update VirtBench to use this preset`,
      { code: 'newer-version' }
    )
  }
  let upgraded = doc
  for (let v = version; v < current; v++) {
    const step = migrations[v]
    if (!step) throw new PresetError(`${source} is a version ${version} preset, and this VirtBench cannot upgrade version ${v} to ${v + 1}`)
    upgraded = { ...step(upgraded), version: v + 1 }
  }
  return upgraded
}

function readableVersions(current: number): string {
  return current === 1 ? '1' : `1 to ${current}`
}

function checkPreset(doc: unknown, source: string): Preset {
  const result = PresetSchema.safeParse(doc)
  if (result.success) return result.data
  const problems = describePresetIssues(result.error, doc)
  throw new PresetError(`${source} is not a valid preset:\n- ${problems.join('\n- ')}\n(docs/presets.md describes the format)`, { problems })
}

// ---- secrets and devices ---------------------------------------------------------------------

const SECRET_KEY = /pass(word|wd|phrase)|secret|token|private_?key|api_?key|credential/i
const SECRET_VALUE = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/

/**
 * The places in a document that look like secrets: keys named like password, passphrase, secret,
 * token, private key, API key or credential, and values holding a PEM or OpenSSH private key.
 * Presets never hold secrets (they stay in the OS keychain), so any finding refuses the document.
 */
export function secretsInPreset(json: unknown): string[] {
  const found: string[] = []
  const visit = (value: unknown, at: readonly (string | number)[]): void => {
    if (typeof value === 'string') {
      if (SECRET_VALUE.test(value)) found.push(formatPath(at))
      return
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, [...at, i]))
      return
    }
    if (!isRecord(value)) return
    for (const [key, item] of Object.entries(value)) {
      if (SECRET_KEY.test(key.replace(/[\s-]/g, '_'))) found.push(formatPath([...at, key]))
      else visit(item, [...at, key])
    }
  }
  visit(json, [])
  return found
}

function refuseSecrets(doc: unknown, source: string): void {
  const secrets = secretsInPreset(doc)
  if (secrets.length === 0) return
  const problems = secrets.map((where) => `${where}: looks like a secret`)
  throw new PresetError(
    `${source} holds ${secrets.length === 1 ? 'a secret-like field' : 'secret-like fields'} (${secrets.join(', ')}). ` +
      'Presets never hold passwords, keys or tokens: they stay with the targets in the OS keychain. Remove ' +
      `${secrets.length === 1 ? 'it' : 'them'} and use the preset again`,
    { code: 'secret', problems }
  )
}

/**
 * A custom test cannot name a raw device in its parameters: a device is chosen in plan.storage,
 * where it is confirmed and where preflight checks it is not in use.
 */
function refuseDeviceParams(doc: Record<string, unknown>, source: string): void {
  const plan = doc.plan
  if (!isRecord(plan) || !Array.isArray(plan.tests)) return
  const problems: string[] = []
  plan.tests.forEach((test: unknown, i) => {
    if (!isRecord(test) || !isRecord(test.params)) return
    for (const key of ['device', 'deviceWriteConfirmed']) {
      if (key in test.params) {
        problems.push(`${formatPath(['plan', 'tests', i, 'params', key])}: a raw device is chosen in plan.storage ({"kind": "device", "path", "confirm"}), not in a test's params`)
      }
    }
  })
  if (problems.length > 0) throw new PresetError(`${source} is not a valid preset:\n- ${problems.join('\n- ')}`, { problems })
}

// ---- writing --------------------------------------------------------------------------------

/** Checks a preset as reading would, and gives the document as it is saved (defaults filled in). */
export function normalizePreset(preset: PresetInput | Preset, source = 'the preset'): Preset {
  return parsePresetDocument(preset, source)
}

/** Writes a preset atomically (temp file, fsync, rename), after the checks reading does. */
export async function writePresetFile(file: string, preset: PresetInput | Preset): Promise<Preset> {
  const checked = normalizePreset(preset, file)
  await writeFileAtomic(file, renderPreset(checked))
  return checked
}

/** The text of a preset file: two-space JSON with a final newline. */
export function renderPreset(preset: Preset): string {
  return `${JSON.stringify(preset, null, 2)}\n`
}

/** A plan as a preset document (checked; a PresetError says what is wrong). */
export function presetFromPlan(plan: ComparisonPlanInput, description?: string): Preset {
  const doc: PresetInput = { kind: PRESET_KIND, version: PRESET_VERSION, ...(description !== undefined && { description }), plan }
  return normalizePreset(doc, `the preset of "${plan.name}"`)
}

// ---- the shipped examples -------------------------------------------------------------------

export const EXAMPLE_PRESETS_DIR = 'presets'

export interface ExamplePreset {
  /** The file name without .json: the study pack it shows ('block-dd'). */
  id: string
  file: string
  preset: Preset
}

/** The example presets in `<resourcesDir>/presets/`, by file name. A broken example is a bug: it throws. */
export async function listExamplePresets(resourcesDir: string): Promise<ExamplePreset[]> {
  const dir = path.join(resourcesDir, EXAMPLE_PRESETS_DIR)
  const names = (await fs.readdir(dir)).filter((name) => name.endsWith('.json') && name !== PRESET_SCHEMA_FILE).sort()
  return Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name)
      return { id: name.slice(0, -'.json'.length), file, preset: await readPresetFile(file) }
    })
  )
}

// ---- messages -------------------------------------------------------------------------------

/** Each issue as `place: what is wrong`, the place in the document's own terms (plan.variants[1].scenario.cache). */
export function describePresetIssues(error: z.ZodError, doc: unknown): string[] {
  const lines: string[] = []
  for (const issue of error.issues) lines.push(...describeIssue(issue, [], doc))
  return [...new Set(lines)]
}

type Issue = z.core.$ZodIssue

function describeIssue(issue: Issue, base: readonly PropertyKey[], doc: unknown): string[] {
  const at = [...base, ...issue.path]
  const value = valueAt(doc, at)
  const where = formatPath(at)
  switch (issue.code) {
    case 'invalid_value':
      if (issue.values.length === 1) return [`${where}: ${missingOr(value, `expected ${JSON.stringify(issue.values[0])}`)}`]
      return [`${where}: ${missingOr(value, `expected one of ${issue.values.map(String).join(', ')}`)}`]
    case 'invalid_type':
      if (value === undefined) return [`${where}: missing (expected ${issue.expected})`]
      return [`${where}: expected ${issue.expected}, found ${describeValue(value)}`]
    case 'unrecognized_keys':
      return issue.keys.map((key) => `${formatPath([...at, key])}: unknown field (check its spelling; docs/presets.md lists the fields)`)
    case 'invalid_union': {
      if (issue.errors.length === 0 && 'options' in issue && Array.isArray(issue.options)) {
        const options = (issue.options as unknown[]).map(String).join(', ')
        return [`${where}: ${missingOr(value, `expected one of ${options}`)}`]
      }
      const branches = issue.errors.filter((branch) => !branch.every((i) => i.code === 'invalid_type' && i.path.length === 0))
      if (branches.length === 0) return [`${where}: expected an object, found ${describeValue(value)}`]
      const closest = branches.reduce((best, branch) => (branch.length < best.length ? branch : best))
      return closest.flatMap((inner) => describeIssue(inner, at, doc))
    }
    case 'too_small':
    case 'too_big':
      return [`${where}: ${isDefaultMessage(issue.message) ? describeBound(issue, value) : issue.message}`]
    case 'invalid_format':
      if (isDefaultMessage(issue.message) && 'pattern' in issue) return [`${where}: does not have the expected form (${String(issue.pattern)}), found ${describeValue(value)}`]
      return [`${where}: ${issue.message}`]
    default:
      return [`${where}: ${issue.message}`]
  }
}

/** Zod's own wording, which the model replaces with its own sentence where it matters. */
function isDefaultMessage(message: string): boolean {
  return /^(Too small|Too big|Invalid string|Invalid input)\b/.test(message)
}

function describeBound(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig, value: unknown): string {
  const small = issue.code === 'too_small'
  const limit = small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum
  const inclusive = issue.inclusive !== false
  const bound = small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than'
  const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' ? ' items' : ''
  const found =
    typeof value === 'string' ? `${Array.from(value).length} characters` : Array.isArray(value) ? `${value.length} items` : describeValue(value)
  return `expected ${bound} ${String(limit)}${unit}, found ${found}`
}

function missingOr(value: unknown, expected: string): string {
  return value === undefined ? `missing (${expected})` : `${expected}, found ${describeValue(value)}`
}

function valueAt(doc: unknown, at: readonly PropertyKey[]): unknown {
  let value = doc
  for (const key of at) {
    if (Array.isArray(value) && typeof key === 'number') value = value[key]
    else if (isRecord(value) && typeof key === 'string') value = value[key]
    else return undefined
  }
  return value
}

/** `plan.variants[1].scenario.cache`; keys that are not plain names are quoted: `params["odd key"]`. */
export function formatPath(at: readonly PropertyKey[]): string {
  let out = ''
  for (const key of at) {
    if (typeof key === 'number') out += `[${key}]`
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out ? `.${key}` : key
    else out += `[${JSON.stringify(String(key))}]`
  }
  return out || '(the document)'
}

function describeValue(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
  return String(value)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
