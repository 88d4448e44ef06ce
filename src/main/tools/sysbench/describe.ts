import type { StorageNeed, VersionProbe } from '../types'
import { sysbenchSizeBytes, type SysbenchParams } from './params'

const READS = ['seqrd', 'rndrd', 'rndrw']
const WRITES = ['seqwr', 'seqrewr', 'rndwr', 'rndrw']

/** Events per second (cpu), the transfer rate (memory), and the read and write throughput of the fileio modes that do them. */
export function sysbenchPrimaryMetrics(params: SysbenchParams): readonly string[] {
  switch (params.test) {
    case 'cpu':
      return ['sysbench.cpu.events']
    case 'memory':
      return ['sysbench.memory.bandwidth']
    case 'fileio':
      return [
        ...(READS.includes(params.fileTestMode) ? ['sysbench.fileio.read.bandwidth'] : []),
        ...(WRITES.includes(params.fileTestMode) ? ['sysbench.fileio.write.bandwidth'] : [])
      ]
  }
}

/** fileio's prepared files (O_DIRECT with --file-extra-flags=direct); cpu and memory write nothing. */
export function sysbenchStorageNeed(params: SysbenchParams): StorageNeed | undefined {
  if (params.test !== 'fileio') return undefined
  const direct = params.fileExtraFlags === 'direct'
  return { workingSetBytes: sysbenchSizeBytes(params.fileTotalSize) ?? 0, directIo: direct, uncached: direct }
}

/** `sysbench --version` prints `sysbench 1.0.20`. */
export const sysbenchVersion: VersionProbe = { kind: 'command', command: 'sysbench', args: ['--version'] }
