import { useEffect, useId, useRef, useState, type FormEvent, type ReactElement, type ReactNode } from 'react'
import { ApiCallError } from '../../../../shared/contract'
import type { AuthMethod, SudoMode } from '../../../../shared/model/target'
import type { TargetView } from '../../../../shared/targets-contract'
import { Dialog } from '../../components/dialog'
import { Field } from '../../components/field'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'
import { AUTH_LABELS, SUDO_LABELS } from './describe'
import { SecretInput } from './secret-input'
import {
  draftFromView,
  emptyDraft,
  issuesToErrors,
  labelRow,
  localProblems,
  newTargetPayload,
  patchPayload,
  secretsInUse,
  type FieldErrors,
  type FieldKey,
  type TargetDraft
} from './target-draft'

const AUTH_METHODS = Object.keys(AUTH_LABELS) as AuthMethod[]
const SUDO_MODES = Object.keys(SUDO_LABELS) as SudoMode[]

/** Adds a target (no `editing`) or edits one; closes with the saved target, or with nothing. */
export function TargetFormDialog({
  editing,
  onClose
}: {
  editing?: TargetView
  onClose: (saved?: TargetView) => void
}): ReactElement {
  const targets = useAppStore((s) => s.targets) ?? []
  const backend = useAppStore((s) => s.secretsBackend)
  const addTarget = useAppStore((s) => s.addTarget)
  const updateTarget = useAppStore((s) => s.updateTarget)
  const [draft, setDraft] = useState<TargetDraft>(() => (editing ? draftFromView(editing) : emptyDraft()))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [formErrors, setFormErrors] = useState<string[]>([])
  const [saving, setSaving] = useState(false)
  const [attempt, setAttempt] = useState(0)
  const formRef = useRef<HTMLFormElement>(null)
  const nameRef = useRef<HTMLInputElement>(null)
  const formId = useId()

  useEffect(() => {
    if (attempt === 0) return
    const form = formRef.current
    const target = form?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form?.querySelector<HTMLElement>('.form-alert')
    target?.focus()
  }, [attempt])

  const selfId = editing?.target.id
  const hosts = targets.filter((v) => v.target.role === 'host' && v.target.id !== selfId)
  const jumpHosts = targets.filter((v) => v.target.kind === 'ssh' && v.target.id !== selfId)
  const inUse = secretsInUse(draft)
  const keptIn = backend ? `Kept in ${backend.name}; never shown again.` : 'Kept in the secret store; never shown again.'

  const set = <K extends keyof TargetDraft>(key: K, value: TargetDraft[K], errorKey: FieldKey = key as FieldKey): void => {
    setDraft((d) => ({ ...d, [key]: value }))
    setErrors((e) => (e[errorKey] ? { ...e, [errorKey]: undefined } : e))
  }

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    if (saving) return
    const local = localProblems(draft)
    if (Object.keys(local).length > 0) {
      setErrors(local)
      setFormErrors([])
      setAttempt((n) => n + 1)
      return
    }
    setSaving(true)
    try {
      if (editing) {
        const { patch, secrets } = patchPayload(draft)
        onClose(await updateTarget(editing.target.id, patch, secrets))
      } else {
        const { target, secrets } = newTargetPayload(draft)
        onClose(await addTarget(target, secrets))
      }
    } catch (error) {
      if (error instanceof ApiCallError && error.code === 'invalid-request' && error.issues?.length) {
        const { fields, other } = issuesToErrors(error.issues, draft)
        setErrors(fields)
        setFormErrors(other)
      } else {
        setErrors({})
        setFormErrors([apiMessage(error)])
      }
      setSaving(false)
      setAttempt((n) => n + 1)
    }
  }

  const fieldErrorCount = Object.values(errors).filter(Boolean).length

  return (
    <Dialog
      title={editing ? `Edit “${editing.target.name}”` : 'Add target'}
      onCancel={() => onClose()}
      initialFocus={nameRef}
      size="large"
      footer={
        <>
          <button type="button" className="button" onClick={() => onClose()}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={saving}>
            {saving ? 'Saving…' : editing ? 'Save changes' : 'Add target'}
          </button>
        </>
      }
    >
      <form id={formId} ref={formRef} className="target-form" noValidate onSubmit={(e) => void submit(e)}>
        {formErrors.length > 0 || fieldErrorCount > 0 ? (
          <div className="form-alert" role="alert" tabIndex={-1}>
            {formErrors.length > 0 ? (
              formErrors.map((message) => <p key={message}>{message}</p>)
            ) : (
              <p>
                {fieldErrorCount === 1 ? 'One field needs' : `${fieldErrorCount} fields need`} a change; see the
                messages below.
              </p>
            )}
          </div>
        ) : null}

        <Section title="Target">
          <Field label="Name" error={errors.name} hint="Unique; shown in comparisons and results.">
            {(control) => (
              <input {...control} ref={nameRef} type="text" value={draft.name} autoComplete="off" spellCheck={false} onChange={(e) => set('name', e.target.value)} />
            )}
          </Field>
          <Choice
            legend="Reached"
            name="kind"
            value={draft.kind}
            error={errors.kind}
            options={[
              { value: 'ssh', label: 'Over SSH' },
              { value: 'local', label: 'This computer' }
            ]}
            onChange={(kind) => set('kind', kind)}
          />
          <Choice
            legend="Role"
            name="role"
            value={draft.role}
            error={errors.role}
            options={[
              { value: 'host', label: 'Physical host' },
              { value: 'guest', label: 'Guest (virtual machine)' }
            ]}
            onChange={(role) => set('role', role)}
          />
          {draft.role === 'guest' ? (
            <Field
              label="Runs on host"
              error={errors.hostId}
              hint={hosts.length === 0 ? 'No physical host is saved yet; add it first to compare this guest with it.' : 'The physical host whose numbers are this guest’s 100 % baseline.'}
            >
              {(control) => (
                <select {...control} value={draft.hostId} onChange={(e) => set('hostId', e.target.value)}>
                  <option value="">Not set</option>
                  {hosts.map((v) => (
                    <option key={v.target.id} value={v.target.id}>
                      {v.target.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
        </Section>

        {draft.kind === 'ssh' ? (
          <Section title="SSH connection">
            <div className="field-row field-row-address">
              <Field label="Address" error={errors.address} hint="Host name, IPv4 or IPv6 address.">
                {(control) => (
                  <input {...control} type="text" value={draft.address} autoComplete="off" spellCheck={false} onChange={(e) => set('address', e.target.value)} />
                )}
              </Field>
              <Field label="Port" error={errors.port} className="field-port">
                {(control) => (
                  <input {...control} type="text" inputMode="numeric" value={draft.port} autoComplete="off" onChange={(e) => set('port', e.target.value)} />
                )}
              </Field>
              <Field label="User" error={errors.user}>
                {(control) => (
                  <input {...control} type="text" value={draft.user} autoComplete="off" spellCheck={false} onChange={(e) => set('user', e.target.value)} />
                )}
              </Field>
            </div>
            <Field label="Log in with" error={errors.authMethod}>
              {(control) => (
                <select {...control} value={draft.authMethod} onChange={(e) => set('authMethod', e.target.value as AuthMethod)}>
                  {AUTH_METHODS.map((method) => (
                    <option key={method} value={method}>
                      {AUTH_LABELS[method]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {draft.authMethod === 'agent' ? (
              <p className="field-hint">Uses the keys loaded in your running ssh-agent (SSH_AUTH_SOCK).</p>
            ) : null}
            {draft.authMethod === 'key' ? (
              <>
                <Field label="Private key file" error={errors.keyPath} hint="Path on this computer, for example ~/.ssh/id_ed25519.">
                  {(control) => (
                    <input {...control} type="text" className="mono" value={draft.keyPath} autoComplete="off" spellCheck={false} onChange={(e) => set('keyPath', e.target.value)} />
                  )}
                </Field>
                <label className="check">
                  <input type="checkbox" checked={draft.hasPassphrase} onChange={(e) => set('hasPassphrase', e.target.checked)} />
                  The key is protected by a passphrase
                </label>
                {inUse.passphrase ? (
                  <SecretInput label="Key passphrase" secret={draft.passphrase} error={errors.passphrase} hint={keptIn} onChange={(s) => set('passphrase', s)} />
                ) : null}
              </>
            ) : null}
            {inUse.password ? (
              <SecretInput
                label="Password"
                secret={draft.password}
                error={errors.password}
                hint={draft.authMethod === 'keyboard-interactive' ? `Answers the server’s password prompt. ${keptIn}` : keptIn}
                onChange={(s) => set('password', s)}
              />
            ) : null}
            <Field
              label="Jump host"
              error={errors.jumpHostId}
              hint={jumpHosts.length === 0 ? 'Other SSH targets can serve as jump hosts (like ProxyJump).' : 'Connect through this SSH target first (like ProxyJump); it may have a jump host of its own.'}
            >
              {(control) => (
                <select {...control} value={draft.jumpHostId} onChange={(e) => set('jumpHostId', e.target.value)}>
                  <option value="">None: connect directly</option>
                  {jumpHosts.map((v) => (
                    <option key={v.target.id} value={v.target.id}>
                      {v.target.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </Section>
        ) : null}

        <Section title="Root commands">
          <Field label="sudo" error={errors.sudo} hint="Some benchmarks (drop caches, raw devices, installing tools) need root.">
            {(control) => (
              <select {...control} value={draft.sudo} onChange={(e) => set('sudo', e.target.value as SudoMode)}>
                {SUDO_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {SUDO_LABELS[mode]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {inUse.sudoPassword ? (
            <SecretInput label="sudo password" secret={draft.sudoPassword} error={errors.sudoPassword} hint={keptIn} onChange={(s) => set('sudoPassword', s)} />
          ) : null}
        </Section>

        <Section title="Addresses for network tests" note="Optional. Where other machines reach this one, if not at the SSH address.">
          <div className="field-row">
            <Field label="Private address" error={errors.privateAddress} hint="LAN or VPC address.">
              {(control) => (
                <input {...control} type="text" value={draft.privateAddress} autoComplete="off" spellCheck={false} onChange={(e) => set('privateAddress', e.target.value)} />
              )}
            </Field>
            <Field label="Public address" error={errors.publicAddress} hint="For example a cloud elastic IP.">
              {(control) => (
                <input {...control} type="text" value={draft.publicAddress} autoComplete="off" spellCheck={false} onChange={(e) => set('publicAddress', e.target.value)} />
              )}
            </Field>
          </div>
        </Section>

        <LabelsEditor draft={draft} errors={errors} setDraft={setDraft} setErrors={setErrors} />
      </form>
    </Dialog>
  )
}

function Section({ title, note, children }: { title: string; note?: string; children: ReactNode }): ReactElement {
  return (
    <fieldset className="form-section">
      <legend>{title}</legend>
      {note ? <p className="field-hint">{note}</p> : null}
      {children}
    </fieldset>
  )
}

function Choice<V extends string>({
  legend,
  name,
  value,
  options,
  error,
  onChange
}: {
  legend: string
  name: string
  value: V
  options: { value: V; label: string }[]
  error?: string
  onChange: (value: V) => void
}): ReactElement {
  const errorId = useId()
  return (
    <fieldset className={error ? 'choice field-invalid' : 'choice'} aria-describedby={error ? errorId : undefined}>
      <legend>{legend}</legend>
      <div className="choice-options">
        {options.map((option) => (
          <label key={option.value} className={option.value === value ? 'selected' : undefined}>
            <input type="radio" name={name} value={option.value} checked={option.value === value} onChange={() => onChange(option.value)} />
            {option.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

function LabelsEditor({
  draft,
  errors,
  setDraft,
  setErrors
}: {
  draft: TargetDraft
  errors: FieldErrors
  setDraft: (change: (d: TargetDraft) => TargetDraft) => void
  setErrors: (change: (e: FieldErrors) => FieldErrors) => void
}): ReactElement {
  const addRef = useRef<HTMLButtonElement>(null)
  const editRow = (rowId: number, change: { key?: string; value?: string }): void => {
    setDraft((d) => ({ ...d, labels: d.labels.map((r) => (r.rowId === rowId ? { ...r, ...change } : r)) }))
    setErrors((e) => ({ ...e, [`labels.${rowId}`]: undefined, labels: undefined }))
  }
  const removeRow = (rowId: number): void => {
    setDraft((d) => ({ ...d, labels: d.labels.filter((r) => r.rowId !== rowId) }))
    addRef.current?.focus()
  }
  return (
    <fieldset className="form-section">
      <legend>Labels</legend>
      <p className="field-hint">
        Facts about this machine that results are grouped by, for example <code>hypervisor=kvm</code> or <code>disk=nvme</code>.
      </p>
      {errors.labels ? <p className="field-error">{errors.labels}</p> : null}
      {draft.labels.length > 0 ? (
        <ul className="label-rows">
          {draft.labels.map((row, index) => {
            const error = errors[`labels.${row.rowId}`]
            const errorId = `label-error-${row.rowId}`
            const shown = row.key.trim() || `${index + 1}`
            return (
              <li key={row.rowId} className={error ? 'field-invalid' : undefined}>
                <div className="label-row">
                  <input
                    type="text"
                    className="mono"
                    aria-label={`Label ${index + 1} name`}
                    placeholder="name"
                    value={row.key}
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? errorId : undefined}
                    onChange={(e) => editRow(row.rowId, { key: e.target.value })}
                  />
                  <span aria-hidden="true">=</span>
                  <input
                    type="text"
                    className="mono"
                    aria-label={`Label ${index + 1} value`}
                    placeholder="value"
                    value={row.value}
                    autoComplete="off"
                    spellCheck={false}
                    onChange={(e) => editRow(row.rowId, { value: e.target.value })}
                  />
                  <button type="button" className="icon-button" aria-label={`Remove label ${shown}`} onClick={() => removeRow(row.rowId)}>
                    ×
                  </button>
                </div>
                {error ? (
                  <p id={errorId} className="field-error">
                    {error}
                  </p>
                ) : null}
              </li>
            )
          })}
        </ul>
      ) : null}
      <button ref={addRef} type="button" className="button button-small" onClick={() => setDraft((d) => ({ ...d, labels: [...d.labels, labelRow()] }))}>
        Add label
      </button>
    </fieldset>
  )
}
