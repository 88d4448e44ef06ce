import { existsSync, readFileSync } from 'node:fs'
import type { Sample } from '../../../../src/shared/model/sample'
import type { ParseResult, StepOutput, ToolId } from '../../../../src/main/tools/types'

/** Where a tool's captured runs live (each folder's README says how they were produced). */
export function fixtureDir(tool: ToolId): URL {
  return new URL(`../../../fixtures/tools/${tool}/`, import.meta.url)
}

/** A captured run: NAME.stdout, and NAME.stderr and NAME.exit when kept (else empty and 0). */
export function readFixture(tool: ToolId, name: string): StepOutput {
  const dir = fixtureDir(tool)
  const file = (ext: string) => new URL(`${name}.${ext}`, dir)
  const read = (ext: string, fallback: string) => (existsSync(file(ext)) || ext === 'stdout' ? readFileSync(file(ext), 'utf8') : fallback)
  return { stdout: read('stdout', ''), stderr: read('stderr', ''), exitCode: Number(read('exit', '0').trim()) }
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
