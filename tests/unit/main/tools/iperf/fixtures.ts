import { existsSync, readFileSync } from 'node:fs'
import type { Labels } from '../../../../../src/shared/model/sample'
import { iperfParamsSchema, type IperfParams, type IperfParamsInput } from '../../../../../src/main/tools/iperf/params'
import type { ParseResult, StepOutput } from '../../../../../src/main/tools/types'
import { samplesOf } from '../fixture-kit'

export { reasonOf, samplesOf, warningsOf } from '../fixture-kit'

const DIR = new URL('../../../../fixtures/tools/iperf/', import.meta.url)

function read(name: string, ext: string): string {
  return readFileSync(new URL(`${name}.${ext}`, DIR), 'utf8')
}

/** A captured client run (see tests/fixtures/tools/iperf/README.md); the study 000 excerpts have stdout only. */
export function fixtureOutput(name: string): StepOutput {
  const has = (ext: string) => existsSync(new URL(`${name}.${ext}`, DIR))
  return { stdout: read(name, 'stdout'), stderr: has('stderr') ? read(name, 'stderr') : '', exitCode: has('exit') ? Number(read(name, 'exit').trim()) : 0 }
}

/** The parameters a captured run was planned with: its ports (NAME.ports holds "server listen") and `extra`. */
export function fixtureParams(name: string, extra: IperfParamsInput = {}): IperfParams {
  const [port, listenPort] = read(name, 'ports').trim().split(' ').map(Number)
  return iperfParamsSchema.parse({ port, listenPort, ...extra })
}


/** Samples as "metric direction measured_by [stream]" → value, for comparing a whole output at once. */
export function table(result: ParseResult): Record<string, number> {
  const rows: Record<string, number> = {}
  for (const s of samplesOf(result)) {
    const key = [s.metric, s.labels.direction, s.labels.measured_by, s.labels.stream].filter((x) => x !== undefined).join(' ')
    if (key in rows) throw new Error(`two samples for ${key}`)
    rows[key] = s.value
  }
  return rows
}

export function labelsOf(result: ParseResult): Labels[] {
  return samplesOf(result).map((s) => s.labels)
}
