import path from 'node:path'

/** `~` and `~/…` the way ssh reads them; other paths as they are. */
export function expandHome(file: string, homeDir: string): string {
  if (file === '~') return homeDir
  if (file.startsWith('~/')) return path.join(homeDir, file.slice(2))
  return file
}
