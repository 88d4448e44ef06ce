import { useEffect, useState, type FormEvent, type ReactElement } from 'react'
import type { TeamSettingsView } from '../../../../shared/team-store-contract'
import { Field } from '../../components/field'
import { apiMessage } from '../../lib/api-message'
import { useAppStore } from '../../store'
import './team.css'

/**
 * The team store in Settings (docs/team-store.md): the PostgreSQL URL (never with a password),
 * the password (saved in the keychain, never shown again), who publishes, raw outputs as a
 * pointer or a copy, publishing each run when it ends, and what waits in the queue.
 */
export function TeamStoreSettings(): ReactElement | null {
  const api = useAppStore((s) => s.api)
  const [view, setView] = useState<TeamSettingsView>()
  const [url, setUrl] = useState('')
  const [password, setPassword] = useState('')
  const [author, setAuthor] = useState('')
  const [raw, setRaw] = useState<TeamSettingsView['raw']>('pointer')
  const [autoPublish, setAutoPublish] = useState(false)
  const [error, setError] = useState<string>()
  const [saved, setSaved] = useState(false)

  const show = (next: TeamSettingsView): void => {
    setView(next)
    setUrl(next.url ?? '')
    setAuthor(next.author ?? '')
    setRaw(next.raw)
    setAutoPublish(next.autoPublish)
  }

  useEffect(() => {
    if (!api) return
    api.invoke('team:settings').then(show, () => setView(undefined))
  }, [api])

  if (!api || !view) return null

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    setError(undefined)
    setSaved(false)
    try {
      show(await api.invoke('team:configure', { url: url.trim() || null, author: author.trim() || null, raw, autoPublish, ...(password ? { password } : {}) }))
      setPassword('')
      setSaved(true)
    } catch (e) {
      setError(apiMessage(e))
    }
  }

  return (
    <section className="card team-settings" aria-labelledby="team-settings-title">
      <h2 id="team-settings-title">Team store</h2>
      <p className="muted">
        Publish runs to your team&apos;s PostgreSQL and read the team&apos;s runs back on the Runs page. The password is saved in
        the keychain (or taken from PGPASSWORD or ~/.pgpass), never in the URL.
      </p>
      <form onSubmit={(e) => void submit(e)}>
        <Field label="Team store URL" hint="postgres://USER@HOST[:PORT]/DATABASE, optionally ?sslmode=require" error={error}>
          {(control) => <input {...control} type="text" spellCheck={false} value={url} placeholder="postgres://virtbench@db.example.org/bench" onChange={(e) => setUrl(e.target.value)} />}
        </Field>
        <Field label="Password" hint={view.passwordSaved ? 'A password is saved; type a new one to replace it.' : 'Saved in the keychain.'}>
          {(control) => <input {...control} type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <Field label="Published by" hint="Default: your user name at this computer.">
          {(control) => <input {...control} type="text" value={author} onChange={(e) => setAuthor(e.target.value)} />}
        </Field>
        <Field label="Raw outputs">
          {(control) => (
            <select {...control} value={raw} onChange={(e) => setRaw(e.target.value as TeamSettingsView['raw'])}>
              <option value="pointer">Stay here (the store names this computer and folder)</option>
              <option value="copy">Copy them into the store</option>
            </select>
          )}
        </Field>
        <label className="team-check">
          <input type="checkbox" checked={autoPublish} onChange={(e) => setAutoPublish(e.target.checked)} />
          Publish each run when it ends
        </label>
        <div className="toolbar">
          <button type="submit" className="button button-primary">
            Save team store
          </button>
          {saved ? (
            <span role="status" className="muted">
              Saved.
            </span>
          ) : null}
        </div>
      </form>
      {view.queued.length > 0 ? (
        <div className="banner banner-warning">
          <strong>
            {view.queued.length} {view.queued.length === 1 ? 'run waits' : 'runs wait'} to be published
          </strong>{' '}
          (tried again after the next publish and every 10 minutes):
          <ul>
            {view.queued.map((q) => (
              <li key={q.runId}>
                {q.runId}: {q.lastError} ({q.attempts} {q.attempts === 1 ? 'attempt' : 'attempts'})
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}
