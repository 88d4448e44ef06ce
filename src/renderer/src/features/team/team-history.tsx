import { useCallback, useEffect, useId, useState, type FormEvent, type ReactElement } from 'react'
import type { RunDocument } from '../../../../shared/model/run'
import type { TeamRunFilter, TeamRunSummary } from '../../../../shared/team-store-contract'
import { Field } from '../../components/field'
import { apiMessage } from '../../lib/api-message'
import { useAppStore } from '../../store'
import { ResultsView } from '../results/results-view'
import { formatWhen } from '../runs/job-view'
import { RunStatusChip } from '../runs/run-status'
import './team.css'

interface FilterFields {
  preset: string
  target: string
  author: string
  from: string
  to: string
}

const NO_FILTER: FilterFields = { preset: '', target: '', author: '', from: '', to: '' }

/** The filter as the API takes it: empty fields left out, dates as whole days (to: up to the end of that day). */
export function teamFilterOf(fields: FilterFields): TeamRunFilter {
  const filter: TeamRunFilter = {}
  if (fields.preset.trim()) filter.preset = fields.preset.trim()
  if (fields.target.trim()) filter.target = fields.target.trim()
  if (fields.author.trim()) filter.author = fields.author.trim()
  if (fields.from) filter.from = new Date(`${fields.from}T00:00:00`).toISOString()
  if (fields.to) filter.to = new Date(new Date(`${fields.to}T00:00:00`).getTime() + 86_400_000).toISOString()
  return filter
}

/** Publishes one finished local run by hand (team:publish: idempotent, queued when the store is down), and says how it went. */
function PublishLocalRun({ onPublished }: { onPublished: () => void }): ReactElement | null {
  const api = useAppStore((s) => s.api)
  const local = useAppStore((s) => s.runs)
  const [id, setId] = useState('')
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string }>()
  const [busy, setBusy] = useState(false)
  const finished = (local ?? []).filter((r) => r.status !== 'running' && !r.source)
  if (!api || finished.length === 0) return null
  const chosen = finished.some((r) => r.id === id) ? id : finished[0]!.id

  const publish = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    setBusy(true)
    setOutcome(undefined)
    try {
      const answer = await api.invoke('team:publish', { id: chosen })
      setOutcome({ ok: answer.status !== 'queued', message: answer.message })
      if (answer.status !== 'queued') onPublished()
    } catch (e) {
      setOutcome({ ok: false, message: apiMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="team-publish" aria-label="Publish a local run" onSubmit={(e) => void publish(e)}>
      <Field label="Publish a local run">
        {(control) => (
          <select {...control} value={chosen} onChange={(e) => setId(e.target.value)}>
            {finished.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name} · {formatWhen(r.createdAt)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" className="button" disabled={busy}>
        Publish
      </button>
      {outcome ? (
        <p role="status" className={outcome.ok ? 'muted' : 'field-error'}>
          {outcome.message}
        </p>
      ) : null}
    </form>
  )
}

/**
 * The team's runs from the team store, beside the local ones on the Runs page: filtered by
 * preset, target, date and author, each marked as the team store's, opened from the store (its
 * document, no raw output). Shown only when a team store is set in Settings.
 */
export function TeamHistory(): ReactElement | null {
  const api = useAppStore((s) => s.api)
  const [url, setUrl] = useState<string>()
  const [fields, setFields] = useState<FilterFields>(NO_FILTER)
  const [runs, setRuns] = useState<TeamRunSummary[]>()
  const [error, setError] = useState<string>()
  const [opened, setOpened] = useState<{ summary: TeamRunSummary; run: RunDocument }>()
  const [opening, setOpening] = useState<string>()
  const title = useId()

  const search = useCallback(
    async (filter: TeamRunFilter): Promise<void> => {
      if (!api) return
      setError(undefined)
      try {
        setRuns((await api.invoke('team:list', filter)).runs)
      } catch (e) {
        setRuns(undefined)
        setError(apiMessage(e))
      }
    },
    [api]
  )

  useEffect(() => {
    if (!api) return
    api.invoke('team:settings').then(
      (view) => {
        setUrl(view.url)
        if (view.url) void search({})
      },
      () => setUrl(undefined)
    )
  }, [api, search])

  if (!api || !url) return null

  const submit = (event: FormEvent): void => {
    event.preventDefault()
    void search(teamFilterOf(fields))
  }
  const set = (patch: Partial<FilterFields>): void => setFields({ ...fields, ...patch })

  const open = async (summary: TeamRunSummary): Promise<void> => {
    setOpening(summary.id)
    setError(undefined)
    try {
      setOpened({ summary, run: await api.invoke('team:get', { id: summary.id }) })
    } catch (e) {
      setError(apiMessage(e))
    } finally {
      setOpening(undefined)
    }
  }

  return (
    <section className="team-history" aria-labelledby={title}>
      <h2 id={title}>Team store</h2>
      <p className="muted">
        Runs the team published to <span className="mono">{url.replace(/\?.*$/, '')}</span>, from every desktop and CI.
      </p>
      <form className="runs-filters team-filters" role="search" aria-label="Filter the team's runs" onSubmit={submit}>
        <Field label="Preset">{(control) => <input {...control} type="text" value={fields.preset} onChange={(e) => set({ preset: e.target.value })} />}</Field>
        <Field label="Target">{(control) => <input {...control} type="text" value={fields.target} onChange={(e) => set({ target: e.target.value })} />}</Field>
        <Field label="Author">{(control) => <input {...control} type="text" value={fields.author} onChange={(e) => set({ author: e.target.value })} />}</Field>
        <Field label="Since">{(control) => <input {...control} type="date" value={fields.from} onChange={(e) => set({ from: e.target.value })} />}</Field>
        <Field label="Until">{(control) => <input {...control} type="date" value={fields.to} onChange={(e) => set({ to: e.target.value })} />}</Field>
        <div className="runs-filter-clear">
          <button type="submit" className="button">
            Search the team store
          </button>
        </div>
      </form>
      {error ? (
        <div className="banner banner-error" role="alert">
          <strong>The team store did not answer.</strong> {error}
        </div>
      ) : null}
      <PublishLocalRun onPublished={() => void search(teamFilterOf(fields))} />
      {runs ? (
        <div className="table-scroll">
          <table className="data-table runs-table team-table">
            <caption className="visually-hidden">The team&apos;s runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Preset</th>
                <th scope="col">Status</th>
                <th scope="col">Targets</th>
                <th scope="col">Published by</th>
                <th scope="col">Started</th>
              </tr>
            </thead>
            <tbody>
              {runs.length === 0 ? (
                <tr>
                  <td colSpan={6} className="runs-no-match">
                    No run of the team store matches.
                  </td>
                </tr>
              ) : (
                runs.map((run) => (
                  <tr key={run.id} data-team-run={run.id}>
                    <th scope="row" className="runs-name-cell">
                      <button type="button" className="runs-name-link" disabled={opening === run.id} onClick={() => void open(run)}>
                        {run.name}
                      </button>
                      <span className="team-badge">team store</span>
                    </th>
                    <td>{run.plan}</td>
                    <td>
                      <RunStatusChip status={run.status} />
                    </td>
                    <td className="runs-targets-cell">
                      {run.baseline}
                      <span className="cell-note">vs {run.variants.join(', ') || 'no variant'}</span>
                    </td>
                    <td>{run.author}</td>
                    <td className="runs-when-cell">{formatWhen(run.createdAt)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      ) : null}
      {opened ? (
        <section className="team-opened" aria-label={`Team store run ${opened.summary.name}`}>
          <div className="toolbar">
            <h3>
              {opened.summary.name} <span className="team-badge">team store</span>
            </h3>
            <span className="muted">
              published by {opened.summary.author}, {formatWhen(opened.summary.publishedAt)}
              {opened.summary.rawCopied ? '; raw outputs copied into the store' : '; raw outputs kept where it ran'}
            </span>
            <button type="button" className="button button-small" onClick={() => setOpened(undefined)}>
              Close
            </button>
          </div>
          <ResultsView run={opened.run} printable={false} />
        </section>
      ) : null}
    </section>
  )
}
