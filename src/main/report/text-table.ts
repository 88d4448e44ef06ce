import { FLAG_TITLES } from '../../shared/compare/flags'
import { leadingRows, verdictCounts, verdictCountsText, VERDICT_WORDS } from '../../shared/compare/summary'
import { formatPct, formatValue } from '../../shared/format'
import type { Comparison, ComparisonRow, Flag, VariantCell } from '../../shared/model/comparison'
import type { NetworkMatrix, SimultaneousTable } from '../../shared/network-tables'
import { SCENARIO_LABELS } from '../../shared/model/scenario'
import { MACHINE_WORDS, studyCellText, studyNotes, studyTitle, type NetworkStudy } from '../../shared/studies/network-study'
import { hasSurfaces } from '../../shared/studies/surface-maps'
import { multipleReadings } from '../../shared/studies/multiples'
import { ATOP_HEADER, atopCells, blockTitle, ratioSentence, type DiskActivityBlock } from '../../shared/studies/disk-activity'

/**
 * The overhead table for a terminal: one row per test and primary metric (every metric with
 * --all-metrics), the baseline's figure, then per variant its figure, its relative % (or, for a
 * count, the difference) with the 95 % interval, and its verdict. Only a slower or faster verdict
 * is a finding; "can't tell" says the data cannot tell. Flags are numbered notes under the table,
 * so the cells stay short, and each kind of flag is explained once per explanation.
 */
export function comparisonTable(comparison: Comparison, opts: { allMetrics?: boolean; width?: number } = {}): string {
  const leading = leadingRows(comparison)
  const rows = opts.allMetrics ? comparison.rows : leading
  if (rows.length === 0) {
    // iozone's cells are compared too, but as heat maps and one line per sub-test (surfaceText)
    if (hasSurfaces(comparison)) return 'Every figure of this run is a file size x record size grid: see the tables per sub-test below.\n'
    return 'No comparable results: no test succeeded on the baseline and a variant.\n'
  }
  const notes: string[] = []
  const explanations: { title: string; text: string }[] = []
  const noteOf = (flag: Flag): string => {
    const head = flag.explanation ? flag.message.slice(0, flag.message.length - flag.explanation.length).trim() : flag.message
    if (flag.explanation && !explanations.some((e) => e.text === flag.explanation)) explanations.push({ title: FLAG_TITLES[flag.kind], text: flag.explanation })
    let index = notes.indexOf(head)
    if (index < 0) index = notes.push(head) - 1
    return `[${index + 1}]`
  }
  const header = ['test · metric', `${comparison.baseline} (baseline)`, ...comparison.variants]
  const parts = rows.map((row) => row.cells.map((c) => cellParts(row, c, noteOf)))
  // a variant's cells line up part by part: the figures and percentages right-aligned, the
  // verdicts and the note marks left-aligned after them, however many notes a cell has
  const partWidths = comparison.variants.map((_, v) => PART_ALIGN.map((_, p) => Math.max(0, ...parts.map((r) => (r[v]?.[p] ?? '').length))))
  const joined = (cells: string[][]): string[] =>
    comparison.variants.map((_, v) => {
      const cell = cells[v]
      if (!cell) return ''
      const widths = partWidths[v] as number[]
      return cell
        .map((text, p) => (PART_ALIGN[p] === 'right' ? text.padStart(widths[p] ?? 0) : text.padEnd(widths[p] ?? 0)))
        .join(' ')
        .trimEnd()
    })
  const body = rows.map((row, r) => [rowTitle(row), row.baseline ? formatValue(row.baseline.value, row.unit) : 'no result', ...joined(parts[r] ?? [])])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : i === 1 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd()
  const out = [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)]
  out.push('', ...comparison.variants.map((v, i) => `${v}: ${verdictCountsText(verdictCounts(leading, i))} (${leading === comparison.rows ? 'all figures' : 'primary figures'})`))
  out.push(...multipleLines(comparison, rows))
  for (const flag of [...comparison.baselineFlags, ...Object.values(comparison.variantFlags).flat()]) noteOf(flag)
  const legend = [`verdicts: the whole 95 % interval below 100 % is slower, above is faster, within 100 % ± ${comparison.marginPct} % is same; otherwise the data cannot tell`]
  if (rows.some((r) => r.source === 'derived')) legend.push('*  derived: computed by VirtBench from what the tool printed')
  if (rows.some((r) => r.comparison === 'difference')) legend.push('Δ  a count or share, compared as variant minus baseline')
  out.push('', ...legend)
  if (notes.length > 0) out.push('', ...notes.map((n, i) => `[${i + 1}] ${n}`))
  for (const e of explanations) out.push('', `${e.title}: ${e.text}`)
  if (!opts.allMetrics && rows.length < comparison.rows.length) {
    out.push('', `${comparison.rows.length - rows.length} more metrics in the run document (--all-metrics shows them).`)
  }
  return `${out.join('\n')}\n`
}

/**
 * The slower and faster figures as multiples of the baseline's, as study 003 reads them ("the
 * test runs 11 times faster on the SSD"): one line per figure and variant, with the interval.
 */
function multipleLines(comparison: Comparison, rows: readonly ComparisonRow[]): string[] {
  const lines = multipleReadings(comparison, rows).map((m) => `${rowTitle(m.row)}: ${m.variant} ${m.text}`)
  if (lines.length === 0) return []
  return ['', 'As multiples of the baseline (95 % interval in brackets; slower and faster figures only)', ...lines]
}

function rowTitle(row: ComparisonRow): string {
  const labels = Object.entries(row.labels)
    .filter(([k]) => k !== 'repetition')
    .map(([k, v]) => `${k}=${v}`)
  const marks = `${row.source === 'derived' ? '*' : ''}${row.comparison === 'difference' ? ' Δ' : ''}`
  return `${row.testTitle} · ${row.metric}${marks}${labels.length ? ` (${labels.join(', ')})` : ''}`
}

/** How each part of a variant's cell is aligned: its figure, its relative % or difference, the interval, the verdict, the note marks. */
const PART_ALIGN = ['right', 'right', 'right', 'left', 'left'] as const

function cellParts(row: ComparisonRow, cell: VariantCell, noteOf: (f: Flag) => string): string[] {
  const marks = cell.flags.filter((f) => f.kind !== 'scenario-mismatch' && f.kind !== 'same-machine').map(noteOf).join('')
  if (!cell.stats) return ['no result', '', '', '', marks]
  const verdict = VERDICT_WORDS[cell.verdict]
  const value = formatValue(cell.stats.value, row.unit)
  if (row.comparison === 'difference') {
    const diff = cell.difference !== undefined ? signed(cell.difference, row) : ''
    const ci = cell.ci95 ? `[${signed(cell.ci95[0], row)}…${signed(cell.ci95[1], row)}]` : ''
    return [value, diff, ci, verdict, marks]
  }
  if (cell.relativePct === undefined) return [value, '', '', verdict, marks]
  const ci = cell.ci95 ? `[${cell.ci95[0].toFixed(0)}–${cell.ci95[1].toFixed(0)}]` : ''
  return [value, formatPct(cell.relativePct), ci, verdict, marks]
}

function signed(value: number, row: ComparisonRow): string {
  return `${value > 0 ? '+' : value < 0 ? '−' : '±'}${formatValue(Math.abs(value), row.unit)}`
}


/**
 * The network matrix for a terminal: one grid per test and metric, rows are the client (source),
 * columns the server (destination), as study 001's classic network table.
 */
export function networkMatrixText(matrices: readonly NetworkMatrix[]): string {
  return matrices
    .map((m) => {
      const header = [`${m.testTitle} · ${metricTitle(m)}  (rows: from, columns: to)`, ...m.targets]
      const body = m.targets.map((from) => [
        from,
        ...m.targets.map((to) => {
          if (from === to) return '·'
          const cell = m.cells.find((c) => c.from === from && c.to === to)
          return cell?.value !== undefined ? formatValue(cell.value, m.unit) : 'no result'
        })
      ])
      return grid(header, body)
    })
    .join('\n')
}

/** Clients run at once against one peer (study 000's contention test): each client's share and the sum. */
export function simultaneousText(tables: readonly SimultaneousTable[]): string {
  return tables
    .map((t) => {
      const header = [`${t.testTitle} · ${metricTitle(t)}  (all clients at once against ${t.peer})`, 'value', 'n']
      const body = t.clients.map((c) => [c.client, c.value !== undefined ? formatValue(c.value, t.unit) : 'no result', String(c.values.length)])
      if (t.total) body.push(['all clients together', t.total.value !== undefined ? formatValue(t.total.value, t.unit) : 'no result', String(t.total.values.length)])
      return grid(header, body)
    })
    .join('\n')
}

function metricTitle(m: { metric: string; direction?: string }): string {
  return m.direction ? `${m.metric} (${m.direction})` : m.metric
}

function grid(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()
  return `${[line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n')}\n`
}

/**
 * Study 004's atop table for a terminal: per guest job, its LVM and disk lines, then its physical
 * host's, each with busy %, requests and bytes per second, avio and the average request size,
 * then the logical-to-physical ratio (or why there is none).
 */
export function diskActivityText(blocks: readonly DiskActivityBlock[]): string {
  return blocks
    .map((block) => {
      const body = block.lines.map((line) => [line.view, ...atopCells(line)])
      const header = ['seen by', ...ATOP_HEADER.map((h, i) => (i === 0 ? 'layer' : h))]
      const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)))
      const line = (cells: string[]): string => cells.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()
      const ratio = block.ratio ? `${ratioSentence(block.ratio)}.` : block.noRatio!
      return `${[blockTitle(block), line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line), ratio].join('\n')}\n`
    })
    .join('\n')
}

/**
 * Study 001's network tables for a terminal: per test and metric, the Source x Destination grid by
 * kind of machine (one per network path), each cell with its % of physical → physical, then the
 * path table (one row per path), then why a cell has no figure or no %, and the caps found.
 */
export function networkStudyText(studies: readonly NetworkStudy[]): string {
  return studies
    .map((study) => {
      const parts = study.grids.map((g) => {
        const header = [`${g.pathLabel ? `${g.pathLabel}: ` : ''}from ↓ to →`, ...STUDY_KINDS.map((k) => MACHINE_WORDS[k])]
        const body = STUDY_KINDS.map((from, r) => [MACHINE_WORDS[from], ...STUDY_KINDS.map((_, c) => studyCellText(g.cells[r * 2 + c]!, study.unit))])
        return grid(header, body)
      })
      if (study.paths.length > 0) parts.push(grid(['Scenario', 'Performance'], study.paths.map((row) => [row.label, studyCellText(row, study.unit)])))
      const notes = studyNotes(study)
      const reference = study.reference ? ` (% of physical → physical${study.reference.path ? `, ${SCENARIO_LABELS.network[study.reference.path]}` : ''})` : ''
      return `${studyTitle(study)}${reference}\n${parts.join('\n')}${notes.length > 0 ? `${notes.map((n) => `- ${n}`).join('\n')}\n` : ''}`
    })
    .join('\n')
}

const STUDY_KINDS = ['host', 'guest'] as const
