import { readFileSync } from 'node:fs'
import type { Sample } from '../../../../../src/shared/model/sample'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'

const DIR = new URL('../../../../fixtures/tools/dd/', import.meta.url)

/** A captured run: what the command printed (see tests/fixtures/tools/dd/README.md). */
export function fixtureOutput(name: string): StepOutput {
  const read = (ext: string) => readFileSync(new URL(`${name}.${ext}`, DIR), 'utf8')
  return { stdout: read('stdout'), stderr: read('stderr'), exitCode: Number(read('exit').trim()) }
}

export function samplesOf(result: ParseResult): Sample[] {
  if (!result.ok) throw new Error(`expected the output to parse, got: ${result.error.reason} (near ${result.error.excerpt})`)
  return result.samples
}

export function warningsOf(result: ParseResult): string[] {
  if (!result.ok) throw new Error(`expected the output to parse, got: ${result.error.reason}`)
  return result.warnings
}

export function reasonOf(result: ParseResult): string {
  if (result.ok) throw new Error(`expected a parse failure, got ${result.samples.length} samples`)
  return result.error.reason
}

/** Samples as { metric: value } (only for outputs with one sample per metric). */
export function valuesOf(result: ParseResult): Record<string, number> {
  const values: Record<string, number> = {}
  for (const s of samplesOf(result)) {
    if (s.metric in values) throw new Error(`two samples of ${s.metric}`)
    values[s.metric] = s.value
  }
  return values
}
