import type { ReactElement } from 'react'
import type { Comparison } from '../../../../shared/model/comparison'

export interface OverheadTableProps {
  comparison: Comparison
  /** Headline metrics only (default) or every metric. */
  allMetrics?: boolean
  /** Rows whose results are still to come, by test id: shown as placeholders of the same height. */
  pendingTests?: { id: string; title: string }[]
}

/** Study 001's table: value and relative % per metric, baseline and each variant. (stub: results helper) */
export function OverheadTable({ comparison }: OverheadTableProps): ReactElement {
  return <table aria-label="Overhead">{comparison.rows.length}</table>
}
