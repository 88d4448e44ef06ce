import { useId, type ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'
import type { Finding, RunDocument, RunTarget } from '../../../../shared/model/run'
import { describeScenario } from '../../../../shared/model/scenario'
import { FlagDetails, FlagIcon } from './flags'
import { dateTimeText, durationText, jobCounts, jobCountsText, RUN_STATUS_TEXT } from './run-text'
import { scenarioMismatchesOf } from './environment-fields'
import './results.css'

/** The head of a run's results: what ran, when, on what, and how it went. */
export function RunSummary({ run }: { run: RunDocument }): ReactElement {
  const baseline = run.targets.find((t) => t.role === 'baseline')
  const variants = run.targets.filter((t) => t.role === 'variant')
  const peers = run.targets.filter((t) => t.role === 'peer')
  const counts = jobCounts(run)
  return (
    <header className="results-summary card">
      <SummaryHead run={run} />
      <dl className="facts results-summary-facts">
        <RunTimes run={run} />
        <dt>Baseline</dt>
        <dd>{baseline ? <TargetText target={baseline} /> : <span className="muted">{run.plan.baseline.target}</span>}</dd>
        <dt>{variants.length === 1 ? 'Variant' : `Variants (${variants.length})`}</dt>
        <dd>
          {variants.length > 0 ? (
            <ul className="results-target-list">
              {variants.map((v) => (
                <li key={v.name}>
                  <TargetText target={v} />
                </li>
              ))}
            </ul>
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
        {peers.length > 0 ? (
          <>
            <dt>Network peers</dt>
            <dd>{peers.map((p) => p.label).join(', ')}</dd>
          </>
        ) : null}
        <dt>Jobs</dt>
        <dd>{jobCountsText(counts)}</dd>
        <dt>Tests</dt>
        <dd>
          {run.tests.length} · {run.tests.map((t) => t.title).join(', ')}
        </dd>
      </dl>
      {run.error ? (
        <p className="banner banner-error results-run-error" role="alert">
          <strong>The run stopped early.</strong> {run.error}
        </p>
      ) : null}
    </header>
  )
}

function TargetText({ target }: { target: RunTarget }): ReactElement {
  const scenario = target.scenario ? describeScenario(target.scenario) : ''
  return (
    <>
      <strong>{target.label}</strong>
      {target.label !== target.name ? <span className="muted"> ({target.name})</span> : null}
      {scenario ? <span className="results-scenario"> · {scenario}</span> : null}
    </>
  )
}

/** "Published figures, not measured here", with the source, for a run built from a study. */
export function PublishedBanner({ run }: { run: RunDocument }): ReactElement | null {
  const source = run.source
  if (source?.kind !== 'published') return null
  return (
    <div className="banner banner-warning results-published" role="note" aria-label="Published figures, not measured here">
      <strong>Published figures, not measured here.</strong>
      <span>{source.note}</span>
      <span className="banner-note results-published-source">
        Source: <cite>{source.title}</cite> · {source.citation}
      </span>
    </div>
  )
}

/**
 * Flags that concern the baseline or a whole variant: a baseline that is itself virtual, a guest
 * that is the baseline's own machine, a declared scenario the host contradicts (with both values).
 */
export function VariantFlags({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement | null {
  const titleId = useId()
  const entries = Object.entries(comparison.variantFlags).filter(([, flags]) => flags.length > 0)
  if (entries.length === 0 && comparison.baselineFlags.length === 0) return null
  return (
    <section className="results-variant-flags" aria-labelledby={titleId}>
      <h3 id={titleId}>Check these first</h3>
      {comparison.baselineFlags.length > 0 ? (
        <div className="banner banner-error results-variant-flag" data-baseline={comparison.baseline}>
          <strong>
            <FlagIcon kind={comparison.baselineFlags[0]!.kind} /> {comparison.baseline} (baseline)
          </strong>
          <div className="results-variant-flag-list">
            {comparison.baselineFlags.map((flag, i) => (
              <FlagDetails key={`${flag.kind}-${i}`} flag={flag} subject={`${comparison.baseline} (baseline)`} />
            ))}
          </div>
        </div>
      ) : null}
      {entries.map(([label, flags]) => {
        const target = run.targets.find((t) => t.label === label)
        const mismatches = target ? scenarioMismatchesOf(run, target.name) : []
        return (
          <div key={label} className="banner banner-error results-variant-flag" data-variant={label}>
            <strong>
              <FlagIcon kind={flags[0]?.kind ?? 'scenario-mismatch'} /> {label}
            </strong>
            {mismatches.length > 0 ? (
              <table className="results-mismatch-table">
                <caption className="visually-hidden">Declared and detected setup of {label}</caption>
                <thead>
                  <tr>
                    <th scope="col">Setting</th>
                    <th scope="col">Declared in the plan</th>
                    <th scope="col">Detected on the host</th>
                  </tr>
                </thead>
                <tbody>
                  {mismatches.map((m) => (
                    <tr key={`${m.field}-${m.declared}-${m.detected}`}>
                      <th scope="row">{m.field}</th>
                      <td className="mono">{m.declared || '—'}</td>
                      <td className="mono results-detected">
                        <span aria-hidden="true">≠ </span>
                        {m.detected || '—'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            <div className="results-variant-flag-list">
              {flags.map((flag, i) => (
                <FlagDetails key={`${flag.kind}-${i}`} flag={flag} subject={label} />
              ))}
            </div>
          </div>
        )
      })}
    </section>
  )
}

const SEVERITY_TEXT: Record<Finding['severity'], string> = { error: 'Error', warning: 'Warning', info: 'Note' }

/** What the checks before the run found, as the run recorded them. */
export function PreflightFindings({ findings }: { findings: Finding[] }): ReactElement | null {
  if (findings.length === 0) return null
  const errors = findings.filter((f) => f.severity === 'error').length
  const warnings = findings.filter((f) => f.severity === 'warning').length
  const summary = [
    errors > 0 ? `${errors} ${errors === 1 ? 'error' : 'errors'}` : undefined,
    warnings > 0 ? `${warnings} ${warnings === 1 ? 'warning' : 'warnings'}` : undefined,
    findings.length - errors - warnings > 0 ? `${findings.length - errors - warnings} notes` : undefined
  ]
    .filter(Boolean)
    .join(', ')
  return (
    <details className="results-preflight" open={errors > 0}>
      <summary>
        <strong>Preflight findings</strong> <span className="muted">· {summary}</span>
      </summary>
      <ul className="results-findings">
        {findings.map((f, i) => (
          <li key={`${f.code}-${f.target ?? ''}-${i}`} className={`results-finding results-finding-${f.severity}`}>
            <span className="results-finding-severity">{SEVERITY_TEXT[f.severity]}</span>
            {f.target ? <span className="muted"> · {f.target}</span> : null}
            <span className="muted mono"> · {f.code}</span>
            <p>{f.message}</p>
            {f.fix ? <p className="muted">What to do: {f.fix}</p> : null}
            {f.command ? <code className="results-finding-command">{f.command}</code> : null}
          </li>
        ))}
      </ul>
    </details>
  )
}

/** A summary card's first line: the run's name and its status. */
export function SummaryHead({ run }: { run: Pick<RunDocument, 'name' | 'status'> }): ReactElement {
  return (
    <div className="results-summary-head">
      <h2 className="results-run-name">{run.name}</h2>
      <span className={`results-status results-status-${run.status}`}>{RUN_STATUS_TEXT[run.status]}</span>
    </div>
  )
}

/** A summary's first facts: when the run started and ended, and how long it took. */
export function RunTimes({ run }: { run: Pick<RunDocument, 'createdAt' | 'endedAt' | 'status'> }): ReactElement {
  const duration = run.endedAt ? durationText(run.createdAt, run.endedAt) : undefined
  return (
    <>
      <dt>Started</dt>
      <dd>
        <time dateTime={run.createdAt}>{dateTimeText(run.createdAt)}</time>
      </dd>
      <dt>Ended</dt>
      <dd>
        {run.endedAt ? (
          <>
            <time dateTime={run.endedAt}>{dateTimeText(run.endedAt)}</time>
            {duration ? <span className="muted"> · took {duration}</span> : null}
          </>
        ) : (
          <span className="muted">{run.status === 'running' ? 'still running' : 'not recorded'}</span>
        )}
      </dd>
    </>
  )
}
