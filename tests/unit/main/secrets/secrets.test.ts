import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import {
  EnvSecretStore,
  envNameOf,
  FileEncryptedSecretStore,
  MemorySecretStore,
  parseSecretKey,
  PromptSecretStore,
  SECRETS_FILE,
  SECRETS_KIND,
  secretEnvVar,
  secretKey,
  secretKeysOf,
  SecretStoreChain,
  type NamedTarget,
  type PromptInput,
  type SecretCipher
} from '../../../../src/main/secrets/secrets'
import { useSecretsFolder } from './secrets-folder'

const SECRET = 'correct horse battery staple'
const targets: NamedTarget[] = [
  { id: 't1', name: 'web1' },
  { id: 't2', name: 'Guest (KVM, cache=none)' },
  { id: 't3', name: 'Café-db' }
]

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(Error)
  return error as Error
}

describe('secret keys', () => {
  it('names each secret of a target and reads the name back', () => {
    expect(secretKey('t1', 'password')).toBe('target/t1/password')
    expect(secretKeysOf('abc-1')).toEqual(['target/abc-1/password', 'target/abc-1/passphrase', 'target/abc-1/sudo'])
    expect(parseSecretKey('target/t1/sudo')).toEqual({ targetId: 't1', kind: 'sudo' })
    for (const bad of ['target/t1/other', 'target//password', 'target/a/b/password', 'password', 'target/-x/password']) {
      expect(parseSecretKey(bad)).toBeUndefined()
    }
    expect(() => secretKey('../etc', 'password')).toThrow('"../etc" is not a target id')
  })
})

describe('MemorySecretStore', () => {
  it('keeps, returns and forgets values, and refuses keys that are not secret keys', async () => {
    const store = new MemorySecretStore()
    const key = secretKey('t1', 'password')
    expect(await store.get(key)).toBeUndefined()
    await store.set(key, SECRET)
    expect(await store.get(key)).toBe(SECRET)
    await store.delete(key)
    expect(await store.get(key)).toBeUndefined()
    await expect(store.set('web1 password', SECRET)).rejects.toThrow('"web1 password" is not a secret key')
    expect(store.backend).toBe('memory')
  })
})

describe('environment variable names', () => {
  it.each([
    ['web1', 'WEB1'],
    ['web-1.example.com', 'WEB_1_EXAMPLE_COM'],
    ['Guest (KVM, cache=none)', 'GUEST_KVM_CACHE_NONE'],
    ['  --odd__name--  ', 'ODD_NAME'],
    ['Café-db', 'CAFE_DB'],
    ['Ångström', 'ANGSTROM']
  ])('%s becomes %s', (name, expected) => {
    expect(envNameOf({ id: 'x', name })).toBe(expected)
  })

  it('falls back to the id when no letter or digit is left', () => {
    expect(envNameOf({ id: '3f2a-9c', name: '日本のホスト' })).toBe('ID_3F2A_9C')
  })

  it('puts the kind last', () => {
    const web = { id: 't1', name: 'web1' }
    expect([secretEnvVar(web, 'password'), secretEnvVar(web, 'passphrase'), secretEnvVar(web, 'sudo')]).toEqual([
      'VIRTBENCH_SECRET_WEB1_PASSWORD',
      'VIRTBENCH_SECRET_WEB1_PASSPHRASE',
      'VIRTBENCH_SECRET_WEB1_SUDO_PASSWORD'
    ])
  })
})

describe('EnvSecretStore', () => {
  const env = {
    VIRTBENCH_SECRET_WEB1_PASSWORD: SECRET,
    VIRTBENCH_SECRET_GUEST_KVM_CACHE_NONE_SUDO_PASSWORD: 'sudo-secret',
    VIRTBENCH_SECRET_CAFE_DB_PASSPHRASE: ''
  }

  it('reads each secret from its variable, an empty one counting as unset', async () => {
    const store = new EnvSecretStore(() => targets, env)
    expect(await store.get(secretKey('t1', 'password'))).toBe(SECRET)
    expect(await store.get(secretKey('t2', 'sudo'))).toBe('sudo-secret')
    expect(await store.get(secretKey('t2', 'password'))).toBeUndefined()
    expect(await store.get(secretKey('t3', 'passphrase'))).toBeUndefined()
    expect(store.backend).toBe('environment')
  })

  it('is read-only, and says which variable to change', async () => {
    const store = new EnvSecretStore(async () => targets, env)
    const set = await failure(store.set(secretKey('t1', 'password')))
    expect(set.message).toBe('Secrets from the environment cannot be changed by VirtBench; set VIRTBENCH_SECRET_WEB1_PASSWORD before starting it.')
    const removed = await failure(store.delete(secretKey('t2', 'sudo')))
    expect(removed.message).toContain('unset VIRTBENCH_SECRET_GUEST_KVM_CACHE_NONE_SUDO_PASSWORD')
  })

  it('refuses a variable two secrets would share, naming both targets, without revealing a value', async () => {
    const clash = [
      { id: 'a', name: 'web 1' },
      { id: 'b', name: 'WEB-1' },
      { id: 'c', name: 'db' },
      { id: 'd', name: 'db sudo' }
    ]
    const store = new EnvSecretStore(() => clash, { VIRTBENCH_SECRET_WEB_1_PASSWORD: SECRET, VIRTBENCH_SECRET_DB_SUDO_PASSWORD: SECRET })
    const names = await failure(store.get(secretKey('a', 'password')))
    expect(names.message).toBe(
      'VIRTBENCH_SECRET_WEB_1_PASSWORD would hold both the SSH password of "web 1" and the SSH password of "WEB-1"; rename one of these targets so their names differ in letters or digits.'
    )
    const kinds = await failure(store.get(secretKey('c', 'sudo')))
    expect(kinds.message).toContain('both the sudo password of "db" and the SSH password of "db sudo"')
    expect(names.message + kinds.message).not.toContain(SECRET)
  })

  it('says so when the target does not exist', async () => {
    const store = new EnvSecretStore(() => targets, env)
    expect((await failure(store.get(secretKey('t9', 'password')))).message).toBe('There is no target with id "t9" to look up a secret for.')
  })
})

/** A terminal stand-in: a stream that records the raw-mode switches the store makes. */
function fakeTerminal(isTTY = true): { input: PromptInput & PassThrough; output: PassThrough; written: () => string; rawModes: boolean[] } {
  const rawModes: boolean[] = []
  const input = Object.assign(new PassThrough(), {
    isTTY,
    isRaw: false,
    setRawMode(mode: boolean) {
      rawModes.push(mode)
      input.isRaw = mode
      return input
    }
  })
  const output = new PassThrough()
  let text = ''
  output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
  return { input, output, written: () => text, rawModes }
}

/** Waits until the store has written `text` (its question) to the terminal. */
async function asked(written: () => string, text: string): Promise<void> {
  for (let i = 0; i < 200 && !written().includes(text); i++) await new Promise((resolve) => setTimeout(resolve, 5))
  expect(written()).toContain(text)
}

describe('PromptSecretStore', () => {
  it('asks with echo off, restores the terminal, and keeps the answer for the process', async () => {
    const terminal = fakeTerminal()
    const store = new PromptSecretStore(() => targets, terminal.input, terminal.output)
    const answer = store.get(secretKey('t1', 'password'))
    await asked(terminal.written, 'SSH password for "web1": ')
    terminal.input.write('hunter')
    terminal.input.write('2\r')
    expect(await answer).toBe('hunter2')
    expect(terminal.rawModes).toEqual([true, false])
    expect(terminal.written()).toBe('SSH password for "web1": \n')
    expect(await store.get(secretKey('t1', 'password'))).toBe('hunter2')
    expect(terminal.rawModes).toEqual([true, false])
  })

  it('handles backspace, Ctrl-U and multi-byte characters', async () => {
    const terminal = fakeTerminal()
    const store = new PromptSecretStore(() => targets, terminal.input, terminal.output)
    const answer = store.get(secretKey('t3', 'passphrase'))
    await asked(terminal.written, 'Key passphrase for "Café-db": ')
    terminal.input.write('wrong\u0015pässw\u00f6rdX\u007f\n')
    expect(await answer).toBe('pässwörd')
  })

  it('asks one question at a time, and a question once', async () => {
    const terminal = fakeTerminal()
    const store = new PromptSecretStore(() => targets, terminal.input, terminal.output)
    const first = store.get(secretKey('t1', 'password'))
    const again = store.get(secretKey('t1', 'password'))
    const sudo = store.get(secretKey('t2', 'sudo'))
    await asked(terminal.written, 'SSH password for "web1": ')
    expect(terminal.written()).not.toContain('sudo')
    terminal.input.write('one\r')
    await asked(terminal.written, 'Sudo password for "Guest (KVM, cache=none)": ')
    terminal.input.write('two\r')
    expect(await Promise.all([first, again, sudo])).toEqual(['one', 'one', 'two'])
    expect(terminal.written().match(/SSH password/g)).toHaveLength(1)
  })

  it('gives up on Ctrl-C and Ctrl-D, and asks again next time', async () => {
    const terminal = fakeTerminal()
    const store = new PromptSecretStore(() => targets, terminal.input, terminal.output)
    const cancelled = store.get(secretKey('t1', 'password'))
    await asked(terminal.written, 'for "web1"')
    terminal.input.write('abc\u0003')
    expect((await failure(cancelled)).message).toBe('Cancelled at the prompt.')
    expect(terminal.rawModes).toEqual([true, false])
    const empty = store.get(secretKey('t1', 'password'))
    await new Promise((resolve) => setTimeout(resolve, 20))
    terminal.input.write('\u0004')
    expect((await failure(empty)).message).toBe('No secret was entered.')
  })

  it('refuses when input is not a terminal, naming the variable to set', async () => {
    const terminal = fakeTerminal(false)
    const store = new PromptSecretStore(() => targets, terminal.input, terminal.output)
    expect((await failure(store.get(secretKey('t2', 'sudo')))).message).toBe(
      'VirtBench needs the sudo password of "Guest (KVM, cache=none)", but standard input is not a terminal to ask on; set VIRTBENCH_SECRET_GUEST_KVM_CACHE_NONE_SUDO_PASSWORD in the environment instead.'
    )
    expect(terminal.written()).toBe('')
  })
})

describe('SecretStoreChain', () => {
  it('answers from the first store that has the value and writes to the last', async () => {
    const env = new EnvSecretStore(() => targets, { VIRTBENCH_SECRET_WEB1_PASSWORD: 'from-env' })
    const memory = new MemorySecretStore()
    const chain = new SecretStoreChain([env, memory])
    await chain.set(secretKey('t1', 'password'), 'ignored-by-env')
    await chain.set(secretKey('t2', 'password'), 'from-memory')
    expect(await chain.get(secretKey('t1', 'password'))).toBe('from-env')
    expect(await chain.get(secretKey('t2', 'password'))).toBe('from-memory')
    await chain.delete(secretKey('t2', 'password'))
    expect(await chain.get(secretKey('t2', 'password'))).toBeUndefined()
    expect(chain.backend).toBe('environment+memory')
    expect(chain.warning).toBeUndefined()
  })
})

/** A real cipher for the tests: AES-256-GCM with a key of its own; `generation` marks rotations. */
function aesCipher(key: Buffer = randomBytes(32), generation = 1): SecretCipher & { key: Buffer; calls: string[] } {
  const calls: string[] = []
  return {
    key,
    calls,
    async encrypt(plainText) {
      calls.push('encrypt')
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()])
      return Buffer.concat([Buffer.from([generation]), iv, cipher.getAuthTag(), body])
    },
    async decrypt(data) {
      calls.push('decrypt')
      const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(1, 13))
      decipher.setAuthTag(data.subarray(13, 29))
      const plainText = Buffer.concat([decipher.update(data.subarray(29)), decipher.final()]).toString('utf8')
      return { plainText, shouldReEncrypt: data[0] !== generation }
    }
  }
}

describe('FileEncryptedSecretStore', () => {
  const folder = useSecretsFolder()

  function open(cipher: SecretCipher, warning?: string): FileEncryptedSecretStore {
    return new FileEncryptedSecretStore({
      document: folder.document(),
      cipher,
      backend: 'test-aes',
      ...(warning !== undefined && { warning }),
      onProblem: (message) => folder.problems.push(message)
    })
  }

  async function fileText(): Promise<string> {
    return fs.readFile(path.join(folder.dir, SECRETS_FILE), 'utf8')
  }

  it('keeps values encrypted in a 0600 secrets.json, readable by the next store with the same key', async () => {
    const cipher = aesCipher()
    const store = open(cipher)
    await store.set(secretKey('t1', 'password'), SECRET)
    await store.set(secretKey('t1', 'sudo'), 'sudo pw')
    expect(await store.get(secretKey('t1', 'password'))).toBe(SECRET)
    const text = await fileText()
    expect(text).not.toContain(SECRET)
    expect(text).not.toContain('sudo pw')
    const doc = JSON.parse(text) as { kind: string; version: number; data: { values: Record<string, string> } }
    expect([doc.kind, doc.version, Object.keys(doc.data.values)]).toEqual(['virtbench.secrets', 1, ['target/t1/password', 'target/t1/sudo']])
    expect(Buffer.from(doc.data.values['target/t1/password'] ?? '', 'base64').length).toBe(1 + 12 + 16 + Buffer.byteLength(SECRET))
    expect((await fs.stat(path.join(folder.dir, SECRETS_FILE))).mode & 0o777).toBe(0o600)
    const reopened = open(aesCipher(cipher.key))
    expect(await reopened.get(secretKey('t1', 'sudo'))).toBe('sudo pw')
    expect(await reopened.get(secretKey('t2', 'sudo'))).toBeUndefined()
  })

  it('forgets a value on delete, and deleting what is not there writes nothing', async () => {
    const store = open(aesCipher())
    await store.delete(secretKey('t1', 'password'))
    expect(await fs.readdir(folder.dir)).toEqual([])
    await store.set(secretKey('t1', 'password'), SECRET)
    await store.delete(secretKey('t1', 'password'))
    expect(await store.get(secretKey('t1', 'password'))).toBeUndefined()
    expect(JSON.parse(await fileText()).data.values).toEqual({})
  })

  it('says a value cannot be decrypted with another key, without the value in the message', async () => {
    await open(aesCipher()).set(secretKey('t1', 'passphrase'), SECRET)
    const error = await failure(open(aesCipher()).get(secretKey('t1', 'passphrase')))
    expect(error.message).toBe(
      'The saved key passphrase of target t1 could not be decrypted (the keyring may be locked, or was reset since it was saved); unlock the keyring, or enter the secret again.'
    )
    expect(error.message).not.toContain(SECRET)
  })

  it('says a value cannot be encrypted, without the value, and saves nothing', async () => {
    const broken: SecretCipher = {
      encrypt: async (plainText) => {
        throw new Error(`cannot encrypt ${plainText}`)
      },
      decrypt: async () => ({ plainText: '' })
    }
    const error = await failure(open(broken).set(secretKey('t1', 'password'), SECRET))
    expect(error.message).toBe(
      'The SSH password of target t1 could not be encrypted with test-aes, so it was not saved; check that the keyring is available and unlocked.'
    )
    expect(error.message).not.toContain(SECRET)
    expect(await fs.readdir(folder.dir)).toEqual([])
  })

  it('encrypts a value again when the keyring asks for it', async () => {
    const key = randomBytes(32)
    await open(aesCipher(key, 1)).set(secretKey('t1', 'password'), SECRET)
    const before = await fileText()
    const rotated = aesCipher(key, 2)
    const store = open(rotated)
    expect(await store.get(secretKey('t1', 'password'))).toBe(SECRET)
    expect(rotated.calls).toEqual(['decrypt', 'encrypt'])
    const after = await fileText()
    expect(after).not.toBe(before)
    const value = JSON.parse(after).data.values['target/t1/password'] as string
    expect(Buffer.from(value, 'base64')[0]).toBe(2)
    expect(await store.get(secretKey('t1', 'password'))).toBe(SECRET)
    expect(rotated.calls).toEqual(['decrypt', 'encrypt', 'decrypt'])
  })

  it('moves an unreadable secrets.json aside and says the secrets must be entered again', async () => {
    await fs.writeFile(path.join(folder.dir, SECRETS_FILE), JSON.stringify({ kind: SECRETS_KIND, version: 1, data: { values: { 'not a key': 'AAAA' } } }))
    const store = open(aesCipher())
    expect(await store.get(secretKey('t1', 'password'))).toBeUndefined()
    expect(folder.problems).toHaveLength(1)
    expect(folder.problems[0]).toContain('invalid data at values.not a key')
    expect(folder.problems[0]).toMatch(/Saved passwords and passphrases will have to be entered again\.$/)
    expect((await fs.readdir(folder.dir)).some((name) => name.startsWith(`${SECRETS_FILE}.unreadable-`))).toBe(true)
  })

  it('applies concurrent changes in order, losing none', async () => {
    const cipher = aesCipher()
    const store = open(cipher)
    const ids = Array.from({ length: 20 }, (_, i) => `t${i}`)
    await Promise.all(ids.map((id) => store.set(secretKey(id, 'password'), `pw-${id}`)))
    const reopened = open(aesCipher(cipher.key))
    expect(await Promise.all(ids.map((id) => reopened.get(secretKey(id, 'password'))))).toEqual(ids.map((id) => `pw-${id}`))
  })

  it('carries its backend and warning', () => {
    const store = open(aesCipher(), 'careful')
    expect([store.backend, store.warning]).toEqual(['test-aes', 'careful'])
    expect(open(aesCipher()).warning).toBeUndefined()
  })
})
