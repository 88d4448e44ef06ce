/**
 * The desktop app's secret store as decided from what the operating system offers, in plain
 * Node: the backend name is what Electron's safeStorage reports, and the cipher is what it does.
 * On Linux without a keyring that is `basic_text`: Chromium's "v10" encryption, AES-128-CBC under
 * a key derived from the fixed password "peanuts", written out below exactly as Chromium does it,
 * so the tests can show what anyone reading secrets.json could recover.
 */
import { createCipheriv, createDecipheriv, pbkdf2Sync } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { dispatch } from '../../../../src/main/api/dispatch'
import { createApi } from '../../../../src/main/api/handlers'
import {
  FIXED_KEY_SAVING_WARNING,
  FIXED_KEY_SESSION_WARNING,
  NO_ENCRYPTION_WARNING,
  openKeyringSecretStore,
  SECRETS_FILE,
  SECRETS_KIND,
  SECRETS_VERSION,
  secretKey,
  type SecretCipher,
  type SecretStore
} from '../../../../src/main/secrets/secrets'
import { useSecretsFolder } from './secrets-folder'

/** Chromium's os_crypt on Linux without a keyring ("v10"): the same key for everyone. */
const FIXED_KEY = pbkdf2Sync('peanuts', 'saltysalt', 1, 16, 'sha1')
const FIXED_IV = Buffer.alloc(16, 0x20)

const basicText: SecretCipher = {
  encrypt: async (plainText) => {
    const cipher = createCipheriv('aes-128-cbc', FIXED_KEY, FIXED_IV)
    return Buffer.concat([Buffer.from('v10'), cipher.update(plainText, 'utf8'), cipher.final()])
  },
  decrypt: async (cipherText) => ({ plainText: anyoneCanDecrypt(cipherText) })
}

function anyoneCanDecrypt(cipherText: Buffer): string {
  if (cipherText.subarray(0, 3).toString() !== 'v10') throw new Error('not v10')
  const decipher = createDecipheriv('aes-128-cbc', FIXED_KEY, FIXED_IV)
  return Buffer.concat([decipher.update(cipherText.subarray(3)), decipher.final()]).toString('utf8')
}

const SECRET = 'correct horse battery staple'
const PASSWORD = secretKey('t1', 'password')
const SUDO = secretKey('t1', 'sudo')

describe('the desktop secret store', () => {
  const folder = useSecretsFolder()
  const { problems } = folder

  /** The store a start of the app opens (a second call is a restart). */
  const open = (backend: string, platform = 'linux', encryptionAvailable = true): Promise<SecretStore> =>
    openKeyringSecretStore({
      document: folder.document(),
      cipher: basicText,
      backend,
      platform,
      encryptionAvailable,
      onProblem: (message) => problems.push(message)
    })

  /** What secrets.json holds, decrypted as anyone who can read it could. */
  const onDisk = async (): Promise<{ values: Record<string, string>; saveWithFixedKey?: boolean }> => {
    let text: string
    try {
      text = await fs.readFile(path.join(folder.dir, SECRETS_FILE), 'utf8')
    } catch {
      return { values: {} }
    }
    const { data } = JSON.parse(text) as { data: { values: Record<string, string>; saveWithFixedKey?: boolean } }
    const values = Object.fromEntries(Object.entries(data.values).map(([key, value]) => [key, anyoneCanDecrypt(Buffer.from(value, 'base64'))]))
    return { ...data, values }
  }

  it('with a keyring, saves secrets in secrets.json with no warning and no choice to make', async () => {
    for (const [backend, platform] of [
      ['gnome_libsecret', 'linux'],
      ['kwallet6', 'linux'],
      ['keychain', 'darwin'],
      ['dpapi', 'win32']
    ]) {
      const store = await open(backend!, platform)
      expect([store.backend, store.warning, store.fixedKey]).toEqual([backend, undefined, undefined])
      await store.set(PASSWORD, `${SECRET} ${backend}`)
      expect((await onDisk()).values).toEqual({ [PASSWORD]: `${SECRET} ${backend}` })
      expect(await (await open(backend!, platform)).get(PASSWORD)).toBe(`${SECRET} ${backend}`)
    }
  })

  it('with basic_text, keeps a secret for the session and writes nothing; a restart has not got it', async () => {
    const store = await open('basic_text')
    expect([store.warning, store.fixedKey?.saving]).toEqual([FIXED_KEY_SESSION_WARNING, false])
    await store.set(PASSWORD, SECRET)
    expect(await store.get(PASSWORD)).toBe(SECRET)
    expect(await onDisk()).toEqual({ values: {} })
    expect(await (await open('basic_text')).get(PASSWORD)).toBeUndefined()
    expect(problems).toEqual([])
  })

  it('saves with the fixed key once the user chooses to: what the session held, what comes later, and the choice itself', async () => {
    const store = await open('basic_text')
    await store.set(PASSWORD, SECRET)
    await store.fixedKey!.choose(true)
    expect([store.warning, store.fixedKey?.saving]).toEqual([FIXED_KEY_SAVING_WARNING, true])
    await store.set(SUDO, 'sudo pw')
    expect(await onDisk()).toEqual({ values: { [PASSWORD]: SECRET, [SUDO]: 'sudo pw' }, saveWithFixedKey: true })
    const restarted = await open('basic_text')
    expect(restarted.fixedKey?.saving).toBe(true)
    expect([await restarted.get(PASSWORD), await restarted.get(SUDO)]).toEqual([SECRET, 'sudo pw'])
  })

  it('takes the secrets off the disk when the user goes back, keeping them for the session', async () => {
    const store = await open('basic_text')
    await store.fixedKey!.choose(true)
    await store.set(PASSWORD, SECRET)
    await store.fixedKey!.choose(false)
    expect(await onDisk()).toEqual({ values: {}, saveWithFixedKey: false })
    expect(await store.get(PASSWORD)).toBe(SECRET)
    expect([store.warning, store.fixedKey?.saving]).toEqual([FIXED_KEY_SESSION_WARNING, false])
    await store.delete(PASSWORD)
    expect(await store.get(PASSWORD)).toBeUndefined()
  })

  it('leaves secrets an earlier version saved with the fixed key on the disk until the user chooses, and says so', async () => {
    const before = await open('gnome_libsecret')
    // what an earlier version wrote when it fell back to basic_text: a warning, and the secrets on disk anyway
    await before.set(PASSWORD, SECRET)
    await before.set(SUDO, 'sudo pw')
    expect(Object.keys((await onDisk()).values)).toHaveLength(2)

    const store = await open('basic_text')
    // nothing removed behind the user's back
    expect(Object.keys((await onDisk()).values)).toHaveLength(2)
    expect([await store.get(PASSWORD), await store.get(SUDO)]).toEqual([SECRET, 'sudo pw'])
    const note = '2 secrets saved by an earlier VirtBench with the fixed key are still in secrets.json: nothing was removed. Untick "save anyway" to keep secrets for this session only, which takes them off the disk.'
    expect([store.warning, store.fixedKey?.saving]).toEqual([`${FIXED_KEY_SAVING_WARNING} ${note}`, true])
    expect(problems).toEqual([note])
    // the user's choice: session only takes them off the disk and keeps them for the session
    await store.fixedKey!.choose(false)
    expect(await onDisk()).toEqual({ values: {}, saveWithFixedKey: false })
    expect([await store.get(PASSWORD), store.warning]).toEqual([SECRET, FIXED_KEY_SESSION_WARNING])
    // and the next start keeps to it
    const next = await open('basic_text')
    expect(next.fixedKey?.saving).toBe(false)
  })

  it('keeps a value the fixed key cannot decrypt where it is, and says so (a keyring that is only away)', async () => {
    await fs.writeFile(
      path.join(folder.dir, SECRETS_FILE),
      JSON.stringify({ kind: SECRETS_KIND, version: SECRETS_VERSION, data: { values: { [PASSWORD]: Buffer.from('v11 keyring-encrypted').toString('base64') } } })
    )
    const store = await open('basic_text')
    expect(problems).toEqual([
      'The saved SSH password of target t1 could not be decrypted (the keyring may be locked, or was reset since it was saved); unlock the keyring, or enter the secret again.'
    ])
    expect(JSON.parse(await fs.readFile(path.join(folder.dir, SECRETS_FILE), 'utf8')).data.values).toHaveProperty(PASSWORD)
    expect(store.warning).toBe(FIXED_KEY_SESSION_WARNING)
  })

  it('without any encryption, keeps secrets for the session', async () => {
    const store = await open('basic_text', 'linux', false)
    expect([store.warning, store.fixedKey]).toEqual([NO_ENCRYPTION_WARNING, undefined])
    await store.set(PASSWORD, SECRET)
    expect(await store.get(PASSWORD)).toBe(SECRET)
    expect(await onDisk()).toEqual({ values: {} })
  })

  it('through the API: the Targets screen sees the choice, makes it, and hears of the change', async () => {
    const secrets = await open('basic_text')
    const api = createApi({ transport: 'ipc', dataDir: folder.dir, versions: { node: process.versions.node }, secrets, homeDir: folder.dir })
    const heard: unknown[] = []
    api.hub.subscribe((event, payload) => {
      if (event === 'targets:changed') heard.push((payload as { secretsBackend: unknown }).secretsBackend)
    })
    const target = { kind: 'ssh', name: 'lab', role: 'host', address: '10.0.0.5', user: 'ops', auth: { method: 'password' } }
    const added = await dispatch(api.handlers, 'targets:add', { target, secrets: { password: SECRET } })
    expect(added).toMatchObject({ ok: true, value: { secrets: { password: true } } })
    expect(await onDisk()).toEqual({ values: {} })
    expect(await dispatch(api.handlers, 'targets:list', undefined)).toMatchObject({
      ok: true,
      value: { secretsBackend: { name: 'basic_text', warning: FIXED_KEY_SESSION_WARNING, savesWithFixedKey: false } }
    })

    const saving = { name: 'basic_text', warning: FIXED_KEY_SAVING_WARNING, savesWithFixedKey: true }
    expect(await dispatch(api.handlers, 'targets:secretsStorage', { saveWithFixedKey: true })).toMatchObject({
      ok: true,
      value: { targets: [{ secrets: { password: true } }], secretsBackend: saving }
    })
    expect(heard.at(-1)).toEqual(saving)
    const id = (added as { value: { target: { id: string } } }).value.target.id
    expect((await onDisk()).values).toEqual({ [secretKey(id, 'password')]: SECRET })

    const keyring = createApi({ transport: 'ipc', dataDir: folder.dir, versions: { node: process.versions.node }, secrets: await open('gnome_libsecret'), homeDir: folder.dir })
    expect(await dispatch(keyring.handlers, 'targets:secretsStorage', { saveWithFixedKey: true })).toEqual({
      ok: false,
      error: {
        code: 'unavailable',
        message: 'Secrets are kept in gnome_libsecret here; there is no fixed-key choice to make (it exists only on Linux without a keyring).'
      }
    })
  })
})
