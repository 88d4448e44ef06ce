import { useRef, useState, type ReactElement, type ReactNode } from 'react'
import { apiMessage } from '../lib/api-message'
import { Dialog } from './dialog'

/**
 * Asks before something is deleted: Cancel has the focus, the delete button says what it deletes,
 * and when main refuses, its reason shows in the dialog ("Not deleted.") and Cancel becomes Close.
 */
export function ConfirmDeleteDialog({
  title,
  confirmLabel,
  onConfirm,
  onClose,
  children
}: {
  title: string
  /** The delete button: "Delete target". */
  confirmLabel: string
  /** Deletes; a rejection is main's refusal, shown in the dialog. */
  onConfirm: () => Promise<void>
  onClose: () => void
  /** What is deleted, and what is not. */
  children: ReactNode
}): ReactElement {
  const [refusal, setRefusal] = useState<string>()
  const [busy, setBusy] = useState(false)
  const cancelRef = useRef<HTMLButtonElement>(null)

  const confirm = async (): Promise<void> => {
    setBusy(true)
    try {
      await onConfirm()
    } catch (error) {
      setRefusal(apiMessage(error))
      setBusy(false)
      cancelRef.current?.focus()
    }
  }

  return (
    <Dialog
      title={title}
      role="alertdialog"
      size="small"
      onCancel={onClose}
      initialFocus={cancelRef}
      footer={
        <>
          <button ref={cancelRef} type="button" className="button" onClick={onClose}>
            {refusal ? 'Close' : 'Cancel'}
          </button>
          <button type="button" className="button button-danger" disabled={busy || refusal !== undefined} onClick={() => void confirm()}>
            {busy ? 'Deleting…' : confirmLabel}
          </button>
        </>
      }
    >
      {children}
      {refusal ? (
        <div className="form-alert" role="alert">
          <p>
            <strong>Not deleted.</strong> {refusal}
          </p>
        </div>
      ) : null}
    </Dialog>
  )
}
