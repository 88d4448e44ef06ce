import type { ReactElement } from 'react'
import type { Comparison, ComparisonRow, VariantCell } from '../../../shared/model/comparison'
import { formatValue } from '../../../shared/format'
import { VERDICT_WORDS } from '../../../shared/compare/summary'
import { ciText, DIRECTION_ARROW, differenceText, directionNote, directionOf, labelsText, noIntervalReason, noRelativeReason, noValueReason, overheadText, pctText, rowKey } from '../features/results/cell-text'
import { FLAG_SHORT } from '../features/results/flag-text'

/**
 * The report's overhead tables, long form: one line for the baseline's figure, then one per
 * variant, so twenty variants still fit a page's width. Every number is the comparison's; an
 * absent one is a dash with its reason written out (print has no tooltips).
 */

function metricName(row: ComparisonRow): string {
  const labels = labelsText(row.labels)
  return labels ? `${row.metric} (${labels})` : row.metric
}

function statsText(stats: { value: number; n: number } | undefined, row: ComparisonRow): string {
  return stats ? formatValue(stats.value, row.unit) : '—'
}

function rangeText(stats: { min: number; max: number; n: number } | undefined, row: ComparisonRow): string {
  if (!stats || stats.n < 2) return ''
  return `${formatValue(stats.min, row.unit)} – ${formatValue(stats.max, row.unit)}`
}

/**
 * One variant's line: its relative % (a count's difference), interval, overhead and verdict. An
 * arrow and an overhead only for a finding (slower or faster); the verdict always, in words.
 */
function reading(row: ComparisonRow, cell: VariantCell, baseline: string): { relative: string; ci: string; overhead: string; note: string } {
  const flags = cell.flags.filter((f) => f.kind !== 'scenario-mismatch' && f.kind !== 'same-machine').map((f) => FLAG_SHORT[f.kind])
  const verdict = cell.stats && row.baseline ? VERDICT_WORDS[cell.verdict] : undefined
  if (row.comparison === 'difference' && cell.difference !== undefined) {
    return {
      relative: `Δ ${differenceText(cell.difference, row.unit)}`,
      ci: cell.ci95 ? `${differenceText(cell.ci95[0], row.unit)} – ${differenceText(cell.ci95[1], row.unit)}` : noIntervalReason(row.baseline, cell).replace(/^No interval: /, 'none: '),
      overhead: '',
      note: [verdict, ...flags].filter(Boolean).join('; ')
    }
  }
  if (cell.relativePct === undefined) {
    return { relative: '—', ci: '', overhead: '', note: cell.stats ? noRelativeReason(row, cell, baseline) : noValueReason(cell.variant, row) }
  }
  const finding = cell.verdict === 'slower' || cell.verdict === 'faster'
  const direction = directionOf(cell.relativePct)
  return {
    relative: finding ? `${DIRECTION_ARROW[direction]} ${pctText(cell.relativePct)}` : pctText(cell.relativePct),
    ci: cell.ci95 ? ciText(cell.ci95) : noIntervalReason(row.baseline, cell).replace(/^No interval: /, 'none: '),
    overhead: finding && cell.overheadPct !== undefined ? overheadText(cell.overheadPct).replace(/^overhead /, '') : '',
    note: [verdict, ...flags].filter(Boolean).join('; ')
  }
}

/** Every metric of `rows`: the baseline's figure and each variant's, relative %, interval, overhead and n. */
export function ReportOverheadTable({ comparison, rows, caption }: { comparison: Comparison; rows: ComparisonRow[]; caption: string }): ReactElement {
  return (
    <table className="report-table report-overhead">
      <caption>{caption}</caption>
      <colgroup>
        <col className="report-col-target" />
        <col className="report-col-value" />
        <col className="report-col-n" />
        <col className="report-col-rel" />
        <col className="report-col-ci" />
        <col className="report-col-overhead" />
        <col />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">Target</th>
          <th scope="col" className="num">
            Value
          </th>
          <th scope="col" className="num">
            n
          </th>
          <th scope="col" className="num">
            Relative %
          </th>
          <th scope="col" className="num">
            95 % CI
          </th>
          <th scope="col" className="num">
            Overhead
          </th>
          <th scope="col">Reading</th>
        </tr>
      </thead>
      {rows.map((row) => (
        <tbody key={rowKey(row)} className="report-metric">
          <tr className="report-metric-head">
            <th scope="rowgroup" colSpan={7}>
              <span className="mono">{metricName(row)}</span>
              <span className="report-muted">
                {' '}
                · {row.unit === 'count' ? 'count' : row.unit}, {directionNote(row)}
                {row.source === 'derived' ? ', derived (computed by VirtBench)' : ''}
              </span>
            </th>
          </tr>
          <tr>
            <th scope="row">
              {comparison.baseline} <span className="report-muted">(baseline)</span>
            </th>
            <td className="num">{statsText(row.baseline, row)}</td>
            <td className="num">{row.baseline?.n ?? 0}</td>
            <td className="num">100 %</td>
            <td className="num" />
            <td className="num" />
            <td className="report-muted">{row.baseline ? rangeText(row.baseline, row) || 'one repetition' : noValueReason(comparison.baseline, row)}</td>
          </tr>
          {row.cells.map((cell) => {
            const r = reading(row, cell, comparison.baseline)
            return (
              <tr key={cell.variant}>
                <th scope="row">{cell.variant}</th>
                <td className="num">{statsText(cell.stats, row)}</td>
                <td className="num">{cell.stats?.n ?? 0}</td>
                <td className="num strong">{r.relative}</td>
                <td className={cell.ci95 ? 'num' : 'report-muted'}>{r.ci}</td>
                <td className="num">{r.overhead}</td>
                <td>{r.note}</td>
              </tr>
            )
          })}
        </tbody>
      ))}
    </table>
  )
}

/** The summary's table of primary figures: per figure, each variant's relative % with its interval and verdict. */
export function HeadlineTable({ comparison, rows, caption }: { comparison: Comparison; rows: ComparisonRow[]; caption: string }): ReactElement {
  return (
    <table className="report-table report-headline">
      <caption>{caption}</caption>
      <colgroup>
        <col className="report-col-figure" />
        <col className="report-col-variant" />
        <col className="report-col-rel" />
        <col className="report-col-ci" />
        <col className="report-col-overhead" />
        <col className="report-col-n" />
        <col className="report-col-verdict" />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">Figure</th>
          <th scope="col">Variant</th>
          <th scope="col" className="num">
            Relative %
          </th>
          <th scope="col" className="num">
            95 % CI
          </th>
          <th scope="col" className="num">
            Overhead
          </th>
          <th scope="col" className="num">
            n
          </th>
          <th scope="col">Verdict</th>
        </tr>
      </thead>
      {rows.map((row) => (
        <tbody key={rowKey(row)} className="report-metric">
          {row.cells.map((cell, i) => {
            const r = reading(row, cell, comparison.baseline)
            return (
              <tr key={cell.variant}>
                {i === 0 ? (
                  <th scope="rowgroup" rowSpan={row.cells.length} className="report-figure">
                    {row.testTitle}
                    <br />
                    <span className="mono report-muted">{metricName(row)}</span>
                  </th>
                ) : null}
                <td>{cell.variant}</td>
                {r.relative === '—' ? (
                  <td colSpan={3} className="report-muted">
                    {r.note}
                  </td>
                ) : (
                  <>
                    <td className="num strong">{r.relative}</td>
                    <td className="num">{cell.ci95 ? r.ci : 'none'}</td>
                    <td className="num">{r.overhead}</td>
                  </>
                )}
                <td className="num">
                  {row.baseline?.n ?? 0} / {cell.stats?.n ?? 0}
                </td>
                <td className={`report-verdict report-verdict-${cell.verdict}`} title={cell.verdictReason}>
                  {r.relative === '—' ? '' : r.note}
                </td>
              </tr>
            )
          })}
        </tbody>
      ))}
    </table>
  )
}

/** Variants per table in the matrix form of the summary. */
export const MATRIX_VARIANTS = 5

/**
 * The summary's headline figures with many variants: one row per figure, one column per variant
 * (five to a table, the tables one after another), each cell the relative % over its interval.
 */
export function HeadlineMatrix({ comparison, rows, caption }: { comparison: Comparison; rows: ComparisonRow[]; caption: string }): ReactElement {
  const groups: number[][] = []
  for (let i = 0; i < comparison.variants.length; i += MATRIX_VARIANTS) groups.push(comparison.variants.slice(i, i + MATRIX_VARIANTS).map((_, j) => i + j))
  return (
    <>
      {groups.map((indexes, g) => (
        <table key={g} className="report-table report-matrix">
          <caption>
            {caption}
            {groups.length > 1 ? ` (variants ${indexes[0]! + 1}–${indexes[indexes.length - 1]! + 1} of ${comparison.variants.length})` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              {indexes.map((i) => (
                <th key={i} scope="col" className="num">
                  {comparison.variants[i]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                <th scope="row">
                  {row.testTitle}
                  <br />
                  <span className="mono report-muted">{metricName(row)}</span>
                </th>
                {indexes.map((i) => {
                  const cell = row.cells[i]
                  if (!cell || (cell.relativePct === undefined && cell.difference === undefined)) return <td key={i} className="num report-muted">—</td>
                  const r = reading(row, cell, comparison.baseline)
                  return (
                    <td key={i} className="num">
                      <span className="strong">{r.relative}</span>
                      <br />
                      <span className="report-muted">{cell.ci95 ? r.ci : 'no CI'}</span>
                      <br />
                      <span className={`report-verdict report-verdict-${cell.verdict}`}>{VERDICT_WORDS[cell.verdict]}</span>
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </>
  )
}
