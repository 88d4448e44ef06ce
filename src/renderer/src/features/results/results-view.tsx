import { useEffect, useId, useMemo, useState, type ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import { ChartFileStemContext, ChartsSection, chartSourceLine, ChartSourceContext, ChartStagingContext } from '../charts'
import { reportFileStem } from '../../../../shared/report'
import { AcceptanceVerdict } from '../acceptance/acceptance-verdict'
import { comparisonOf } from './comparison-of'
import { EnvironmentDiff, type EnvironmentTarget } from './environment-diff'
import { environmentOf } from './environment-fields'
import { EnvironmentPanel } from './environment-panel'
import { ExportPanel } from './export-panel'
import { OverheadTable } from './overhead-table'
import { StudySections } from '../studies/study-sections'
import { PreflightFindings, PublishedBanner, RunSummary, VariantFlags } from './run-summary'
import { SweepResults } from './sweep-results'
import './results.css'

/**
 * A run's results: the acceptance verdict (when the plan has criteria), summary, flags, overhead
 * table, charts, method and environment. The
 * comparison is computed once per run document (comparisonOf), unless the caller has it already.
 */
/** `printable: false` for a run that is not in this computer's history (read from the team store): main cannot print it by id. */
export function ResultsView(props: { run: RunDocument; comparison?: Comparison; printable?: boolean }): ReactElement {
  // a sweep's results are its own table of combinations (sweep-results.tsx)
  return props.run.plan.sweep ? <SweepResults run={props.run} /> : <RunResultsView {...props} />
}

function RunResultsView({ run, comparison: given, printable = true }: { run: RunDocument; comparison?: Comparison; printable?: boolean }): ReactElement {
  const comparison = useMemo(() => given ?? comparisonOf(run), [given, run])
  const targets = useMemo<EnvironmentTarget[]>(
    () => run.targets.map((t) => ({ name: t.name, label: t.label, env: environmentOf(run, t.name) })),
    [run]
  )
  const tableTitle = useId()
  const methodTitle = useId()
  const envTitle = useId()

  return (
    <section className="results" aria-label={`Results of ${run.name}`}>
      <AcceptanceVerdict run={run} comparison={comparison} />
      <PublishedBanner run={run} />
      <RunSummary run={run} />
      <VariantFlags run={run} comparison={comparison} />
      <PreflightFindings findings={run.preflight} />
      {run.status !== 'running' ? <ExportPanel run={run} printable={printable} /> : null}

      <section className="results-section" aria-labelledby={tableTitle}>
        <h3 id={tableTitle}>Overhead</h3>
        <p className="muted results-section-lead">
          Relative % against {comparison.baseline}: 100 % is as good as the baseline and more is better, for latency too.
          Overhead is 100 % minus relative %.
        </p>
        <OverheadTable comparison={comparison} />
      </section>

      <StudySections run={run} comparison={comparison} />

      <DeferredCharts run={run} comparison={comparison} />

      <section className="results-section" aria-labelledby={methodTitle}>
        <h3 id={methodTitle}>Method</h3>
        <details className="results-method">
          <summary>How the figures, the interval and the flags are computed</summary>
          <p>{comparison.method}</p>
        </details>
      </section>

      <section className="results-section" aria-labelledby={envTitle}>
        <h3 id={envTitle}>Environment</h3>
        {targets.map((t, i) => (
          <TargetEnvironmentDetails key={t.name} target={t} role={run.targets[i]?.role ?? 'variant'} />
        ))}
        <h4 className="results-env-heading">
          Differences between two targets
        </h4>
        <EnvironmentDiff targets={targets} />
      </section>
    </section>
  )
}

const ROLE_TEXT = { baseline: 'baseline', variant: 'variant', peer: 'network peer' } as const

/** One target's environment behind a disclosure, drawn only once opened. */
function TargetEnvironmentDetails({ target, role }: { target: EnvironmentTarget; role: keyof typeof ROLE_TEXT }): ReactElement {
  const [open, setOpen] = useState(false)
  const env = target.env
  const headline = env ? [env.os, env.kernel, env.virtualization ? `virtualization ${env.virtualization}` : undefined].filter(Boolean).join(' · ') : 'not captured'
  return (
    <details className="results-env-details" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <strong>{target.label}</strong> <span className="muted">({ROLE_TEXT[role]})</span>
        <span className="results-env-headline muted"> {headline}</span>
      </summary>
      {open ? <EnvironmentPanel env={env} label={target.label} /> : null}
    </details>
  )
}

/**
 * The charts, drawn in the frame after the table: recharts takes a few hundred ms for a large run,
 * and the table (the figures themselves) should not wait for the drawings. The space below the
 * table stays empty until then, so nothing above it moves. Then the charts arrive one at a time,
 * each in a task of its own (ChartStagingContext), so the page answers while they draw.
 */
function DeferredCharts({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement | null {
  const [ready, setReady] = useState<string | undefined>(undefined)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setReady(run.id), 0)
    })
    return () => {
      cancelAnimationFrame(frame)
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [run.id])
  if (ready !== run.id) return <div className="results-charts-pending" aria-busy="true" />
  return (
    <ChartFileStemContext value={reportFileStem(run)}>
      <ChartSourceContext value={chartSourceLine({ name: run.name, createdAt: run.createdAt, baseline: comparison.baseline, variants: comparison.variants })}>
        <ChartStagingContext value={true}>
          <ChartsSection run={run} comparison={comparison} />
        </ChartStagingContext>
      </ChartSourceContext>
    </ChartFileStemContext>
  )
}
