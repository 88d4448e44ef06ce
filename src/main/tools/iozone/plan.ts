import { shJoin } from '../../../shared/shell-quote'
import type { Plan, PlanContext, TargetFacts } from '../types'
import { sizeKB, type IozoneParams } from './params'
import { linuxToolDir } from '../common/work-dir'

const KIB = 1024
const MIB = 1024 * KIB
/** iozone's auto-mode defaults (iozone.c): files 64 kB to 512 MB, records 4 kB to 16 MB. */
const DEFAULT_MIN_FILE_KB = 64
const DEFAULT_MAX_FILE_KB = 512 * 1024
const DEFAULT_MIN_RECORD_KB = 4
const DEFAULT_MAX_RECORD_KB = 16 * 1024
/** Without -z, files over 16 MB skip records under 64 kB. */
const CROSSOVER_FILE_KB = 16 * 1024
const LARGE_RECORD_KB = 64
/** Each (file size, record size) runs 13 sub-tests, each about one pass over the file. */
const PASSES_PER_CELL = 13
const TYPICAL_BYTES_PER_SECOND = 200 * MIB
const SLOW_BYTES_PER_SECOND = 20 * MIB
const STARTUP_SECONDS = 2
const TIMEOUT_GRACE_SECONDS = 300

/** The folder iozone runs in: its temporary file (iozone.tmp) and spreadsheet go there. */
export function iozoneDir(target: TargetFacts): string {
  return linuxToolDir(target, 'iozone', 'VirtBench runs iozone')
}

/** The powers of two from `min` to `max`, as iozone's auto mode steps through sizes. */
function doublings(min: number, max: number): number[] {
  const sizes: number[] = []
  for (let s = min; s <= max; s *= 2) sizes.push(s)
  return sizes
}

/** Bytes moved by an auto-mode run: every file size times the record sizes it is tested with. */
function bytesMoved(params: IozoneParams): number {
  const minFile = (params.minFileSize && sizeKB(params.minFileSize)) || DEFAULT_MIN_FILE_KB
  const maxFile = (params.maxFileSize && sizeKB(params.maxFileSize)) || DEFAULT_MAX_FILE_KB
  const minRecord = (params.minRecordSize && sizeKB(params.minRecordSize)) || DEFAULT_MIN_RECORD_KB
  const maxRecord = (params.maxRecordSize && sizeKB(params.maxRecordSize)) || DEFAULT_MAX_RECORD_KB
  const crossover = !params.allRecordSizes && !params.minRecordSize && !params.maxRecordSize
  let kb = 0
  for (const file of doublings(minFile, maxFile)) {
    const lowest = crossover && file > CROSSOVER_FILE_KB ? Math.max(minRecord, LARGE_RECORD_KB) : minRecord
    const records = doublings(lowest, Math.min(maxRecord, file)).length
    kb += file * records * PASSES_PER_CELL
  }
  return kb * KIB
}

/** A rough guess for progress bars, at about 200 MiB/s. */
export function estimateSeconds(params: IozoneParams): number {
  return Math.ceil(STARTUP_SECONDS + bytesMoved(params) / TYPICAL_BYTES_PER_SECOND)
}

function timeoutSeconds(params: IozoneParams): number {
  return Math.ceil(STARTUP_SECONDS + bytesMoved(params) / SLOW_BYTES_PER_SECOND + TIMEOUT_GRACE_SECONDS)
}

/**
 * One measured step, in the work directory's `iozone` folder: `iozone -Ra[z] [-g max] [-n min]
 * [-y min] [-q max] [-b file]`. Study 000 is `iozone -Raz -g 50G -b out.wks`
 * (`maxFileSize: '50G', spreadsheet: 'out.wks'`). iozone writes its test file `iozone.tmp` in the
 * folder it runs in.
 */
export function plan(params: IozoneParams, ctx: PlanContext): Plan {
  const dir = iozoneDir(ctx.target)
  const program = ctx.target.toolPaths?.iozone ?? 'iozone'
  const argv = [
    program,
    params.allRecordSizes ? '-Raz' : '-Ra',
    ...(params.maxFileSize ? ['-g', params.maxFileSize] : []),
    ...(params.minFileSize ? ['-n', params.minFileSize] : []),
    ...(params.minRecordSize ? ['-y', params.minRecordSize] : []),
    ...(params.maxRecordSize ? ['-q', params.maxRecordSize] : []),
    ...(params.spreadsheet ? ['-b', params.spreadsheet] : [])
  ]
  const files = [`${dir}/iozone.tmp`, ...(params.spreadsheet ? [`${dir}/${params.spreadsheet}`] : []), dir]
  return {
    steps: [
      {
        id: 'run',
        on: 'target',
        shell: 'sh',
        script: `mkdir -p -- ${shJoin([dir])} && cd -- ${shJoin([dir])} && ${shJoin(argv)}`,
        argv,
        timeoutSeconds: timeoutSeconds(params),
        okExitCodes: [0],
        measured: true
      }
    ],
    files: files.map((path) => ({ on: 'target' as const, path })),
    estimatedSeconds: estimateSeconds(params)
  }
}
