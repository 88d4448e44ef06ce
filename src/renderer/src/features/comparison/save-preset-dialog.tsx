import { useId, useRef, useState, type FormEvent, type ReactElement } from 'react'
import { ApiCallError } from '../../../../shared/contract'
import { PRESET_KIND, PRESET_VERSION, PresetSchema } from '../../../../shared/model/plan'
import { Dialog } from '../../components/dialog'
import { Field } from '../../components/field'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'
import { draftName, fieldId, localIssues, normalizedPath, placeOf, STEPS, stepOfPath, type StepIndex } from '../../models/wizard-draft'

interface Problem {
  path: string
  message: string
}

/**
 * "Save as preset": asks a name (the preset's plan is named so; the comparison in the wizard keeps
 * its own name, review and preflight) and an optional description, and
 * saves the wizard's plan through main. A preset is a complete plan: problems are listed with a
 * way to the field concerned. Secrets never reach a preset: the plan names targets only.
 */
export function SavePresetDialog({
  onClose,
  onGo
}: {
  onClose: (savedName?: string) => void
  onGo: (step: StepIndex, field: string) => void
}): ReactElement {
  const draft = useAppStore((s) => s.wizardDraft)
  const targets = useAppStore((s) => s.targets)
  const wizardPlan = useAppStore((s) => s.wizardPlan)
  const savePreset = useAppStore((s) => s.savePreset)
  const [name, setName] = useState(() => draftName(draft))
  const [description, setDescription] = useState('')
  const [nameError, setNameError] = useState<string | undefined>()
  const [problems, setProblems] = useState<Problem[]>([])
  const [failure, setFailure] = useState<string | undefined>()
  const [saving, setSaving] = useState(false)
  const nameRef = useRef<HTMLInputElement>(null)
  const formId = useId()

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    if (saving) return
    setFailure(undefined)
    if (name.trim() === '') {
      setNameError('Give the preset a name.')
      setProblems([])
      nameRef.current?.focus()
      return
    }
    setNameError(undefined)
    const local = localIssues(draft, targets?.map((v) => v.target.name)).filter((i) => i.path !== 'name')
    const preset = PresetSchema.safeParse({ kind: PRESET_KIND, version: PRESET_VERSION, plan: { ...wizardPlan(), name: name.trim() } })
    const found: Problem[] = [...local]
    if (!preset.success) {
      for (const issue of preset.error.issues) {
        const path = normalizedPath(issue.path.map(String).join('.'))
        if (path === 'name') setNameError(issue.message)
        else if (!found.some((p) => p.path === path)) found.push({ path, message: issue.message })
      }
    }
    if (found.length > 0 || !preset.success) {
      setProblems(found)
      return
    }
    setProblems([])
    setSaving(true)
    try {
      const summary = await savePreset(name, description)
      onClose(summary.name)
    } catch (error) {
      if (error instanceof ApiCallError && error.issues?.length) {
        const byField = error.issues.map((i) => ({ path: normalizedPath(i.path.replace(/^preset\./, '')), message: i.message }))
        const onName = byField.find((p) => p.path === 'name')
        setNameError(onName?.message)
        setProblems(byField.filter((p) => p.path !== 'name'))
        setFailure(apiMessage(error))
      } else {
        setFailure(apiMessage(error))
      }
      setSaving(false)
    }
  }

  return (
    <Dialog
      title="Save as preset"
      onCancel={() => onClose()}
      initialFocus={nameRef}
      footer={
        <>
          <button type="button" className="button" onClick={() => onClose()}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button button-primary" aria-disabled={saving ? true : undefined}>
            {saving ? 'Saving…' : 'Save preset'}
          </button>
        </>
      }
    >
      <form id={formId} className="wiz-save-form" noValidate onSubmit={(e) => void submit(e)}>
        <p className="muted">
          A preset keeps this comparison to run again: its targets by name, scenarios, tests, repetitions and where tests write. Logins and secrets
          stay with the targets, never in a preset.
        </p>
        <Field label="Preset name" error={nameError} hint="Also the name of the comparisons it runs; this one keeps its name.">
          {(control) => <input {...control} ref={nameRef} type="text" value={name} autoComplete="off" onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Description (optional)" hint="What this comparison is for, what to look at in its results.">
          {(control) => <textarea {...control} rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        {failure ? (
          <p className="form-alert" role="alert">
            The preset was not saved: {failure}
          </p>
        ) : null}
        {problems.length > 0 ? (
          <div className="form-alert wiz-save-problems" role="alert">
            <p>A preset is a complete comparison; {problems.length === 1 ? 'one thing needs' : `${problems.length} things need`} a change first:</p>
            <ul>
              {problems.map((p) => {
                const step = stepOfPath(p.path)
                return (
                  <li key={`${p.path}:${p.message}`}>
                    <span>
                      {placeOf(p.path, draft)}: {p.message}
                    </span>{' '}
                    <button type="button" className="button button-small" onClick={() => onGo(step, fieldId(p.path))}>
                      Fix in {STEPS[step].title}
                    </button>
                  </li>
                )
              })}
            </ul>
          </div>
        ) : null}
      </form>
    </Dialog>
  )
}
