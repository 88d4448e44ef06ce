import { z } from 'zod'
import { TOOL_IDS } from './tool-ids'

/**
 * A target: a machine VirtBench measures, reached over SSH or "This computer".
 *
 * Plain serializable data only (dates as ISO strings). The model never holds a secret value:
 * `auth` says HOW to log in, and passwords, key passphrases and sudo passwords live in a secret
 * store under `secretKey(target.id, ...)` (src/main/ssh/secrets.ts).
 */

export const TARGET_NAME_MAX = 64
export const DEFAULT_SSH_PORT = 22

const CONTROL_CHARACTERS = /\p{Cc}/u

// ---------------------------------------------------------------------------------------------
// Addresses

/** Characters a shell gives a meaning to; none of them belongs in a host name or IP address. */
const SHELL_METACHARACTERS = /[;&|$`\\'"<>(){}[\]*?!#~^=,+\s]/

const HOSTNAME_LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/

export function isIpv4(value: string): boolean {
  const parts = value.split('.')
  return parts.length === 4 && parts.every((part) => /^(?:0|[1-9][0-9]{0,2})$/.test(part) && Number(part) <= 255)
}

/** IPv6 without brackets, optionally with an embedded IPv4 tail and a zone (`fe80::1%eth0`). */
export function isIpv6(value: string): boolean {
  const [address = '', zone, ...rest] = value.split('%')
  if (rest.length > 0 || (zone !== undefined && !/^[A-Za-z0-9_.-]+$/.test(zone))) return false
  const halves = address.split('::')
  if (halves.length > 2) return false
  const groupsOf = (half: string): string[] | undefined => (half === '' ? [] : half.split(':'))
  const head = groupsOf(halves[0] ?? '')
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : []
  if (!head || !tail) return false
  const groups = [...head, ...tail]
  let width = 0
  for (const [index, group] of groups.entries()) {
    if (index === groups.length - 1 && group.includes('.')) {
      if (!isIpv4(group)) return false
      width += 2
    } else if (/^[0-9A-Fa-f]{1,4}$/.test(group)) {
      width += 1
    } else {
      return false
    }
  }
  return halves.length === 2 ? width < 8 : width === 8
}

/**
 * Why `value` is not usable as an SSH address (host name, IPv4 or IPv6), or undefined when it is.
 * Nothing is accepted silently: a value that a shell or ssh would read differently is refused.
 */
export function addressProblem(value: string): string | undefined {
  const quoted = JSON.stringify(value)
  if (value.length === 0) return 'an address is needed (host name, IPv4 or IPv6 address)'
  if (value.length > 253) return `${quoted.slice(0, 40)}… is longer than 253 characters, too long for a host name`
  if (CONTROL_CHARACTERS.test(value)) return `${quoted} contains a control character`
  if (value.startsWith('-')) return `${quoted} starts with "-", which ssh would read as an option`
  if (/\s/.test(value)) return `${quoted} contains a space; an address is one host name or IP address`
  if (value.includes('@')) return `${quoted} contains "@"; put the user name in the user field`
  if (value.includes('/')) return `${quoted} contains "/"; an address is a host name or IP address, not a URL or path`
  if (value.startsWith('[') && value.endsWith(']') && isIpv6(value.slice(1, -1))) {
    return `${quoted}: write an IPv6 address without brackets (${value.slice(1, -1)})`
  }
  if (value.includes(':')) {
    if (isIpv6(value)) return undefined
    if (/^[^:]+:[0-9]+$/.test(value)) return `${quoted} looks like host:port; put the port in the port field`
    return `${quoted} is not a valid IPv6 address`
  }
  const meta = SHELL_METACHARACTERS.exec(value)
  if (meta) return `${quoted} contains ${JSON.stringify(meta[0])}, which is not allowed in a host name`
  if (/^[0-9.]+$/.test(value)) return isIpv4(value) ? undefined : `${quoted} is not a valid IPv4 address`
  const labels = (value.endsWith('.') ? value.slice(0, -1) : value).split('.')
  const bad = labels.find((label) => !HOSTNAME_LABEL.test(label))
  if (bad !== undefined) {
    return bad === ''
      ? `${quoted} has an empty part between dots`
      : `${quoted} is not a valid host name (the part ${JSON.stringify(bad)} must be letters, digits, "-" or "_", not starting or ending with "-", at most 63 characters)`
  }
  return undefined
}

export const AddressSchema = z.string().superRefine((value, ctx) => {
  const problem = addressProblem(value)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

/** Extra addresses of a target for network tests: the private/VPC address and the public (EIP) one. */
export const NetworkAddressesSchema = z.strictObject({
  private: AddressSchema.optional().describe('Private or VPC address other machines reach this one at'),
  public: AddressSchema.optional().describe('Public address (for example a cloud elastic IP)')
})
export type NetworkAddresses = z.infer<typeof NetworkAddressesSchema>

// ---------------------------------------------------------------------------------------------
// Simple fields

export const TargetIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/, 'a target id is 1 to 128 letters, digits, "-" or "_"')
export type TargetId = z.infer<typeof TargetIdSchema>

export const TargetNameSchema = z
  .string()
  .trim()
  .min(1, 'a target needs a name')
  .max(TARGET_NAME_MAX, `a target name is at most ${TARGET_NAME_MAX} characters`)
  .refine((name) => !CONTROL_CHARACTERS.test(name), 'a target name cannot contain control characters')

export const PortSchema = z
  .number()
  .int('a port is a whole number')
  .min(1, 'a port is between 1 and 65535')
  .max(65535, 'a port is between 1 and 65535')

/** Login names, including Windows forms (`DOMAIN\user`, `user@domain`, machine accounts ending in `$`). */
export const SshUserSchema = z
  .string()
  .min(1, 'a user name is needed')
  .max(128, 'a user name is at most 128 characters')
  .superRefine((user, ctx) => {
    if (/^[\p{L}\p{N}_.@\\](?:[\p{L}\p{N}_.@\\ -]*[\p{L}\p{N}_.@\\-])?\$?$/u.test(user)) return
    ctx.addIssue({
      code: 'custom',
      message: user.startsWith('-')
        ? `user name ${JSON.stringify(user)} starts with "-", which ssh would read as an option`
        : `user name ${JSON.stringify(user)} may contain only letters, digits, ".", "_", "-", "@", "\\", inner spaces and a final "$"`
    })
  })

const KeyPathSchema = z
  .string()
  .min(1, 'the key file path is empty')
  .max(4096, 'the key file path is longer than 4096 characters')
  .refine((p) => !CONTROL_CHARACTERS.test(p), 'the key file path contains a control character')

const FactSchema = z
  .string()
  .max(256)
  .refine((s) => !CONTROL_CHARACTERS.test(s), 'contains a control character')

export const IsoDateTimeSchema = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 date and time' })

export const TargetRoleSchema = z.enum(['host', 'guest']).describe('A physical host, or a guest (virtual machine)')
export type TargetRole = z.infer<typeof TargetRoleSchema>

export const TargetKindSchema = z.enum(['ssh', 'local']).describe('Reached over SSH, or "This computer"')
export type TargetKind = z.infer<typeof TargetKindSchema>

export const SudoModeSchema = z
  .enum(['none', 'passwordless', 'password'])
  .describe('How root commands run: not at all, sudo without a password, or sudo with a password from the secret store')
export type SudoMode = z.infer<typeof SudoModeSchema>

/** How to log in. Secrets (password, key passphrase) are never part of it. */
export const TargetAuthSchema = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('agent') }),
  z.strictObject({
    method: z.literal('key'),
    keyPath: KeyPathSchema.describe('Private key file on this computer'),
    hasPassphrase: z.boolean().default(false).describe('Whether the key is encrypted; the passphrase is a secret')
  }),
  z.strictObject({ method: z.literal('password') }),
  z.strictObject({ method: z.literal('keyboard-interactive') })
])
export type TargetAuth = z.infer<typeof TargetAuthSchema>
export type AuthMethod = TargetAuth['method']

/** What VirtBench found out about a target's operating system, and when. */
export const DetectedOsSchema = z.strictObject({
  family: z.enum(['linux', 'windows']),
  name: FactSchema.optional().describe('For example "Debian GNU/Linux 12 (bookworm)"'),
  kernel: FactSchema.optional().describe('For example "6.1.0-18-amd64"'),
  arch: FactSchema.optional().describe('For example "x86_64"'),
  virtualization: FactSchema.optional().describe('What the machine runs on, for example "kvm", or "none" on bare metal'),
  detectedAt: IsoDateTimeSchema
})
export type DetectedOs = z.infer<typeof DetectedOsSchema>

const LABEL_KEY = /^[A-Za-z0-9][A-Za-z0-9_.\-/]{0,63}$/
const LabelValueSchema = z
  .string()
  .max(256, 'a label value is at most 256 characters')
  .refine((s) => !CONTROL_CHARACTERS.test(s), 'a label value cannot contain control characters')

/** Free-form labels, for example `{ hypervisor: 'kvm', cache: 'none' }`. */
export const TargetLabelsSchema = z.record(z.string(), LabelValueSchema).superRefine((labels, ctx) => {
  const keys = Object.keys(labels)
  if (keys.length > 64) ctx.addIssue({ code: 'custom', message: `a target has at most 64 labels, not ${keys.length}` })
  for (const key of keys.filter((k) => !LABEL_KEY.test(k))) {
    ctx.addIssue({
      code: 'custom',
      path: [key],
      message: `a label name is 1 to 64 letters, digits, "_", ".", "-" or "/", starting with a letter or digit, not ${JSON.stringify(key)}`
    })
  }
})
export type TargetLabels = z.infer<typeof TargetLabelsSchema>

/** An absolute path on the target, shown in commands (quoted there), so no control characters. */
const ToolPathSchema = z
  .string()
  .max(4096, 'a tool path is at most 4096 characters')
  .regex(/^\//, 'a tool path is absolute (starts with /), for example /opt/iozone/bin/iozone')
  .refine((p) => !CONTROL_CHARACTERS.test(p), 'a tool path cannot contain control characters')

// ---------------------------------------------------------------------------------------------
// Targets

const commonFields = {
  name: TargetNameSchema.describe('Unique name, compared without regard to case'),
  role: TargetRoleSchema,
  hostId: TargetIdSchema.optional().describe('For a guest: the physical host (a target with role "host") it runs on'),
  addresses: NetworkAddressesSchema.default({}),
  sudo: SudoModeSchema.default('none'),
  os: DetectedOsSchema.optional(),
  labels: TargetLabelsSchema.default({}),
  toolPaths: z
    .partialRecord(z.enum(TOOL_IDS), ToolPathSchema)
    .optional()
    .describe('Where a tool is on this target when it is not on PATH: a program (iozone: /opt/iozone/bin/iozone) or, for UnixBench, the folder holding ./Run')
}

const sshFields = {
  kind: z.literal('ssh'),
  address: AddressSchema.describe('Host name, IPv4 or IPv6 address ssh connects to'),
  port: PortSchema.default(DEFAULT_SSH_PORT),
  user: SshUserSchema,
  auth: TargetAuthSchema,
  jumpHostId: TargetIdSchema.optional().describe('Another SSH target to connect through (it may have its own jump host)')
}

const localFields = { kind: z.literal('local') }

const storedFields = { id: TargetIdSchema, createdAt: IsoDateTimeSchema, updatedAt: IsoDateTimeSchema }

function checkRoleFields(target: { role: TargetRole; hostId?: string }, ctx: z.RefinementCtx): void {
  if (target.role !== 'guest' && target.hostId !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['hostId'],
      message: 'only a guest runs on a physical host: remove hostId or set the role to "guest"'
    })
  }
}

/** What a caller gives to create a target: no id, no dates. */
export const NewTargetSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ ...commonFields, ...sshFields }),
    z.strictObject({ ...commonFields, ...localFields })
  ])
  .superRefine(checkRoleFields)
export type NewTargetInput = z.input<typeof NewTargetSchema>
export type NewTarget = z.output<typeof NewTargetSchema>

/** A saved target. */
export const TargetSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ ...storedFields, ...commonFields, ...sshFields }),
    z.strictObject({ ...storedFields, ...commonFields, ...localFields })
  ])
  .superRefine((target, ctx) => {
    checkRoleFields(target, ctx)
    if (target.hostId === target.id) {
      ctx.addIssue({ code: 'custom', path: ['hostId'], message: 'a target cannot be its own physical host' })
    }
    if (target.kind === 'ssh' && target.jumpHostId === target.id) {
      ctx.addIssue({ code: 'custom', path: ['jumpHostId'], message: 'a target cannot be its own jump host' })
    }
  })
export type Target = z.output<typeof TargetSchema>
export type SshTarget = Extract<Target, { kind: 'ssh' }>
export type LocalTarget = Extract<Target, { kind: 'local' }>

/** Fields only an SSH target has; they are dropped when a target becomes local. */
const SSH_ONLY_FIELDS = ['address', 'port', 'user', 'auth', 'jumpHostId'] as const

/**
 * A change to a saved target. Absent fields stay as they are; `null` clears an optional field.
 * `addresses` and `labels` are replaced as a whole. Changing `kind` to 'local' drops the SSH
 * fields; changing `role` to 'host' drops `hostId`.
 */
export const TargetPatchSchema = z.strictObject({
  name: TargetNameSchema.optional(),
  role: TargetRoleSchema.optional(),
  hostId: TargetIdSchema.nullable().optional(),
  kind: TargetKindSchema.optional(),
  address: AddressSchema.optional(),
  port: PortSchema.optional(),
  user: SshUserSchema.optional(),
  auth: TargetAuthSchema.optional(),
  jumpHostId: TargetIdSchema.nullable().optional(),
  addresses: NetworkAddressesSchema.optional(),
  sudo: SudoModeSchema.optional(),
  os: DetectedOsSchema.nullable().optional(),
  labels: TargetLabelsSchema.optional()
})
export type TargetPatchInput = z.input<typeof TargetPatchSchema>
export type TargetPatch = z.output<typeof TargetPatchSchema>

export type TargetCheck = { ok: true; target: Target } | { ok: false; message: string }

/** `field: message; field: message` for people. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ')
}

/** Builds a saved target from a validated new-target input. */
export function createTarget(input: NewTarget, id: string, now: string): TargetCheck {
  const result = TargetSchema.safeParse({ ...input, id, createdAt: now, updatedAt: now })
  return result.success ? { ok: true, target: result.data } : { ok: false, message: describeIssues(result.error) }
}

/** The target after `patch`, validated; `id` and `createdAt` never change. */
export function applyTargetPatch(current: Target, patch: TargetPatch, now: string): TargetCheck {
  const next: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    if (value === null) delete next[key]
    else next[key] = value
  }
  if (patch.kind === 'local') for (const field of SSH_ONLY_FIELDS) delete next[field]
  if (patch.role === 'host' && patch.hostId === undefined) delete next.hostId
  next.id = current.id
  next.createdAt = current.createdAt
  next.updatedAt = now
  const result = TargetSchema.safeParse(next)
  return result.success ? { ok: true, target: result.data } : { ok: false, message: describeIssues(result.error) }
}

// ---------------------------------------------------------------------------------------------
// Checks across targets

/** Target names compare without regard to case or surrounding spaces. */
export function sameTargetName(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase('en-US') === b.trim().toLocaleLowerCase('en-US')
}

export interface TargetLinkProblem {
  code: 'duplicate-id' | 'duplicate-name' | 'missing-target' | 'wrong-kind' | 'jump-loop'
  /** A sentence naming the targets involved. */
  message: string
}

/**
 * Everything wrong between the targets of one collection: duplicate ids or names, jump hosts and
 * physical hosts that do not exist or are of the wrong kind, and jump chains that loop.
 */
export function targetLinkProblems(targets: readonly Target[]): TargetLinkProblem[] {
  const problems: TargetLinkProblem[] = []
  const problem = (code: TargetLinkProblem['code'], message: string): void => {
    problems.push({ code, message })
  }
  const byId = new Map<string, Target>()
  for (const target of targets) {
    if (byId.has(target.id)) problem('duplicate-id', `Two targets have the same id ${JSON.stringify(target.id)}.`)
    byId.set(target.id, target)
  }
  for (const [index, target] of targets.entries()) {
    const twin = targets.slice(0, index).find((other) => sameTargetName(other.name, target.name))
    if (twin) problem('duplicate-name', `The name "${target.name}" is already used by "${twin.name}"; target names must be unique (case does not count).`)
  }
  const label = (id: string): string => (byId.has(id) ? `"${byId.get(id)?.name}"` : `(unknown id ${JSON.stringify(id)})`)

  for (const target of targets) {
    if (target.hostId !== undefined) {
      const host = byId.get(target.hostId)
      if (!host) problem('missing-target', `"${target.name}" names a physical host with id ${JSON.stringify(target.hostId)}, which is not a saved target.`)
      else if (host.role !== 'host') problem('wrong-kind', `"${target.name}" names "${host.name}" as its physical host, but "${host.name}" is a guest; pick a target whose role is host.`)
    }
    if (target.kind !== 'ssh' || target.jumpHostId === undefined) continue
    const jump = byId.get(target.jumpHostId)
    if (!jump) {
      problem('missing-target', `"${target.name}" jumps through a target with id ${JSON.stringify(target.jumpHostId)}, which is not a saved target.`)
    } else if (jump.kind !== 'ssh') {
      problem('wrong-kind', `"${target.name}" cannot jump through "${jump.name}": it is this computer, not an SSH target.`)
    }
  }
  for (const loop of jumpLoops(targets, byId)) {
    problem('jump-loop', `The jump hosts form a loop: ${loop.map(label).join(' → ')}. Remove one of these jump hosts.`)
  }
  return problems
}

/** Each jump loop once, as the ids around it (first id repeated at the end). */
function jumpLoops(targets: readonly Target[], byId: Map<string, Target>): string[][] {
  const loops: string[][] = []
  const done = new Set<string>()
  for (const start of targets) {
    const path: string[] = []
    let id: string | undefined = start.id
    while (id !== undefined && !done.has(id) && !path.includes(id)) {
      path.push(id)
      const current = byId.get(id)
      id = current?.kind === 'ssh' ? current.jumpHostId : undefined
    }
    if (id !== undefined && path.includes(id)) loops.push([...path.slice(path.indexOf(id)), id])
    for (const visited of path) done.add(visited)
  }
  return loops
}

/** The chain of jump hosts to reach `target`, nearest to this computer first, as names. */
export function jumpChainNames(target: Target, targets: readonly Target[]): string[] {
  const byId = new Map(targets.map((t) => [t.id, t]))
  const chain: string[] = []
  const seen = new Set<string>([target.id])
  let jumpId = target.kind === 'ssh' ? target.jumpHostId : undefined
  while (jumpId !== undefined && !seen.has(jumpId)) {
    seen.add(jumpId)
    const jump = byId.get(jumpId)
    if (!jump) break
    chain.unshift(jump.name)
    jumpId = jump.kind === 'ssh' ? jump.jumpHostId : undefined
  }
  return chain
}
