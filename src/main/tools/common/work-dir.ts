import type { TargetFacts } from '../types'

/**
 * The folder of one tool inside a Linux target's work directory (`<workDir>/<name>`), where the
 * tool's files go so cleanup can remove them all, even after a crash. Refuses other systems and
 * a relative work directory, saying what to change.
 */
export function linuxToolDir(target: TargetFacts, name: string, runsWhat: string): string {
  if (target.os !== 'linux') throw new Error(`${runsWhat} on Linux targets only; pick a Linux target for this test`)
  if (!target.workDir.startsWith('/')) {
    throw new Error(`the work directory "${target.workDir}" is not an absolute path; set an absolute work directory for this target`)
  }
  return `${target.workDir.replace(/\/+$/, '')}/${name}`
}
