import type { RawDeviceUse, StorageNeed, VersionProbe } from '../types'
import { ddNumber, ddTotalBytes, type DdParams } from './params'

/** Blocks up to this size, written or read with O_DIRECT many at a time, measure the time per block. */
const LATENCY_BLOCK_BYTES = 64 * 1024
const LATENCY_MIN_BLOCKS = 100

/**
 * What a dd test is for: many small O_DIRECT blocks measure the time one block takes (study
 * 002's `bs=512 count=1000 oflag=direct`); anything else measures throughput (its
 * `bs=1G count=1`, study 004's 8k buffered copy and its cat reader).
 */
export function ddPrimaryMetrics(params: DdParams): readonly string[] {
  const bs = ddNumber(params.blockSize) ?? 0
  const count = ddNumber(params.count) ?? 0
  const perBlock = params.reader === 'dd' && params.direct && bs <= LATENCY_BLOCK_BYTES && count >= LATENCY_MIN_BLOCKS
  return perBlock ? ['dd.lat.mean'] : ['dd.bandwidth']
}

/**
 * blockSize x count bytes; a read of the file an earlier test left writes nothing. (dd's schema
 * allows useExistingFile only for a file, so a device test always has a need: that is what makes
 * preflight check the device before anything touches it.)
 */
export function ddStorageNeed(params: DdParams): StorageNeed | undefined {
  if (params.mode === 'read' && params.useExistingFile) return undefined
  return { workingSetBytes: ddTotalBytes(params), directIo: params.direct, uncached: !params.direct }
}

/** dd copies to or from the device (`of=/dev/vdb`, `if=/dev/vdb`) in place of its file. */
export const ddRawDevice: RawDeviceUse = {
  withDevice(params, device, confirmed) {
    const { fileName: _file, ...rest } = params
    return { ...rest, device, deviceWriteConfirmed: confirmed }
  }
}

/** GNU `dd --version` prints `dd (coreutils) 9.1`; BusyBox dd prints its usage with the BusyBox version. */
export const ddVersion: VersionProbe = { kind: 'command', command: 'dd', args: ['--version'] }
