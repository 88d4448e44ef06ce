import { memo, useId, useMemo, useState, type ReactElement } from 'react'
import type { Comparison, ComparisonRow, Flag, SeriesStats, VariantCell } from '../../../../shared/model/comparison'
import { formatValue } from '../../../../shared/format'
import { leadingRows, VERDICT_WORDS } from '../../../../shared/compare/summary'
import { isSurfaceRow } from '../../../../shared/studies/surface-maps'
import {
  ciText,
  DIRECTION_ARROW,
  DIRECTION_WORDS,
  directionDetail,
  directionNote,
  directionOf,
  differenceText,
  labelsText,
  noIntervalReason,
  noRelativeReason,
  noValueReason,
  overheadText,
  pctText,
  rowKey
} from './cell-text'
import { metricName } from '../../lib/metric-name'
import { relativeTone } from '../charts/palette'
import { useOneMorePerTask } from '../charts/staged'
import { FLAG_SHORT, FLAG_TITLE } from './flag-text'
import { FlagExplanation, FlagIcon } from './flags'
import './results.css'

export interface OverheadTableProps {
  comparison: Comparison
  /** Primary metrics only (default) or every metric. */
  allMetrics?: boolean
  /** Rows whose results are still to come, by test id: shown as placeholders of the same height. */
  pendingTests?: { id: string; title: string }[]
}

interface TestGroup {
  testId: string
  title: string
  rows: ComparisonRow[]
  /** Rows of the test hidden by the primary filter. */
  hidden: number
  /** Cells of a surface (iozone's file size x record size), shown as heat maps unless every metric is asked for. */
  surface: number
  pending: boolean
}

/** Column widths (px): a fixed table layout lays 600 cells out without measuring each one. */
const METRIC_WIDTH = 230
const SIDE_WIDTH = 200

const NO_PENDING: { id: string; title: string }[] = []

/**
 * Study 001's table: per test, its primary metric first (every metric on demand), the baseline's
 * value and each variant's value and relative % (or, for a count, the difference), with overhead,
 * the 95 % interval, n, the verdict and flags. Only a slower or faster verdict is coloured and
 * shows an overhead; the others say the figures are the same or that the data cannot tell. Plain
 * DOM (no component per cell), and a flag's explanation is rendered only once it is opened, so a
 * run with 20 variants and 30 metrics stays quick to draw.
 */
export function OverheadTable({
  comparison,
  allMetrics = false,
  pendingTests = NO_PENDING
}: OverheadTableProps): ReactElement {
  const [showAll, setShowAll] = useState(allMetrics)
  const [showIds, setShowIds] = useState(false)
  const toggleId = useId()
  const idsToggleId = useId()
  const leadingCount = useMemo(() => leadingRows(comparison).length, [comparison])
  const surfaceCount = useMemo(() => comparison.rows.filter(isSurfaceRow).length, [comparison])
  const groups = useMemo(() => groupRows(comparison, showAll, pendingTests), [comparison, showAll, pendingTests])
  const order = useMemo(() => new Map(groups.flatMap((group) => group.rows).map((row, index) => [row, index])), [groups])
  // the cells of a row not yet drawn are drawn only near the window (results.css); the rows are
  // then drawn one per frame, so scrolling to the table later finds it ready
  const drawnRows = useOneMorePerTask(order.size, '', true, true)
  const columns = comparison.variants.length + 2

  return (
    <div className="results-table-block">
      <div className="results-table-tools">
        <label className="results-toggle" htmlFor={toggleId}>
          <input id={toggleId} type="checkbox" checked={showAll} onChange={(event) => setShowAll(event.target.checked)} />
          All metrics
        </label>
        <label className="results-toggle" htmlFor={idsToggleId}>
          <input id={idsToggleId} type="checkbox" checked={showIds} onChange={(event) => setShowIds(event.target.checked)} />
          Metric ids
        </label>
        <span className="muted results-count" aria-live="polite">
          {showAll
            ? `All ${comparison.rows.length} metrics shown`
            : leadingCount === 0 && surfaceCount > 0
              ? `${surfaceCount} file size x record size cells, compared in the heat maps below`
              : `${leadingCount} primary metrics shown of ${comparison.rows.length}`}
        </span>
      </div>
      <p className="results-legend muted">
        <span>
          <span aria-hidden="true">▲ ▼ </span>relative %: 100 % is as good as {comparison.baseline}, more is better
        </span>
        <span>CI: 95 % confidence interval of the relative %</span>
        <span>n: repetitions</span>
        <span>
          verdict: slower or faster when the whole interval is below or above 100 %, same within 100 % ± {comparison.marginPct} %,
          otherwise the data cannot tell (≈)
        </span>
        <span>Δ: a count compared as a difference · derived: computed by VirtBench</span>
        <span>flags: click for the explanation</span>
      </p>
      <div className="table-scroll results-table-scroll">
        <table className={showIds ? 'data-table results-table results-show-ids' : 'data-table results-table'} style={{ width: METRIC_WIDTH + SIDE_WIDTH * (columns - 1) }}>
          <caption className="visually-hidden">
            Overhead of each variant against {comparison.baseline}, the baseline: value, relative % (100 % = as good as the
            baseline, more is better), overhead, 95 % confidence interval, number of repetitions and flags, per test and metric.
          </caption>
          <colgroup>
            <col style={{ width: METRIC_WIDTH }} />
            <col style={{ width: SIDE_WIDTH }} />
            {comparison.variants.map((v) => (
              <col key={v} style={{ width: SIDE_WIDTH }} />
            ))}
          </colgroup>
          <thead>
            <tr>
              <th scope="col" className="results-metric-head">
                Metric
              </th>
              <th scope="col">
                {comparison.baseline}
                <span className="cell-note">baseline · 100 %</span>
              </th>
              {comparison.variants.map((v) => (
                <th key={v} scope="col">
                  {v}
                  <span className="cell-note">variant · relative %</span>
                </th>
              ))}
            </tr>
          </thead>
          {groups.length === 0 ? (
            <tbody>
              <tr>
                <td colSpan={columns} className="muted">
                  No results yet.
                </td>
              </tr>
            </tbody>
          ) : (
            groups.map((group) => (
              <tbody key={group.testId} className="results-group" data-test={group.testId}>
                <tr className="results-group-row">
                  <th scope="colgroup" colSpan={columns}>
                    <span className="results-group-title">
                      {group.title}
                      {group.surface > 0 ? (
                        <span className="results-group-note">
                          {group.surface} file size x record size cells: compared in the heat maps per sub-test below (each cell with “All metrics”)
                        </span>
                      ) : null}
                      {group.hidden > 0 ? (
                        <span className="results-group-note">
                          {group.hidden} more {group.hidden === 1 ? 'metric' : 'metrics'} with “All metrics”
                        </span>
                      ) : null}
                      {group.pending && group.rows.length > 0 ? (
                        <span className="results-group-note">more results to come</span>
                      ) : null}
                    </span>
                  </th>
                </tr>
                {group.rows.map((row) => (
                  <MetricRow key={rowKey(row)} row={row} baselineLabel={comparison.baseline} columns={columns} drawn={(order.get(row) ?? 0) < drawnRows} />
                ))}
                {group.pending && group.rows.length === 0 ? (
                  <tr className="results-row results-pending" data-pending={group.testId}>
                    <th scope="row">
                      <span className="results-pending-text">Waiting for results</span>
                    </th>
                    <td colSpan={columns - 1} className="muted">
                      <span className="spinner" aria-hidden="true" /> {group.title}: waiting for results
                    </td>
                  </tr>
                ) : null}
              </tbody>
            ))
          )}
        </table>
      </div>
    </div>
  )
}

function groupRows(comparison: Comparison, showAll: boolean, pendingTests: { id: string; title: string }[]): TestGroup[] {
  const pending = new Set(pendingTests.map((t) => t.id))
  const leading = new Set(leadingRows(comparison))
  const groups = new Map<string, TestGroup>()
  for (const row of comparison.rows) {
    let group = groups.get(row.testId)
    if (!group) {
      group = { testId: row.testId, title: row.testTitle, rows: [], hidden: 0, surface: 0, pending: pending.has(row.testId) }
      groups.set(row.testId, group)
    }
    if (showAll || leading.has(row)) group.rows.push(row)
    else if (isSurfaceRow(row)) group.surface++
    else group.hidden++
  }
  for (const test of pendingTests) {
    if (!groups.has(test.id)) groups.set(test.id, { testId: test.id, title: test.title, rows: [], hidden: 0, surface: 0, pending: true })
  }
  return [...groups.values()]
}

/** The flag whose explanation is open in a row. */
interface OpenFlag {
  /** The label of the variant whose cell holds the flag. */
  side: string
  index: number
}

interface MetricRowProps {
  row: ComparisonRow
  baselineLabel: string
  columns: number
  /** Drawn whether near the window or not (one row per frame after the table is shown); until then its cells are drawn only near the window. */
  drawn: boolean
}

const MetricRow = memo(function MetricRow({ row, baselineLabel, columns, drawn }: MetricRowProps): ReactElement {
  const [open, setOpen] = useState<OpenFlag | undefined>(undefined)
  const explanationId = useId()
  const labels = labelsText(row.labels)
  const toggle = (side: string, index: number): void =>
    setOpen((current) => (current?.side === side && current.index === index ? undefined : { side, index }))
  const openFlag = open ? flagAt(row, open) : undefined
  /** Closes the explanation and puts the focus back on the flag that opened it. */
  const close = (): void => {
    if (open) document.getElementById(flagButtonId(explanationId, row, open))?.focus()
    setOpen(undefined)
  }

  return (
    <>
      <tr className={drawn ? 'results-row results-row-drawn' : 'results-row'} data-metric={row.metric} data-labels={labels || undefined}>
        <th scope="row" className="results-metric">
          <span className="results-metric-name" title={`${row.metric} (the metric's id)`} data-metric-id={row.metric}>
            {metricName(row.metric)}
          </span>
          <span className="results-metric-id mono">{row.metric}</span>
          {labels ? (
            <span className="results-metric-labels mono" title={labels}>
              {labels}
            </span>
          ) : null}
          <span className="cell-note" title={directionDetail(row)}>
            {directionNote(row)}
            {row.source === 'derived' ? (
              <span className="results-derived" title="Computed by VirtBench from what the tool printed; no output shows this figure as such.">
                {' '}
                · derived
              </span>
            ) : null}
          </span>
        </th>
        <BaselineCell row={row} baselineLabel={baselineLabel} />
        {row.cells.map((cell, cellIndex) => (
          <VariantTd
            key={cell.variant}
            idPrefix={`${explanationId}-${cellIndex}`}
            row={row}
            cell={cell}
            baselineLabel={baselineLabel}
            open={open?.side === cell.variant ? open.index : undefined}
            explanationId={explanationId}
            onFlag={(index) => toggle(cell.variant, index)}
          />
        ))}
      </tr>
      {openFlag && open ? (
        <tr className="results-explanation-row">
          <td
            colSpan={columns}
            id={explanationId}
            onKeyDown={(event) => {
              if (event.key === 'Escape') close()
            }}
          >
            <FlagExplanation
              flag={openFlag}
              subject={`${open.side} · ${row.metric}${labels ? ` (${labels})` : ''}`}
            />
            <button type="button" className="button button-small" onClick={close}>
              Close explanation
            </button>
          </td>
        </tr>
      ) : null}
    </>
  )
})

/** The id of a flag's button, so closing its explanation can give the focus back. */
function flagButtonId(explanationId: string, row: ComparisonRow, open: OpenFlag): string {
  return `${explanationId}-${row.cells.findIndex((c) => c.variant === open.side)}-${open.index}`
}

function flagAt(row: ComparisonRow, open: OpenFlag): Flag | undefined {
  return row.cells.find((c) => c.variant === open.side)?.flags[open.index]
}

function BaselineCell({ row, baselineLabel }: { row: ComparisonRow; baselineLabel: string }): ReactElement {
  const stats = row.baseline
  if (!stats) {
    return (
      <td className="results-cell results-baseline">
        <Absent reason={noValueReason(baselineLabel, row)} />
      </td>
    )
  }
  return (
    <td className="results-cell results-baseline">
      <span className="results-value">{formatValue(stats.value, row.unit)}</span>
      <span className="results-line muted">100 % (baseline)</span>
      <span className="results-line muted">
        <NText stats={stats} />
      </span>
    </td>
  )
}

interface VariantTdProps {
  row: ComparisonRow
  cell: VariantCell
  baselineLabel: string
  /** The index of this cell's open flag, if one is open. */
  open: number | undefined
  explanationId: string
  /** Flag buttons are `${idPrefix}-${flag index}`. */
  idPrefix: string
  onFlag: (index: number) => void
}

function VariantTd({ row, cell, baselineLabel, open, explanationId, idPrefix, onFlag }: VariantTdProps): ReactElement {
  const tone = relativeTone(cell.relativePct, cell.verdict)
  return (
    <td className={tone ? `results-cell results-tone-${tone}` : 'results-cell'} data-variant={cell.variant}>
      {cell.stats ? (
        <span className="results-value">{formatValue(cell.stats.value, row.unit)}</span>
      ) : (
        <Absent reason={noValueReason(cell.variant, row)} />
      )}
      <span className="results-line">
        {row.comparison === 'difference' && cell.difference !== undefined ? (
          <span className="results-rel">{differenceText(cell.difference, row.unit)}</span>
        ) : cell.relativePct !== undefined ? (
          <RelativeText relativePct={cell.relativePct} overheadPct={cell.overheadPct} verdict={cell.verdict} />
        ) : cell.stats ? (
          <Absent reason={noRelativeReason(row, cell, baselineLabel)} />
        ) : null}
      </span>
      <span className="results-line muted">
        {cell.ci95 ? (
          <span className="results-ci">CI {row.comparison === 'difference' ? `${differenceText(cell.ci95[0], row.unit)} – ${differenceText(cell.ci95[1], row.unit)}` : ciText(cell.ci95)}</span>
        ) : cell.relativePct !== undefined || cell.difference !== undefined ? (
          <span className="results-ci">
            CI <Absent reason={noIntervalReason(row.baseline, cell)} />
          </span>
        ) : null}
        {cell.stats ? (
          <>
            {cell.relativePct !== undefined || cell.difference !== undefined ? ' · ' : null}
            <NText stats={cell.stats} />
          </>
        ) : null}
      </span>
      <span className="results-line results-marks">
        {cell.stats && row.baseline ? (
          <span className={`results-verdict results-verdict-${cell.verdict}`} title={cell.verdictReason}>
            {cell.verdict === 'inconclusive' ? '≈ ' : ''}
            {VERDICT_WORDS[cell.verdict]}
            <span className="visually-hidden">: {cell.verdictReason}</span>
          </span>
        ) : null}
        {cell.flags.map((flag, index) => (
          <button
            key={`${flag.kind}-${index}`}
            id={`${idPrefix}-${index}`}
            type="button"
            className={`results-flag results-flag-${flag.kind}`}
            aria-label={`${FLAG_SHORT[flag.kind]} (${FLAG_TITLE[flag.kind].toLowerCase()}): explanation`}
            aria-expanded={open === index}
            aria-controls={open === index ? explanationId : undefined}
            onClick={() => onFlag(index)}
          >
            <FlagIcon kind={flag.kind} />
            {FLAG_SHORT[flag.kind]}
          </button>
        ))}
      </span>
    </td>
  )
}

/** The relative %: an arrow and an overhead only for a finding (slower or faster), never for noise. */
function RelativeText({ relativePct, overheadPct, verdict }: { relativePct: number; overheadPct: number | undefined; verdict: VariantCell['verdict'] }): ReactElement {
  const finding = verdict === 'slower' || verdict === 'faster'
  const direction = finding ? directionOf(relativePct) : 'same'
  return (
    <>
      <span className={`results-rel results-rel-${direction}`}>
        {finding ? <span aria-hidden="true">{DIRECTION_ARROW[direction]} </span> : null}
        {pctText(relativePct)}
        {finding ? <span className="visually-hidden"> ({DIRECTION_WORDS[direction]})</span> : null}
      </span>
      {finding && overheadPct !== undefined ? <span className="results-overhead muted"> {overheadText(overheadPct)}</span> : null}
    </>
  )
}

function NText({ stats }: { stats: SeriesStats }): ReactElement {
  return <span className="results-n">n = {stats.n}</span>
}

/** An absent figure: an em dash, with the reason on hover and for screen readers. */
function Absent({ reason }: { reason: string }): ReactElement {
  return (
    <span className="results-absent" title={reason}>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{reason}</span>
    </span>
  )
}
