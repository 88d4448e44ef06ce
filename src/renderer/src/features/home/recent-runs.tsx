import { useEffect, useMemo, type ReactElement } from 'react'
import type { RunStatus } from '../../../../shared/model/run'
import { useAppStore } from '../../store'
import type { ListedRun } from '../../store/runs-slice'

/** How many runs the home page lists. */
export const RECENT_RUNS = 5

/** Each status as a sign and a word, so it never depends on colour alone. */
const STATUS: Record<RunStatus, { sign: string; word: string }> = {
  running: { sign: '▶', word: 'Running' },
  completed: { sign: '✓', word: 'Completed' },
  failed: { sign: '✕', word: 'Failed' },
  cancelled: { sign: '■', word: 'Cancelled' },
  interrupted: { sign: '⏸', word: 'Interrupted' }
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/** The newest runs first, at most `count`. */
export function latestRuns(runs: readonly ListedRun[], count = RECENT_RUNS): ListedRun[] {
  return [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, count)
}

function jobsText(jobs: ListedRun['jobs']): string {
  const parts = [`${jobs.succeeded} of ${jobs.total} ${jobs.total === 1 ? 'job' : 'jobs'} succeeded`]
  if (jobs.failed > 0) parts.push(`${jobs.failed} failed`)
  return parts.join(', ')
}

/** The latest runs with their status; a click opens one. The runs slice keeps the list current. */
export function RecentRuns(): ReactElement {
  const api = useAppStore((s) => s.api)
  const listed = useAppStore((s) => s.runs)
  const pending = useAppStore((s) => s.pendingDeletions)
  const error = useAppStore((s) => s.runsError)
  const loadRuns = useAppStore((s) => s.loadRuns)
  const openRun = useAppStore((s) => s.openRun)
  const navigate = useAppStore((s) => s.navigate)

  useEffect(() => {
    if (api) void loadRuns()
  }, [api, loadRuns])

  const all = useMemo(() => listed?.filter((run) => !pending.some((p) => p.id === run.id)), [listed, pending])
  const runs = useMemo(() => (all ? latestRuns(all) : undefined), [all])

  return (
    <section className="card home-recent" aria-labelledby="home-recent-title" aria-busy={runs === undefined && !error ? true : undefined}>
      <div className="home-section-head">
        <h2 id="home-recent-title">Recent runs</h2>
        {all && all.length > RECENT_RUNS ? (
          <button type="button" className="button button-small" onClick={() => navigate('runs')}>
            All {all.length} runs
          </button>
        ) : null}
      </div>
      {error && runs === undefined ? (
        <div className="form-alert" role="alert">
          <p>
            The runs could not be listed: {error}{' '}
            <button type="button" className="button button-small" onClick={() => void loadRuns()}>
              Try again
            </button>
          </p>
        </div>
      ) : runs === undefined ? (
        <p className="muted home-recent-placeholder">Reading the run history…</p>
      ) : runs.length === 0 ? (
        <p className="muted home-recent-placeholder">No runs yet. Start a new comparison, or open a preset and run it.</p>
      ) : (
        <ul className="home-runs">
          {runs.map((run) => {
            const status = STATUS[run.status]
            return (
              <li key={run.id}>
                <button type="button" className="home-run" onClick={() => openRun(run.id)}>
                  <span className="home-run-name">{run.name}</span>
                  <span className={`home-run-status home-run-${run.status}`}>
                    <span aria-hidden="true">{status.sign}</span> {status.word}
                  </span>
                  <span className="home-run-targets muted">
                    {run.baseline} vs {run.variants.join(', ')}
                  </span>
                  <span className="home-run-meta muted">
                    {run.source?.kind === 'published' ? (
                      <>Published figures, not measured here ({run.source.title})</>
                    ) : (
                      <>
                        <time dateTime={run.createdAt}>{dateFormat.format(new Date(run.createdAt))}</time> · {jobsText(run.jobs)}
                      </>
                    )}
                  </span>
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
