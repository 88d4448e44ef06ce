import { quoteSh, shJoin } from '../../../shared/shell-quote'
import type { Plan, PlanContext, RemoteStep, TargetFacts } from '../types'
import { FILE_BYTES_MARKER } from './file-size-marker'
import { ddNumber, ddTotalBytes, type DdParams } from './params'

const MIB = 2 ** 20
/** Process start and dd's report, roughly. */
const STARTUP_SECONDS = 1
/** A typical disk, for the estimate. */
const TYPICAL_BYTES_PER_SECOND = 200 * MIB
/** A typical synchronous small write with O_DIRECT, for the estimate. */
const TYPICAL_DIRECT_OP_SECONDS = 0.0005
/** A slow disk (a busy RAID 1 of hard disks, NFS): what the timeout allows for. */
const SLOW_BYTES_PER_SECOND = 5 * MIB
const SLOW_OP_SECONDS = 0.02
/** Extra time before a step counts as hung. */
const TIMEOUT_GRACE_SECONDS = 120

function blockCount(params: DdParams): number {
  return ddNumber(params.count) ?? 0
}

/** A read test of a file first writes that file (unless told to read what is there); a device is read as it is. */
function preparesFile(params: DdParams): boolean {
  return params.mode === 'read' && params.device === undefined && !params.useExistingFile
}

function runSeconds(params: DdParams, bytesPerSecond: number, opSeconds: number): number {
  const ops = params.direct ? blockCount(params) * opSeconds : 0
  return ddTotalBytes(params) / bytesPerSecond + ops
}

/** How long the steps should take: writing the file to read (read mode), then the copy itself. */
export function estimateSeconds(params: DdParams): number {
  const prepare = preparesFile(params) ? ddTotalBytes(params) / TYPICAL_BYTES_PER_SECOND : 0
  return Math.ceil(STARTUP_SECONDS + prepare + runSeconds(params, TYPICAL_BYTES_PER_SECOND, TYPICAL_DIRECT_OP_SECONDS))
}

function measuredTimeout(params: DdParams): number {
  return Math.ceil(STARTUP_SECONDS + runSeconds(params, SLOW_BYTES_PER_SECOND, SLOW_OP_SECONDS) + TIMEOUT_GRACE_SECONDS)
}

function checkTarget(target: TargetFacts): void {
  if (target.os !== 'linux') {
    throw new Error('dd runs on Linux targets only; for Windows targets use fio')
  }
  if (!target.workDir.startsWith('/')) {
    throw new Error(`the work directory must be an absolute path, not "${target.workDir}"`)
  }
}

function filePath(target: TargetFacts, name: string): string {
  return `${target.workDir.replace(/\/+$/, '')}/${name}`
}

/** The dd command of the measured step, exactly as it runs (file names relative to the work directory). */
export function ddArgv(params: DdParams): string[] {
  const location = params.device ?? params.fileName
  const [input, output] = params.mode === 'write' ? ['/dev/zero', location] : [location, '/dev/null']
  const argv = ['dd', `if=${input}`, `of=${output}`, `bs=${params.blockSize}`, `count=${params.count}`]
  if (params.direct) argv.push(params.mode === 'write' ? 'oflag=direct' : 'iflag=direct')
  if (params.fdatasync) argv.push('conv=fdatasync')
  return argv
}

/** The measured command: dd itself, or `time sh -c "…"` around dd or cat (study 004). */
function measuredCommand(params: DdParams): { argv: string[]; script: string } {
  const inner = params.reader === 'cat' ? `${shJoin(['cat', params.fileName])} > /dev/null` : shJoin(ddArgv(params))
  const timed = ['sh', '-c', inner]
  switch (params.timer) {
    case 'none':
      return { argv: ddArgv(params), script: `LC_ALL=C ${inner}` }
    case 'bash':
      // `time` is a bash keyword, so bash runs it; LC_ALL=C keeps its decimal point a '.'.
      return { argv: ['time', ...timed], script: `LC_ALL=C bash -c ${quoteSh(`time ${shJoin(timed)}`)}` }
    case 'gnu-time': {
      const argv = ['/usr/bin/time', '-v', ...timed]
      return { argv, script: `LC_ALL=C ${shJoin(argv)}` }
    }
  }
}

function measuredStep(params: DdParams, target: TargetFacts): RemoteStep {
  const command = measuredCommand(params)
  const parts: string[] = []
  if (params.device === undefined) parts.push(`cd ${quoteSh(target.workDir)}`)
  // The cat form has no byte count of its own: print the file size first, with a marker line.
  if (params.reader === 'cat') parts.push(shJoin(['stat', '-c', `${FILE_BYTES_MARKER} %s`, params.fileName]))
  parts.push(command.script)
  return {
    id: params.mode,
    on: 'target',
    shell: 'sh',
    script: parts.join(' && '),
    argv: command.argv,
    timeoutSeconds: measuredTimeout(params),
    okExitCodes: [0],
    measured: true,
    sudo: params.device !== undefined
  }
}

/**
 * Writes the file a read test reads, in 1 MiB blocks when the size allows, with O_DIRECT so the
 * file is on the disk and not in the page cache (with a flushed buffered write where the file
 * system refuses O_DIRECT).
 */
function prepareStep(params: DdParams, target: TargetFacts): RemoteStep {
  const total = ddTotalBytes(params)
  const [bs, count] = total % MIB === 0 ? ['1M', String(total / MIB)] : [params.blockSize, params.count]
  const write = ['dd', 'if=/dev/zero', `of=${params.fileName}`, `bs=${bs}`, `count=${count}`]
  const direct = shJoin([...write, 'oflag=direct'])
  const buffered = shJoin([...write, 'conv=fdatasync'])
  return {
    id: 'prepare',
    on: 'target',
    shell: 'sh',
    script: `cd ${quoteSh(target.workDir)} && { LC_ALL=C ${direct} || LC_ALL=C ${buffered}; }`,
    timeoutSeconds: Math.ceil(STARTUP_SECONDS + (2 * total) / SLOW_BYTES_PER_SECOND + TIMEOUT_GRACE_SECONDS),
    okExitCodes: [0]
  }
}

function dropCachesStep(): RemoteStep {
  return {
    id: 'drop-caches',
    on: 'target',
    shell: 'sh',
    script: 'sync && echo 3 > /proc/sys/vm/drop_caches',
    timeoutSeconds: TIMEOUT_GRACE_SECONDS,
    okExitCodes: [0],
    sudo: true
  }
}

/**
 * Write: one measured dd from /dev/zero (study 002: `dd if=/dev/zero of=/dev/vdb bs=1G count=1
 * oflag=direct`; study 004: `time sh -c "dd if=/dev/zero of=ddfile2 bs=8k count=1M"`).
 * Read: the file is written first (a device is read as it is), the page cache optionally
 * emptied, then read with dd or, as in study 004, `time sh -c "cat ddfile > /dev/null"`.
 * Files live in the target's work directory; a device must be named in the parameters.
 */
export function plan(params: DdParams, ctx: PlanContext): Plan {
  const target = ctx.target
  checkTarget(target)
  const steps: RemoteStep[] = []
  if (preparesFile(params)) steps.push(prepareStep(params, target))
  if (params.mode === 'read' && params.dropCaches) steps.push(dropCachesStep())
  steps.push(measuredStep(params, target))
  const files = params.device === undefined ? [{ on: 'target' as const, path: filePath(target, params.fileName) }] : []
  return { steps, files, estimatedSeconds: estimateSeconds(params) }
}
