import { Fragment, type ReactElement } from 'react'
import type { TargetView } from '../../../../shared/targets-contract'
import { StageList } from '../../components/stage-list'
import { useAppStore } from '../../store'
import { STAGE_ORDER, type ConnectionTest } from '../../store/targets-slice'
import { AUTH_LABELS, missingSecret, STAGE_LABELS, sudoSummary, targetAddress } from './describe'
import { TestConnectionButton } from './test-connection-button'
import { OsCell } from './os-cell'

const COLUMNS = 7

export function TargetTable({
  views,
  onEdit,
  onDelete
}: {
  views: TargetView[]
  onEdit: (view: TargetView) => void
  onDelete: (view: TargetView) => void
}): ReactElement {
  const tests = useAppStore((s) => s.tests)
  const dismissTest = useAppStore((s) => s.dismissTest)
  const names = new Map(views.map((v) => [v.target.id, v.target.name]))

  return (
    <div className="table-scroll">
      <table className="data-table targets-table">
        <caption className="visually-hidden">Targets</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Address</th>
            <th scope="col">Login · sudo</th>
            <th scope="col">Detected system</th>
            <th scope="col">Labels</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {views.map((view) => {
            const { target, secrets, jumpChain } = view
            const test = tests[target.id]
            const missing = missingSecret(target, secrets)
            return (
              <Fragment key={target.id}>
                <tr data-target={target.name}>
                  <th scope="row" className="target-name">
                    {target.name}
                  </th>
                  <td className="target-role">
                    {target.role === 'host' ? (
                      'Host'
                    ) : (
                      <>
                        Guest
                        <span className="cell-note">
                          {target.hostId ? `on ${names.get(target.hostId) ?? 'an unknown host'}` : 'no host set'}
                        </span>
                      </>
                    )}
                  </td>
                  <td>
                    <span className={target.kind === 'ssh' ? 'mono target-address' : 'target-address'}>{targetAddress(target)}</span>
                    {jumpChain.length > 0 ? <span className="cell-note">via {jumpChain.join(' → ')}</span> : null}
                  </td>
                  <td className="target-login">
                    {target.kind === 'ssh' ? (
                      <>
                        {AUTH_LABELS[target.auth.method]}
                        {target.auth.method === 'key' ? (
                          <span className="cell-note mono key-path">
                            {target.auth.keyPath}
                            {target.auth.hasPassphrase ? ' (with passphrase)' : ''}
                          </span>
                        ) : null}
                      </>
                    ) : (
                      <span className="muted">local user</span>
                    )}
                    {missing ? <span className="cell-note cell-warn">{missing}</span> : null}
                    <span className="cell-note">sudo {sudoSummary(target, secrets)}</span>
                  </td>
                  <OsCell os={target.os} />
                  <td>
                    {Object.keys(target.labels).length > 0 ? (
                      <ul className="chips" aria-label={`Labels of ${target.name}`}>
                        {Object.entries(target.labels).map(([key, value]) => (
                          <li key={key} className="chip">
                            {key}={value}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <span className="muted">none</span>
                    )}
                  </td>
                  <td className="row-actions">
                    <TestConnectionButton target={target} test={test} label="Test" />
                    <button type="button" className="button button-small" aria-label={`Edit ${target.name}`} onClick={() => onEdit(view)}>
                      Edit
                    </button>
                    <button type="button" className="button button-small button-quiet-danger" aria-label={`Delete ${target.name}`} onClick={() => onDelete(view)}>
                      Delete
                    </button>
                  </td>
                </tr>
                {test ? (
                  <tr className="test-row">
                    <td colSpan={COLUMNS}>
                      <TestPanel name={target.name} test={test} onDismiss={() => dismissTest(target.id)} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            )
          })}
        </tbody>
      </table>
    </div>
  )
}

function TestPanel({ name, test, onDismiss }: { name: string; test: ConnectionTest; onDismiss: () => void }): ReactElement {
  const outcome = test.running
    ? { className: 'test-running', text: 'Testing the connection…' }
    : test.error
      ? { className: 'test-failed', text: `The test could not run: ${test.error}` }
      : test.result?.ok
        ? { className: 'test-ok', text: 'Connection works.' }
        : { className: 'test-failed', text: failureText(test) }
  return (
    <section className="test-panel" aria-label={`Connection test of ${name}`}>
      <header className="test-head">
        <p className={`test-outcome ${outcome.className}`} role="status">
          {outcome.text}
        </p>
        {test.running ? null : (
          <button type="button" className="icon-button" aria-label={`Hide the connection test of ${name}`} onClick={onDismiss}>
            ×
          </button>
        )}
      </header>
      <StageList
        stages={test.stages}
        order={STAGE_ORDER}
        labels={STAGE_LABELS}
        running={test.running}
        label={`Stages of the connection test of ${name}`}
      />
    </section>
  )
}

/** Where the test failed; the error itself when no stage shows it already. */
function failureText(test: ConnectionTest): string {
  const failed = test.stages.find((s) => s.status === 'failed')
  const error = test.result?.error
  if (failed && (error === undefined || failed.detail === error)) return `Connection failed at ${STAGE_LABELS[failed.stage]}.`
  return error ? `Connection failed: ${error}` : 'Connection failed.'
}
