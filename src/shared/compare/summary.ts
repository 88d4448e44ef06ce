import type { Comparison, ComparisonRow, VariantCell, Verdict } from '../model/comparison'
import { VERDICTS } from '../model/comparison'

/** How many cells got each verdict. */
export type VerdictCounts = Record<Verdict, number>

/**
 * The rows that lead tables and summaries: the primary figures (what each test exists to
 * measure), except those of a surface (iozone's file size x record size), which are drawn as heat
 * maps rather than tabulated cell by cell. A comparison whose run defines no primaries (a
 * document built by hand) leads with all its rows.
 */
export function leadingRows(comparison: Comparison): ComparisonRow[] {
  if (!comparison.rows.some((r) => r.primary)) return comparison.rows
  return comparison.rows.filter((r) => r.primary && !r.roles?.includes('surface'))
}

/** The verdicts of one variant's cells among `rows` (its column). */
export function verdictCounts(rows: readonly ComparisonRow[], variantIndex: number): VerdictCounts {
  const counts: VerdictCounts = { slower: 0, faster: 0, same: 0, inconclusive: 0 }
  for (const row of rows) {
    const cell = row.cells[variantIndex]
    if (cell) counts[cell.verdict]++
  }
  return counts
}

/** "3 slower, 1 same, 2 inconclusive": the non-zero counts in a fixed order; "nothing compared" when all are zero. */
export function verdictCountsText(counts: VerdictCounts): string {
  const parts = VERDICTS.filter((v) => counts[v] > 0).map((v) => `${counts[v]} ${v}`)
  return parts.length > 0 ? parts.join(', ') : 'nothing compared'
}

/** The words a cell's verdict is shown with: "slower", "same", "can't tell". */
export const VERDICT_WORDS: Readonly<Record<Verdict, string>> = {
  slower: 'slower',
  faster: 'faster',
  same: 'same',
  inconclusive: "can't tell"
}

/** Whether a cell's figure may be read as a finding (colour, overhead): only a slower or faster verdict. */
export function isFinding(cell: Pick<VariantCell, 'verdict'>): boolean {
  return cell.verdict === 'slower' || cell.verdict === 'faster'
}
