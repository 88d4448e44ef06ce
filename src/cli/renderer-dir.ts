import { existsSync } from 'node:fs'
import path from 'node:path'

/**
 * The built UI (`out/renderer`) that `serve` serves and `report` prints with. Found by walking up
 * from this file, as resourcesDir() finds resources/: the bundler puts a lazily loaded command in
 * `out/main/chunks/`, one level deeper than `out/main/cli.js`, so a fixed `../renderer` misses it.
 */
export function builtRendererDir(from: string = __dirname): string {
  for (let dir = from; ; ) {
    const candidate = path.join(dir, 'renderer')
    if (existsSync(path.join(candidate, 'index.html'))) return candidate
    const parent = path.dirname(dir)
    if (parent === dir) return path.resolve(from, '../renderer')
    dir = parent
  }
}
