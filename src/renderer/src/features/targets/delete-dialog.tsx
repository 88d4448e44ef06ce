import { useRef, useState, type ReactElement } from 'react'
import type { TargetView } from '../../../../shared/targets-contract'
import { Dialog } from '../../components/dialog'
import { useAppStore } from '../../store'
import { apiMessage } from '../../store/targets-slice'

/** Asks before a target is forgotten; shows the API's reason when it refuses (a target in use). */
export function DeleteTargetDialog({ view, onClose }: { view: TargetView; onClose: () => void }): ReactElement {
  const removeTarget = useAppStore((s) => s.removeTarget)
  const [refusal, setRefusal] = useState<string>()
  const [busy, setBusy] = useState(false)
  const cancelRef = useRef<HTMLButtonElement>(null)
  const { target, secrets } = view
  const storedSecrets = [secrets.password && 'password', secrets.passphrase && 'key passphrase', secrets.sudo && 'sudo password'].filter(
    (s): s is string => Boolean(s)
  )

  const confirm = async (): Promise<void> => {
    setBusy(true)
    try {
      await removeTarget(target.id)
      onClose()
    } catch (error) {
      setRefusal(apiMessage(error))
      setBusy(false)
      cancelRef.current?.focus()
    }
  }

  return (
    <Dialog
      title={`Delete “${target.name}”?`}
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
            {busy ? 'Deleting…' : 'Delete target'}
          </button>
        </>
      }
    >
      <p>
        VirtBench forgets <strong>{target.name}</strong>
        {storedSecrets.length > 0 ? <> and its stored {joinWords(storedSecrets)}</> : null}. Nothing changes on the machine
        itself, and you can add it again later.
      </p>
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

function joinWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
}
