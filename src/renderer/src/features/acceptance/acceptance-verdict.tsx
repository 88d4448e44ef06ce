import { useId, useMemo, type ReactElement } from 'react'
import { judgeAcceptance, type AcceptanceResult, type CriterionResult } from '../../../../shared/criteria'
import type { Comparison } from '../../../../shared/model/comparison'
import type { RunDocument } from '../../../../shared/model/run'
import './acceptance.css'

/**
 * The acceptance verdict at the top of a run's results: passed or failed, then each criterion
 * with what it judged; a failed one lists every figure that failed it (its relative %, interval,
 * verdict and why), as the CLI and the JUnit file do. Nothing when the plan has no criteria.
 * Judged by judgeAcceptance() (src/shared/criteria/) from the comparison the results show.
 */
export function AcceptanceVerdict({ run, comparison }: { run: RunDocument; comparison: Comparison }): ReactElement | null {
  const acceptance = run.plan.acceptance
  const result = useMemo(() => (acceptance ? judgeAcceptance(acceptance, comparison) : undefined), [acceptance, comparison])
  if (!result) return null
  return <AcceptanceResultView result={result} running={run.status === 'running'} />
}

const STATUS_WORDS: Record<CriterionResult['status'], string> = { passed: 'Passed', failed: 'Failed', error: 'Not judged' }

export function AcceptanceResultView({ result, running = false }: { result: AcceptanceResult; running?: boolean }): ReactElement {
  const headingId = useId()
  return (
    <section className={`acceptance card acceptance-${result.passed ? 'passed' : 'failed'}`} aria-labelledby={headingId}>
      <h2 id={headingId} className="acceptance-head">
        <span className="acceptance-mark" aria-hidden="true">
          {result.passed ? '✓' : '✗'}
        </span>
        {running ? `Acceptance so far: ${result.passed ? 'passing' : 'failing'}` : `Acceptance ${result.passed ? 'passed' : 'failed'}`}
      </h2>
      <p className="acceptance-summary">{result.summary}</p>
      <ol className="acceptance-criteria">
        {result.results.map((r) => (
          <li key={r.index} className={`acceptance-criterion acceptance-criterion-${r.status}`}>
            <span className={`acceptance-status acceptance-status-${r.status}`}>{STATUS_WORDS[r.status]}</span>{' '}
            <span className="acceptance-name">{r.name}</span> <span className="muted">· {r.summary}</span>
            {r.cells.length > 0 ? (
              <details className="acceptance-figures" open={r.status === 'failed'}>
                <summary>{r.status === 'failed' ? 'The figures that failed it, and the others' : 'The figures it judged'}</summary>
                <ul>
                  {[...r.cells]
                    .sort((a, b) => (a.counts === b.counts ? 0 : a.counts === 'fail' ? -1 : 1))
                    .map((c) => (
                      <li key={`${c.variant}|${c.testId}|${c.metric}|${JSON.stringify(c.labels)}`} className={`acceptance-figure acceptance-figure-${c.counts}`}>
                        <span className="acceptance-figure-mark">{c.counts === 'fail' ? 'fails' : 'passes'}</span> {c.text}
                      </li>
                    ))}
                </ul>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  )
}
