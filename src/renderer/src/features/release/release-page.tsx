import { useEffect, useMemo, useState, type ReactElement } from 'react'
import type { RunDocument } from '../../../../shared/model/run'
import { EmptyState, PageHeader } from '../../components/empty-state'
import { Field } from '../../components/field'
import { apiMessage } from '../../lib/api-message'
import { useAppStore } from '../../store'
import type { ListedRun } from '../../store/runs-slice'
import { formatWhen } from '../runs/job-view'
import { PresetTrend, TREND_RUNS } from './preset-trend'
import { ReleaseComparisonView } from './release-comparison-view'
import { TeamReleasePick } from '../team/team-release'

const LEAD = 'How each guest’s relative % moved since an earlier run of the same preset (the last release), and what changed on the machines.'

/**
 * The release comparison screen: the run opened from its run page ("Compare with an earlier run")
 * against an earlier run of the same plan, the latest one unless another is picked. The earlier
 * runs are the history's runs with the same plan name (runs:list gives it), finished, and older.
 */
export function ReleasePage(): ReactElement {
  const ids = useAppStore((s) => s.releaseRunIds)
  const navigate = useAppStore((s) => s.navigate)
  if (!ids) {
    return (
      <div className="page">
        <PageHeader title="Release comparison" lead={LEAD} />
        <EmptyState icon="runs" title="Open a run first">
          <p>On a finished run’s page, press “Compare with an earlier run” to see what changed since an earlier run of its preset.</p>
          <div className="toolbar">
            <button type="button" className="button button-primary" onClick={() => navigate('runs')}>
              Run history
            </button>
          </div>
        </EmptyState>
      </div>
    )
  }
  return <ReleaseOfRun newer={ids.newer} older={ids.older} />
}

/** A run document read for this page: the run, or why it could not be read. */
type Read = { id: string; run?: RunDocument; error?: string }

function useRunDocument(id: string | undefined): Read | undefined {
  const api = useAppStore((s) => s.api)
  const [read, setRead] = useState<Read | undefined>()
  useEffect(() => {
    if (!api || !id) return
    let current = true
    api.invoke('runs:get', { id }).then(
      (run) => current && setRead({ id, run }),
      (error: unknown) => current && setRead({ id, error: apiMessage(error) })
    )
    return () => {
      current = false
    }
  }, [api, id])
  return read?.id === id ? read : undefined
}

/** The run documents of some ids, those that could be read, once all have answered (a run deleted meanwhile is left out). */
function useRunDocuments(ids: readonly string[]): RunDocument[] | undefined {
  const api = useAppStore((s) => s.api)
  const key = ids.join('\u0000')
  const [read, setRead] = useState<{ key: string; runs: RunDocument[] } | undefined>()
  useEffect(() => {
    if (!api || key === '') return
    let current = true
    const wanted = key.split('\u0000')
    void Promise.allSettled(wanted.map((id) => api.invoke('runs:get', { id }))).then((results) => {
      if (current) setRead({ key, runs: results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])) })
    })
    return () => {
      current = false
    }
  }, [api, key])
  return read?.key === key ? read.runs : undefined
}

/** The finished runs of `run`'s plan made before it, newest first. */
export function earlierRunsOf(run: Pick<RunDocument, 'id' | 'createdAt' | 'plan'>, runs: readonly ListedRun[]): ListedRun[] {
  return runs
    .filter((r) => r.id !== run.id && r.plan === run.plan.name && r.status !== 'running' && r.createdAt < run.createdAt)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

function ReleaseOfRun({ newer, older }: { newer: string; older: string | undefined }): ReactElement {
  const runs = useAppStore((s) => s.runs)
  const loadRuns = useAppStore((s) => s.loadRuns)
  const openRun = useAppStore((s) => s.openRun)
  const openRelease = useAppStore((s) => s.openReleaseComparison)
  const newRead = useRunDocument(newer)

  useEffect(() => {
    void loadRuns()
  }, [loadRuns])

  const earlier = useMemo(() => (newRead?.run && runs ? earlierRunsOf(newRead.run, runs) : undefined), [newRead, runs])
  const olderId = older ?? earlier?.[0]?.id
  const oldRead = useRunDocument(olderId)
  const trendIds = useMemo(() => (earlier ?? []).slice(0, TREND_RUNS - 1).map((r) => r.id), [earlier])
  const trendRuns = useRunDocuments(trendIds)

  if (!newRead) {
    return (
      <div className="page">
        <PageHeader title="Release comparison" lead={LEAD} />
        <p className="muted" role="status">
          Reading the run…
        </p>
      </div>
    )
  }
  if (!newRead.run) {
    return (
      <div className="page">
        <PageHeader title="Release comparison" lead={LEAD} />
        <div className="banner banner-error" role="alert">
          <strong>Could not read run {newer}.</strong> {newRead.error}
        </div>
      </div>
    )
  }
  const run = newRead.run
  const picked = oldRead?.run
  // The run picked may be of another plan (given by id): keep it in the choices.
  const choices: { id: string; name: string; createdAt: string }[] = earlier && olderId && !earlier.some((r) => r.id === olderId) && picked ? [...earlier, { id: picked.id, name: picked.name, createdAt: picked.createdAt }] : (earlier ?? [])

  return (
    <div className="page page-full release-page">
      <PageHeader title="Release comparison" lead={LEAD} />
      <section className="card release-pick" aria-label="Runs compared">
        <p>
          <strong>New:</strong> {run.name} <span className="muted">· {formatWhen(run.createdAt)}</span>{' '}
          <button type="button" className="button button-small" onClick={() => openRun(run.id)}>
            Back to this run
          </button>
        </p>
        {earlier === undefined ? (
          <p className="muted" role="status">
            Looking for earlier runs of {run.plan.name}…
          </p>
        ) : choices.length === 0 ? (
          <p className="banner banner-warning" role="note">
            There is no earlier finished run of {run.plan.name} to compare with. Run the preset again after the change (a new kernel, a new qemu), then
            compare the new run with this one.
          </p>
        ) : (
          <Field label={`Old: an earlier run of ${run.plan.name}`} hint={`${earlier.length} earlier run${earlier.length === 1 ? '' : 's'} of this preset, newest first.`}>
            {(control) => (
              <select {...control} value={olderId ?? ''} onChange={(e) => openRelease(run.id, e.target.value)}>
                {choices.map((r) => (
                  <option key={r.id} value={r.id}>
                    {r.name} · {formatWhen(r.createdAt)}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
      </section>
      {olderId === undefined ? null : !oldRead ? (
        <p className="muted" role="status">
          Reading the earlier run…
        </p>
      ) : !picked ? (
        <div className="banner banner-error" role="alert">
          <strong>Could not read run {olderId}.</strong> {oldRead.error}
        </div>
      ) : (
        <ReleaseComparisonView newer={run} older={picked} />
      )}
      {trendRuns && trendRuns.length > 0 ? <PresetTrend runs={[run, ...trendRuns]} plan={run.plan.name} /> : null}
      <TeamReleasePick run={run} />
    </div>
  )
}
