import { describe, expect, it } from 'vitest'
import { endedBanner } from '../../../src/renderer/src/features/runs/run-failure'
import { jobView } from '../../../src/renderer/src/features/runs/job-view'
import type { Job } from '../../../src/shared/model/run'
import { loopbackRun } from '../run-fixture'

/** The loopback run's first iperf3 job (client on host, server on guest), failed with `error`. */
function failedIperf(error: string): Job {
  const job = loopbackRun().jobs.find((j) => j.tool === 'iperf3' && j.kind === 'compare')!
  return { ...job, status: 'failed', error, samples: [] }
}

describe('endedBanner', () => {
  it('says nothing for a run that completed without an error', () => {
    expect(endedBanner('completed', undefined, [])).toBeUndefined()
  })

  it('points a client that cannot reach its server at a firewall on the server side', () => {
    const job = failedIperf('iperf3 exited with 1: iperf3: error - unable to connect to server: No route to host')
    const server = job.steps.find((s) => s.background)?.on
    expect(server).toBe('guest')
    expect(endedBanner('failed', undefined, [jobView(job, undefined)])).toEqual({
      title: 'This run failed',
      reason: `${job.title} on ${job.target} failed first: iperf3 exited with 1: iperf3: error - unable to connect to server: No route to host`,
      fix: "The client could not reach the server on guest: check that no firewall there (or between) drops the test's port (iperf3 5201, iperf 2 5001 unless the test sets another), then “Retry all failed”."
    })
  })

  it('names the target that ran out of space, and keeps a cancelled run’s words', () => {
    const job = { ...failedIperf('dd exited with 1: dd: error writing ddfile: No space left on device'), tool: 'dd' as const, steps: [] }
    expect(endedBanner('failed', undefined, [jobView(job, undefined)])?.fix).toBe(`Free space in the work directory on ${job.target} (or give the run a smaller size), then “Retry all failed”.`)
    expect(endedBanner('cancelled', undefined, [jobView(job, undefined)])).toEqual({ title: 'This run was cancelled' })
  })
})
