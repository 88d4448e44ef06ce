import path from 'node:path'
import { safeStorage } from 'electron'
import {
  FileEncryptedSecretStore,
  SECRETS_FILE,
  SECRETS_KIND,
  SECRETS_VERSION,
  SecretsDocumentData,
  storageBackendWarning,
  type SecretCipher
} from '../ssh/secrets'
import { JsonDocument } from '../store/json-document'

/**
 * The desktop app's secret store: values encrypted by Electron's safeStorage (Keychain on macOS,
 * DPAPI on Windows, the Secret Service or KWallet on Linux) in `secrets.json` in the data
 * directory. Create it after the app's `ready` event: before it, Linux reports no keyring.
 */
export async function createSafeStorageSecretStore(
  dataDir: string,
  onProblem: (message: string) => void = () => {}
): Promise<FileEncryptedSecretStore> {
  const available = await safeStorage.isAsyncEncryptionAvailable()
  const backend = storageBackend()
  const cipher: SecretCipher = {
    encrypt: async (plainText) => {
      if (!available) throw new Error('no encryption is available')
      return safeStorage.encryptStringAsync(plainText)
    },
    decrypt: async (cipherText) => {
      if (!available) throw new Error('no encryption is available')
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(cipherText)
      return { plainText: result, shouldReEncrypt }
    }
  }
  const warning = available
    ? storageBackendWarning(process.platform, backend)
    : 'No keyring is available to encrypt secrets, so passwords and passphrases cannot be saved; VirtBench will ask for them when needed.'
  return new FileEncryptedSecretStore({
    document: new JsonDocument({
      file: path.join(dataDir, SECRETS_FILE),
      kind: SECRETS_KIND,
      version: SECRETS_VERSION,
      schema: SecretsDocumentData,
      defaults: () => ({ values: {} })
    }),
    cipher,
    backend,
    ...(warning !== undefined && { warning }),
    onProblem
  })
}

function storageBackend(): string {
  if (process.platform === 'linux') return safeStorage.getSelectedStorageBackend()
  if (process.platform === 'darwin') return 'keychain'
  if (process.platform === 'win32') return 'dpapi'
  return 'safeStorage'
}
