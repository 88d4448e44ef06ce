import { readFileSync } from 'node:fs'
import type { Labels } from '../../../../../src/shared/model/sample'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'
import { samplesOf } from '../fixture-kit'

export { reasonOf, samplesOf, warningsOf } from '../fixture-kit'

const DIR = new URL('../../../../fixtures/tools/iperf3/', import.meta.url)

/** A captured client run: what iperf3 printed (see tests/fixtures/tools/iperf3/README.md). */
export function fixtureOutput(name: string): StepOutput {
  const read = (ext: string) => readFileSync(new URL(`${name}.${ext}`, DIR), 'utf8')
  return { stdout: read('stdout'), stderr: read('stderr'), exitCode: Number(read('exit').trim()) }
}

/** The fixture's JSON, read with nothing but JSON.parse, for plain lookups. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function fixtureJson(name: string): any {
  return JSON.parse(fixtureOutput(name).stdout)
}


/** The one sample of `metric` with exactly these labels, or undefined. */
export function valueOf(result: ParseResult, metric: string, labels: Labels): number | undefined {
  const found = samplesOf(result).filter((s) => s.metric === metric && JSON.stringify(sorted(s.labels)) === JSON.stringify(sorted(labels)))
  if (found.length > 1) throw new Error(`${found.length} samples of ${metric} ${JSON.stringify(labels)}`)
  return found[0]?.value
}

function sorted(labels: Labels): Labels {
  return Object.fromEntries(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)))
}
