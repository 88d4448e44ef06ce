import { useEffect, useId, useRef, type ReactElement, type ReactNode, type RefObject } from 'react'

export interface DialogProps {
  title: ReactNode
  /** Escape, the × button and (when given) Cancel all land here. */
  onCancel: () => void
  children: ReactNode
  /** Buttons along the bottom edge. */
  footer?: ReactNode
  /** What gets the focus when the dialog opens; otherwise the first focusable element. */
  initialFocus?: RefObject<HTMLElement | null>
  /** 'alertdialog' for questions that interrupt (a host key, a deletion). */
  role?: 'dialog' | 'alertdialog'
  size?: 'small' | 'medium' | 'large'
  className?: string
  /** Hides the × button, for questions that need one of the footer's answers. */
  hideClose?: boolean
}

/**
 * A modal dialog on the browser's own <dialog>: the rest of the page becomes inert (so focus
 * stays inside), Escape cancels, and the focus goes back where it was when the dialog closes.
 * Mounting it opens it; unmounting closes it.
 */
export function Dialog({
  title,
  onCancel,
  children,
  footer,
  initialFocus,
  role = 'dialog',
  size = 'medium',
  className,
  hideClose = false
}: DialogProps): ReactElement {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const cancelRef = useRef(onCancel)
  useEffect(() => {
    cancelRef.current = onCancel
  }, [onCancel])

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (!dialog.open) dialog.showModal()
    initialFocus?.current?.focus()
    // Chromium may close a dialog on a repeated Escape without asking; keep React in charge.
    const onClose = (): void => cancelRef.current()
    dialog.addEventListener('close', onClose)
    return () => {
      dialog.removeEventListener('close', onClose)
      if (dialog.open) dialog.close()
      if (previous?.isConnected) previous.focus()
    }
  }, [initialFocus])

  return (
    <dialog
      ref={ref}
      role={role}
      aria-modal="true"
      aria-labelledby={titleId}
      className={['dialog', `dialog-${size}`, className].filter(Boolean).join(' ')}
      onCancel={(event) => {
        event.preventDefault()
        cancelRef.current()
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        {hideClose ? null : (
          <button type="button" className="icon-button" aria-label="Close" onClick={() => cancelRef.current()}>
            ×
          </button>
        )}
      </header>
      <div className="dialog-body">{children}</div>
      {footer ? <footer className="dialog-footer">{footer}</footer> : null}
    </dialog>
  )
}
