import { formatPct, formatValue } from '../../shared/format'
import { isHeadlineMetric } from '../../shared/headline-metrics'
import type { Comparison, ComparisonRow, Flag, VariantCell } from '../../shared/model/comparison'
import type { NetworkMatrix, SimultaneousTable } from '../../shared/network-tables'

/**
 * The overhead table for a terminal: one row per test and metric, the baseline's figure, then per
 * variant its figure and relative % (with the 95 % interval when there is one). Flags are
 * numbered notes under the table, so the cells stay short.
 */
export function comparisonTable(comparison: Comparison, opts: { allMetrics?: boolean; width?: number } = {}): string {
  const rows = comparison.rows.filter((r) => opts.allMetrics || isHeadlineMetric(r.metric))
  if (rows.length === 0) return 'No comparable results: no test succeeded on the baseline and a variant.\n'
  // the terminal keeps each note to its first sentence, and explains each kind of flag once
  const notes: string[] = []
  const why = new Map<string, string>()
  const noteOf = (flag: Flag): string => {
    const { head, rest } = splitFirstSentence(flag.message)
    if (rest && !why.has(flag.kind)) why.set(flag.kind, rest)
    let index = notes.indexOf(head)
    if (index < 0) index = notes.push(head) - 1
    return `[${index + 1}]`
  }
  const header = ['test · metric', `${comparison.baseline} (baseline)`, ...comparison.variants]
  const body = rows.map((row) => [rowTitle(row), row.baseline ? formatValue(row.baseline.value, row.unit) : 'no result', ...row.cells.map((c) => cellText(row, c, noteOf))])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()
  const out = [line(header), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)]
  for (const flag of Object.values(comparison.variantFlags).flat()) noteOf(flag)
  if (body.some((r) => r.some((c) => / ~(\[|$)/.test(c)))) out.push('', '~  the 95 % interval includes 100 %: within noise')
  if (notes.length > 0) out.push('', ...notes.map((n, i) => `[${i + 1}] ${n}`))
  for (const [kind, text] of why) out.push('', `${KIND_TITLES[kind] ?? kind}: ${text}`)
  if (!opts.allMetrics && rows.length < comparison.rows.length) {
    out.push('', `${comparison.rows.length - rows.length} more metrics in the run document (--all-metrics shows them).`)
  }
  return `${out.join('\n')}\n`
}

function rowTitle(row: ComparisonRow): string {
  const labels = Object.entries(row.labels)
    .filter(([k]) => k !== 'repetition')
    .map(([k, v]) => `${k}=${v}`)
  return `${row.testTitle} · ${row.metric}${labels.length ? ` (${labels.join(', ')})` : ''}`
}

function cellText(row: ComparisonRow, cell: VariantCell, noteOf: (f: Flag) => string): string {
  const marks = cell.flags.filter((f) => f.kind !== 'scenario-mismatch').map(noteOf).join('')
  if (!cell.stats || cell.relativePct === undefined) return `no result${marks}`
  const ci = cell.ci95 ? ` [${cell.ci95[0].toFixed(0)}–${cell.ci95[1].toFixed(0)}]` : ''
  const noise = cell.withinNoise ? ' ~' : ''
  return `${formatValue(cell.stats.value, row.unit)}  ${formatPct(cell.relativePct)}${ci}${noise}${marks}`
}

const KIND_TITLES: Record<string, string> = {
  'faster-than-baseline': 'Faster than the baseline',
  noisy: 'Noisy repetitions',
  'scenario-mismatch': 'Declared and detected setup differ',
  'bandwidth-cap': 'A round bandwidth cap',
  missing: 'No result'
}

/** The first sentence of a message (up to ". " followed by a capital), and the rest. */
function splitFirstSentence(message: string): { head: string; rest: string } {
  const match = /\.\s+(?=[A-Z])/.exec(message)
  if (!match) return { head: message, rest: '' }
  return { head: message.slice(0, match.index + 1), rest: message.slice(match.index + match[0].length) }
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
