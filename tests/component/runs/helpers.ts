import type { RunDocument } from '../../../src/shared/model/run'
import { useAppStore, type AppState } from '../../../src/renderer/src/store'
import type { FakeApi } from '../fake-api'
import { loopbackRun } from '../run-fixture'

const initial = useAppStore.getState()

/** A fresh store talking to `api` (the runs slice subscribes to its events, as connect() does). */
export function resetStore(api: FakeApi, state: Partial<AppState> = {}): void {
  useAppStore.setState({ ...initial, api, ...state }, true)
  useAppStore.getState().watchRuns(api)
}

let serial = 0

/** A run id no earlier test used (the slice keeps logs by run id for the whole session). */
export function freshId(prefix = 'run'): string {
  serial++
  return `${prefix}-${Date.now().toString(36)}-${serial}`
}

/** The loopback run as it looked just after it started: every job queued, nothing measured. */
export function startedRun(id: string): RunDocument {
  const run = loopbackRun()
  return {
    ...run,
    id,
    status: 'running',
    endedAt: undefined,
    jobs: run.jobs.map(({ startedAt: _s, endedAt: _e, ...job }) => ({ ...job, status: 'queued', attempts: 0, steps: [], samples: [], warnings: [] }))
  }
}

/** `run` with the given jobs as the finished loopback run has them (samples, steps, timings). */
export function withFinished(run: RunDocument, jobIds: string[]): RunDocument {
  const done = new Map(loopbackRun().jobs.map((j) => [j.id, j]))
  return { ...run, jobs: run.jobs.map((j) => (jobIds.includes(j.id) ? (done.get(j.id) ?? j) : j)) }
}
