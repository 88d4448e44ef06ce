import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** A real captured iozone output (-Raz -g 1M -b), which the stand-in program prints. */
export const CAPTURED_IOZONE = path.join(__dirname, '../fixtures/tools/iozone/iozone-Raz-g1M-b.stdout')

/**
 * A source archive laid out as iozone's tarball, built in `dir` (docs/tools-offline.md, "Tested"):
 * Debian's iozone source is in non-free (not reachable on every CI machine), so it is a small C
 * program (src/current/iozone.c and a makefile with iozone's build names) that prints the captured
 * output. It proves the mechanism (upload, build with the target's gcc and make, cache), not iozone.
 */
export function makeStandInIozoneArchive(dir: string): { file: string; sha256: string; output: string } {
  const output = readFileSync(CAPTURED_IOZONE, 'utf8')
  const src = path.join(dir, 'replay-iozone', 'src', 'current')
  mkdirSync(src, { recursive: true })
  writeFileSync(path.join(src, 'iozone.c'), `#include <stdio.h>\nstatic const char out[] = ${JSON.stringify(output)};\nint main(void) { fputs(out, stdout); return 0; }\n`)
  // iozone's own build names; CC comes from the command line, as VirtBench passes CC="cc -fcommon"
  writeFileSync(path.join(src, 'makefile'), 'CC = cc\nlinux-AMD64 linux-arm linux-powerpc64 linux-S390X linux:\n\t$(CC) -o iozone iozone.c\n')
  const file = path.join(dir, 'replay-iozone.tar.gz')
  execFileSync('tar', ['-czf', file, '-C', dir, 'replay-iozone'])
  return { file, sha256: createHash('sha256').update(readFileSync(file)).digest('hex'), output }
}
