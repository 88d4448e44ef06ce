import type { ReactElement } from 'react'
import type { DetectedOs } from '../../../../shared/model/target'
import { osDetails, osSummary } from './describe'

/** A target's detected system in a table cell, or that no connection test has told it yet. */
export function OsCell({ os }: { os: DetectedOs | undefined }): ReactElement {
  return (
    <td className="target-os">
      {os ? (
        <>
          {osSummary(os)}
          <span className="cell-note">{osDetails(os)}</span>
        </>
      ) : (
        <span className="muted">not tested yet</span>
      )}
    </td>
  )
}
