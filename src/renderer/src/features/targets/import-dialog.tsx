import { useEffect, useId, useRef, useState, type FormEvent, type ReactElement } from 'react'
import type { TargetRole } from '../../../../shared/model/target'
import type { ImportPreview } from '../../../../shared/targets-contract'
import { Dialog } from '../../components/dialog'
import { Field } from '../../components/field'
import { useAppStore } from '../../store'
import { type ImportOutcome } from '../../store/targets-slice'
import { apiMessage } from '../../lib/api-message'
import { authSummary, sshAddress } from './describe'

/** Reads Host entries from an OpenSSH client config, lets the person pick each one and its role (physical host or guest), and imports them. */
export function ImportDialog({ onClose }: { onClose: () => void }): ReactElement {
  const previewImport = useAppStore((s) => s.previewImport)
  const importTargets = useAppStore((s) => s.importTargets)
  const [path, setPath] = useState('')
  const [preview, setPreview] = useState<ImportPreview>()
  const [readPath, setReadPath] = useState<string>()
  const [selected, setSelected] = useState<Set<string>>(new Set())
  const [roles, setRoles] = useState<Record<string, TargetRole>>({})
  const [error, setError] = useState<string>()
  const [loading, setLoading] = useState(true)
  const [importing, setImporting] = useState(false)
  const [outcome, setOutcome] = useState<ImportOutcome>()
  const pathRef = useRef<HTMLInputElement>(null)
  const doneRef = useRef<HTMLButtonElement>(null)
  const formId = useId()

  const show = (result: ImportPreview, from: string | undefined): void => {
    setPreview(result)
    setReadPath(from)
    setSelected(new Set(result.candidates.filter((c) => !c.problem).map((c) => c.name)))
    setError(undefined)
    setLoading(false)
  }
  const fail = (problem: unknown): void => {
    setPreview(undefined)
    setError(apiMessage(problem))
    setLoading(false)
  }

  useEffect(() => {
    let live = true
    previewImport().then(
      (result) => live && show(result, undefined),
      (problem: unknown) => live && fail(problem)
    )
    return () => {
      live = false
    }
  }, [previewImport])

  useEffect(() => {
    if (outcome) doneRef.current?.focus()
  }, [outcome])

  const read = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    const from = path.trim() || undefined
    setLoading(true)
    setOutcome(undefined)
    try {
      show(await previewImport(from), from)
    } catch (problem) {
      fail(problem)
    }
  }

  const runImport = async (): Promise<void> => {
    setImporting(true)
    try {
      const chosen = [...selected]
      setOutcome(await importTargets(chosen, readPath, Object.fromEntries(chosen.map((name) => [name, roles[name] ?? 'host']))))
    } catch (problem) {
      setError(apiMessage(problem))
    } finally {
      setImporting(false)
    }
  }

  const toggle = (name: string, on: boolean): void =>
    setSelected((current) => {
      const next = new Set(current)
      if (on) next.add(name)
      else next.delete(name)
      return next
    })

  const importable = preview?.candidates.filter((c) => !c.problem) ?? []
  const allChosen = importable.length > 0 && importable.every((c) => selected.has(c.name))

  return (
    <Dialog
      title="Import from ~/.ssh/config"
      size="large"
      onCancel={onClose}
      initialFocus={pathRef}
      footer={
        outcome ? (
          <button ref={doneRef} type="button" className="button button-primary" onClick={onClose}>
            Done
          </button>
        ) : (
          <>
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={selected.size === 0 || importing || loading}
              onClick={() => void runImport()}
            >
              {importing ? 'Importing…' : `Import ${selected.size} ${selected.size === 1 ? 'target' : 'targets'}`}
            </button>
          </>
        )
      }
    >
      <form id={formId} className="import-path" onSubmit={(e) => void read(e)}>
        <Field label="SSH client config file" hint="Leave empty for your own ~/.ssh/config. Include lines are followed.">
          {(control) => (
            <input
              {...control}
              ref={pathRef}
              type="text"
              className="mono"
              placeholder="~/.ssh/config"
              value={path}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => setPath(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="button" disabled={loading}>
          Read file
        </button>
      </form>

      {error ? (
        <div className="form-alert" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
      {loading ? <p className="muted">Reading…</p> : null}

      {outcome ? (
        <ImportSummary outcome={outcome} />
      ) : preview && !loading ? (
        <>
          <p className="muted">
            {preview.candidates.length === 0 ? 'No Host entries found in ' : `${preview.candidates.length} Host ${preview.candidates.length === 1 ? 'entry' : 'entries'} in `}
            <span className="mono">{preview.file}</span>
          </p>
          {preview.warnings.length > 0 ? (
            <div className="import-warnings">
              <h3>Notes on the file</h3>
              <ul>
                {preview.warnings.map((warning, index) => (
                  <li key={index}>{warning}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {preview.candidates.length > 0 ? (
            <table className="data-table import-table">
              <caption className="visually-hidden">Host entries to import</caption>
              <thead>
                <tr>
                  <th scope="col" className="col-check">
                    <input
                      type="checkbox"
                      aria-label="Choose every entry that can be imported"
                      checked={allChosen}
                      disabled={importable.length === 0}
                      onChange={(e) => setSelected(new Set(e.target.checked ? importable.map((c) => c.name) : []))}
                    />
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Address</th>
                  <th scope="col">Login</th>
                  <th scope="col">Via</th>
                </tr>
              </thead>
              <tbody>
                {preview.candidates.map((candidate) => (
                  <tr key={candidate.name} className={candidate.problem ? 'row-disabled' : undefined}>
                    <td className="col-check">
                      <input
                        type="checkbox"
                        aria-label={`Import ${candidate.name}`}
                        checked={!candidate.problem && selected.has(candidate.name)}
                        disabled={Boolean(candidate.problem)}
                        onChange={(e) => toggle(candidate.name, e.target.checked)}
                      />
                    </td>
                    <th scope="row">
                      {candidate.name}
                      {candidate.problem ? <p className="row-problem">{candidate.problem}</p> : null}
                    </th>
                    <td>
                      <select
                        aria-label={`Role of ${candidate.name}`}
                        value={roles[candidate.name] ?? 'host'}
                        disabled={Boolean(candidate.problem)}
                        onChange={(e) => setRoles((current) => ({ ...current, [candidate.name]: e.target.value as TargetRole }))}
                      >
                        <option value="host">Host (physical)</option>
                        <option value="guest">Guest (virtual machine)</option>
                      </select>
                    </td>
                    <td className="mono">{sshAddress(candidate.user, candidate.address, candidate.port)}</td>
                    <td>{authSummary(candidate.auth)}</td>
                    <td>{candidate.jumps.length > 0 ? candidate.jumps.join(' → ') : <span className="muted">direct</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </>
      ) : null}
    </Dialog>
  )
}

function ImportSummary({ outcome }: { outcome: ImportOutcome }): ReactElement {
  const { added, skipped } = outcome
  return (
    <div className="import-summary" role="status">
      <p>
        <strong>
          {added.length === 0 ? 'No targets were added.' : `Added ${added.length} ${added.length === 1 ? 'target' : 'targets'}:`}
        </strong>{' '}
        {added.map((v) => v.target.name).join(', ')}
      </p>
      {skipped.length > 0 ? (
        <>
          <p>
            <strong>Skipped {skipped.length}:</strong>
          </p>
          <ul>
            {skipped.map((s) => (
              <li key={s.name}>
                <strong>{s.name}</strong>: {s.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {added.length > 0 ? <p className="muted">Test each one’s connection to check its host key and detect its system.</p> : null}
    </div>
  )
}
