import { checkJobFile, describeJobFileProblem, type JobFileJob } from '../../../shared/fio-job-file'
import type { StorageNeed, TargetFacts } from '../types'
import { checkWorkDir, joinPath } from './job-options'
import { LINUX_ONLY_ENGINES, WINDOWS_ONLY_ENGINES, type FioParams, type IoEngine } from './params'

/** The admin's own job file (params.jobFile): what it runs, as the validator reads it. */
export interface OwnJobFile {
  text: string
  jobs: JobFileJob[]
}

/** The params' job file, checked again (the schema did so already); undefined when the test has none. */
export function ownJobFile(params: FioParams): OwnJobFile | undefined {
  if (params.jobFile === undefined) return undefined
  const checked = checkJobFile(params.jobFile, params)
  const first = checked.problems[0]
  if (first) throw new Error(describeJobFileProblem(first))
  return { text: params.jobFile, jobs: checked.jobs }
}

/** Where the uploaded job file goes: the work directory, where fio also runs. */
export function ownJobFilePath(target: TargetFacts): string {
  checkWorkDir(target, false)
  return joinPath(target.os, target.workDir, 'virtbench-own.fio')
}

/** Engines that do not exist on the target's OS; throws a message that names the section. */
export function checkEngines(file: OwnJobFile, target: TargetFacts): void {
  for (const job of file.jobs) {
    const engine = job.ioengine as IoEngine | undefined
    if (engine === undefined) continue
    if (target.os === 'windows' && LINUX_ONLY_ENGINES.includes(engine)) {
      throw new Error(`job file [${job.name}] ioengine: fio's ${engine} engine does not exist on Windows; use windowsaio there`)
    }
    if (target.os === 'linux' && WINDOWS_ONLY_ENGINES.includes(engine)) {
      throw new Error(`job file [${job.name}] ioengine: fio's ${engine} engine exists only on Windows; use libaio, io_uring, posixaio or psync on Linux`)
    }
  }
}

/**
 * Seconds a job takes: ramp plus its runtime, or (without time_based) its bytes at `bytesPerSecond`
 * when that is sooner. Jobs of a group run side by side; stonewall starts a new group.
 */
export function jobFileSeconds(file: OwnJobFile, bytesPerSecond: number, together: boolean): number {
  const seconds = (job: JobFileJob): number => {
    const bySize = job.ioBytes === undefined ? Infinity : job.ioBytes / bytesPerSecond
    const run = job.runtimeSeconds === undefined ? bySize : job.timeBased ? job.runtimeSeconds : Math.min(job.runtimeSeconds, bySize)
    return job.rampSeconds + run
  }
  if (!together) return file.jobs.reduce((sum, job) => sum + seconds(job), 0)
  let total = 0
  let group = 0
  for (const [i, job] of file.jobs.entries()) {
    if (i > 0 && job.waitsForPrevious) {
      total += group
      group = 0
    }
    group = Math.max(group, seconds(job))
  }
  return total + group
}

/** Bytes fio lays out (writes) before the jobs run: every file job's files. */
export function jobFileLayoutBytes(file: OwnJobFile): number {
  return file.jobs.reduce((sum, job) => sum + job.fileBytes, 0)
}

/** The files of all jobs at once, O_DIRECT when any job uses it. */
export function jobFileStorageNeed(file: OwnJobFile): StorageNeed {
  const direct = file.jobs.some((job) => job.direct)
  return { workingSetBytes: jobFileLayoutBytes(file), directIo: direct, uncached: !direct }
}
