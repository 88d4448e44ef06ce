// `npm start` and `npm run dev` run this first: it checks the Node.js version the desktop app
// needs and makes sure the Electron binary is there (Electron's own installer downloads it the
// first time). When either fails it says why and what works instead (`virtbench serve`: the same
// UI in a browser), rather than ending in a bare stack trace such as "TypeError: fetch failed".
// Run by tsx, no other dependencies: it must run before anything is built.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Electron's installer (@electron/get) needs this Node.js, for the app; the CLI and tests run on 20.19. */
export const APP_NODE: readonly number[] = [22, 12, 0]

/** What is wrong with this Node.js version for launching the app, or undefined when it will do. */
export function nodeVersionProblem(version: string): string | undefined {
  const parts = String(version).replace(/^v/, '').split('.').map(Number)
  for (let i = 0; i < APP_NODE.length; i++) {
    const have = parts[i] ?? 0
    const need = APP_NODE[i] ?? 0
    if (have > need) return undefined
    if (have < need) {
      return (
        `The desktop app needs Node.js ${APP_NODE.join('.')} or newer (Electron's installer needs it); this is Node.js ${parts.join('.')}.\n` +
        `Install a newer Node.js (https://nodejs.org, or nvm install 22), then run npm start again.`
      )
    }
  }
  return undefined
}

/** What an installer failure says: its first line that is not a stack frame, and the cause when printed ("[cause]: ..."). */
export function failureReason(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('at '))
  const error = lines[0] ?? 'the installer printed nothing'
  const cause = lines.find((l) => l.startsWith('[cause]:'))
  return cause ? `${error} (${cause.slice('[cause]:'.length).trim()})` : error
}

/** The message for an Electron binary that could not be fetched. */
export function downloadAdvice(reason: string): string {
  return [
    `The Electron binary could not be downloaded: ${reason}.`,
    'The desktop window needs it; everything else works without it. Instead you can:',
    '  - open the same UI in your browser: npm run build && npx virtbench serve',
    '    (it prints a http://127.0.0.1:PORT/#token=... address to open), or use the CLI: npx virtbench --help',
    '  - behind a proxy or a mirror, set ELECTRON_MIRROR (or HTTPS_PROXY) and run npm start again',
    '  - or copy an Electron zip for this platform into the cache named by electron_config_cache'
  ].join('\n')
}

function main(): number {
  const problem = nodeVersionProblem(process.versions.node)
  if (problem) {
    process.stderr.write(`npm start: ${problem}\nWithout the desktop window, on this Node.js: npm run build && npx virtbench serve\n`)
    return 1
  }
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
  const installer = path.join(root, 'node_modules', 'electron', 'install.js')
  if (!existsSync(installer)) {
    process.stderr.write(`npm start: Electron is not installed (${installer} is missing): run npm ci first.\n`)
    return 1
  }
  const result = spawnSync(process.execPath, [installer], { cwd: path.dirname(installer), encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'] })
  if (result.status === 0) return 0
  const output = `${result.stderr}${result.error ? String(result.error) : ''}`
  process.stderr.write(`npm start: ${downloadAdvice(failureReason(output))}\n`)
  return 1
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main()
