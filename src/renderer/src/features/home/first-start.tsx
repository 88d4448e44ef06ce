import { useState, type ReactElement, type ReactNode } from 'react'
import { Icon, type IconName } from '../../components/icons'
import { useAppStore } from '../../store'
import { apiMessage } from '../../lib/api-message'
import { ExampleNote, useOpenExample } from './example'

/** The name "Measure this computer" gives the local target. */
export const THIS_COMPUTER = 'This computer'

/**
 * What the app shows before there is any target: what VirtBench does, and four ways to begin.
 * `onImport` opens the ~/.ssh/config import (kept by the page, so it stays open once targets exist).
 */
export function FirstStart({ onImport }: { onImport: () => void }): ReactElement {
  const navigate = useAppStore((s) => s.navigate)
  const addTarget = useAppStore((s) => s.addTarget)
  const addNotice = useAppStore((s) => s.addNotice)
  const example = useOpenExample()
  const [adding, setAdding] = useState(false)
  const [addError, setAddError] = useState<string>()

  const measureThisComputer = async (): Promise<void> => {
    setAdding(true)
    setAddError(undefined)
    try {
      const view = await addTarget({ kind: 'local', name: THIS_COMPUTER, role: 'host' })
      addNotice({
        level: 'info',
        message: `Added “${view.target.name}” as a physical host. Test its connection to see its system, then add the guests to compare with it.`,
        at: new Date().toISOString()
      })
      navigate('targets')
    } catch (problem) {
      setAddError(apiMessage(problem))
      setAdding(false)
    }
  }

  return (
    <>
      <ul className="home-facts" aria-label="What VirtBench does">
        <li>
          <strong>Your physical host is 100 %.</strong> Each guest on it is a variant with its hypervisor, storage backend, disk cache,
          queues, bus and network path, and every result is shown as a percentage of the host.
        </li>
        <li>
          <strong>Real tools, their exact commands.</strong> fio, dd, iperf3, ping, bonnie++, iozone, UnixBench, mbw, sysbench and stress-ng run
          over SSH with your keys; every number links to the raw output and the command that produced it.
        </li>
        <li>
          <strong>Numbers you can trust.</strong> Repetitions with confidence intervals, flags on results that are too good to be true
          (a host cache serving the writes), and nothing destroyed on a machine without your typed confirmation.
        </li>
      </ul>

      <h2 className="home-offers-title">Start here</h2>
      <ul className="home-offers">
        <Offer
          icon="targets"
          title="Add a target"
          text="The physical host and the guests on it: address, login and how the key or password is kept."
          action="Add a target"
          onClick={() => navigate('targets')}
        />
        <Offer
          icon="presets"
          title="Import from ~/.ssh/config"
          text="Pick the hosts you already reach with ssh; their aliases, users, keys and jump hosts come along."
          action="Import from ~/.ssh/config"
          onClick={onImport}
        />
        <Offer
          icon="home"
          title="Measure this computer"
          text="Add the machine VirtBench runs on as a physical host, measured without SSH."
          action={adding ? 'Adding…' : 'Measure this computer'}
          busy={adding}
          onClick={() => void measureThisComputer()}
          error={addError ? `“${THIS_COMPUTER}” was not added: ${addError}` : undefined}
        />
        <Offer
          icon="comparison"
          title="Open the example comparison"
          text="Explore the overhead table, the charts and the report before any host is set up."
          action={example.opening ? 'Opening…' : 'Open the example comparison'}
          busy={example.opening}
          onClick={() => void example.open()}
          error={example.error ? `The example could not be opened: ${example.error}` : undefined}
        >
          <ExampleNote />
        </Offer>
      </ul>
    </>
  )
}

function Offer({
  icon,
  title,
  text,
  action,
  busy = false,
  onClick,
  error,
  children
}: {
  icon: IconName
  title: string
  text: string
  action: string
  busy?: boolean
  onClick: () => void
  error?: string
  children?: ReactNode
}): ReactElement {
  return (
    <li className="card home-offer">
      <div className="home-offer-icon">
        <Icon name={icon} size={22} />
      </div>
      <h3>{title}</h3>
      <p className="muted">{text}</p>
      {children}
      <div className="home-offer-action">
        <button type="button" className="button button-primary" disabled={busy} onClick={onClick}>
          {action}
        </button>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  )
}
