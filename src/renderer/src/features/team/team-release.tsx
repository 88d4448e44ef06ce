import { useEffect, useState, type ReactElement } from 'react'
import type { RunDocument } from '../../../../shared/model/run'
import type { TeamRunSummary } from '../../../../shared/team-store-contract'
import { Field } from '../../components/field'
import { apiMessage } from '../../lib/api-message'
import { useAppStore } from '../../store'
import { ReleaseComparisonView } from '../release/release-comparison-view'
import { formatWhen } from '../runs/job-view'
import './team.css'

/**
 * The release comparison against a run of the team store: the team's earlier runs of the same
 * preset (from any desktop or CI), one picked and read from the store, compared with this run by
 * the same view as a local one. Shown only when a team store is set.
 */
export function TeamReleasePick({ run }: { run: RunDocument }): ReactElement | null {
  const api = useAppStore((s) => s.api)
  const [earlier, setEarlier] = useState<TeamRunSummary[]>()
  const [picked, setPicked] = useState<{ id: string; run?: RunDocument; error?: string }>()
  const [error, setError] = useState<string>()

  useEffect(() => {
    if (!api) return
    let current = true
    api
      .invoke('team:settings')
      .then((view) => (view.url ? api.invoke('team:list', { preset: run.plan.name, to: run.createdAt }) : undefined))
      .then(
        (list) => current && list && setEarlier(list.runs.filter((r) => r.id !== run.id && r.status !== 'running')),
        (e: unknown) => current && setError(apiMessage(e))
      )
    return () => {
      current = false
    }
  }, [api, run])

  if (!api || (!earlier && !error)) return null

  const pick = (id: string): void => {
    if (!id) return setPicked(undefined)
    setPicked({ id })
    api.invoke('team:get', { id }).then(
      (older) => setPicked({ id, run: older }),
      (e: unknown) => setPicked({ id, error: apiMessage(e) })
    )
  }

  return (
    <section className="card team-release" aria-label="Compare with a run of the team store">
      <h2>
        The team store <span className="team-badge">team store</span>
      </h2>
      {error ? (
        <div className="banner banner-error" role="alert">
          <strong>The team store did not answer.</strong> {error}
        </div>
      ) : earlier && earlier.length === 0 ? (
        <p className="muted">The team store has no earlier run of {run.plan.name}.</p>
      ) : earlier ? (
        <Field label={`Old: a run of ${run.plan.name} from the team store`} hint={`${earlier.length} earlier run${earlier.length === 1 ? '' : 's'} published by the team, newest first.`}>
          {(control) => (
            <select {...control} value={picked?.id ?? ''} onChange={(e) => pick(e.target.value)}>
              <option value="">Choose a run</option>
              {earlier.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name} · {formatWhen(r.createdAt)} · {r.author}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      {picked?.error ? (
        <div className="banner banner-error" role="alert">
          <strong>Could not read run {picked.id} from the team store.</strong> {picked.error}
        </div>
      ) : picked && !picked.run ? (
        <p className="muted" role="status">
          Reading the run from the team store…
        </p>
      ) : picked?.run ? (
        <ReleaseComparisonView newer={run} older={picked.run} />
      ) : null}
    </section>
  )
}
