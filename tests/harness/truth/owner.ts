/**
 * Names of what the known-truth harness creates on this machine (cgroups, network namespaces,
 * temp directories holding loop images and mount points): `vbtruth-<pid>-<n>`, where <pid> is the
 * test process that made it. A later run recognises a leftover of a crashed run by that name:
 * its owner process is gone.
 */
import { readFileSync } from 'node:fs'

export const TRUTH_PREFIX = 'vbtruth'

const OWNED = new RegExp(`(?:^|/)${TRUTH_PREFIX}-(\\d+)-\\d+`)

let sequence = 0

/** A new name owned by this process: `vbtruth-<pid>-<n>`. */
export function ownedName(): string {
  sequence += 1
  return `${TRUTH_PREFIX}-${process.pid}-${sequence}`
}

/** The PID that owns a name or path made by ownedName(), or undefined when it is not one of ours. */
export function ownerOf(nameOrPath: string): number | undefined {
  const match = OWNED.exec(nameOrPath)
  return match ? Number(match[1]) : undefined
}

/** True while `pid` is a live process (a zombie counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return false
  }
}

/** A name or path of ours whose owner process has ended: left behind by a run that crashed. */
export function isLeftover(nameOrPath: string): boolean {
  const owner = ownerOf(nameOrPath)
  return owner !== undefined && owner !== process.pid && !processAlive(owner)
}
