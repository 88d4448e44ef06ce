import { accessSync, constants, statSync } from 'node:fs'
import path from 'node:path'

/**
 * Where `virtbench report` looks for a Chromium to print with: the --browser path, then
 * $VIRTBENCH_BROWSER, then the usual places of Chromium, Chrome and Edge on this system.
 */

export class BrowserNotFoundError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BrowserNotFoundError'
  }
}

/** The usual install places, per platform (names on $PATH are searched for too). */
export function browserCandidates(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): { paths: string[]; names: string[] } {
  if (platform === 'darwin') {
    return {
      paths: [
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
        '/Applications/Brave Browser.app/Contents/MacOS/Brave Browser'
      ],
      names: ['chromium', 'google-chrome']
    }
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => Boolean(r))
    const rel = ['Google\\Chrome\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe', 'Chromium\\Application\\chrome.exe']
    return { paths: roots.flatMap((root) => rel.map((r) => path.win32.join(root, r))), names: ['chrome.exe', 'msedge.exe'] }
  }
  return {
    paths: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/usr/bin/microsoft-edge', '/snap/bin/chromium'],
    names: ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge']
  }
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The browser to print with, or a BrowserNotFoundError saying where it looked and what to do. */
export function findBrowser(options: { explicit?: string; env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform } = {}): string {
  const env = options.env ?? process.env
  const platform = options.platform ?? process.platform
  if (options.explicit !== undefined) {
    if (isExecutable(options.explicit)) return options.explicit
    throw new BrowserNotFoundError(`--browser ${options.explicit}: no executable file there. Give the path of a Chromium, Chrome or Edge executable.`)
  }
  const fromEnv = env.VIRTBENCH_BROWSER
  if (fromEnv) {
    if (isExecutable(fromEnv)) return fromEnv
    throw new BrowserNotFoundError(`VIRTBENCH_BROWSER=${fromEnv}: no executable file there. Fix the variable, or unset it to search the usual places.`)
  }
  const { paths, names } = browserCandidates(platform, env)
  const dirs = (env.PATH ?? '').split(platform === 'win32' ? ';' : ':').filter(Boolean)
  const onPath = names.flatMap((name) => dirs.map((dir) => path.join(dir, name)))
  const found = [...paths, ...onPath].find(isExecutable)
  if (found) return found
  const install =
    platform === 'linux'
      ? 'Install Chromium (Debian/Ubuntu: apt install chromium; Fedora: dnf install chromium)'
      : platform === 'darwin'
        ? 'Install Google Chrome or Chromium'
        : 'Install Google Chrome or Microsoft Edge'
  throw new BrowserNotFoundError(
    `No Chromium-based browser found to print the PDF with (looked in ${paths.join(', ')} and for ${names.join(', ')} on PATH). ` +
      `${install}, or give its path with --browser <path> (or VIRTBENCH_BROWSER). The CSV and JSON exports need no browser.`
  )
}
