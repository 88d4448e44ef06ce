import type { StorageNeed, VersionProbe } from '../types'
import { SCORE_CONVERSIONS } from './metrics'
import type { UnixbenchParams } from './params'
import { DEFAULT_UNIXBENCH_DIR } from './plan'
import { expandTests, UNIXBENCH_TESTS } from './tests'

/** Where UnixBench is looked for when the test names no folder: a clone in the home folder, else /opt or /usr/local. */
export const UNIXBENCH_FOLDERS: readonly string[] = [
  DEFAULT_UNIXBENCH_DIR,
  '~/UnixBench',
  '/opt/byte-unixbench/UnixBench',
  '/opt/UnixBench',
  '/usr/local/byte-unixbench/UnixBench',
  '/usr/local/UnixBench'
]

/**
 * A run of named tests (study 001's `./Run -c 1 whetstone-double dhry2reg fsdisk`) is for each
 * test's own score; a run of the index (no tests, or a group such as `index`) is for the System
 * Benchmarks Index Score. Tests without a score unit (graphics) have only their index.
 */
export function unixbenchPrimaryMetrics(params: UnixbenchParams): readonly string[] {
  const tests = params.tests.map((word) => UNIXBENCH_TESTS.find((t) => t.id === word))
  if (tests.length === 0 || tests.some((t) => t === undefined)) return ['unixbench.index']
  return [...new Set(tests.map((t) => (SCORE_CONVERSIONS[t!.reportUnit] ? `unixbench.${t!.id}` : `unixbench.${t!.id}.index`)))]
}

/** The file tests write files of at most 2000 blocks of 4 KiB (fsdisk's largest) in UnixBench's own tmp folder. */
export function unixbenchStorageNeed(params: UnixbenchParams): StorageNeed | undefined {
  const fileTests = params.tests.length === 0 || expandTests(params.tests).some((id) => id.startsWith('fs'))
  return fileTests ? { workingSetBytes: 2000 * 4096, directIo: false, uncached: false } : undefined
}

/** Not on PATH: a folder that holds UnixBench's Run script, whose `my $version = "5.1.3";` line names the version. */
export const unixbenchVersion: VersionProbe = {
  kind: 'folder',
  file: 'Run',
  folders: UNIXBENCH_FOLDERS,
  pick: 's/^my \\$version = "\\([^"]*\\)".*/UnixBench \\1/p'
}
