import type { ReactElement, ReactNode } from 'react'
import type { TargetEnvironment } from '../../../../shared/model/environment'
import { formatValue } from '../../../../shared/format'
import { channelsText, diskSetupText, loadText, virtualizationText, yesNo } from './environment-fields'
import { dateTimeText } from './run-text'
import './results.css'

/** What VirtBench found out about one target before measuring it. */
export function EnvironmentPanel({ env, label }: { env: TargetEnvironment | undefined; label: string }): ReactElement {
  if (!env) {
    return (
      <div className="results-env" aria-label={`Environment of ${label}`} role="group">
        <p className="muted">No environment was captured for {label}: the run stopped before it, or the target could not be read.</p>
      </div>
    )
  }
  const guests = Object.entries(env.guests ?? {})
  return (
    <div className="results-env" aria-label={`Environment of ${label}`} role="group">
      <dl className="facts results-env-facts">
        <Fact term="OS">{env.os}</Fact>
        <Fact term="Kernel">{env.kernel}</Fact>
        <Fact term="Architecture">{env.arch}</Fact>
        <Fact term="Host name">{env.hostname}</Fact>
        <Fact term="Virtualization">{virtualizationText(env)}</Fact>
        <Fact term="Hardware (DMI)">{[env.dmi?.vendor, env.dmi?.product].filter(Boolean).join(' ') || undefined}</Fact>
        <Fact term="CPU">
          {env.cpuModel || env.cpuCount !== undefined
            ? `${env.cpuModel ?? 'model not reported'}${env.cpuCount !== undefined ? ` × ${env.cpuCount}` : ''}`
            : undefined}
        </Fact>
        <Fact term="Memory">{env.memoryBytes !== undefined ? formatValue(env.memoryBytes, 'B') : undefined}</Fact>
        <Fact term="Clock source">{env.clocksource}</Fact>
        <Fact term="Steal time since boot">{env.stealPct !== undefined ? formatValue(env.stealPct, '%') : undefined}</Fact>
        <Fact term="Load average (1, 5, 15 min)">{env.loadAverage ? loadText(env.loadAverage) : undefined}</Fact>
        <Fact term="Work directory">
          {env.workDir
            ? [
                env.workDir.path,
                env.workDir.filesystem,
                env.workDir.device ? `on ${env.workDir.device}` : undefined,
                env.workDir.freeBytes !== undefined ? `${formatValue(env.workDir.freeBytes, 'B')} free` : undefined
              ]
                .filter(Boolean)
                .join(' · ')
            : undefined}
        </Fact>
        <Fact term="Captured">{env.capturedAt ? dateTimeText(env.capturedAt) : undefined}</Fact>
      </dl>

      <h4 className="results-env-heading">Block devices</h4>
      {env.blockDevices && env.blockDevices.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table results-env-table">
            <caption className="visually-hidden">Block devices of {label}</caption>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Size</th>
                <th scope="col">Model</th>
                <th scope="col">Scheduler</th>
                <th scope="col">Rotational</th>
                <th scope="col">Write cache</th>
                <th scope="col">blk-mq queues</th>
              </tr>
            </thead>
            <tbody>
              {env.blockDevices.map((d) => (
                <tr key={d.name}>
                  <th scope="row" className="mono">
                    {d.name}
                  </th>
                  <Cell>{d.sizeBytes !== undefined ? formatValue(d.sizeBytes, 'B') : undefined}</Cell>
                  <Cell>{d.model}</Cell>
                  <Cell>{d.scheduler}</Cell>
                  <Cell>{d.rotational !== undefined ? yesNo(d.rotational) : undefined}</Cell>
                  <Cell>{d.writeCache}</Cell>
                  <Cell>{d.mqQueues?.toString()}</Cell>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">Not reported.</p>
      )}

      <h4 className="results-env-heading">Network interfaces</h4>
      {env.nics && env.nics.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table results-env-table">
            <caption className="visually-hidden">Network interfaces of {label}</caption>
            <thead>
              <tr>
                <th scope="col">Interface</th>
                <th scope="col">Link speed</th>
                <th scope="col">Driver</th>
                <th scope="col">Channels</th>
                <th scope="col">Addresses</th>
              </tr>
            </thead>
            <tbody>
              {env.nics.map((n) => (
                <tr key={n.name}>
                  <th scope="row" className="mono">
                    {n.name}
                  </th>
                  <Cell>{n.speedBitsPerSecond !== undefined ? formatValue(n.speedBitsPerSecond, 'bit/s') : undefined}</Cell>
                  <Cell>{n.driver}</Cell>
                  <Cell>{channelsText(n.channels)}</Cell>
                  <Cell mono>{n.addresses && n.addresses.length > 0 ? n.addresses.join(', ') : undefined}</Cell>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">Not reported.</p>
      )}

      <h4 className="results-env-heading">Tool versions</h4>
      {env.tools && Object.keys(env.tools).length > 0 ? (
        <dl className="facts results-env-facts">
          {Object.entries(env.tools).map(([tool, version]) => (
            <Fact key={tool} term={tool}>
              <span className="mono">{version}</span>
            </Fact>
          ))}
        </dl>
      ) : (
        <p className="muted">Not reported.</p>
      )}

      {guests.length > 0 ? (
        <>
          <h4 className="results-env-heading">Guests on this host (libvirt)</h4>
          <ul className="results-env-list">
            {guests.map(([name, g]) => (
              <li key={name}>
                <strong>{name}</strong> <span className="muted">domain {g.domain}</span>
                {g.error ? <span className="cell-note cell-warn">{g.error}</span> : null}
                {g.disks.map((d) => (
                  <span key={d.device} className="cell-note mono">
                    {d.device}: {diskSetupText(d) || 'nothing reported'}
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {env.notes && env.notes.length > 0 ? (
        <>
          <h4 className="results-env-heading">Not read</h4>
          <ul className="results-env-list muted">
            {env.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  )
}

const NOT_REPORTED = 'not reported'

function Fact({ term, children }: { term: string; children: ReactNode }): ReactElement {
  const absent = children === undefined || children === null || children === ''
  return (
    <>
      <dt>{term}</dt>
      <dd className={absent ? 'muted' : undefined}>{absent ? NOT_REPORTED : children}</dd>
    </>
  )
}

function Cell({ children, mono = false }: { children: string | undefined; mono?: boolean }): ReactElement {
  if (children === undefined || children === '') return <td className="muted">{NOT_REPORTED}</td>
  return <td className={mono ? 'mono' : undefined}>{children}</td>
}
