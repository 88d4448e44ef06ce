import { readFixture } from '../fixture-kit'

export { reasonOf, samplesOf, warningsOf } from '../fixture-kit'

/** A captured run: what the command printed (see tests/fixtures/tools/mbw/README.md). */
export const fixtureOutput = (name: string) => readFixture('mbw', name)
