import type { Readable, Writable } from 'node:stream'
import { z } from 'zod'

/**
 * Where passwords, key passphrases and sudo passwords are kept. Targets only say which kind of
 * secret they need; the value lives here under `secretKey(target.id, kind)`.
 *
 * No implementation ever puts a secret value into a message, an error or a log line.
 */
export interface SecretStore {
  get(key: string): Promise<string | undefined>
  set(key: string, value: string): Promise<void>
  delete(key: string): Promise<void>
  /** What keeps the secrets, for the user: 'memory', 'environment', 'prompt', 'gnome_libsecret'... */
  readonly backend: string
  /** Set when the secrets are less safe than the user would assume. */
  readonly warning?: string
  /**
   * Only where the one encryption available has a fixed key (Linux without a keyring): whether
   * secrets are saved anyway, as the user chose, or kept for the session; and how to change that.
   */
  readonly fixedKey?: FixedKeyChoice
}

/** The user's choice where secrets could only be saved with a fixed key. */
export interface FixedKeyChoice {
  /** True: saved in secrets.json although anyone who can read the file can decrypt them. */
  readonly saving: boolean
  /** Saves the secrets held so far and later ones (true), or takes them off the disk for the session (false). */
  choose(save: boolean): Promise<void>
}

export const SECRET_KINDS = ['password', 'passphrase', 'sudo'] as const
export type SecretKind = (typeof SECRET_KINDS)[number]

/** What each kind of secret is, in words. */
export const SECRET_KIND_LABELS: Readonly<Record<SecretKind, string>> = {
  password: 'SSH password',
  passphrase: 'key passphrase',
  sudo: 'sudo password'
}

const TARGET_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/

/** The key of one secret of one target: `target/<id>/<kind>`. */
export function secretKey(targetId: string, kind: SecretKind): string {
  if (!TARGET_ID.test(targetId)) throw new Error(`${JSON.stringify(targetId)} is not a target id`)
  return `target/${targetId}/${kind}`
}

export function parseSecretKey(key: string): { targetId: string; kind: SecretKind } | undefined {
  const match = /^target\/([^/]+)\/([a-z]+)$/.exec(key)
  const targetId = match?.[1]
  const kind = match?.[2] as SecretKind | undefined
  if (!targetId || !TARGET_ID.test(targetId) || !kind || !SECRET_KINDS.includes(kind)) return undefined
  return { targetId, kind }
}

/** The keys of every secret a target can have, e.g. to delete them all when it is removed. */
export function secretKeysOf(targetId: string): string[] {
  return SECRET_KINDS.map((kind) => secretKey(targetId, kind))
}

function requireKey(key: string): { targetId: string; kind: SecretKind } {
  const parsed = parseSecretKey(key)
  if (!parsed) throw new Error(`${JSON.stringify(key)} is not a secret key; build keys with secretKey(targetId, kind)`)
  return parsed
}

// ---------------------------------------------------------------------------------------------
// Memory

/** Secrets for the life of the process only (tests, and values typed at a prompt). */
export class MemorySecretStore implements SecretStore {
  readonly backend = 'memory'
  private readonly values = new Map<string, string>()

  async get(key: string): Promise<string | undefined> {
    requireKey(key)
    return this.values.get(key)
  }

  async set(key: string, value: string): Promise<void> {
    requireKey(key)
    this.values.set(key, value)
  }

  async delete(key: string): Promise<void> {
    requireKey(key)
    this.values.delete(key)
  }

  /** The keys held, e.g. to move them into another store. */
  keys(): string[] {
    return [...this.values.keys()]
  }
}

// ---------------------------------------------------------------------------------------------
// Environment

/** The targets a store may need to name: id and name are enough. */
export interface NamedTarget {
  id: string
  name: string
}
export type ListTargets = () => Promise<readonly NamedTarget[]> | readonly NamedTarget[]

const ENV_SUFFIX: Readonly<Record<SecretKind, string>> = {
  password: 'PASSWORD',
  passphrase: 'PASSPHRASE',
  sudo: 'SUDO_PASSWORD'
}

/**
 * A target name as it appears in an environment variable: accents removed, upper case, every run
 * of characters other than A-Z and 0-9 turned into one `_`, no `_` at either end. A name with no
 * letter or digit left (for example one in another script) uses `ID_` and the target id instead.
 *
 *   "web-1" → WEB_1, "Guest (KVM, cache=none)" → GUEST_KVM_CACHE_NONE, "Café" → CAFE
 */
export function envNameOf(target: NamedTarget): string {
  const folded = target.name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
  return folded || `ID_${target.id.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`
}

/**
 * The environment variable holding one secret of a target:
 * `VIRTBENCH_SECRET_<NAME>_PASSWORD`, `VIRTBENCH_SECRET_<NAME>_PASSPHRASE` (the key's passphrase)
 * and `VIRTBENCH_SECRET_<NAME>_SUDO_PASSWORD`, with `<NAME>` from `envNameOf`.
 */
export function secretEnvVar(target: NamedTarget, kind: SecretKind): string {
  return `VIRTBENCH_SECRET_${envNameOf(target)}_${ENV_SUFFIX[kind]}`
}

/** Finds the target of `key` and its variable, refusing a variable that two secrets would share. */
async function envVarFor(key: string, listTargets: ListTargets): Promise<{ target: NamedTarget; kind: SecretKind; variable: string }> {
  const { targetId, kind } = requireKey(key)
  const targets = await listTargets()
  const target = targets.find((t) => t.id === targetId)
  if (!target) throw new Error(`There is no target with id ${JSON.stringify(targetId)} to look up a secret for.`)
  const variable = secretEnvVar(target, kind)
  const sharing = targets
    .flatMap((other) => SECRET_KINDS.map((otherKind) => ({ other, otherKind })))
    .filter(({ other, otherKind }) => !(other.id === target.id && otherKind === kind) && secretEnvVar(other, otherKind) === variable)
  if (sharing.length > 0) {
    const names = sharing.map(({ other, otherKind }) => `the ${SECRET_KIND_LABELS[otherKind]} of "${other.name}"`).join(', ')
    throw new Error(
      `${variable} would hold both the ${SECRET_KIND_LABELS[kind]} of "${target.name}" and ${names}; rename one of these targets so their names differ in letters or digits.`
    )
  }
  return { target, kind, variable }
}

/**
 * Secrets from environment variables, for the CLI and CI (see `secretEnvVar` for the names).
 * An empty variable counts as unset. Read-only: `set` and `delete` say which variable to change.
 */
export class EnvSecretStore implements SecretStore {
  readonly backend = 'environment'

  constructor(
    private readonly listTargets: ListTargets,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env
  ) {}

  async get(key: string): Promise<string | undefined> {
    const { variable } = await envVarFor(key, this.listTargets)
    const value = this.env[variable]
    return value === undefined || value === '' ? undefined : value
  }

  async set(key: string): Promise<void> {
    const { variable } = await envVarFor(key, this.listTargets)
    throw new Error(`Secrets from the environment cannot be changed by VirtBench; set ${variable} before starting it.`)
  }

  async delete(key: string): Promise<void> {
    const { variable } = await envVarFor(key, this.listTargets)
    throw new Error(`Secrets from the environment cannot be removed by VirtBench; unset ${variable} before starting it.`)
  }
}

// ---------------------------------------------------------------------------------------------
// Prompt

/** A terminal's input: Node's `tty.ReadStream` in real use. */
export type PromptInput = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown; isRaw?: boolean }

const CTRL_C = '\u0003'
const CTRL_D = '\u0004'
const CTRL_U = '\u0015'
const BACKSPACE = new Set(['\u007f', '\b'])

/**
 * Asks for secrets on the terminal with echo off, once each per process (the answers are kept in
 * memory, never written anywhere). On anything but a terminal it refuses, naming the environment
 * variable to set instead.
 */
export class PromptSecretStore implements SecretStore {
  readonly backend = 'prompt'
  private readonly answers = new MemorySecretStore()
  private asking: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly listTargets: ListTargets,
    private readonly input: PromptInput,
    private readonly output: Writable
  ) {}

  async get(key: string): Promise<string | undefined> {
    const known = await this.answers.get(key)
    if (known !== undefined) return known
    const { target, kind, variable } = await envVarFor(key, this.listTargets)
    const what = `the ${SECRET_KIND_LABELS[kind]} of "${target.name}"`
    if (!this.input.isTTY || typeof this.input.setRawMode !== 'function') {
      throw new Error(`VirtBench needs ${what}, but standard input is not a terminal to ask on; set ${variable} in the environment instead.`)
    }
    // One question at a time on the one terminal; a question already answered is not asked again.
    const answer = this.asking.then(async () => {
      const answered = await this.answers.get(key)
      if (answered !== undefined) return answered
      const value = await this.ask(`${capitalize(SECRET_KIND_LABELS[kind])} for "${target.name}": `)
      await this.answers.set(key, value)
      return value
    })
    this.asking = answer.catch(() => undefined)
    return answer
  }

  async set(key: string, value: string): Promise<void> {
    await this.answers.set(key, value)
  }

  async delete(key: string): Promise<void> {
    await this.answers.delete(key)
  }

  /** Reads one line with the terminal in raw mode, so nothing typed is echoed. */
  private ask(question: string): Promise<string> {
    const { input, output } = this
    return new Promise<string>((resolve, reject) => {
      let typed = ''
      const wasRaw = input.isRaw === true
      const finish = (error?: Error): void => {
        input.off('data', onData)
        input.off('end', onEnd)
        input.setRawMode?.(wasRaw)
        input.pause()
        output.write('\n')
        if (error) reject(error)
        else resolve(typed)
      }
      const onEnd = (): void => finish(new Error('The terminal closed before the secret was entered.'))
      const onData = (chunk: Buffer | string): void => {
        for (const ch of chunk.toString('utf8')) {
          if (ch === '\r' || ch === '\n') return finish()
          if (ch === CTRL_C) return finish(new Error('Cancelled at the prompt.'))
          if (ch === CTRL_D && typed === '') return finish(new Error('No secret was entered.'))
          if (BACKSPACE.has(ch)) typed = [...typed].slice(0, -1).join('')
          else if (ch === CTRL_U) typed = ''
          else if (ch >= ' ') typed += ch
        }
      }
      // Echo goes off before the question shows, so an answer typed the moment it appears stays hidden.
      input.setRawMode?.(true)
      output.write(question)
      input.on('data', onData)
      input.on('end', onEnd)
      input.resume()
    })
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

// ---------------------------------------------------------------------------------------------
// Chains

/**
 * Asks each store in turn and answers with the first value found (for the CLI: the environment
 * first, then the prompt). `set` and `delete` go to the last store.
 */
export class SecretStoreChain implements SecretStore {
  readonly backend: string
  readonly warning?: string

  constructor(private readonly stores: readonly [SecretStore, ...SecretStore[]]) {
    this.backend = stores.map((store) => store.backend).join('+')
    const warnings = stores.map((store) => store.warning).filter((w): w is string => w !== undefined)
    if (warnings.length > 0) this.warning = warnings.join(' ')
  }

  async get(key: string): Promise<string | undefined> {
    for (const store of this.stores) {
      const value = await store.get(key)
      if (value !== undefined) return value
    }
    return undefined
  }

  set(key: string, value: string): Promise<void> {
    return this.last.set(key, value)
  }

  delete(key: string): Promise<void> {
    return this.last.delete(key)
  }

  private get last(): SecretStore {
    return this.stores[this.stores.length - 1] as SecretStore
  }
}

// ---------------------------------------------------------------------------------------------
// Encrypted file

/** Encryption by the operating system's keyring (Electron safeStorage in the app). */
export interface SecretCipher {
  encrypt(plainText: string): Promise<Buffer>
  /** `shouldReEncrypt`: the key was rotated, so the value should be encrypted again. */
  decrypt(cipherText: Buffer): Promise<{ plainText: string; shouldReEncrypt?: boolean }>
}

export const SECRETS_FILE = 'secrets.json'
export const SECRETS_KIND = 'virtbench.secrets'
export const SECRETS_VERSION = 1

/** `secrets.json`'s data: each key's value, encrypted, as base64. */
export const SecretsDocumentData = z.object({
  values: z.record(
    z.string().refine((key) => parseSecretKey(key) !== undefined, 'not a secret key'),
    z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64')
  ),
  /** The user chose to save secrets here although the only encryption has a fixed key (FixedKeySecretStore). */
  saveWithFixedKey: z.boolean().optional()
})
export type SecretsDocumentData = z.infer<typeof SecretsDocumentData>

/** The versioned JSON document the values live in (JsonDocument from src/main/store in the app). */
export interface SecretsDocument {
  readonly file: string
  load(): Promise<{ data: SecretsDocumentData; problem?: string }>
  save(data: SecretsDocumentData): Promise<void>
}

export interface FileEncryptedSecretStoreOptions {
  document: SecretsDocument
  cipher: SecretCipher
  backend: string
  warning?: string
  /** Told when secrets.json could not be used, or a value had to be re-encrypted and could not be. */
  onProblem?: (message: string) => void
}

/**
 * Secrets encrypted by `cipher` and kept in `secrets.json` (mode 0600, written atomically).
 * Changes are applied one at a time in the order they were asked for.
 */
export class FileEncryptedSecretStore implements SecretStore {
  readonly backend: string
  readonly warning?: string
  private readonly document: SecretsDocument
  private readonly cipher: SecretCipher
  private readonly onProblem: (message: string) => void
  private data: SecretsDocumentData | undefined
  private queue: Promise<unknown> = Promise.resolve()

  constructor(options: FileEncryptedSecretStoreOptions) {
    this.document = options.document
    this.cipher = options.cipher
    this.backend = options.backend
    if (options.warning !== undefined) this.warning = options.warning
    this.onProblem = options.onProblem ?? (() => {})
  }

  get(key: string): Promise<string | undefined> {
    requireKey(key)
    return this.serially(async () => {
      const stored = (await this.loaded())[key]
      if (stored === undefined) return undefined
      let decrypted: { plainText: string; shouldReEncrypt?: boolean }
      try {
        decrypted = await this.cipher.decrypt(Buffer.from(stored, 'base64'))
      } catch {
        throw new Error(
          `The saved ${describeKey(key)} could not be decrypted (the keyring may be locked, or was reset since it was saved); unlock the keyring, or enter the secret again.`
        )
      }
      if (decrypted.shouldReEncrypt) await this.reEncrypt(key, decrypted.plainText)
      return decrypted.plainText
    })
  }

  set(key: string, value: string): Promise<void> {
    requireKey(key)
    return this.serially(async () => {
      const values = await this.loaded()
      let encrypted: Buffer
      try {
        encrypted = await this.cipher.encrypt(value)
      } catch {
        throw new Error(`The ${describeKey(key)} could not be encrypted with ${this.backend}, so it was not saved; check that the keyring is available and unlocked.`)
      }
      await this.write({ ...values, [key]: encrypted.toString('base64') })
    })
  }

  delete(key: string): Promise<void> {
    requireKey(key)
    return this.serially(async () => {
      const values = await this.loaded()
      if (!(key in values)) return
      const { [key]: _removed, ...rest } = values
      await this.write(rest)
    })
  }

  /** The keys of the values in secrets.json. */
  keys(): Promise<string[]> {
    return this.serially(async () => Object.keys(await this.loaded()))
  }

  /** The fixed-key choice kept in secrets.json (see FixedKeySecretStore); false when never made. */
  /** The user's choice about saving with the fixed key; undefined when they were never asked. */
  savesWithFixedKey(): Promise<boolean | undefined> {
    return this.serially(async () => (await this.loadedData()).saveWithFixedKey)
  }

  setSavesWithFixedKey(save: boolean): Promise<void> {
    return this.serially(async () => {
      const { values, saveWithFixedKey } = await this.loadedData()
      if (saveWithFixedKey === save) return
      await this.save({ values, saveWithFixedKey: save })
    })
  }

  private async reEncrypt(key: string, plainText: string): Promise<void> {
    try {
      const encrypted = await this.cipher.encrypt(plainText)
      await this.write({ ...(await this.loaded()), [key]: encrypted.toString('base64') })
    } catch {
      this.onProblem(`The ${describeKey(key)} could not be encrypted again with the keyring's new key; it still works with the old one.`)
    }
  }

  private async write(values: Record<string, string>): Promise<void> {
    await this.save({ ...(await this.loadedData()), values })
  }

  private async save(data: SecretsDocumentData): Promise<void> {
    await this.document.save(data)
    this.data = data
  }

  private async loaded(): Promise<Record<string, string>> {
    return (await this.loadedData()).values
  }

  private async loadedData(): Promise<SecretsDocumentData> {
    if (this.data) return this.data
    const { data, problem } = await this.document.load()
    if (problem) this.onProblem(`${problem} Saved passwords and passphrases will have to be entered again.`)
    this.data = data
    return this.data
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task)
    this.queue = run.catch(() => undefined)
    return run
  }
}

function describeKey(key: string): string {
  const parsed = parseSecretKey(key)
  return parsed ? `${SECRET_KIND_LABELS[parsed.kind]} of target ${parsed.targetId}` : 'secret'
}

// ---------------------------------------------------------------------------------------------
// Fixed key (Linux without a keyring)

/** True where the operating system's encryption has a fixed key: Electron's `basic_text` on Linux, used when no keyring answers. */
export function usesFixedKey(platform: string, backend: string): boolean {
  return platform === 'linux' && backend === 'basic_text'
}

const INSTALL_A_KEYRING = 'install or unlock a keyring (GNOME Keyring, KWallet) and restart VirtBench'

export const FIXED_KEY_SESSION_WARNING = `No keyring answered, and the only encryption left uses a fixed key that anyone who can read secrets.json could undo, so passwords and passphrases you enter are kept until VirtBench quits, not saved. To save them safely, ${INSTALL_A_KEYRING}.`

export const FIXED_KEY_SAVING_WARNING = `Secrets are saved in secrets.json with a fixed key, which anyone who can read the file can undo, because you chose to save them without a keyring. To protect them, ${INSTALL_A_KEYRING}.`

export const NO_ENCRYPTION_WARNING = `No keyring is available to encrypt secrets, so passwords and passphrases you enter are kept for this session only (until VirtBench quits). To save them, ${INSTALL_A_KEYRING}.`

/**
 * Secrets where the only encryption has a fixed key. They are kept in memory for this session and
 * never written, unless the user chose to save them anyway; that choice is kept in secrets.json.
 * Secrets an earlier VirtBench saved before it asked stay saved until the user chooses.
 * Secrets found in the file without that choice (saved by an earlier version) are taken off the
 * disk at start and kept for the session, and the user is told.
 */
export class FixedKeySecretStore implements SecretStore {
  readonly backend: string
  private readonly session = new MemorySecretStore()
  private saving = false
  /** Secrets an earlier VirtBench saved with the fixed key before it asked: kept where they are until the user chooses. */
  private savedBeforeAsking = 0
  private queue: Promise<unknown> = Promise.resolve()

  private constructor(
    private readonly file: FileEncryptedSecretStore,
    private readonly onProblem: (message: string) => void
  ) {
    this.backend = file.backend
  }

  /** Opens the store with the choice kept in `file`, applying it to what the file holds. */
  static async open(file: FileEncryptedSecretStore, onProblem: (message: string) => void = () => {}): Promise<FixedKeySecretStore> {
    const store = new FixedKeySecretStore(file, onProblem)
    const choice = await file.savesWithFixedKey()
    if (choice === undefined) {
      // never asked: secrets an earlier VirtBench already saved stay saved (nothing is removed
      // behind the user's back) until they choose; a new install saves nothing
      store.savedBeforeAsking = await store.readableOnDisk()
      store.saving = store.savedBeforeAsking > 0
      if (store.saving) onProblem(store.savedBeforeAskingNote())
    } else {
      store.saving = choice
    }
    return store
  }

  get warning(): string {
    if (this.saving) return this.savedBeforeAsking > 0 ? `${FIXED_KEY_SAVING_WARNING} ${this.savedBeforeAskingNote()}` : FIXED_KEY_SAVING_WARNING
    return FIXED_KEY_SESSION_WARNING
  }

  get fixedKey(): FixedKeyChoice {
    return { saving: this.saving, choose: (save) => this.choose(save) }
  }

  get(key: string): Promise<string | undefined> {
    return this.serially(async () => (await this.session.get(key)) ?? (await this.file.get(key)))
  }

  set(key: string, value: string): Promise<void> {
    return this.serially(async () => {
      if (this.saving) {
        await this.file.set(key, value)
        await this.session.delete(key)
      } else {
        await this.session.set(key, value)
        // an older copy must not stay on the disk
        await this.file.delete(key)
      }
    })
  }

  delete(key: string): Promise<void> {
    return this.serially(async () => {
      await this.session.delete(key)
      await this.file.delete(key)
    })
  }

  private savedBeforeAskingNote(): string {
    const n = this.savedBeforeAsking
    return `${n === 1 ? 'One secret' : `${n} secrets`} saved by an earlier VirtBench with the fixed key ${n === 1 ? 'is' : 'are'} still in secrets.json: nothing was removed. Untick "save anyway" to keep secrets for this session only, which takes ${n === 1 ? 'it' : 'them'} off the disk.`
  }

  private choose(save: boolean): Promise<void> {
    return this.serially(async () => {
      await this.file.setSavesWithFixedKey(save)
      this.saving = save
      this.savedBeforeAsking = 0
      if (save) {
        for (const key of this.session.keys()) {
          await this.file.set(key, (await this.session.get(key))!)
          await this.session.delete(key)
        }
      } else {
        await this.moveToSession()
      }
    })
  }

  /** How many secrets the file holds that the fixed key can read (one it cannot, a keyring's that is away, is reported and left). */
  private async readableOnDisk(): Promise<number> {
    let readable = 0
    for (const key of await this.file.keys()) {
      try {
        if ((await this.file.get(key)) !== undefined) readable++
      } catch (error) {
        this.onProblem((error as Error).message)
      }
    }
    return readable
  }

  /** Moves what the file holds into the session; a value that cannot be decrypted stays (and says so when read). */
  private async moveToSession(): Promise<void> {
    for (const key of await this.file.keys()) {
      let value: string | undefined
      try {
        value = await this.file.get(key)
      } catch (error) {
        this.onProblem((error as Error).message)
        continue
      }
      if (value !== undefined) await this.session.set(key, value)
      await this.file.delete(key)
    }
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task)
    this.queue = run.catch(() => undefined)
    return run
  }
}

/** Secrets for this session only, where nothing can encrypt them (no keyring, no fallback). */
export function sessionOnlySecretStore(backend: string): SecretStore {
  return Object.assign(new MemorySecretStore(), { backend, warning: NO_ENCRYPTION_WARNING })
}

export interface KeyringSecretStoreOptions {
  document: SecretsDocument
  cipher: SecretCipher
  /** Where the encryption comes from: safeStorage's backend on Linux ('gnome_libsecret', 'kwallet6', 'basic_text'...), 'keychain', 'dpapi'. */
  backend: string
  platform: string
  /** False when the operating system can encrypt nothing at all. */
  encryptionAvailable: boolean
  onProblem?: (message: string) => void
}

/**
 * The desktop app's secret store, decided from what the operating system offers: secrets.json
 * encrypted by the keyring; kept for the session (or saved, if the user chooses) where the only
 * encryption has a fixed key; kept for the session where there is no encryption at all.
 */
export async function openKeyringSecretStore(options: KeyringSecretStoreOptions): Promise<SecretStore> {
  const { backend, onProblem = () => {} } = options
  if (!options.encryptionAvailable) return sessionOnlySecretStore(backend)
  const file = new FileEncryptedSecretStore({ document: options.document, cipher: options.cipher, backend, onProblem })
  return usesFixedKey(options.platform, backend) ? FixedKeySecretStore.open(file, onProblem) : file
}
