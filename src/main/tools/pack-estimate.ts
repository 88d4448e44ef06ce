import { formatAbout } from '../../shared/format'
import { packTests, type Pack, type PackForm } from './packs'
import { TOOLS } from './registry'

export interface PackEstimate {
  /** Seconds for one target, all tests and repetitions. */
  seconds: number
  tests: { id: string; seconds: number }[]
}

/**
 * How long a pack takes on one target, from each tool's own estimate times its repetitions: the
 * test's own, else `planRepetitions` (the plan's; 1 gives the time of one pass).
 */
export function estimatePack(pack: Pack, form: PackForm, planRepetitions = 1): PackEstimate {
  const tests = packTests(pack, form).map((test) => {
    const tool = TOOLS[test.tool]
    const seconds = tool.estimateSeconds(tool.params.parse(test.params)) * (test.repetitions ?? planRepetitions)
    return { id: test.id, seconds }
  })
  return { seconds: tests.reduce((sum, t) => sum + t.seconds, 0), tests }
}

/** "about 14 min", "about 18 h 23 min", "about 40 s". */
export const formatDuration = formatAbout
