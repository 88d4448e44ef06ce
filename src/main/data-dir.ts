import os from 'node:os'
import path from 'node:path'

export const APP_DIR_NAME = 'VirtBench'

/**
 * Where VirtBench keeps its documents. The same folder Electron's `app.getPath('userData')`
 * gives the desktop app, so the CLI and the app share targets, presets and runs.
 * `VIRTBENCH_DATA_DIR` overrides it (tests, portable use).
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = os.homedir()
): string {
  if (env.VIRTBENCH_DATA_DIR) return path.resolve(env.VIRTBENCH_DATA_DIR)
  if (platform === 'win32') {
    return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), APP_DIR_NAME)
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', APP_DIR_NAME)
  // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME && path.posix.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined
  return path.posix.join(xdg ?? path.posix.join(home, '.config'), APP_DIR_NAME)
}
