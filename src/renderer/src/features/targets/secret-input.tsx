import { useId, type ReactElement, type ReactNode } from 'react'
import { describedByOf, FieldMessages } from '../../components/field'
import type { SecretDraft } from './target-draft'

/**
 * A password, key passphrase or sudo password. A stored value is never shown or sent back:
 * the field says "stored" and offers to replace or forget it.
 */
export function SecretInput({
  label,
  secret,
  onChange,
  error,
  hint
}: {
  label: string
  secret: SecretDraft
  onChange: (next: SecretDraft) => void
  error?: string
  hint?: ReactNode
}): ReactElement {
  const id = useId()
  const describedBy = describedByOf(id, error, hint)
  const lower = label.toLowerCase()

  return (
    <div className={error ? 'field field-invalid' : 'field'}>
      {secret.mode === 'replace' ? (
        <label htmlFor={id}>{label}</label>
      ) : (
        <span className="field-label" id={`${id}-label`}>
          {label}
        </span>
      )}
      {secret.mode === 'replace' ? (
        <div className="secret-row">
          <input
            id={id}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={secret.value}
            placeholder={secret.stored ? `new ${lower}` : undefined}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            onChange={(event) => onChange({ ...secret, value: event.target.value })}
          />
          {secret.stored ? (
            <button type="button" className="button button-small" onClick={() => onChange({ ...secret, mode: 'keep', value: '' })}>
              Keep stored
            </button>
          ) : null}
        </div>
      ) : (
        <div className="secret-row" role="group" aria-labelledby={`${id}-label`} aria-describedby={describedBy}>
          {secret.mode === 'keep' ? (
            <>
              <span className="chip chip-ok">Stored</span>
              <button type="button" className="button button-small" onClick={() => onChange({ ...secret, mode: 'replace' })}>
                Replace
              </button>
              <button type="button" className="button button-small" onClick={() => onChange({ ...secret, mode: 'clear' })}>
                Clear
              </button>
            </>
          ) : (
            <>
              <span className="chip chip-warn">Removed when you save</span>
              <button type="button" className="button button-small" onClick={() => onChange({ ...secret, mode: 'keep' })}>
                Undo
              </button>
            </>
          )}
        </div>
      )}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  )
}
