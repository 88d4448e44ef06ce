import { shJoin } from '../../../shared/shell-quote'
import type { Plan, PlanContext, TargetFacts } from '../types'
import { fileSizeMiB, type BonnieParams } from './params'
import { linuxToolDir } from '../common/work-dir'

const MIB = 2 ** 20
/** bonnie++ picks twice the RAM when -s is not given; the estimate assumes 8 GiB of RAM. */
const ASSUMED_AUTO_FILE_MIB = 16 * 1024
/** Block write, rewrite (a read and a write) and block read: about four passes over the file. */
const PASSES_OVER_FILE = 4
const TYPICAL_BYTES_PER_SECOND = 200 * MIB
const SLOW_BYTES_PER_SECOND = 20 * MIB
/** putc/getc on bonnie++'s small per-character file, and the seek test: roughly. */
const PER_CHAR_SECONDS = 10
const SEEKS_SECONDS = 10
/** Six passes over the files of the creation tests. */
const FILE_OPS_PER_FILE = 6
const TYPICAL_FILE_OPS_PER_SECOND = 5000
const SLOW_FILE_OPS_PER_SECOND = 200
/** Start-up, sync and the pauses bonnie++ makes between tests. */
const FIXED_SECONDS = 5
const TIMEOUT_GRACE_SECONDS = 300

/** bonnie++ puts its Bonnie.<pid> directory here, so a crashed run leaves nothing elsewhere. */
export function bonnieDir(target: TargetFacts): string {
  return linuxToolDir(target, 'bonnie', 'bonnie++ runs')
}

function runSeconds(params: BonnieParams, bytesPerSecond: number, fileOpsPerSecond: number): number {
  const fileMiB = params.fileSize === undefined ? ASSUMED_AUTO_FILE_MIB : (fileSizeMiB(params.fileSize) ?? 0)
  const io = fileMiB === 0 ? 0 : (PASSES_OVER_FILE * fileMiB * MIB) / bytesPerSecond + SEEKS_SECONDS + (params.skipPerChar ? 0 : PER_CHAR_SECONDS)
  const files = (params.numFiles * 1024 * FILE_OPS_PER_FILE) / fileOpsPerSecond
  return FIXED_SECONDS + io + files
}

/** A rough guess for progress bars: a disk of about 200 MiB/s, 8 GiB of RAM when fileSize is unset. */
export function estimateSeconds(params: BonnieParams): number {
  return Math.ceil(params.repetitions * runSeconds(params, TYPICAL_BYTES_PER_SECOND, TYPICAL_FILE_OPS_PER_SECOND))
}

/** The same on a slow disk (a hard disk behind a busy hypervisor), plus grace: when a run counts as hung. */
function timeoutSeconds(params: BonnieParams): number {
  return Math.ceil(params.repetitions * runSeconds(params, SLOW_BYTES_PER_SECOND, SLOW_FILE_OPS_PER_SECOND) + TIMEOUT_GRACE_SECONDS)
}

/** The shell text that makes `-u` the login user: bonnie++ refuses to run as root without -u. */
const LOGIN_UID = '"$(id -u)"'

/**
 * One measured step in the work directory's `bonnie` folder:
 * `bonnie++ -d <workDir>/bonnie [-s size] [-r ram] -n files [-x n] [-f] [-D] -u <user>`.
 * Study 000 is `fileSize: '50g', numFiles: 10, repetitions: 10`.
 *
 * `argv` shows `-u $(id -u)` as the shell runs it when `runAs` is unset. Debian and Fedora install
 * bonnie++ in /usr/sbin, which is not on a normal user's PATH, so the script adds the sbin folders.
 */
export function plan(params: BonnieParams, ctx: PlanContext): Plan {
  const dir = bonnieDir(ctx.target)
  const program = ctx.target.toolPaths?.bonnie ?? 'bonnie++'
  const options = [
    '-d',
    dir,
    ...(params.fileSize === undefined ? [] : ['-s', params.fileSize]),
    ...(params.ramMiB === undefined ? [] : ['-r', String(params.ramMiB)]),
    '-n',
    String(params.numFiles),
    ...(params.repetitions > 1 ? ['-x', String(params.repetitions)] : []),
    ...(params.skipPerChar ? ['-f'] : []),
    ...(params.directIo ? ['-D'] : [])
  ]
  const user = params.runAs === undefined ? LOGIN_UID : shJoin([params.runAs])
  const path = program === 'bonnie++' ? 'PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"; export PATH; ' : ''
  const script = `${path}mkdir -p -- ${shJoin([dir])} && ${shJoin([program, ...options])} -u ${user}`
  return {
    steps: [
      {
        id: 'run',
        on: 'target',
        shell: 'sh',
        script,
        argv: [program, ...options, '-u', params.runAs ?? '$(id -u)'],
        timeoutSeconds: timeoutSeconds(params),
        okExitCodes: [0],
        measured: true
      }
    ],
    files: [{ on: 'target', path: dir }],
    estimatedSeconds: estimateSeconds(params)
  }
}
