import { useMemo, useState, type ReactElement } from 'react'
import type { TargetEnvironment } from '../../../../shared/model/environment'
import { Field } from '../../components/field'
import { environmentDifferences } from './environment-fields'
import './results.css'

export interface EnvironmentTarget {
  /** The target's name (run.environment's key). */
  name: string
  /** How tables name it. */
  label: string
  env: TargetEnvironment | undefined
}

/** The facts that differ between the environments of two targets, picked from two lists. */
export function EnvironmentDiff({ targets }: { targets: EnvironmentTarget[] }): ReactElement {
  const [first, setFirst] = useState(targets[0]?.name ?? '')
  const [second, setSecond] = useState(targets[1]?.name ?? targets[0]?.name ?? '')
  const a = targets.find((t) => t.name === first)
  const b = targets.find((t) => t.name === second)
  const differences = useMemo(() => (a?.env && b?.env ? environmentDifferences(a.env, b.env) : undefined), [a, b])

  if (targets.length < 2) {
    return <p className="muted">The run has one target: there is nothing to compare its environment with.</p>
  }

  return (
    <div className="results-env-diff">
      <div className="results-env-diff-pickers">
        <TargetSelect label="First target" targets={targets} value={first} onChange={setFirst} />
        <TargetSelect label="Second target" targets={targets} value={second} onChange={setSecond} />
      </div>
      {!a || !b ? null : a.name === b.name ? (
        <p className="muted">Pick two different targets.</p>
      ) : !a.env || !b.env ? (
        <p className="muted">No environment was captured for {!a.env ? a.label : b.label}: nothing to compare.</p>
      ) : a.env.machineId && a.env.bootId && a.env.machineId === b.env.machineId && a.env.bootId === b.env.bootId ? (
        <p className="banner banner-warning results-env-same-machine" role="status">
          {a.label} and {b.label} are the same machine: the same machine id and boot id. Comparing them measures that machine against
          itself, not a guest against its host.
        </p>
      ) : differences && differences.length === 0 ? (
        <p className="results-env-identical" role="status">
          <span aria-hidden="true">= </span>
          Identical: every fact captured on {a.label} and {b.label} reads the same, at the precision shown.
        </p>
      ) : (
        <div className="table-scroll">
          <table className="data-table results-env-diff-table">
            <caption className="visually-hidden">
              Environment facts that differ between {a.label} and {b.label}
            </caption>
            <thead>
              <tr>
                <th scope="col">Fact</th>
                <th scope="col">{a.label}</th>
                <th scope="col">{b.label}</th>
              </tr>
            </thead>
            <tbody>
              {differences?.map((d) => (
                <tr key={d.key} data-field={d.key}>
                  <th scope="row">
                    {d.label}
                    <span className="cell-note">{d.group}</span>
                  </th>
                  <td className={d.a === undefined ? 'muted' : undefined}>{d.a ?? 'not reported'}</td>
                  <td className={d.b === undefined ? 'muted' : undefined}>{d.b ?? 'not reported'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  )
}

function TargetSelect({
  label,
  targets,
  value,
  onChange
}: {
  label: string
  targets: EnvironmentTarget[]
  value: string
  onChange: (name: string) => void
}): ReactElement {
  return (
    <Field label={label}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
          {targets.map((t) => (
            <option key={t.name} value={t.name}>
              {t.label === t.name ? t.name : `${t.label} (${t.name})`}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
