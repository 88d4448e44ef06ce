import type { StepOutput } from '../../../../../src/main/tools/types'
import { readFixture } from '../fixture-kit'

/**
 * A captured bonnie++ run: its stdout, stderr and exit status. Lines from other projects keep only
 * stdout; their stderr reads as empty and their exit status as 0.
 */
export function fixture(name: string): StepOutput {
  return readFixture('bonnie', name)
}
