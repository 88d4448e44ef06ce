import type { ReactElement } from 'react'
import { useAppStore } from '../../store'
import type { ConnectionTest } from '../../store/targets-slice'

/** Starts a target's connection test; says "Testing…" while one runs (the Targets page and the wizard). */
export function TestConnectionButton({ target, test, label }: { target: { id: string; name: string }; test: ConnectionTest | undefined; label: string }): ReactElement {
  const testTarget = useAppStore((s) => s.testTarget)
  return (
    <button
      type="button"
      className="button button-small"
      aria-label={`Test connection to ${target.name}`}
      aria-disabled={test?.running ? true : undefined}
      onClick={() => void testTarget(target.id)}
    >
      {test?.running ? 'Testing…' : label}
    </button>
  )
}
