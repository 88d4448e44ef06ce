import type { VersionProbe } from '../types'
import type { StressNgParams } from './params'

/** Bogo operations per second of wall-clock time of the one stressor the test runs. */
export function stressNgPrimaryMetrics(params: StressNgParams): readonly string[] {
  return [`stress-ng.${params.stressor}.ops-per-second`]
}

/**
 * `stress-ng --version` prints `stress-ng, version 0.15.06 (gcc 12.2.0, x86_64 Linux 6.1.0)` (and two
 * emoji after it on a pseudo-terminal): the pick keeps `stress-ng 0.15.06`, as the other tools' probes
 * keep a name and a version.
 */
export const stressNgVersion: VersionProbe = {
  kind: 'command',
  command: 'stress-ng',
  args: ['--version'],
  pick: 's/^stress-ng, version \\([0-9][0-9.]*\\).*/stress-ng \\1/p'
}
