import type { StorageNeed, VersionProbe } from '../types'
import { fileSizeMiB, type BonnieParams } from './params'

/**
 * bonnie++ is a suite: its block write, block read, rewrite and seek rates, and its file creation
 * rates, are what study 000's averaged table shows. The per-character tests, stat and delete
 * rates, CPU shares and worst latencies are secondary.
 */
export function bonniePrimaryMetrics(_params: BonnieParams): readonly string[] {
  return ['bonnie.put_block', 'bonnie.get_block', 'bonnie.rewrite', 'bonnie.seeks', 'bonnie.seq_create', 'bonnie.ran_create']
}

/** Its test file (bonnie++ promises uncached numbers only with a file of twice the RAM: its own rule). */
export function bonnieStorageNeed(params: BonnieParams): StorageNeed {
  const mib = params.fileSize === undefined ? 0 : (fileSizeMiB(params.fileSize) ?? 0)
  return { workingSetBytes: mib * 1024 * 1024, directIo: false, uncached: true }
}

/** bonnie++ has no version option: an unknown one (-h) ends it at once, before any test, with its usage and "Version: N". */
export const bonnieVersion: VersionProbe = { kind: 'command', command: 'bonnie++', args: ['-h'], pick: 's/^Version: *\\([^ ]*\\).*/bonnie++ \\1/p' }
