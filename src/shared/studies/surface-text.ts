import { VERDICT_WORDS } from '../compare/summary'
import { formatPct, formatValue } from '../format'
import { VERDICTS } from '../model/comparison'
import { placeText, sizeText, subtestWords, type AbsoluteSurfaceSet, type SurfaceMap, type SurfaceSummary } from './surface-maps'

/**
 * The surfaces for a terminal (`virtbench run`): per test and variant, one line per sub-test with
 * the cells compared, the median relative % over the file size x record size grid, its middle
 * half, the lowest and highest cells (where they are), and the cells' verdicts. The grids
 * themselves are in the app's results and the PDF as heat maps.
 */
export function surfaceText(maps: readonly SurfaceMap[]): string {
  const blocks = new Map<string, SurfaceMap[]>()
  for (const map of maps) {
    const key = `${map.testId}\u0000${map.variant}`
    blocks.set(key, [...(blocks.get(key) ?? []), map])
  }
  return [...blocks.values()].map(blockText).join('\n')
}

/** The columns of a surface summary, in the terminal and in the app's and the PDF's tables. */
export const SUMMARY_HEADER = ['sub-test', 'cells', 'median', 'middle half', 'lowest', 'highest', 'verdicts of the cells']

function blockText(maps: readonly SurfaceMap[]): string {
  const first = maps[0]!
  const title = `${first.testTitle}: ${first.variant} against ${first.baseline}, relative % per file size x record size`
  const body = maps.map(summaryCells)
  const widths = SUMMARY_HEADER.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)))
  const left = new Set([0, 4, 5, 6])
  const line = (cells: string[]): string =>
    cells.map((c, i) => (left.has(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd()
  return `${[title, line(SUMMARY_HEADER), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n')}\n`
}

/** One sub-test's summary as the texts of SUMMARY_HEADER's columns. */
export function summaryCells({ subtest, summary: s }: Pick<SurfaceMap, 'subtest' | 'summary'>): string[] {
  const cells = `${s.compared}${s.oneSided > 0 ? ` (+${s.oneSided} one side)` : ''}`
  const where = (p: SurfaceSummary['lowest']): string => (p ? `${formatPct(p.relativePct)} (${placeText(p)})` : '–')
  const verdicts = VERDICTS.filter((v) => s.counts[v] > 0).map((v) => `${s.counts[v]} ${VERDICT_WORDS[v]}`).join(', ') || 'nothing compared'
  return [
    subtestWords(subtest),
    cells,
    s.medianPct !== undefined ? formatPct(s.medianPct) : '–',
    s.middleHalfPct ? `${s.middleHalfPct[0].toFixed(0)}–${formatPct(s.middleHalfPct[1])}` : '–',
    where(s.lowest),
    where(s.highest),
    verdicts
  ]
}

/** What an empty cell ("—") of the grids means, said once under them. */
export const EMPTY_CELL_NOTE =
  '— no figure: a record larger than its file (iozone measures none), a cell iozone skipped (files over 16 MiB without -z), or, in a relative grid, a cell only one side measured.'

/**
 * Every sub-test's grids for a terminal: per sub-test, each machine's figures (with their unit)
 * and then each variant's relative % against the baseline, file size in rows and record size in
 * columns, "—" where no run produced a figure.
 */
export function surfaceGridsText(sets: readonly AbsoluteSurfaceSet[], maps: readonly SurfaceMap[]): string {
  if (sets.length === 0) return ''
  const blocks = sets.map((set) => {
    const absolute = set.machines.map((m) =>
      gridText(`${subtestWords(set.subtest)} on ${m.side}`, set, (r, c) => {
        const cell = m.cells[r]?.[c]
        return cell ? formatValue(cell.value, set.unit) : undefined
      })
    )
    const relative = maps
      .filter((m) => m.testId === set.testId && m.metric === set.metric)
      .map((m) =>
        gridText(`${subtestWords(set.subtest)}: ${m.variant} against ${m.baseline}, relative %`, m, (r, c) => {
          const cell = m.cells[r]?.[c]
          return cell ? formatPct(cell.relativePct) : undefined
        })
      )
    return [`${set.testTitle} · ${subtestWords(set.subtest)}`, ...absolute, ...relative].join('\n')
  })
  return `${blocks.join('\n')}\n${EMPTY_CELL_NOTE}\n`
}

/** One grid: file sizes down, record sizes across, each cell's text right-aligned, "—" where there is none. */
function gridText(title: string, axes: Pick<AbsoluteSurfaceSet, 'fileSizes' | 'recordSizes'>, text: (row: number, column: number) => string | undefined): string {
  const header = ['file ↓ record →', ...axes.recordSizes.map(sizeText)]
  const body = axes.fileSizes.map((file, r) => [sizeText(file), ...axes.recordSizes.map((_, c) => text(r, c) ?? '—')])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)))
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  return `  ${title}\n${[header, ...body].map((row) => `  ${line(row)}`).join('\n')}\n`
}
