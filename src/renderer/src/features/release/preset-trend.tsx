import { useId, useMemo, type ReactElement } from 'react'
import { pctText } from '../../../../shared/compare/message-text'
import { presetTrend, type TrendPoint, type TrendSeries } from '../../../../shared/compare/trend'
import { formatValue } from '../../../../shared/format'
import type { RunDocument } from '../../../../shared/model/run'
import { comparisonOf } from '../results/comparison-of'
import { formatWhen } from '../runs/job-view'

/** The runs of a preset the trend shows: the run opened and the latest earlier ones. */
export const TREND_RUNS = 8

const SPARK_WIDTH = 120
const SPARK_HEIGHT = 28

/**
 * The trend of a preset's primary figures over its runs (presetTrend(), oldest first): a line per
 * variant and figure, with a small line chart of its relative % (the 100 % line dashed) and each
 * run's figure written out, so nothing is read from the chart alone. A count compared as a
 * difference (lost packets) gets its differences, and no chart.
 */
export function PresetTrend({ runs, plan }: { runs: readonly RunDocument[]; plan: string }): ReactElement | null {
  const ordered = useMemo(() => [...runs].sort((a, b) => a.createdAt.localeCompare(b.createdAt)), [runs])
  const series = useMemo(() => presetTrend(ordered.map((r) => ({ id: r.id, createdAt: r.createdAt, comparison: comparisonOf(r) }))), [ordered])
  const headingId = useId()
  if (ordered.length < 2 || series.length === 0) return null
  const newest = ordered.at(-1)!.id
  return (
    <section className="card release-trend" aria-labelledby={headingId}>
      <h3 id={headingId}>
        Trend of {plan} over its last {ordered.length} runs
      </h3>
      <p className="muted">Each guest’s primary figures, relative % against its run’s baseline (100 % is as good as the baseline, more is better), oldest run first.</p>
      <div className="release-trend-scroll">
        <table className="data-table release-table release-trend-table">
          <thead>
            <tr>
              <th scope="col">Variant</th>
              <th scope="col">Test · metric</th>
              <th scope="col">Trend</th>
              {ordered.map((r) => (
                <th key={r.id} scope="col" className="num" title={r.name}>
                  {r.id === newest ? 'This run' : <time dateTime={r.createdAt}>{formatWhen(r.createdAt)}</time>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {series.map((s) => (
              <tr key={`${s.variant}|${s.testId}|${s.metric}|${JSON.stringify(s.labels)}`}>
                <th scope="row">{s.variant}</th>
                <td>
                  {s.testTitle} · <span className="mono">{s.metric}</span>
                  {Object.keys(s.labels).length > 0 ? <span className="muted"> ({Object.entries(s.labels).map(([k, v]) => `${k}=${v}`).join(', ')})</span> : null}
                </td>
                <td>{s.comparison === 'ratio' ? <Sparkline points={s.points} /> : <span className="muted">a difference</span>}</td>
                {s.points.map((p) => (
                  <td key={p.runId} className="num" title={p.ci95 ? `95 % interval ${pointText(s, p.ci95[0])} to ${pointText(s, p.ci95[1])}` : undefined}>
                    {p.value === undefined ? <span className="muted">–</span> : pointText(s, p.value)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}

function pointText(s: TrendSeries, value: number): string {
  return s.comparison === 'ratio' ? pctText(value) : `${value > 0 ? '+' : ''}${formatValue(value, s.unit)}`
}

/** A small line of relative % over the runs, on an axis that always holds 100 % (dashed); a run without the figure breaks the line. */
export function Sparkline({ points }: { points: readonly TrendPoint[] }): ReactElement {
  const values = points.flatMap((p) => (p.value === undefined ? [] : [p.value]))
  const low = Math.min(100, ...values)
  const high = Math.max(100, ...values)
  const span = high - low || 1
  const x = (i: number): number => (points.length === 1 ? SPARK_WIDTH / 2 : 2 + (i * (SPARK_WIDTH - 4)) / (points.length - 1))
  const y = (v: number): number => 2 + ((high - v) * (SPARK_HEIGHT - 4)) / span
  // one polyline per unbroken stretch of runs that have the figure
  const stretches: { i: number; v: number }[][] = [[]]
  points.forEach((p, i) => {
    if (p.value === undefined) stretches.push([])
    else stretches.at(-1)!.push({ i, v: p.value })
  })
  return (
    <svg className="release-sparkline" width={SPARK_WIDTH} height={SPARK_HEIGHT} viewBox={`0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}`} aria-hidden="true">
      <line x1={0} x2={SPARK_WIDTH} y1={y(100)} y2={y(100)} className="release-sparkline-base" />
      {stretches
        .filter((s) => s.length > 1)
        .map((s) => (
          <polyline key={s[0]!.i} points={s.map((p) => `${x(p.i).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ')} className="release-sparkline-line" />
        ))}
      {stretches.flat().map((p) => (
        <circle key={p.i} cx={x(p.i)} cy={y(p.v)} r={2} className="release-sparkline-point" />
      ))}
    </svg>
  )
}
