import { DEFAULT_SSH_PORT, type AuthMethod, type NewTargetInput, type SudoMode, type TargetAuth, type TargetPatchInput, type TargetRole } from '../../../../shared/model/target'
import type { TargetSecrets, TargetView } from '../../../../shared/targets-contract'

/**
 * The add/edit form's state, as the person types it, and its translation to the API's payloads.
 * Validation is the API's: it answers `invalid-request` with one issue per field, which
 * `fieldOfIssue` maps back onto the form. Only what a payload cannot carry is checked here.
 */

/** A secret's state in the form: kept as stored, replaced by a new value, or forgotten. */
export interface SecretDraft {
  stored: boolean
  mode: 'keep' | 'replace' | 'clear'
  value: string
}

export interface LabelRow {
  rowId: number
  key: string
  value: string
}

export interface TargetDraft {
  name: string
  kind: 'ssh' | 'local'
  role: TargetRole
  hostId: string
  address: string
  port: string
  user: string
  authMethod: AuthMethod
  keyPath: string
  hasPassphrase: boolean
  jumpHostId: string
  privateAddress: string
  publicAddress: string
  sudo: SudoMode
  labels: LabelRow[]
  password: SecretDraft
  passphrase: SecretDraft
  sudoPassword: SecretDraft
}

export type SecretField = 'password' | 'passphrase' | 'sudoPassword'

/** Form fields an error can be shown next to; `labels.<rowId>` points at one label row. */
export type FieldKey = Exclude<keyof TargetDraft, 'labels'> | `labels.${number}` | 'labels'

export type FieldErrors = Partial<Record<FieldKey, string>>

let nextRowId = 1

export function labelRow(key = '', value = ''): LabelRow {
  return { rowId: nextRowId++, key, value }
}

function secretDraft(stored: boolean): SecretDraft {
  return { stored, mode: stored ? 'keep' : 'replace', value: '' }
}

export function emptyDraft(): TargetDraft {
  return {
    name: '',
    kind: 'ssh',
    role: 'host',
    hostId: '',
    address: '',
    port: String(DEFAULT_SSH_PORT),
    user: '',
    authMethod: 'agent',
    keyPath: '',
    hasPassphrase: false,
    jumpHostId: '',
    privateAddress: '',
    publicAddress: '',
    sudo: 'none',
    labels: [],
    password: secretDraft(false),
    passphrase: secretDraft(false),
    sudoPassword: secretDraft(false)
  }
}

export function draftFromView({ target, secrets }: TargetView): TargetDraft {
  const ssh = target.kind === 'ssh' ? target : undefined
  return {
    ...emptyDraft(),
    name: target.name,
    kind: target.kind,
    role: target.role,
    hostId: target.hostId ?? '',
    address: ssh?.address ?? '',
    port: String(ssh?.port ?? DEFAULT_SSH_PORT),
    user: ssh?.user ?? '',
    authMethod: ssh?.auth.method ?? 'agent',
    keyPath: ssh?.auth.method === 'key' ? ssh.auth.keyPath : '',
    hasPassphrase: ssh?.auth.method === 'key' ? ssh.auth.hasPassphrase : false,
    jumpHostId: ssh?.jumpHostId ?? '',
    privateAddress: target.addresses.private ?? '',
    publicAddress: target.addresses.public ?? '',
    sudo: target.sudo,
    labels: Object.entries(target.labels).map(([key, value]) => labelRow(key, value)),
    password: secretDraft(secrets.password),
    passphrase: secretDraft(secrets.passphrase),
    sudoPassword: secretDraft(secrets.sudo)
  }
}

/** Which secrets the chosen settings use; the others are forgotten when the target is saved. */
export function secretsInUse(draft: TargetDraft): Record<SecretField, boolean> {
  const ssh = draft.kind === 'ssh'
  return {
    password: ssh && (draft.authMethod === 'password' || draft.authMethod === 'keyboard-interactive'),
    passphrase: ssh && draft.authMethod === 'key' && draft.hasPassphrase,
    sudoPassword: draft.sudo === 'password'
  }
}

const SECRET_NAMES: Record<SecretField, keyof TargetSecrets> = {
  password: 'password',
  passphrase: 'passphrase',
  sudoPassword: 'sudo'
}

function secretsOf(draft: TargetDraft): TargetSecrets {
  const inUse = secretsInUse(draft)
  const secrets: TargetSecrets = {}
  for (const field of Object.keys(SECRET_NAMES) as SecretField[]) {
    const secret = draft[field]
    const name = SECRET_NAMES[field]
    if (!inUse[field] || secret.mode === 'clear') {
      if (secret.stored) secrets[name] = null
    } else if (secret.mode === 'replace' && secret.value !== '') {
      secrets[name] = secret.value
    }
  }
  return secrets
}

/** Port text as a number, or undefined when it is not a whole number. */
function portOf(text: string): number | undefined {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : undefined
}

/** What the form can tell before asking the API: things a JSON payload cannot even express. */
export function localProblems(draft: TargetDraft): FieldErrors {
  const errors: FieldErrors = {}
  if (draft.kind === 'ssh' && portOf(draft.port) === undefined) {
    errors.port = 'a port is a whole number between 1 and 65535'
  }
  const seen = new Set<string>()
  for (const row of draft.labels) {
    const key = row.key.trim()
    if (key === '' && row.value.trim() === '') continue
    if (key === '') errors[`labels.${row.rowId}`] = 'a label needs a name'
    else if (seen.has(key)) errors[`labels.${row.rowId}`] = `the label "${key}" is already set above`
    seen.add(key)
  }
  const inUse = secretsInUse(draft)
  for (const field of ['password', 'passphrase', 'sudoPassword'] as const) {
    const secret = draft[field]
    if (inUse[field] && secret.stored && secret.mode === 'replace' && secret.value === '') {
      errors[field] = 'type the new value, or keep the stored one'
    }
  }
  return errors
}

function labelsOf(draft: TargetDraft): Record<string, string> {
  const labels: Record<string, string> = {}
  for (const row of draft.labels) if (row.key.trim() !== '') labels[row.key.trim()] = row.value
  return labels
}

function addressesOf(draft: TargetDraft): { private?: string; public?: string } {
  return {
    ...(draft.privateAddress.trim() ? { private: draft.privateAddress.trim() } : {}),
    ...(draft.publicAddress.trim() ? { public: draft.publicAddress.trim() } : {})
  }
}

function authOf(draft: TargetDraft): TargetAuth {
  return draft.authMethod === 'key'
    ? { method: 'key', keyPath: draft.keyPath, hasPassphrase: draft.hasPassphrase }
    : { method: draft.authMethod }
}

export function newTargetPayload(draft: TargetDraft): { target: NewTargetInput; secrets: TargetSecrets } {
  const common = {
    name: draft.name,
    role: draft.role,
    ...(draft.role === 'guest' && draft.hostId ? { hostId: draft.hostId } : {}),
    addresses: addressesOf(draft),
    sudo: draft.sudo,
    labels: labelsOf(draft)
  }
  const target: NewTargetInput =
    draft.kind === 'local'
      ? { ...common, kind: 'local' }
      : {
          ...common,
          kind: 'ssh',
          address: draft.address.trim(),
          port: portOf(draft.port) ?? DEFAULT_SSH_PORT,
          user: draft.user.trim(),
          auth: authOf(draft),
          ...(draft.jumpHostId ? { jumpHostId: draft.jumpHostId } : {})
        }
  return { target, secrets: secretsOf(draft) }
}

/** Every field the form shows, so the saved target is exactly what the form says. */
export function patchPayload(draft: TargetDraft): { patch: TargetPatchInput; secrets: TargetSecrets } {
  const patch: TargetPatchInput = {
    name: draft.name,
    role: draft.role,
    hostId: draft.role === 'guest' && draft.hostId ? draft.hostId : null,
    kind: draft.kind,
    addresses: addressesOf(draft),
    sudo: draft.sudo,
    labels: labelsOf(draft),
    ...(draft.kind === 'ssh'
      ? {
          address: draft.address.trim(),
          port: portOf(draft.port) ?? DEFAULT_SSH_PORT,
          user: draft.user.trim(),
          auth: authOf(draft),
          jumpHostId: draft.jumpHostId || null
        }
      : {})
  }
  return { patch, secrets: secretsOf(draft) }
}

const PATH_FIELDS: Record<string, FieldKey> = {
  name: 'name',
  kind: 'kind',
  role: 'role',
  hostId: 'hostId',
  address: 'address',
  port: 'port',
  user: 'user',
  auth: 'authMethod',
  'auth.method': 'authMethod',
  'auth.keyPath': 'keyPath',
  'auth.hasPassphrase': 'hasPassphrase',
  jumpHostId: 'jumpHostId',
  'addresses.private': 'privateAddress',
  'addresses.public': 'publicAddress',
  sudo: 'sudo',
  labels: 'labels',
  'secrets.password': 'password',
  'secrets.passphrase': 'passphrase',
  'secrets.sudo': 'sudoPassword'
}

/**
 * The form field an API issue path belongs to (`target.port`, `patch.auth.keyPath`,
 * `target.labels.cache`, `secrets.sudo`), or undefined when it belongs to none.
 */
export function fieldOfIssue(path: string, draft: TargetDraft): FieldKey | undefined {
  const parts = path.split('.')
  const inner = parts[0] === 'target' || parts[0] === 'patch' ? parts.slice(1) : parts
  if (inner[0] === 'labels' && inner.length > 1) {
    const key = inner.slice(1).join('.')
    const row = draft.labels.find((r) => r.key.trim() === key)
    return row ? `labels.${row.rowId}` : 'labels'
  }
  return PATH_FIELDS[inner.join('.')] ?? PATH_FIELDS[inner.slice(0, 2).join('.')] ?? PATH_FIELDS[inner[0] ?? '']
}

/** API issues spread over the fields, and the ones no field shows, as sentences. */
export function issuesToErrors(
  issues: readonly { path: string; message: string }[],
  draft: TargetDraft
): { fields: FieldErrors; other: string[] } {
  const fields: FieldErrors = {}
  const other: string[] = []
  for (const issue of issues) {
    const field = fieldOfIssue(issue.path, draft)
    if (field && !fields[field]) fields[field] = issue.message
    else if (!field) other.push(`${issue.path}: ${issue.message}`)
  }
  return { fields, other }
}
