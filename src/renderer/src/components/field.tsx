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
  return (
    <div className={['field', error ? 'field-invalid' : undefined, className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': describedByOf(id, error, hint), 'aria-invalid': error ? true : undefined })}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  )
}

/** The ids of a field's error and hint, for its control's aria-describedby. */
export function describedByOf(id: string, error: ReactNode, hint: ReactNode): string | undefined {
  return [error ? `${id}-error` : undefined, hint ? `${id}-hint` : undefined].filter(Boolean).join(' ') || undefined
}

/** A field's error and hint lines, with the ids `describedByOf` names. */
export function FieldMessages({ id, error, hint }: { id: string; error?: ReactNode; hint?: ReactNode }): ReactElement {
  return (
    <>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      ) : null}
    </>
  )
}
