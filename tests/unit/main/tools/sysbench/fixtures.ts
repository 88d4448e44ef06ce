import { readFixture } from '../fixture-kit'

export { reasonOf, samplesOf, valuesOf, warningsOf } from '../fixture-kit'

/** A captured run: what the command printed (see tests/fixtures/tools/sysbench/README.md). */
export const fixtureOutput = (name: string) => readFixture('sysbench', name)
