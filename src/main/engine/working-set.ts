import type { RunTest } from '../../shared/model/run'
import { TOOLS } from '../tools/registry'
import type { StorageNeed } from '../tools/types'

export type { StorageNeed } from '../tools/types'

/**
 * The storage need of one test, as its tool declares it (src/main/tools/<tool>/), or undefined
 * when it writes nothing worth checking or its parameters are not valid.
 */
export function storageNeedOf(test: Pick<RunTest, 'tool' | 'params'>): StorageNeed | undefined {
  const tool = TOOLS[test.tool]
  const checked = tool.params.safeParse(test.params)
  return checked.success ? tool.storageNeed(checked.data) : undefined
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
