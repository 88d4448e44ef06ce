import type { Sample } from '../../../../../src/shared/model/sample'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'
import { readFixture } from '../fixture-kit'

/**
 * A captured run: what fio printed (see tests/fixtures/tools/fio/README.md). Fixtures from other
 * projects keep only the report (stdout); their stderr reads as empty and their exit code as 0.
 */
export function fixtureOutput(name: string): StepOutput {
  return readFixture('fio', name)
}

/**
 * fio's report in a captured stdout, read here independently of the parser: the text from the
 * first line that starts with '{' to the last '}', through JSON.parse.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function reportJson(stdout: string): any {
  const start = stdout.startsWith('{') ? 0 : stdout.indexOf('\n{') + 1
  return JSON.parse(stdout.slice(start, stdout.lastIndexOf('}') + 1))
}

export function fixture(name: string) {
  const out = fixtureOutput(name)
  return { out, json: reportJson(out.stdout) }
}

export function samplesOf(result: ParseResult): Sample[] {
  if (!result.ok) throw new Error(`expected the output to parse, got: ${result.error.reason} (near ${result.error.excerpt})`)
  return result.samples
}

/** The value of `metric` with exactly these labels; undefined when there is no such sample. */
export function valueOf(samples: readonly Sample[], metric: string, labels: Record<string, string> = {}): number | undefined {
  const key = JSON.stringify(Object.entries(labels).sort())
  const found = samples.filter((s) => s.metric === metric && JSON.stringify(Object.entries(s.labels).sort()) === key)
  if (found.length > 1) throw new Error(`${found.length} samples of ${metric} ${key}`)
  return found[0]?.value
}

export const SUCCESS_FIXTURES = [
  'randread-4k-libaio-qd16',
  'randrw-64k-2jobs',
  'randrw-64k-2jobs-group-reporting',
  'randtrim-falloc',
  'psync-qd16-note',
  'seq-write-1m-posixaio-end-fsync',
  'randrw-4k-json-plus',
  'randrw-unified-mixed',
  'study-003-virt-jobfile',
  'fio2-randread-4k-libaio-qd16',
  'fio-2.1.4-pkb-5-groups',
  'fio-2.1.11-storperf-4-jobs',
  'jobfile-one-job-enospc'
] as const

export const ERROR_FIXTURES = [
  'error-enotdir',
  'error-trim-psync',
  'error-bad-option',
  'error-engine-not-loadable',
  'error-enospc-report-to-file'
] as const
