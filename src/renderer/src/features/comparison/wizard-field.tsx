import type { ReactElement, ReactNode } from 'react'
import { describedByOf, FieldMessages, type ControlProps } from '../../components/field'
import { fieldId } from '../../models/wizard-draft'

/**
 * A labelled control whose id comes from the plan field it edits (`variants.0.scenario.cache`),
 * so a problem listed on the review step can take the user straight to it.
 */
export function WizardField({
  path,
  label,
  hint,
  error,
  className,
  children
}: {
  path: string
  label: ReactNode
  hint?: ReactNode
  error?: string
  className?: string
  children: (control: ControlProps) => ReactNode
}): ReactElement {
  const id = fieldId(path)
  return (
    <div className={['field', error ? 'field-invalid' : undefined, className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': describedByOf(id, error, hint), 'aria-invalid': error ? true : undefined })}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  )
}

/** A group of radios or checkboxes with a legend, its error and hint beside it. */
export function WizardGroup({
  path,
  legend,
  hint,
  error,
  className,
  children
}: {
  path: string
  legend: ReactNode
  hint?: ReactNode
  error?: string
  className?: string
  children: ReactNode
}): ReactElement {
  const id = fieldId(path)
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      className={['wiz-group', error ? 'field-invalid' : undefined, className].filter(Boolean).join(' ')}
      aria-describedby={describedByOf(id, error, hint)}
    >
      <legend>{legend}</legend>
      {children}
      <FieldMessages id={id} error={error} hint={hint} />
    </fieldset>
  )
}

/** Radios as a segmented choice (the look of the target form's choices). */
export function Segmented<V extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  hint
}: {
  legend: string
  name: string
  value: V
  options: readonly { value: V; label: ReactNode }[]
  onChange: (value: V) => void
  hint?: ReactNode
}): ReactElement {
  return (
    <fieldset className="choice">
      <legend>{legend}</legend>
      <div className="choice-options">
        {options.map((option) => (
          <label key={option.value} className={option.value === value ? 'selected' : undefined}>
            <input type="radio" name={name} value={option.value} checked={option.value === value} onChange={() => onChange(option.value)} />
            {option.label}
          </label>
        ))}
      </div>
      {hint ? <p className="field-hint">{hint}</p> : null}
    </fieldset>
  )
}
