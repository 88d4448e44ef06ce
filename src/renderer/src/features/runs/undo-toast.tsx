import type { ReactElement } from 'react'
import { useAppStore } from '../../store'

/** "Deleted “Nightly”. Undo": one per run waiting out its undo delay (UNDO_MS). */
export function UndoToasts(): ReactElement | null {
  const pending = useAppStore((s) => s.pendingDeletions)
  const undoDelete = useAppStore((s) => s.undoDelete)
  if (pending.length === 0) return null
  return (
    <div className="runs-undo-toasts" aria-live="polite">
      {pending.map((p, i) => (
        <div key={p.id} className="runs-undo-toast" role="status">
          <span>Deleted “{p.name}”.</span>
          <button
            type="button"
            className="button button-small"
            // The newest deletion's Undo takes the focus, so a keyboard can take it back at once.
            autoFocus={i === pending.length - 1}
            aria-label={`Undo deleting ${p.name}`}
            onClick={() => undoDelete(p.id)}
          >
            Undo
          </button>
        </div>
      ))}
    </div>
  )
}
