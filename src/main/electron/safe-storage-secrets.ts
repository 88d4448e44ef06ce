import path from 'node:path'
import { safeStorage } from 'electron'
import {
  openKeyringSecretStore,
  SECRETS_FILE,
  SECRETS_KIND,
  SECRETS_VERSION,
  SecretsDocumentData,
  type SecretCipher,
  type SecretStore
} from '../secrets/secrets'
import { JsonDocument } from '../store/json-document'

/**
 * The desktop app's secret store: values encrypted by Electron's safeStorage (Keychain on macOS,
 * DPAPI on Windows, the Secret Service or KWallet on Linux) in `secrets.json` in the data
 * directory; what happens without a keyring is decided in `openKeyringSecretStore` (plain Node).
 * Create it after the app's `ready` event: before it, Linux reports no keyring.
 */
export async function createSafeStorageSecretStore(dataDir: string, onProblem: (message: string) => void = () => {}): Promise<SecretStore> {
  const cipher: SecretCipher = {
    encrypt: async (plainText) => safeStorage.encryptStringAsync(plainText),
    decrypt: async (cipherText) => {
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(cipherText)
      return { plainText: result, shouldReEncrypt }
    }
  }
  return openKeyringSecretStore({
    document: new JsonDocument({
      file: path.join(dataDir, SECRETS_FILE),
      kind: SECRETS_KIND,
      version: SECRETS_VERSION,
      schema: SecretsDocumentData,
      defaults: () => ({ values: {} })
    }),
    cipher,
    backend: storageBackend(),
    platform: process.platform,
    encryptionAvailable: await safeStorage.isAsyncEncryptionAvailable(),
    onProblem
  })
}

function storageBackend(): string {
  if (process.platform === 'linux') return safeStorage.getSelectedStorageBackend()
  if (process.platform === 'darwin') return 'keychain'
  if (process.platform === 'win32') return 'dpapi'
  return 'safeStorage'
}
