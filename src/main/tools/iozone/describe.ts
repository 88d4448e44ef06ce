import type { StorageNeed, VersionProbe } from '../types'
import { sizeKB, type IozoneParams } from './params'

/** iozone's auto mode goes up to 512 MB files when -g is not given. */
const DEFAULT_MAX_FILE_KB = 512 * 1024

/**
 * Write and read throughput: the sub-tests the report draws first. iozone's figures are a surface
 * (13 sub-tests over file size x record size, 728 values a machine for study 000's run): they are
 * drawn as heat maps per sub-test, not tabulated row by row (the metric's role says so).
 */
export function iozonePrimaryMetrics(_params: IozoneParams): readonly string[] {
  return ['iozone.write', 'iozone.read']
}

/** Its largest test file; small files are mostly served from the page cache (no O_DIRECT). */
export function iozoneStorageNeed(params: IozoneParams): StorageNeed {
  const kb = params.maxFileSize === undefined ? DEFAULT_MAX_FILE_KB : (sizeKB(params.maxFileSize) ?? DEFAULT_MAX_FILE_KB)
  return { workingSetBytes: kb * 1024, directIo: false, uncached: false }
}

/** `iozone -v` prints `Version $Revision: 3.506 $`. */
export const iozoneVersion: VersionProbe = { kind: 'command', command: 'iozone', args: ['-v'], pick: 's/.*Revision: *\\([0-9.]*\\).*/iozone \\1/p' }
