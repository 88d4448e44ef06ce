import { leadingRows } from '../compare/summary'
import { pctText } from '../compare/message-text'
import { CONFIDENCE_LEVEL_PCT } from '../compare/interval'
import { formatValue } from '../format'
import type { Comparison, ComparisonRow, VariantCell, Verdict } from '../model/comparison'
import type { Acceptance, Criterion, InconclusivePolicy } from '../model/criteria'
import type { Unit } from '../model/sample'

/**
 * Judges a comparison (the output of compare()) against a plan's acceptance criteria. Pure: the
 * cells' figures, 95 % intervals and verdicts decide, nothing is recomputed.
 *
 * A bound (`atLeastPct`, `atMostPct`) is decided by a figure's interval, as a verdict is:
 * - `met`: the whole interval lies on the right side of the bound (at least 90 %: its low end is
 *   90 % or more);
 * - `missed`: the whole interval lies on the wrong side (its high end is below 90 %);
 * - `undecided`: the interval reaches both sides, or there is none (a side with one value, no
 *   ratio, no result). It counts as the criterion's `inconclusive` policy says, else the
 *   acceptance's, else as a failure: a gate that passes what it could not see is no gate.
 * A figure compared as a difference (retransmits, lost packets) has no relative %: bounds leave it
 * out; `noInconclusive` and `noSlower` judge it by its verdict like any other.
 *
 * A criterion whose scope matches no compared figure is an `error` (a misspelt test or metric, or a
 * test that produced nothing): the run does not pass.
 */

export type Judgement = 'met' | 'missed' | 'undecided'
export type CriterionStatus = 'passed' | 'failed' | 'error'

export interface JudgedCell {
  variant: string
  testId: string
  testTitle: string
  metric: string
  labels: Record<string, string>
  unit: Unit
  relativePct?: number
  ci95?: [number, number]
  difference?: number
  verdict: Verdict
  judgement: Judgement
  /** How the cell counts for the criterion (an undecided cell counts as the inconclusive policy says). */
  counts: 'pass' | 'fail'
  /** The figure and why, in words: "guest, dd rate dd.bandwidth: 38.9 % [37.2 % to 40.6 %], below 90 %". */
  text: string
}

export interface CriterionResult {
  /** Position in the plan's list, from 0. */
  index: number
  name: string
  criterion: Criterion
  status: CriterionStatus
  /** One sentence: how many figures were judged and how many failed, or why the criterion could not be judged. */
  summary: string
  cells: JudgedCell[]
}

export interface AcceptanceResult {
  passed: boolean
  counts: Record<CriterionStatus, number>
  results: CriterionResult[]
  /** "2 of 3 criteria passed; failed: storage primary figures at least 90 %". */
  summary: string
}

/** The words a criterion is named with when it has no name of its own: "storage primary figures at least 90 %". */
export function criterionName(c: Criterion): string {
  if (c.name) return c.name
  const s = c.scope
  const what = [s.category, s.allMetrics ? 'figures' : 'primary figures'].filter(Boolean).join(' ')
  const narrowed = [s.metric ? `metric ${s.metric}` : undefined, s.test ? `test ${s.test}` : undefined, s.variant ? `variant ${s.variant}` : undefined].filter(Boolean)
  const subject = `${what}${narrowed.length > 0 ? ` (${narrowed.join(', ')})` : ''}`
  if (c.noInconclusive) return `${subject}: none inconclusive`
  if (c.noSlower) return `${subject}: none slower`
  const bounds = [c.atLeastPct !== undefined ? `at least ${pctText(c.atLeastPct)}` : undefined, c.atMostPct !== undefined ? `at most ${pctText(c.atMostPct)}` : undefined]
  return `${subject} ${bounds.filter(Boolean).join(' and ')} of the baseline`
}

function inScope(c: Criterion, comparison: Comparison): { row: ComparisonRow; cell: VariantCell }[] {
  const s = c.scope
  const rows = (s.allMetrics ? comparison.rows : leadingRows(comparison)).filter(
    (r) => (s.category === undefined || r.category === s.category) && (s.test === undefined || r.testId === s.test) && (s.metric === undefined || r.metric === s.metric)
  )
  const variant = s.variant?.toLowerCase()
  return rows.flatMap((row) => row.cells.filter((cell) => variant === undefined || cell.variant.toLowerCase() === variant).map((cell) => ({ row, cell })))
}

/** The interval a bound is decided on: the cell's, or the exact ratio when every value of both sides was identical. */
function intervalOf(cell: VariantCell): [number, number] | undefined {
  if (cell.ci95) return cell.ci95
  if (cell.verdict === 'same' && cell.relativePct !== undefined) return [cell.relativePct, cell.relativePct]
  return undefined
}

function boundJudgement(c: Criterion, interval: [number, number] | undefined): { judgement: Judgement; why: string } {
  if (!interval) return { judgement: 'undecided', why: 'no interval' }
  const [low, high] = interval
  const missed: string[] = []
  const undecided: string[] = []
  if (c.atLeastPct !== undefined) {
    if (high < c.atLeastPct) missed.push(`below ${pctText(c.atLeastPct)}`)
    else if (low < c.atLeastPct) undecided.push(`reaches below ${pctText(c.atLeastPct)}`)
  }
  if (c.atMostPct !== undefined) {
    if (low > c.atMostPct) missed.push(`above ${pctText(c.atMostPct)}`)
    else if (high > c.atMostPct) undecided.push(`reaches above ${pctText(c.atMostPct)}`)
  }
  if (missed.length > 0) return { judgement: 'missed', why: missed.join(' and ') }
  if (undecided.length > 0) return { judgement: 'undecided', why: `the interval ${undecided.join(' and ')}` }
  return { judgement: 'met', why: 'within the bound' }
}

function figureText(row: ComparisonRow, cell: VariantCell): string {
  const labels = Object.entries(row.labels).map(([k, v]) => `${k}=${v}`)
  const where = `${cell.variant}, ${row.testTitle} ${row.metric}${labels.length > 0 ? ` (${labels.join(', ')})` : ''}`
  let figure: string
  if (row.comparison === 'ratio') {
    figure = cell.relativePct === undefined ? 'no relative %' : pctText(cell.relativePct)
    if (cell.ci95) figure += ` [${CONFIDENCE_LEVEL_PCT} % interval ${pctText(cell.ci95[0])} to ${pctText(cell.ci95[1])}]`
  } else {
    figure = cell.difference === undefined ? 'no difference' : `${cell.difference >= 0 ? '+' : ''}${formatValue(cell.difference, row.unit)}`
    if (cell.ci95) figure += ` [${CONFIDENCE_LEVEL_PCT} % interval ${formatValue(cell.ci95[0], row.unit)} to ${formatValue(cell.ci95[1], row.unit)}]`
  }
  return `${where}: ${figure}, ${cell.verdict}`
}

function judgeCell(c: Criterion, policy: InconclusivePolicy, row: ComparisonRow, cell: VariantCell): JudgedCell | undefined {
  let judgement: Judgement
  let why: string
  if (c.noInconclusive || c.noSlower) {
    const bad = c.noInconclusive ? cell.verdict === 'inconclusive' : cell.verdict === 'slower'
    judgement = bad ? 'missed' : 'met'
    // the figure's text ends with its verdict: the reason follows it, not the verdict again
    why = bad ? cell.verdictReason : 'as required'
  } else {
    if (row.comparison !== 'ratio') return undefined
    ;({ judgement, why } = boundJudgement(c, intervalOf(cell)))
  }
  const counts = judgement === 'met' || (judgement === 'undecided' && policy === 'pass') ? 'pass' : 'fail'
  const undecidedNote = judgement === 'undecided' ? ` (undecided, counted as ${counts === 'pass' ? 'passed' : 'failed'})` : ''
  return {
    variant: cell.variant,
    testId: row.testId,
    testTitle: row.testTitle,
    metric: row.metric,
    labels: row.labels,
    unit: row.unit,
    ...(cell.relativePct !== undefined ? { relativePct: cell.relativePct } : {}),
    ...(cell.ci95 ? { ci95: cell.ci95 } : {}),
    ...(cell.difference !== undefined ? { difference: cell.difference } : {}),
    verdict: cell.verdict,
    judgement,
    counts,
    text: `${figureText(row, cell)}: ${why}${undecidedNote}`
  }
}

/** Judges one criterion. */
export function judgeCriterion(criterion: Criterion, index: number, comparison: Comparison, defaultPolicy: InconclusivePolicy = 'fail'): CriterionResult {
  const name = criterionName(criterion)
  const policy = criterion.inconclusive ?? defaultPolicy
  const matched = inScope(criterion, comparison)
  const cells = matched.flatMap(({ row, cell }) => {
    const judged = judgeCell(criterion, policy, row, cell)
    return judged ? [judged] : []
  })
  if (cells.length === 0) {
    const why =
      matched.length > 0
        ? `its ${matched.length} figure${matched.length === 1 ? ' is' : 's are'} compared as a difference, which has no relative % to bound`
        : 'no compared figure matches its scope: check the category, test, metric and variant, and that the test produced results'
    return { index, name, criterion, status: 'error', summary: `not judged: ${why}`, cells }
  }
  const failed = cells.filter((c) => c.counts === 'fail')
  const undecided = cells.filter((c) => c.judgement === 'undecided').length
  const tail = undecided > 0 ? ` (${undecided} undecided, counted as ${policy === 'pass' ? 'passed' : 'failed'})` : ''
  return {
    index,
    name,
    criterion,
    status: failed.length === 0 ? 'passed' : 'failed',
    summary: `${failed.length === 0 ? cells.length : failed.length} of ${cells.length} figure${cells.length === 1 ? '' : 's'} ${failed.length === 0 ? 'passed' : 'failed'}${tail}`,
    cells
  }
}

/** Judges every criterion of `acceptance`; the run passes when every one passed. */
export function judgeAcceptance(acceptance: Acceptance, comparison: Comparison): AcceptanceResult {
  const results = acceptance.criteria.map((c, i) => judgeCriterion(c, i, comparison, acceptance.inconclusive))
  const counts: Record<CriterionStatus, number> = { passed: 0, failed: 0, error: 0 }
  for (const r of results) counts[r.status]++
  const passed = counts.failed === 0 && counts.error === 0
  const notPassed = results.filter((r) => r.status !== 'passed')
  const summary = `${counts.passed} of ${results.length} criteri${results.length === 1 ? 'on' : 'a'} passed${notPassed.length > 0 ? `; not passed: ${notPassed.map((r) => r.name).join('; ')}` : ''}`
  return { passed, counts, results, summary }
}
