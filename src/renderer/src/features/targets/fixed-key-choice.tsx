import { useState, type ReactElement } from 'react'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'

/**
 * Where the only encryption has a fixed key (Linux without a keyring), secrets are kept for the
 * session unless the user ticks this: an explicit choice to save them in secrets.json anyway.
 * The new state arrives with `targets:changed`.
 */
export function FixedKeyChoice({ saving }: { saving: boolean }): ReactElement {
  const api = useAppStore((s) => s.api)
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string>()

  const choose = async (save: boolean): Promise<void> => {
    if (!api) return
    setPending(true)
    setError(undefined)
    try {
      await api.invoke('targets:secretsStorage', { saveWithFixedKey: save })
    } catch (problem) {
      setError(`The choice was not changed: ${apiMessage(problem)}`)
    } finally {
      setPending(false)
    }
  }

  return (
    <div className="secrets-choice">
      <label className="check">
        <input type="checkbox" checked={saving} disabled={pending || !api} onChange={(e) => void choose(e.target.checked)} />
        Save secrets in secrets.json anyway, with the fixed key (anyone who can read the file can recover them)
      </label>
      {error ? <p role="alert">{error}</p> : null}
    </div>
  )
}
