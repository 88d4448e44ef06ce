import type { TargetFacts, TargetOs } from '../types'
import { LINUX_ONLY_ENGINES, WINDOWS_ONLY_ENGINES, isWindowsDevice, jobNameSchema, type FioParams } from './params'

/** One fio option: `key=value`, or a bare flag such as `time_based` when value is undefined. */
export type FioOption = readonly [key: string, value?: string]

/** Where the job does its I/O, and which paths fio creates there (for cleanup). */
export interface IoLocation {
  option: 'directory' | 'filename'
  path: string
  /** Files fio creates; empty for a device, which must never be removed. */
  createdFiles: string[]
  device: boolean
}

/**
 * Option order on the command line: the order of study 001's invocations
 * (`--name --ioengine --rw --bs --size --numjobs --iodepth --runtime --time_based --direct --end_fsync`).
 */
const COMMAND_LINE_ORDER = [
  'name',
  'ioengine',
  'rw',
  'rwmixread',
  'bs',
  'size',
  'numjobs',
  'iodepth',
  'runtime',
  'ramp_time',
  'time_based',
  'direct',
  'end_fsync',
  'group_reporting'
] as const

/** Option order in a job file: the order of study 003's job file (`ioengine iodepth rw bs direct size numjobs`). */
const JOB_FILE_ORDER = [
  'ioengine',
  'iodepth',
  'rw',
  'rwmixread',
  'bs',
  'direct',
  'size',
  'numjobs',
  'runtime',
  'ramp_time',
  'time_based',
  'end_fsync',
  'group_reporting'
] as const

type OptionKey = (typeof COMMAND_LINE_ORDER)[number]

/** The engine fio is told to use on this OS; throws when the chosen one does not exist there. */
export function resolveEngine(params: FioParams, os: TargetOs): string {
  if (params.ioengine === 'auto') return os === 'windows' ? 'windowsaio' : 'libaio'
  if (os === 'windows' && LINUX_ONLY_ENGINES.includes(params.ioengine)) {
    throw new Error(`fio's ${params.ioengine} engine does not exist on Windows; choose windowsaio (or auto)`)
  }
  if (os === 'linux' && WINDOWS_ONLY_ENGINES.includes(params.ioengine)) {
    throw new Error(`fio's ${params.ioengine} engine exists only on Windows; choose libaio, io_uring, posixaio or psync (or auto) on Linux`)
  }
  return params.ioengine
}

function optionValues(params: FioParams, os: TargetOs): Map<OptionKey, FioOption> {
  const options = new Map<OptionKey, FioOption>()
  const set = (key: OptionKey, value?: string) => options.set(key, value === undefined ? [key] : [key, value])
  set('name', params.name)
  set('ioengine', resolveEngine(params, os))
  set('rw', params.rw)
  if (params.rwmixread !== undefined) set('rwmixread', String(params.rwmixread))
  set('bs', params.bs)
  set('size', params.size)
  set('numjobs', String(params.numjobs))
  set('iodepth', String(params.iodepth))
  if (params.runtime !== null) set('runtime', String(params.runtime))
  if (params.rampTime !== undefined) set('ramp_time', String(params.rampTime))
  if (params.timeBased) set('time_based')
  if (params.direct) set('direct', '1')
  if (params.endFsync) set('end_fsync', '1')
  if (params.groupReporting) set('group_reporting')
  return options
}

function ordered(options: Map<OptionKey, FioOption>, order: readonly OptionKey[]): FioOption[] {
  return order.flatMap((key) => {
    const option = options.get(key)
    return option ? [option] : []
  })
}

/** fio splits filename= and directory= values at ':'; a literal colon is written `\:`. */
export function escapeFioPath(path: string): string {
  return path.replace(/:/g, '\\:')
}

/** `dir` + `name` with the target's separator. */
export function joinPath(os: TargetOs, dir: string, name: string): string {
  if (os === 'windows') return `${dir.replace(/[\\/]+$/, '')}\\${name}`
  return `${dir.replace(/\/+$/, '')}/${name}`
}

/** Characters Windows does not allow in file names. */
export const WINDOWS_BAD_FILE_CHARS = /[<>:"|?*]/

/** Checks the work directory a plan writes into; throws a message a person can act on. */
export function checkWorkDir(target: TargetFacts, inJobFile: boolean): void {
  const dir = target.workDir
  const absolute = target.os === 'windows' ? /^([A-Za-z]:[\\/]|\\\\)/.test(dir) : dir.startsWith('/')
  if (!absolute) throw new Error(`the work directory must be an absolute path on the target, not "${dir}"`)
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(dir)) throw new Error(`the work directory ${JSON.stringify(dir)} contains a line break or another control character`)
  if (inJobFile && /[;#$]/.test(dir)) {
    throw new Error(
      `the work directory "${dir}" contains ';', '#' or '$', which a fio job file reads as a comment or a variable; use the command-line style or another directory`
    )
  }
}

/** Where the job's I/O goes on this target: a raw device, one shared file, or a file per job in workDir. */
export function ioLocation(params: FioParams, target: TargetFacts, inJobFile = false): IoLocation {
  if (params.device !== undefined) {
    const windowsDevice = isWindowsDevice(params.device)
    if (windowsDevice !== (target.os === 'windows')) {
      throw new Error(`${params.device} is not a ${target.os === 'windows' ? 'Windows' : 'Linux'} block device path`)
    }
    return { option: 'filename', path: params.device, createdFiles: [], device: true }
  }
  checkWorkDir(target, inJobFile)
  if (params.filename !== undefined) {
    const path = joinPath(target.os, target.workDir, params.filename)
    if (target.os === 'windows' && WINDOWS_BAD_FILE_CHARS.test(params.filename)) {
      throw new Error(`the file name "${params.filename}" contains a character Windows does not allow in file names (< > : " | ? *)`)
    }
    return { option: 'filename', path, createdFiles: [path], device: false }
  }
  if (target.os === 'windows' && WINDOWS_BAD_FILE_CHARS.test(params.name)) {
    throw new Error(`the job name "${params.name}" names fio's files, and contains a character Windows does not allow in file names (< > : " | ? *)`)
  }
  // fio names each job's file <name>.<job number>.<file number> (its default filename_format).
  const createdFiles = Array.from({ length: params.numjobs }, (_, job) => joinPath(target.os, target.workDir, `${params.name}.${job}.0`))
  return { option: 'directory', path: target.workDir, createdFiles, device: false }
}

/** The job's options as fio command-line arguments (`--rw=randread`, `--time_based`), in study 001's order. */
export function commandLineArgs(params: FioParams, target: TargetFacts): string[] {
  const location = ioLocation(params, target)
  const options = [...ordered(optionValues(params, target.os), COMMAND_LINE_ORDER), [location.option, escapeFioPath(location.path)] as const]
  return options.map(([key, value]) => (value === undefined ? `--${key}` : `--${key}=${value}`))
}

/**
 * The job as one job-file section, in study 003's order:
 *
 *     [virt]
 *     ioengine=libaio
 *     iodepth=4
 *     ...
 *     directory=/var/tmp/virtbench
 *
 * Values cannot start a new line or section, or hide the rest of a line as a comment: the
 * params schema refuses such names and file names, and the work directory is checked here.
 */
export function renderJobSection(params: FioParams, target: TargetFacts): string {
  const name = jobNameSchema.safeParse(params.name)
  if (!name.success) throw new Error(`cannot write the job name ${JSON.stringify(params.name)} into a job file: ${name.error.issues[0]?.message}`)
  const location = ioLocation(params, target, true)
  const options = [...ordered(optionValues(params, target.os), JOB_FILE_ORDER), [location.option, escapeFioPath(location.path)] as const]
  const lines = options.map(([key, value]) => {
    // eslint-disable-next-line no-control-regex
    if (value !== undefined && /[\u0000-\u001f\u007f;#]/.test(value)) {
      throw new Error(`cannot write ${key}=${JSON.stringify(value)} into a job file: a line break, ';' or '#' would change the job`)
    }
    return value === undefined ? key : `${key}=${value}`
  })
  return `[${params.name}]\n${lines.join('\n')}\n`
}
