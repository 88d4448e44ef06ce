import type { RawDeviceUse, StorageNeed, VersionProbe } from '../types'
import { jobFileStorageNeed, ownJobFile } from './job-file'
import { fioSizeBytes, type FioParams } from './params'

/**
 * What a fio test is for: small blocks measure operations per second (study 001's 4k random
 * jobs), large blocks throughput (its 1m sequential jobs, study 003's 64k mix). IOPS and
 * bandwidth of one job are one figure twice (bandwidth = IOPS x block size), so only one leads.
 */
export const FIO_THROUGHPUT_FROM_BYTES = 64 * 1024

export function fioPrimaryMetrics(params: FioParams): readonly string[] {
  const own = ownJobFile(params)
  const bs = own ? Math.max(...own.jobs.map((job) => job.blockBytes)) : fioSizeBytes(params.bs) ?? 0
  return bs >= FIO_THROUGHPUT_FROM_BYTES ? ['fio.<dir>.bandwidth'] : ['fio.<dir>.iops']
}

/** The files of all jobs (one shared file when `filename` is set), O_DIRECT when direct=1. */
export function fioStorageNeed(params: FioParams): StorageNeed {
  const own = ownJobFile(params)
  if (own) return jobFileStorageNeed(own)
  const size = fioSizeBytes(params.size) ?? 0
  const shared = params.filename !== undefined
  return { workingSetBytes: shared ? size : size * params.numjobs, directIo: params.direct, uncached: !params.direct }
}

/** fio reads and writes a raw device in place of its files (`--filename=/dev/vdb`). */
export const fioRawDevice: RawDeviceUse = {
  withDevice(params, device, confirmed) {
    const { filename: _file, ...rest } = params
    return { ...rest, device, deviceWriteConfirmed: confirmed }
  }
}

/** `fio --version` prints `fio-3.33`. */
export const fioVersion: VersionProbe = { kind: 'command', command: 'fio', args: ['--version'] }
