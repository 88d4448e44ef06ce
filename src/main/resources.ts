import { existsSync } from 'node:fs'
import path from 'node:path'

let found: string | undefined

/**
 * The `resources/` directory (scripts uploaded to targets, example presets). Found by walking up
 * from this file, so it is the same for the app (out/main), the CLI and the tests (src/main);
 * VIRTBENCH_RESOURCES overrides it (a packaged app sets it to its resources path).
 */
export function resourcesDir(): string {
  if (process.env.VIRTBENCH_RESOURCES) return process.env.VIRTBENCH_RESOURCES
  if (found) return found
  let dir = __dirname
  for (;;) {
    const candidate = path.join(dir, 'resources')
    if (existsSync(path.join(candidate, 'scripts'))) return (found = candidate)
    const parent = path.dirname(dir)
    if (parent === dir) throw new Error(`cannot find VirtBench's resources/ directory above ${__dirname}; set VIRTBENCH_RESOURCES`)
    dir = parent
  }
}

/** The scripts uploaded to targets (resources/scripts). */
export function scriptsDir(): string {
  return path.join(resourcesDir(), 'scripts')
}
