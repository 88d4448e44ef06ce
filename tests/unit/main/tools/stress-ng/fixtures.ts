import { readFixture } from '../fixture-kit'

export { reasonOf, samplesOf, warningsOf } from '../fixture-kit'

/** A captured run: what the plan's step printed (see tests/fixtures/tools/stress-ng/README.md). */
export const fixtureOutput = (name: string) => readFixture('stress-ng', name)
