import type { ReactElement } from 'react'
import type { TargetView } from '../../../../shared/targets-contract'
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog'
import { useAppStore } from '../../store'

/** Asks before a target is forgotten; shows the API's reason when it refuses (a target in use). */
export function DeleteTargetDialog({ view, onClose }: { view: TargetView; onClose: () => void }): ReactElement {
  const removeTarget = useAppStore((s) => s.removeTarget)
  const { target, secrets } = view
  const storedSecrets = [secrets.password && 'password', secrets.passphrase && 'key passphrase', secrets.sudo && 'sudo password'].filter(
    (s): s is string => Boolean(s)
  )
  const confirm = async (): Promise<void> => {
    await removeTarget(target.id)
    onClose()
  }

  return (
    <ConfirmDeleteDialog title={`Delete “${target.name}”?`} confirmLabel="Delete target" onConfirm={confirm} onClose={onClose}>
      <p>
        VirtBench forgets <strong>{target.name}</strong>
        {storedSecrets.length > 0 ? <> and its stored {joinWords(storedSecrets)}</> : null}. Nothing changes on the machine
        itself, and you can add it again later.
      </p>
    </ConfirmDeleteDialog>
  )
}

function joinWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`
}
