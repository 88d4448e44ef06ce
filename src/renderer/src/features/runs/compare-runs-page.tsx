import { useEffect, useMemo, useState, type ReactElement } from 'react'
import { compare } from '../../../../shared/compare'
import type { RunDocument } from '../../../../shared/model/run'
import { EmptyState, PageHeader } from '../../components/empty-state'
import { Field } from '../../components/field'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'
import { ComparisonCharts } from '../charts'
import { OverheadTable } from '../results/overhead-table'
import { compareInputOfRuns, runDisplayNames, testsNotInEveryRun } from './compare-runs'
import { formatWhen } from './job-view'
import { PublishedBadge } from './run-status'
import './runs.css'

interface Loaded {
  /** The ids these documents were read for. */
  key: string
  runs?: RunDocument[]
  errors: { id: string; message: string }[]
}

/** Two or more runs side by side, the first one's baseline as 100 %. */
export function CompareRunsPage(): ReactElement {
  const ids = useAppStore((s) => s.compareRunIds)
  const api = useAppStore((s) => s.api)
  const navigate = useAppStore((s) => s.navigate)
  const key = ids.join('\n')
  const [loaded, setLoaded] = useState<Loaded>({ key: '', errors: [] })

  useEffect(() => {
    if (!api || ids.length < 2) return
    let current = true
    void Promise.allSettled(ids.map((id) => api.invoke('runs:get', { id }))).then((answers) => {
      if (!current) return
      const runs: RunDocument[] = []
      const errors: Loaded['errors'] = []
      answers.forEach((answer, i) => {
        if (answer.status === 'fulfilled') runs.push(answer.value)
        else errors.push({ id: ids[i] as string, message: apiMessage(answer.reason) })
      })
      setLoaded({ key: ids.join('\n'), runs, errors })
    })
    return () => {
      current = false
    }
  }, [api, ids])

  if (ids.length < 2) {
    return (
      <div className="page">
        <PageHeader title="Compare runs" lead="Runs side by side, for example this month's cluster against last month's." />
        <EmptyState icon="runs" title="Choose the runs first">
          <p>In the run history, tick two or more runs and press “Compare”. The first one ticked is the reference (100 %).</p>
          <div className="toolbar">
            <button type="button" className="button button-primary" onClick={() => navigate('runs')}>
              Run history
            </button>
          </div>
        </EmptyState>
      </div>
    )
  }

  const ready = loaded.key === key ? loaded : undefined
  return (
    <div className="page page-full runs-compare-page">
      <PageHeader title="Compare runs" lead="Runs side by side, for example this month's cluster against last month's." />
      {ready === undefined ? (
        <p className="muted" role="status">
          Reading {ids.length} runs…
        </p>
      ) : (
        <>
          {ready.errors.map((e) => (
            <div key={e.id} className="banner banner-error" role="alert">
              <strong>Could not read run {e.id}.</strong> {e.message}
            </div>
          ))}
          {ready.runs && ready.runs.length >= 2 ? (
            <ComparedRuns runs={ready.runs} />
          ) : (
            <p className="muted">At least two runs are needed to compare.</p>
          )}
        </>
      )}
    </div>
  )
}

function ComparedRuns({ runs }: { runs: RunDocument[] }): ReactElement {
  const openRunComparison = useAppStore((s) => s.openRunComparison)
  const openRun = useAppStore((s) => s.openRun)
  const { input, columns } = useMemo(() => compareInputOfRuns(runs), [runs])
  const comparison = useMemo(() => compare(input), [input])
  const names = useMemo(() => runDisplayNames(runs), [runs])
  const missing = useMemo(() => testsNotInEveryRun(runs), [runs])
  const [first] = runs as [RunDocument, ...RunDocument[]]
  const reference = columns[0]

  return (
    <>
      <section className="card runs-compare-setup" aria-label="Runs compared">
        <p className="runs-compare-reference">
          100 % is the baseline <strong>{reference?.label}</strong> of the run <strong>{names[0]}</strong> ({formatWhen(first.createdAt)});
          every other column, the other runs' baselines included, is relative to it.
        </p>
        <Field label="Reference run" hint="The run whose baseline is 100 %.">
          {(control) => (
            <select
              {...control}
              value={first.id}
              onChange={(e) => openRunComparison([e.target.value, ...runs.map((r) => r.id).filter((id) => id !== e.target.value)])}
            >
              {runs.map((r, i) => (
                <option key={r.id} value={r.id}>
                  {names[i]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <h3>Columns</h3>
        <ol className="runs-columns" aria-label="Columns">
          {columns.map((c, i) => {
            const run = runs.find((r) => r.id === c.runId)
            const published = run?.source?.kind === 'published' ? run.source : undefined
            return (
              <li key={c.name} data-column={c.name}>
                <span className="runs-column-name">{c.name}</span>
                {i === 0 ? <span className="chip chip-ok">reference, 100 %</span> : null}
                {c.role === 'baseline' && i !== 0 ? <span className="cell-note">this run's baseline, relative to the reference</span> : null}
                {published && c.role === 'baseline' ? <PublishedBadge source={published} /> : null}
              </li>
            )
          })}
        </ol>
        <div className="toolbar">
          {runs.map((r, i) => (
            <button key={r.id} type="button" className="button button-small" onClick={() => openRun(r.id)}>
              Open {names[i]}
            </button>
          ))}
        </div>
        {missing.length > 0 ? (
          <div className="banner banner-warning runs-compare-missing">
            <strong>Not every run has every test:</strong>
            <ul>
              {missing.map((t) => (
                <li key={t.id}>
                  {t.title} <span className="muted">({t.id})</span>: only in {t.runs.join(', ')}; the other runs' columns show it as not measured.
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>
      <section className="card" aria-labelledby="runs-compare-table">
        <h2 id="runs-compare-table">Overhead</h2>
        <OverheadTable comparison={comparison} />
      </section>
      <ComparisonCharts comparison={comparison} />
    </>
  )
}
