import type { RunTest } from '../../shared/model/run'
import { fileSizeMiB } from '../tools/bonnie/params'
import { ddTotalBytes } from '../tools/dd/params'
import { fioSizeBytes } from '../tools/fio/params'
import { TOOLS } from '../tools/registry'

/** What a storage test writes to the work directory, and how it does I/O (for preflight). */
export interface StorageNeed {
  /** Bytes the test's files take at most at once. */
  workingSetBytes: number
  /** O_DIRECT I/O (needs a filesystem that supports it; tmpfs makes it meaningless). */
  directIo: boolean
  /** The numbers are meant to come from the disk, not from the page cache. */
  uncached: boolean
}

/**
 * The storage need of one test, or undefined when it writes nothing worth checking. A test on a
 * raw device always has one: that is what makes preflight check the device before anything
 * touches it.
 */
export function storageNeedOf(test: Pick<RunTest, 'tool' | 'params'>): StorageNeed | undefined {
  const tool = TOOLS[test.tool]
  const checked = tool.params.safeParse(test.params)
  if (!checked.success) return undefined
  const p = checked.data as Record<string, unknown>
  switch (test.tool) {
    case 'fio': {
      const size = fioSizeBytes(String(p.size ?? '')) ?? 0
      const jobs = typeof p.numjobs === 'number' ? p.numjobs : 1
      const shared = p.filename !== undefined
      return { workingSetBytes: shared ? size : size * jobs, directIo: p.direct === true, uncached: p.direct !== true }
    }
    case 'dd': {
      // (dd's schema allows useExistingFile only for a file, so a device test always has a need)
      if (p.mode === 'read' && p.useExistingFile === true) return undefined
      return { workingSetBytes: ddTotalBytes(checked.data as Parameters<typeof ddTotalBytes>[0]), directIo: p.direct === true, uncached: p.direct !== true }
    }
    case 'bonnie': {
      const mib = fileSizeMiB(String(p.fileSize ?? '')) ?? 0
      // bonnie++ promises uncached numbers only with a file of twice the RAM (its own rule)
      return { workingSetBytes: mib * 1024 * 1024, directIo: false, uncached: true }
    }
    default:
      return undefined
  }
}

/** The largest need among tests, with direct/uncached set when any test needs it. */
export function largestNeed(tests: readonly Pick<RunTest, 'tool' | 'params'>[]): StorageNeed | undefined {
  let out: StorageNeed | undefined
  for (const t of tests) {
    const need = storageNeedOf(t)
    if (!need) continue
    out = out
      ? { workingSetBytes: Math.max(out.workingSetBytes, need.workingSetBytes), directIo: out.directIo || need.directIo, uncached: out.uncached || need.uncached }
      : need
  }
  return out
}
