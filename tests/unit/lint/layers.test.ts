import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../harness/paths'

/** Lints a snippet as if it lived at `file`, and returns the layer rule's messages. */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT })
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${file}` })
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'virtbench/layers' || m.ruleId === 'no-restricted-imports')
    .map((m) => m.message)
}

describe('lint enforces the layers of docs/architecture.md', () => {
  const cases: { file: string; code: string; error?: RegExp }[] = [
    // electron only in src/main/electron and src/preload
    { file: 'src/main/api/x.ts', code: "import { app } from 'electron'\n", error: /only src\/main\/electron\/ and src\/preload\/ may import electron/ },
    { file: 'src/cli/x.ts', code: "const e = require('electron')\n", error: /may import electron/ },
    { file: 'src/renderer/src/x.ts', code: "export { shell } from 'electron'\n", error: /may import electron/ },
    { file: 'src/main/electron/x.ts', code: "import { app } from 'electron'\nexport default app\n" },
    { file: 'src/preload/x.ts', code: "import { contextBridge } from 'electron'\nexport default contextBridge\n" },
    // shared imports nothing of ours, no node
    { file: 'src/shared/x.ts', code: "import { createApi } from '../main/api/handlers'\nexport { createApi }\n", error: /shared may import only shared/ },
    { file: 'src/shared/x.ts', code: "import fs from 'node:fs'\nexport { fs }\n", error: /runs without Node built-ins/ },
    { file: 'src/shared/x.ts', code: "import { z } from 'zod'\nexport { z }\n" },
    // renderer imports only shared
    { file: 'src/renderer/src/features/x/y.ts', code: "import { dispatch } from '../../../../main/api/dispatch'\nexport { dispatch }\n", error: /renderer may import only renderer, renderer\/\*, shared/ },
    { file: 'src/renderer/src/x.ts', code: "import { Client } from 'ssh2'\nexport { Client }\n", error: /ssh2 belongs to main/ },
    { file: 'src/renderer/src/x.ts', code: "import path from 'node:path'\nexport { path }\n", error: /without Node built-ins/ },
    { file: 'src/renderer/src/features/x/y.ts', code: "import { Settings } from '../../../../shared/contract'\nexport { Settings }\n" },
    // the store sits below the screens: a slice never imports a screen, a screen may use the store
    { file: 'src/renderer/src/store/x.ts', code: "import { RunPage } from '../features/runs/run-page'\nexport { RunPage }\n", error: /renderer\/store may import only renderer\/store, renderer\/models, renderer\/lib, renderer\/api, shared/ },
    { file: 'src/renderer/src/models/x.ts', code: "import { useAppStore } from '../store'\nexport { useAppStore }\n", error: /renderer\/models may import only/ },
    { file: 'src/renderer/src/features/x/y.ts', code: "import { useAppStore } from '../../store'\nexport { useAppStore }\n" },
    // nothing reaches into the electron layer except itself
    { file: 'src/cli/x.ts', code: "import '../main/electron/security'\n", error: /cli may import only/ },
    { file: 'src/main/api/x.ts', code: "import '../electron/ipc'\n", error: /main may import only/ },
    // tools are pure: shared only, no disk or processes
    { file: 'src/main/tools/fio/parse.ts', code: "import { readFileSync } from 'node:fs'\nexport { readFileSync }\n", error: /without Node built-ins/ },
    { file: 'src/main/tools/fio/parse.ts', code: "import '../../ssh/session'\n", error: /main\/tools may import only main\/tools, shared/ },
    // the one atomic write serves ssh and store, and depends on neither
    { file: 'src/main/ssh/known-hosts.ts', code: "import { writeFileAtomic } from '../fs/atomic-file'\nexport { writeFileAtomic }\n" },
    { file: 'src/main/fs/atomic-file.ts', code: "import '../store/json-document'\n", error: /main\/fs may import only main\/fs, shared/ },
    { file: 'src/main/ssh/x.ts', code: "import '../store/json-document'\n", error: /main\/ssh may import only/ },
    // raw IPC only where the contract is wired
    { file: 'src/main/electron/window.ts', code: "import { ipcMain } from 'electron'\nexport { ipcMain }\n", error: /typed contract/ }
  ]

  for (const { file, code, error } of cases) {
    it(`${error ? 'rejects' : 'allows'} ${code.trim().split('\n')[0]} in ${file}`, async () => {
      const errors = await layerErrors(file, code)
      if (error) expect(errors.join('\n')).toMatch(error)
      else expect(errors).toEqual([])
    })
  }
})
