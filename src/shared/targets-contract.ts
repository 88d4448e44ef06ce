import { z } from 'zod'
import { PATH_LIMIT_BYTES, stringOfAtMostBytes } from './byte-limit'
import {
  DetectedOsSchema,
  NewTargetSchema,
  PortSchema,
  TargetAuthSchema,
  TargetIdSchema,
  TargetPatchSchema,
  TargetRoleSchema,
  TargetSchema
} from './model/target'

/**
 * The targets part of the API contract: the Targets screen, the connection test with its live
 * stages, and the host-key decision. Secrets travel only inward (to be kept in the OS keychain)
 * and are never returned.
 */

/** The most a password, passphrase or sudo password may weigh, in bytes of UTF-8. */
export const SECRET_LIMIT_BYTES = 4096
const Secret = stringOfAtMostBytes(SECRET_LIMIT_BYTES, 'a secret').min(1, 'a secret cannot be empty')

/** Secrets given with an add or an update; absent ones stay as they are, `null` forgets one. */
export const TargetSecrets = z.strictObject({
  password: Secret.nullable().optional(),
  passphrase: Secret.nullable().optional(),
  sudo: Secret.nullable().optional()
})
export type TargetSecrets = z.infer<typeof TargetSecrets>

/** Which secrets a target has stored, never their values. */
export const StoredSecrets = z.object({ password: z.boolean(), passphrase: z.boolean(), sudo: z.boolean() })
export type StoredSecrets = z.infer<typeof StoredSecrets>

export const SecretsBackend = z.object({
  /** For example 'keychain (safeStorage: gnome_libsecret)', 'memory (until serve stops)'. */
  name: z.string(),
  /** Shown to the user when secrets are not well protected, or not saved (Linux without a keyring). */
  warning: z.string().optional(),
  /**
   * Only where the one encryption available has a fixed key (Linux without a keyring, Electron's
   * basic_text): true when secrets are saved anyway, as the user chose with
   * `targets:secretsStorage`; false when they are kept for the session only.
   */
  savesWithFixedKey: z.boolean().optional()
})

export const TargetView = z.object({
  target: TargetSchema,
  secrets: StoredSecrets,
  /** Jump hosts from this computer outward, by name. */
  jumpChain: z.array(z.string())
})
export type TargetView = z.infer<typeof TargetView>

export const TargetList = z.object({
  targets: z.array(TargetView),
  secretsBackend: SecretsBackend
})
export type TargetList = z.infer<typeof TargetList>

export const ImportCandidate = z.object({
  /** The Host alias in ~/.ssh/config; becomes the target name. */
  name: z.string(),
  address: z.string(),
  port: PortSchema,
  user: z.string(),
  auth: TargetAuthSchema,
  /** ProxyJump hops, by alias or user@host:port, nearest first. */
  jumps: z.array(z.string()),
  /** Why this entry cannot be imported as is, when it cannot (already a target, bad address). */
  problem: z.string().optional()
})
export type ImportCandidate = z.infer<typeof ImportCandidate>

export const ImportPreview = z.object({
  file: z.string(),
  candidates: z.array(ImportCandidate),
  warnings: z.array(z.string())
})
export type ImportPreview = z.infer<typeof ImportPreview>

export const ConnectionStageName = z.enum(['tcp', 'host-key', 'auth', 'sudo', 'os'])
export type ConnectionStageName = z.infer<typeof ConnectionStageName>

export const ConnectionStage = z.object({
  stage: ConnectionStageName,
  status: z.enum(['running', 'ok', 'failed', 'skipped']),
  /** What was found or went wrong, for people: "ssh-ed25519 SHA256:…", "Debian 12, kvm". */
  detail: z.string().optional(),
  elapsedMs: z.number().nonnegative().optional()
})
export type ConnectionStage = z.infer<typeof ConnectionStage>

export const ConnectionTestResult = z.object({
  targetId: TargetIdSchema,
  ok: z.boolean(),
  stages: z.array(ConnectionStage),
  os: DetectedOsSchema.optional(),
  error: z.string().optional()
})
export type ConnectionTestResult = z.infer<typeof ConnectionTestResult>

export const HostKeyDecision = z.enum(['accept-once', 'accept-and-remember', 'reject'])
export type HostKeyDecision = z.infer<typeof HostKeyDecision>

export const HostKeyQuestion = z.object({
  requestId: z.string(),
  targetName: z.string(),
  host: z.string(),
  port: PortSchema,
  keyType: z.string(),
  /** `SHA256:…`, as `ssh-keygen -lf` prints it. */
  fingerprint: z.string()
})
export type HostKeyQuestion = z.infer<typeof HostKeyQuestion>

const SshConfigPath = stringOfAtMostBytes(PATH_LIMIT_BYTES, 'a path').min(1).optional()

export const targetsInvokeContract = {
  'targets:list': { request: z.undefined(), response: TargetList },
  'targets:add': {
    request: z.strictObject({ target: NewTargetSchema, secrets: TargetSecrets.optional() }),
    response: TargetView
  },
  'targets:update': {
    request: z.strictObject({ id: TargetIdSchema, patch: TargetPatchSchema, secrets: TargetSecrets.optional() }),
    response: TargetView
  },
  'targets:remove': {
    request: z.strictObject({ id: TargetIdSchema }),
    response: z.object({ removed: TargetIdSchema })
  },
  'targets:importPreview': {
    request: z.strictObject({ path: SshConfigPath }).optional(),
    response: ImportPreview
  },
  'targets:import': {
    request: z.strictObject({
      path: SshConfigPath,
      names: z.array(z.string().min(1)).min(1).max(500),
      /** The role chosen for each imported Host, by name (case ignored); Host when not given (and for jump hosts pulled in). */
      roles: z.record(z.string(), TargetRoleSchema).optional()
    }),
    response: z.object({
      added: z.array(TargetView),
      skipped: z.array(z.object({ name: z.string(), reason: z.string() }))
    })
  },
  'targets:test': { request: z.strictObject({ id: TargetIdSchema }), response: ConnectionTestResult },
  /** Where the only encryption has a fixed key: save secrets with it anyway (true), or keep them for the session (false). */
  'targets:secretsStorage': { request: z.strictObject({ saveWithFixedKey: z.boolean() }), response: TargetList },
  'hostkey:decide': {
    request: z.strictObject({ requestId: z.string().min(1).max(100), decision: HostKeyDecision }),
    response: z.object({ accepted: z.boolean() })
  }
} as const

export const targetsEventContract = {
  'targets:changed': TargetList,
  'targets:testProgress': ConnectionStage.extend({ targetId: TargetIdSchema }),
  'hostkey:question': HostKeyQuestion
} as const
