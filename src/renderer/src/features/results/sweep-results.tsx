import { useEffect, useId, useMemo, useState, type ReactElement } from 'react'
import type { InvokeResponse } from '../../../../shared/contract'
import type { RunDocument } from '../../../../shared/model/run'
import { sweptFactors } from '../../../../shared/sweep/expand'
import { sweepCombos } from '../../../../shared/sweep/sweep-combos'
import { NO_RESULTS, sweepGrid, sweepMatrixGrids, type SweepCell } from '../../../../shared/sweep/sweep-table'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'
import { VERDICT_WORDS } from '../../../../shared/compare/summary'
import { jobCounts, jobCountsText, RUN_STATUS_TEXT } from './run-text'
import { PreflightFindings, RunTimes, SummaryHead } from './run-summary'
import './results.css'

type SweepAnswer = Extract<InvokeResponse<'runs:sweep'>, { sweep: true }>

/**
 * The results of a sweep (docs/scenarios.md#sweeps): the study's own table (rows: the
 * combinations; columns: the primary figures; cells: the guest's value and its relative % against
 * the baseline measured in the same step), for two factors one matrix per figure, and each step
 * with how it ended. Built by src/shared/sweep as `virtbench run` prints it; read again as the
 * sweep goes (`run` changes with each step).
 */
export function SweepResults({ run }: { run: RunDocument }): ReactElement {
  const api = useAppStore((s) => s.api)
  const [answer, setAnswer] = useState<{ id: string; sweep?: SweepAnswer; error?: string }>()
  useEffect(() => {
    if (!api) return
    let current = true
    api.invoke('runs:sweep', { id: run.id }).then(
      (got) => current && setAnswer(got.sweep ? { id: run.id, sweep: got } : { id: run.id, error: 'this run is not a sweep' }),
      (error: unknown) => current && setAnswer({ id: run.id, error: apiMessage(error) })
    )
    return () => {
      current = false
    }
  }, [api, run.id, run.updatedAt, run.status])
  const sweep = answer?.id === run.id ? answer.sweep : undefined
  const combos = useMemo(() => (sweep ? sweepCombos(sweep.plan.sweep!, sweep.steps) : []), [sweep])
  const table = useMemo(() => sweepGrid({ combos }), [combos])
  const matrices = useMemo(() => (sweep ? sweepMatrixGrids({ combos }, sweptFactors(sweep.plan.sweep!)) : []), [sweep, combos])
  const tableTitle = useId()
  const stepsTitle = useId()
  const plan = run.plan.sweep!

  return (
    <section className="results" aria-label={`Results of ${run.name}`}>
      <SweepSummary run={run} sweep={sweep} />
      <PreflightFindings findings={run.preflight} />
      <section className="results-section" aria-labelledby={tableTitle}>
        <h3 id={tableTitle}>
          Sweep of {plan.target} ({plan.domain}), relative to {run.plan.baseline.target}
        </h3>
        <p className="muted results-section-lead">
          Each cell is the guest&apos;s value under that combination and its relative % against the baseline measured in the same step: 100 % is as
          good as the baseline and more is better. Beside it, the step&apos;s verdict: a % is a finding only when it says slower or faster; &quot;can&apos;t
          tell&quot; means the step&apos;s repetitions cannot tell it from noise (one repetition never can).
        </p>
        {answer?.error ? <p role="alert">The sweep&apos;s steps could not be read: {answer.error}</p> : null}
        {!sweep && !answer?.error ? <p className="muted">Reading the sweep&apos;s steps…</p> : null}
        {sweep && table.columns.length === 0 ? <p className="muted">{NO_RESULTS}</p> : null}
        {sweep && table.columns.length > 0 ? (
          <div className="results-sweep-scroll">
            <table className="data-table results-sweep-table" aria-label="Sweep table">
              <thead>
                <tr>
                  <th scope="col">scenario</th>
                  {table.columns.map((c) => (
                    <th key={c.key} scope="col">
                      {c.title}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row) => (
                  <tr key={row.label}>
                    <th scope="row">{row.label}</th>
                    {row.cells.map((cell, i) => (
                      <SweepCellView key={table.columns[i]!.key} cell={cell} />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {matrices.map((m) => (
          <div key={m.title} className="results-sweep-scroll">
            <table className="data-table results-sweep-table" aria-label={`Matrix of ${m.title}`}>
              <caption>{m.title}</caption>
              <thead>
                <tr>
                  <td />
                  {m.acrossValues.map((a) => (
                    <th key={a} scope="col">
                      {m.across}={a}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {m.rows.map((row) => (
                  <tr key={row.value}>
                    <th scope="row">
                      {m.down}={row.value}
                    </th>
                    {row.cells.map((cell, i) => (
                      <SweepCellView key={m.acrossValues[i]} cell={cell} />
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      </section>
      {sweep ? (
        <section className="results-section" aria-labelledby={stepsTitle}>
          <h3 id={stepsTitle}>Steps</h3>
          <ol className="results-sweep-steps" aria-label="Steps of the sweep">
            {sweep.steps.map((s) => (
              <li key={s.dir}>
                <span className="mono">{s.dir}</span>: {RUN_STATUS_TEXT[s.status].toLowerCase()}
                {s.seconds !== undefined ? ` in ${s.seconds} s` : ''}
                {s.run?.error ? <span className="muted">: {s.run.error}</span> : null}
              </li>
            ))}
            {Array.from({ length: Math.max(0, sweep.total - sweep.steps.length) }, (_, i) => (
              <li key={`todo-${i}`} className="muted">
                step {sweep.steps.length + i + 1} of {sweep.total}: not run
              </li>
            ))}
          </ol>
        </section>
      ) : null}
    </section>
  )
}

/** The head of a sweep's results: what was swept, when, and how its steps and their jobs went (every step's, not the latest's). */
function SweepSummary({ run, sweep }: { run: RunDocument; sweep: SweepAnswer | undefined }): ReactElement {
  const plan = run.plan.sweep!
  const jobs = sweep ? jobCountsText(jobCounts({ jobs: sweep.steps.flatMap((s) => s.run?.jobs ?? []) })) : undefined
  return (
    <header className="results-summary card">
      <SummaryHead run={run} />
      <dl className="facts results-summary-facts">
        <RunTimes run={run} />
        <dt>Baseline</dt>
        <dd>{run.plan.baseline.target}</dd>
        <dt>Swept</dt>
        <dd>
          <strong>{plan.target}</strong> <span className="muted">(domain {plan.domain}, {plan.order === 'grouped' ? 'grouped' : 'interleaved'})</span>
        </dd>
        <dt>Steps</dt>
        <dd>{sweep ? `${sweep.steps.filter((s) => s.status === 'completed').length} of ${sweep.total} completed` : <span className="muted">reading…</span>}</dd>
        <dt>Jobs</dt>
        <dd>{jobs ?? <span className="muted">reading…</span>}</dd>
      </dl>
    </header>
  )
}

/** A cell: the value, then its relative % (or difference) in words beside it. */
function SweepCellView({ cell }: { cell: SweepCell }): ReactElement {
  if (cell.value === undefined) return <td className="muted">{cell.text}</td>
  return (
    <td>
      <span className="results-sweep-value">{cell.value}</span>{' '}
      {cell.relativePct !== undefined ? <span className="results-sweep-rel">{cell.relativePct.toFixed(0)} %</span> : cell.difference ? <span className="results-sweep-rel">{cell.difference}</span> : null}
      {cell.verdict ? (
        <>
          {' '}
          <span className={`results-sweep-verdict results-sweep-verdict-${cell.verdict}`}>{VERDICT_WORDS[cell.verdict]}</span>
        </>
      ) : null}
    </td>
  )
}
