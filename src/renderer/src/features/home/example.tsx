import { useState, type ReactElement } from 'react'
import { useAppStore } from '../../store'
import { NOT_CONNECTED } from '../../store/connected-api'
import { apiMessage } from '../../lib/api-message'

/** Where the example comparison's figures come from (the seeds' study 001). */
export const EXAMPLE_SOURCE = 'Study 001, “Cloud platform acceptance test: CPU, memory, local disk, Ceph, network”'

/** Puts the example comparison in the run list (runs:example) and opens it. */
export function useOpenExample(): { open: () => Promise<void>; opening: boolean; error: string | undefined } {
  const api = useAppStore((s) => s.api)
  const openRun = useAppStore((s) => s.openRun)
  const [opening, setOpening] = useState(false)
  const [error, setError] = useState<string>()

  const open = async (): Promise<void> => {
    if (!api) {
      setError(NOT_CONNECTED)
      return
    }
    setOpening(true)
    setError(undefined)
    try {
      const { id } = await api.invoke('runs:example')
      openRun(id)
    } catch (problem) {
      setError(apiMessage(problem))
      setOpening(false)
    }
  }
  return { open, opening, error }
}

/** The example comparison, labelled for what it is: published figures, not a measurement. */
export function ExampleNote(): ReactElement {
  return (
    <span className="home-example-note">
      <span className="chip home-published-chip">Published figures, not measured here</span>
      <span className="home-source">Source: {EXAMPLE_SOURCE}</span>
    </span>
  )
}

/** A smaller way to the example once there are targets. */
export function ExampleLink(): ReactElement {
  const { open, opening, error } = useOpenExample()
  return (
    <section className="card home-example" aria-labelledby="home-example-title">
      <h2 id="home-example-title">The example comparison</h2>
      <p className="muted">
        A physical host against its virtual machines (CPU, memory, disk, network) with the overhead table and the charts, to explore
        before any of your machines is set up.
      </p>
      <ExampleNote />
      <div className="toolbar">
        <button type="button" className="button" disabled={opening} onClick={() => void open()}>
          {opening ? 'Opening…' : 'Open the example comparison'}
        </button>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          The example could not be opened: {error}
        </p>
      ) : null}
    </section>
  )
}
