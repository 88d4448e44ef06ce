import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { StepOutput } from '../../../../../src/main/tools/types'

const DIR = join(__dirname, '../../../../fixtures/tools/iozone')

/** A captured iozone run: its stdout, stderr and exit status. */
export function fixture(name: string): StepOutput {
  const read = (ext: string) => readFileSync(join(DIR, `${name}.${ext}`), 'utf8')
  return { stdout: read('stdout'), stderr: read('stderr'), exitCode: Number(read('exit').trim()) }
}
