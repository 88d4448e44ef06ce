import type { ReactElement } from 'react'
import type { Comparison, ComparisonRow, VariantCell } from '../../../shared/model/comparison'
import { formatValue } from '../../../shared/format'
import { VERDICT_WORDS } from '../../../shared/compare/summary'
import { ciText, DIRECTION_ARROW, differenceText, directionOf, labelsText, noIntervalReason, noRelativeReason, noValueReason, overheadText, pctText, rowKey } from '../features/results/cell-text'
import { FLAG_SHORT } from '../features/results/flag-text'
import type { SweepCell, SweepGrid, SweepMatrix } from '../../../shared/sweep/sweep-table'

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

/** A test's line above its figures in a category's table: what ran, how often, how it went. */
export interface TestHead {
  id: string
  title: string
  text: string
}

/**
 * Figures with their values. With one variant, a figure is one line: the baseline's value, the
 * variant's, its relative % (a count's difference), interval, n, overhead and verdict. With more,
 * a figure is a line with the baseline's value, then a line per variant that names it right
 * before its relative %, so a line reads "guest ▼ 69 % … slower" even as plain text, and a figure
 * of twenty variants can break across pages. With `tests`, the figures are grouped under a line
 * per test.
 */
export function FigureTable({ comparison, rows, caption, tests }: { comparison: Comparison; rows: ComparisonRow[]; caption: string; tests?: TestHead[] }): ReactElement {
  const groups = tests ? tests.map((t) => ({ head: t, rows: rows.filter((r) => r.testId === t.id) })).filter((g) => g.rows.length > 0) : [{ head: undefined, rows }]
  const single = comparison.variants.length === 1
  const columns = single ? 8 : 7
  return (
    <table className={`report-table report-figures ${single ? 'report-figures-single' : 'report-figures-multi'}`}>
      <caption>{caption}</caption>
      {single ? (
        <colgroup>
          <col className="report-col-figure" />
          <col className="report-col-value" />
          <col className="report-col-value" />
          <col className="report-col-rel" />
          <col className="report-col-ci" />
          <col className="report-col-n" />
          <col className="report-col-overhead" />
          <col className="report-col-verdict" />
        </colgroup>
      ) : (
        <colgroup>
          <col className="report-col-variant" />
          <col className="report-col-rel" />
          <col className="report-col-ci" />
          <col className="report-col-value" />
          <col className="report-col-n" />
          <col className="report-col-overhead" />
          <col className="report-col-verdict" />
        </colgroup>
      )}
      <thead>
        {single ? (
          <tr>
            <th scope="col">Figure</th>
            <th scope="col" className="num-head">
              {comparison.baseline} <span className="report-muted">(baseline)</span>
            </th>
            <th scope="col" className="num-head">
              {comparison.variants[0]}
            </th>
            <th scope="col" className="num-head">
              Relative %
            </th>
            <th scope="col" className="num-head">
              95 % CI
            </th>
            <th scope="col" className="num-head">
              n
            </th>
            <th scope="col" className="num-head">
              Overhead
            </th>
            <th scope="col">Verdict</th>
          </tr>
        ) : (
          <tr>
            <th scope="col">Figure · variant</th>
            <th scope="col" className="num-head">
              Relative %
            </th>
            <th scope="col" className="num-head">
              95 % CI
            </th>
            <th scope="col" className="num-head">
              Value
            </th>
            <th scope="col" className="num-head">
              n
            </th>
            <th scope="col" className="num-head">
              Overhead
            </th>
            <th scope="col">Verdict</th>
          </tr>
        )}
      </thead>
      {groups.map((group) => (
        <tbody key={group.head?.id ?? 'all'} className="report-test-group" data-test={group.head?.id}>
          {group.head ? (
            <tr className="report-test-head">
              <th scope="rowgroup" colSpan={columns}>
                <strong>{group.head.title}</strong> <span className="report-muted">· {group.head.text}</span>
              </th>
            </tr>
          ) : null}
          {group.rows.map((row) =>
            single ? (
              <SingleFigureRow key={rowKey(row)} comparison={comparison} row={row} showTest={!group.head} />
            ) : (
              <FigureRows key={rowKey(row)} comparison={comparison} row={row} showTest={!group.head} />
            )
          )}
        </tbody>
      ))}
    </table>
  )
}

/** A figure's name: its test (where the table is not grouped by test), the metric and its marks. */
function FigureName({ row, showTest }: { row: ComparisonRow; showTest: boolean }): ReactElement {
  const note = figureNote(row)
  return (
    <>
      {showTest ? <span className="report-figure-test">{row.testTitle} </span> : null}
      <span className={`mono${row.primary && !showTest ? ' strong' : ''}`}>{metricName(row)}</span>
      {note ? <span className="report-mark"> {note}</span> : null}
    </>
  )
}

/** The cells of a variant's reading: relative %, interval and (with several variants) its value. */
function ReadingCells({ row, cell, r, withValue }: { row: ComparisonRow; cell: VariantCell; r: ReturnType<typeof reading>; withValue: boolean }): ReactElement {
  if (r.relative === '—') {
    return (
      <>
        <td className="num">—</td>
        <td colSpan={withValue ? 2 : 1} className="report-small">
          {r.note}
        </td>
      </>
    )
  }
  return (
    <>
      <td className="num strong">{r.relative}</td>
      <td className={cell.ci95 ? 'num' : 'report-small'}>{cell.ci95 ? r.ci : noIntervalText(row, cell, r.ci)}</td>
      {withValue ? <td className="num">{statsText(cell.stats, row)}</td> : null}
    </>
  )
}

/** No interval: "none" where a side has one value (n says so, and the summary why), else the reason. */
function noIntervalText(row: ComparisonRow, cell: VariantCell, reason: string): string {
  return (row.baseline?.n ?? 0) < 2 || (cell.stats?.n ?? 0) < 2 ? 'none' : reason || 'none'
}

function TailCells({ row, cell, r }: { row: ComparisonRow; cell: VariantCell; r: ReturnType<typeof reading> }): ReactElement {
  return (
    <>
      <td className="num">
        {row.baseline?.n ?? 0}/{cell.stats?.n ?? 0}
      </td>
      <td className="num">{r.overhead}</td>
      <td className={`report-verdict report-verdict-${cell.verdict}`} title={cell.verdictReason}>
        {r.relative === '—' ? '' : r.note}
      </td>
    </>
  )
}

function baselineText(comparison: Comparison, row: ComparisonRow): { text: string; note: string } {
  if (!row.baseline) return { text: '—', note: noValueReason(comparison.baseline, row) }
  return { text: statsText(row.baseline, row), note: row.baseline.n < 2 ? 'one repetition' : rangeText(row.baseline, row) }
}

/** One variant: a figure is one line. */
function SingleFigureRow({ comparison, row, showTest }: { comparison: Comparison; row: ComparisonRow; showTest: boolean }): ReactElement | null {
  const cell = row.cells[0]
  if (!cell) return null
  const r = reading(row, cell, comparison.baseline)
  const base = baselineText(comparison, row)
  return (
    <tr className="report-figure-first" data-verdict={cell.verdict}>
      <th scope="row" className="report-figure">
        <FigureName row={row} showTest={showTest} />
      </th>
      <td className="num" title={base.note}>
        {base.text}
        {row.baseline && row.baseline.n < 2 ? <span className="report-small"> (one)</span> : null}
      </td>
      <td className="num">{statsText(cell.stats, row)}</td>
      <ReadingCells row={row} cell={cell} r={r} withValue={false} />
      <TailCells row={row} cell={cell} r={r} />
    </tr>
  )
}

/** Several variants: the figure and the baseline's value on a line, then a line per variant. */
function FigureRows({ comparison, row, showTest }: { comparison: Comparison; row: ComparisonRow; showTest: boolean }): ReactElement {
  const base = baselineText(comparison, row)
  return (
    <>
      <tr className="report-figure-head">
        <th scope="rowgroup" colSpan={7} className="report-figure">
          <FigureName row={row} showTest={showTest} />
          <span className="report-figure-baseline">
            {' · '}
            {comparison.baseline} (baseline): <strong>{base.text}</strong>
            {base.note ? <span className="report-small"> ({base.note})</span> : null}
          </span>
        </th>
      </tr>
      {row.cells.map((cell) => {
        const r = reading(row, cell, comparison.baseline)
        return (
          <tr key={cell.variant} data-verdict={cell.verdict}>
            <td className="report-variant">{cell.variant}</td>
            <ReadingCells row={row} cell={cell} r={r} withValue />
            <TailCells row={row} cell={cell} r={r} />
          </tr>
        )
      })}
    </>
  )
}

/** The marks beside a figure where the default (higher is better, a ratio, printed by the tool) does not hold; FIGURE_MARKS says them in words. */
function figureNote(row: ComparisonRow): string {
  return [row.better === 'lower' ? '↓' : '', row.comparison === 'difference' ? 'Δ' : '', row.source === 'derived' ? '†' : ''].filter(Boolean).join(' ')
}

/** The legend of figureNote's marks, for a table's caption. */
export const FIGURE_MARKS = '↓ lower is better; Δ compared as a difference (variant − baseline); † derived (computed by VirtBench)'

/** The first page's table of primary figures: the same lines as the category pages, without the test groups. */
export function HeadlineTable({ comparison, rows, caption }: { comparison: Comparison; rows: ComparisonRow[]; caption: string }): ReactElement {
  return <FigureTable comparison={comparison} rows={rows} caption={caption} />
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
                  <br />
                  <span className="report-small">
                    {comparison.baseline}: {statsText(row.baseline, row)}
                  </span>
                </th>
                {indexes.map((i) => {
                  const cell = row.cells[i]
                  if (!cell || (cell.relativePct === undefined && cell.difference === undefined)) return <td key={i} className="num report-muted">—</td>
                  const r = reading(row, cell, comparison.baseline)
                  return (
                    <td key={i} className="num">
                      <span className="strong">{r.relative}</span>
                      <br />
                      <span className="report-small">{statsText(cell.stats, row)}</span>
                      <br />
                      <span className="report-muted report-small">{cell.ci95 ? r.ci : 'no CI'}</span>
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

/**
 * A cell of a sweep's table as the app's results show it (features/results/sweep-results.tsx):
 * the guest's value, its relative % (or a count's difference) and the step's verdict in words,
 * "can't tell" included; "no result" where the step did not measure the figure.
 */
function SweepCellView({ cell }: { cell: SweepCell }): ReactElement {
  if (cell.value === undefined) return <td className="report-muted">{cell.text}</td>
  const rel = cell.relativePct !== undefined ? `${cell.relativePct.toFixed(0)} %` : cell.difference
  return (
    <td data-verdict={cell.verdict}>
      <span className="num">{cell.value}</span>
      {rel ? <strong className="report-sweep-rel"> {rel}</strong> : null}
      {cell.verdict ? <span className={`report-sweep-verdict report-verdict-${cell.verdict}`}> {VERDICT_WORDS[cell.verdict]}</span> : null}
    </td>
  )
}

/** The sweep's own table (src/shared/sweep/sweep-table.ts): a row per combination, a column per primary figure. */
export function SweepTable({ table, caption }: { table: SweepGrid; caption: string }): ReactElement {
  return (
    <table className="report-table report-sweep-table" aria-label="Sweep table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Scenario</th>
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
            <th scope="row" className="mono">
              {row.label}
            </th>
            {row.cells.map((cell, i) => (
              <SweepCellView key={table.columns[i]!.key} cell={cell} />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** One primary figure of a two-factor sweep: the first factor's values down, the second's across. */
export function SweepMatrixTable({ matrix }: { matrix: SweepMatrix }): ReactElement {
  return (
    <table className="report-table report-sweep-table report-sweep-matrix" aria-label={`Matrix of ${matrix.title}`}>
      <caption>{matrix.title}</caption>
      <thead>
        <tr>
          <td />
          {matrix.acrossValues.map((a) => (
            <th key={a} scope="col" className="mono">
              {matrix.across}={a}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {matrix.rows.map((row) => (
          <tr key={row.value}>
            <th scope="row" className="mono">
              {matrix.down}={row.value}
            </th>
            {row.cells.map((cell, i) => (
              <SweepCellView key={matrix.acrossValues[i]} cell={cell} />
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}
