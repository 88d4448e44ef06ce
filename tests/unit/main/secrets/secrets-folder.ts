import { promises as fs } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { SECRETS_FILE, SECRETS_KIND, SECRETS_VERSION, SecretsDocumentData } from '../../../../src/main/secrets/secrets'
import { JsonDocument } from '../../../../src/main/store/json-document'

export interface SecretsFolder {
  /** This test's data folder. */
  readonly dir: string
  /** What the store under test reported through onProblem. */
  readonly problems: string[]
  /** secrets.json in the folder, as the desktop app opens it. */
  document(): JsonDocument<SecretsDocumentData>
}

/** A fresh data folder for each test of the describe block it is called in, removed after it. */
export function useSecretsFolder(): SecretsFolder {
  let dir = ''
  const problems: string[] = []
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'virtbench-secrets-'))
    problems.length = 0
  })
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true })
  })
  return {
    get dir() {
      return dir
    },
    problems,
    document: () =>
      new JsonDocument({
        file: path.join(dir, SECRETS_FILE),
        kind: SECRETS_KIND,
        version: SECRETS_VERSION,
        schema: SecretsDocumentData,
        defaults: () => ({ values: {} })
      })
  }
}
