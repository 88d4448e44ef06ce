import { useId, useRef, useState, type FormEvent, type ReactElement } from 'react'
import type { Preset } from '../../../../shared/model/plan'
import type { PresetSummary } from '../../../../shared/presets-contract'
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog'
import { Dialog } from '../../components/dialog'
import { Field } from '../../components/field'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'

/** Asks the copy's name, then duplicates; a refusal (a name already taken) shows beside the field. */
export function DuplicatePresetDialog({
  preset,
  onDuplicated,
  onClose
}: {
  preset: PresetSummary
  onDuplicated: (copy: PresetSummary) => void
  onClose: () => void
}): ReactElement {
  const duplicatePreset = useAppStore((s) => s.duplicatePreset)
  const [name, setName] = useState(`${preset.name} (copy)`)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const formId = useId()

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    const wanted = name.trim()
    if (!wanted) {
      setError('A preset needs a name.')
      inputRef.current?.focus()
      return
    }
    setBusy(true)
    try {
      onDuplicated(await duplicatePreset(preset.id, wanted))
    } catch (problem) {
      setError(apiMessage(problem))
      setBusy(false)
      inputRef.current?.focus()
    }
  }

  return (
    <Dialog
      title={`Duplicate “${preset.name}”`}
      size="small"
      onCancel={onClose}
      initialFocus={inputRef}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={busy}>
            {busy ? 'Duplicating…' : 'Duplicate'}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={(e) => void submit(e)} noValidate>
        <Field label="Name of the copy" hint="The copy is a saved preset: you can rename it, change it in the wizard and delete it." error={error}>
          {(control) => (
            <input
              {...control}
              ref={inputRef}
              type="text"
              value={name}
              maxLength={120}
              autoComplete="off"
              onChange={(e) => {
                setName(e.target.value)
                setError(undefined)
              }}
            />
          )}
        </Field>
      </form>
    </Dialog>
  )
}

/** Asks before a saved preset is deleted, naming it; gives its document back for an undo. */
export function DeletePresetDialog({
  preset,
  onDeleted,
  onClose
}: {
  preset: PresetSummary
  onDeleted: (document: Preset) => void
  onClose: () => void
}): ReactElement {
  const removePreset = useAppStore((s) => s.removePreset)
  return (
    <ConfirmDeleteDialog
      title={`Delete the preset “${preset.name}”?`}
      confirmLabel="Delete preset"
      onConfirm={async () => onDeleted(await removePreset(preset.id))}
      onClose={onClose}
    >
      <p>
        The file of <strong>{preset.name}</strong> is removed from VirtBench’s presets folder. Runs made from it keep their results
        and their plan. You can undo this until you leave the page.
      </p>
    </ConfirmDeleteDialog>
  )
}
