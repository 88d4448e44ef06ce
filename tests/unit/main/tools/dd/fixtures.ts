import { readFixture } from '../fixture-kit'

export { reasonOf, samplesOf, valuesOf, warningsOf } from '../fixture-kit'

/** A captured run: what the command printed (see tests/fixtures/tools/dd/README.md). */
export const fixtureOutput = (name: string) => readFixture('dd', name)
