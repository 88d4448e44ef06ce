import { useId, useMemo, useState, type ReactElement } from 'react'
import { compare } from '../../../../shared/compare'
import { pctText } from '../../../../shared/compare/message-text'
import { compareReleases, releaseCounts, RELEASE_VERDICTS, type ReleaseCell, type ReleaseRow, type ReleaseVerdict } from '../../../../shared/compare/release'
import { environmentChanges } from '../../../../shared/environment-diff'
import { formatValue } from '../../../../shared/format'
import type { RunDocument } from '../../../../shared/model/run'
import { comparisonInputOf } from '../../../../shared/run-comparison'
import './release.css'

/**
 * A release comparison (docs/comparison.md#release-comparison): two runs of one preset, and per
 * variant and metric how the guest's relative % moved from the older run to the newer, with the
 * 95 % interval of the change and its verdict; beside it, what changed on each machine. The same
 * figures as `virtbench compare NEW OLD`: compareReleases() and environmentChanges() decide, this
 * only shows them.
 */
export function ReleaseComparisonView({ newer, older }: { newer: RunDocument; older: RunDocument }): ReactElement {
  const [allMetrics, setAllMetrics] = useState(false)
  const release = useMemo(
    () => compareReleases(compare(comparisonInputOf(older)), compare(comparisonInputOf(newer)), newer.plan.equivalenceMarginPct),
    [older, newer]
  )
  const environment = useMemo(() => environmentChanges(older, newer), [older, newer])
  const rows = allMetrics || !release.rows.some((r) => r.primary) ? release.rows : release.rows.filter((r) => r.primary)
  const envId = useId()
  return (
    <div className="release">
      <header className="card release-head">
        <h2>Release comparison of {newer.plan.name}</h2>
        <p>
          <strong>New</strong> {newer.name} · <time dateTime={newer.createdAt}>{newer.createdAt.slice(0, 16).replace('T', ' ')}</time> · VirtBench {newer.app.version}
          <br />
          <strong>Old</strong> {older.name} · <time dateTime={older.createdAt}>{older.createdAt.slice(0, 16).replace('T', ' ')}</time> · VirtBench {older.app.version}
        </p>
        {newer.plan.name !== older.plan.name ? (
          <p className="banner banner-warning" role="note">
            The runs are of different plans ({older.plan.name} and {newer.plan.name}): figures are matched by test, metric and variant.
          </p>
        ) : null}
        <p className="muted">
          Change = new relative % / old relative % × 100: 100 % is unchanged, more is better. Unchanged when its whole 95 % interval lies within 100 % ±{' '}
          {release.marginPct} %; regressed or improved when it lies wholly below or above 100 %.
        </p>
        <label>
          <input type="checkbox" checked={allMetrics} onChange={(e) => setAllMetrics(e.target.checked)} /> every metric, not only the primary figures
        </label>
      </header>
      {release.variants.map((variant) => (
        <VariantTable key={variant} variant={variant} baseline={release.baseline.newer} rows={rows} />
      ))}
      <section className="card" aria-labelledby={envId}>
        <h3 id={envId}>What changed on the machines</h3>
        <ul className="release-environment">
          {environment.map((t) => (
            <li key={t.target}>
              <strong>{t.target}</strong> <span className="muted">({t.role})</span>:{' '}
              {t.missing ? (
                <span className="muted">the {t.missing} run has no environment for it</span>
              ) : t.differences.length === 0 ? (
                <span className="muted">no change</span>
              ) : (
                <ul>
                  {t.differences.map((d) => (
                    <li key={d.key}>
                      {d.label}: {d.a ?? <span className="muted">not reported</span>} → {d.b ?? <span className="muted">not reported</span>}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  )
}

const VERDICT_WORDS: Record<ReleaseVerdict, string> = { regressed: 'regressed', improved: 'improved', unchanged: 'unchanged', inconclusive: "can't tell" }

function VariantTable({ variant, baseline, rows }: { variant: string; baseline: string; rows: readonly ReleaseRow[] }): ReactElement {
  const counts = releaseCounts(rows, variant)
  const summary = RELEASE_VERDICTS.filter((v) => counts[v] > 0).map((v) => `${counts[v]} ${v}`).join(', ') || 'nothing compared'
  return (
    <section className="card">
      <h3>
        {variant} against {baseline}: {summary}
      </h3>
      <table className="data-table release-table">
        <thead>
          <tr>
            <th scope="col">Test · metric</th>
            <th scope="col">Old</th>
            <th scope="col">New</th>
            <th scope="col">Change [95 % interval]</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const cell = row.cells.find((c) => c.variant === variant)!
            return (
              <tr key={`${row.testId}|${row.metric}|${JSON.stringify(row.labels)}`}>
                <th scope="row">
                  {row.testTitle} · {row.metric}
                  {Object.keys(row.labels).length > 0 ? <span className="muted"> ({Object.entries(row.labels).map(([k, v]) => `${k}=${v}`).join(', ')})</span> : null}
                </th>
                <td className="num">{sideText(row, cell.older)}</td>
                <td className="num">{sideText(row, cell.newer)}</td>
                <td className="num">{changeText(row, cell)}</td>
                <td>
                  <span className={`release-verdict release-verdict-${cell.verdict}`} title={cell.reason}>
                    {VERDICT_WORDS[cell.verdict]}
                    <span className="visually-hidden">: {cell.reason}</span>
                  </span>
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </section>
  )
}

function signed(v: number, row: ReleaseRow): string {
  return `${v > 0 ? '+' : ''}${formatValue(v, row.unit)}`
}

function sideText(row: ReleaseRow, side: ReleaseCell['older']): string {
  if (!side) return 'absent'
  if (row.comparison === 'ratio') return side.relativePct === undefined ? 'no result' : pctText(side.relativePct)
  return side.difference === undefined ? 'no result' : signed(side.difference, row)
}

/** The change and its interval as the table shows them: "49.6 % [49.3–49.8 %]", "+41 [38–44]". */
export function changeText(row: ReleaseRow, cell: ReleaseCell): string {
  if (row.comparison === 'ratio') {
    if (cell.changePct === undefined) return '–'
    return `${pctText(cell.changePct)}${cell.ci95 ? ` [${pctText(cell.ci95[0]).replace(' %', '')}–${pctText(cell.ci95[1])}]` : ''}`
  }
  if (cell.changeDifference === undefined) return '–'
  return `${signed(cell.changeDifference, row)}${cell.ci95 ? ` [${signed(cell.ci95[0], row)}–${signed(cell.ci95[1], row)}]` : ''}`
}
