import { useId, type ReactElement, type ReactNode } from 'react'

/** What a field's control needs to be tied to its label, hint and error. */
export interface ControlProps {
  id: string
  'aria-describedby': string | undefined
  'aria-invalid': true | undefined
}

export interface FieldProps {
  label: ReactNode
  /** A short note under the control: a format, an example, where a value is kept. */
  hint?: ReactNode
  /** What is wrong with the value, shown under the control and read out with it. */
  error?: string
  className?: string
  children: (control: ControlProps) => ReactNode
}

/** A labelled form control with its hint and its error, wired for screen readers. */
export function Field({ label, hint, error, className, children }: FieldProps): ReactElement {
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined
  return (
    <div className={['field', error ? 'field-invalid' : undefined, className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
    </div>
  )
}
