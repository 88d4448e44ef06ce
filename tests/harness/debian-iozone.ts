import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * The real IOzone 3.489 program as Debian builds it: `usr/bin/iozone` of the non-free `iozone3`
 * 489-1 amd64 .deb, which `.ci/run` fetches once, checks against the SHA-256 it pins and unpacks
 * with `dpkg-deb -x` into a cache outside the checkout (never installed, so iozone stays off PATH).
 * The cache is the one `.ci/run` uses: $VIRTBENCH_CI_CACHE, else /var/cache/virtbench-ci for root,
 * else ~/.cache/virtbench-ci.
 */
export const DEBIAN_IOZONE = {
  release: 'IOzone 3.489 (Debian iozone3 489-1, amd64)',
  /** SHA-256 of usr/bin/iozone in iozone3_489-1_amd64.deb (whose own SHA-256 .ci/run pins). */
  sha256: '596c5b1bba6843bff3000eaec666f0c55ff8d9a258d1a21ffdc98293d8e0485b'
} as const

export function ciCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VIRTBENCH_CI_CACHE) return env.VIRTBENCH_CI_CACHE
  return process.getuid?.() === 0 ? '/var/cache/virtbench-ci' : path.join(os.homedir(), '.cache', 'virtbench-ci')
}

const FETCH_IT = 'Run `.ci/run iozone-deb` (the step "iozone3 489-1 from Debian non-free" of .ci/run: it fetches the .deb once, checks its SHA-256 and unpacks it there, without installing it).'

/** The unpacked program and its SHA-256, or an error that says which `.ci/run` step makes it. */
export function debianIozone(): { program: string; sha256: string } {
  const program = path.join(ciCacheDir(), 'iozone3_489-1', 'usr', 'bin', 'iozone')
  if (!existsSync(program)) throw new Error(`${DEBIAN_IOZONE.release} is not unpacked at ${program}. ${FETCH_IT}`)
  const sha256 = createHash('sha256').update(readFileSync(program)).digest('hex')
  if (sha256 !== DEBIAN_IOZONE.sha256) throw new Error(`${program} has SHA-256 ${sha256}, not ${DEBIAN_IOZONE.sha256} (${DEBIAN_IOZONE.release}): another or a damaged file. ${FETCH_IT}`)
  return { program, sha256 }
}
