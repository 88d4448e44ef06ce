import { useRef, type ReactElement } from 'react'
import type { HostKeyQuestion } from '../../../../shared/targets-contract'
import { Dialog } from '../../components/dialog'
import { useAppStore } from '../../store'
import { hostKeyFileName } from './describe'

/**
 * Asks about host keys nobody has seen yet, one at a time, wherever the person is in the app:
 * the connection that met the key waits for the answer.
 */
export function HostKeyPrompt(): ReactElement | null {
  const questions = useAppStore((s) => s.hostKeyQuestions)
  const decide = useAppStore((s) => s.decideHostKey)
  const question = questions[0]
  if (!question) return null
  return <HostKeyDialog key={question.requestId} question={question} waiting={questions.length - 1} decide={decide} />
}

function HostKeyDialog({
  question,
  waiting,
  decide
}: {
  question: HostKeyQuestion
  waiting: number
  decide: (requestId: string, decision: 'accept-once' | 'accept-and-remember' | 'reject') => Promise<void>
}): ReactElement {
  const rejectRef = useRef<HTMLButtonElement>(null)
  const { requestId, targetName, host, port, keyType, fingerprint } = question
  const hostPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
  const keyFile = hostKeyFileName(keyType)

  return (
    <Dialog
      title={`Is this really ${targetName}?`}
      role="alertdialog"
      className="host-key-dialog"
      hideClose
      initialFocus={rejectRef}
      onCancel={() => void decide(requestId, 'reject')}
      footer={
        <>
          <button ref={rejectRef} type="button" className="button" onClick={() => void decide(requestId, 'reject')}>
            Reject
          </button>
          <span className="footer-gap" />
          <button type="button" className="button" onClick={() => void decide(requestId, 'accept-once')}>
            Accept once
          </button>
          <button type="button" className="button button-primary" onClick={() => void decide(requestId, 'accept-and-remember')}>
            Accept and remember
          </button>
        </>
      }
    >
      <p>
        The server at <span className="mono">{hostPort}</span> identified itself with a host key that VirtBench has not seen
        before: it is neither in your <span className="mono">~/.ssh/known_hosts</span> nor in VirtBench’s own list. The
        connection waits until you decide.
      </p>
      <dl className="facts host-key-facts">
        <dt>Target</dt>
        <dd>{targetName}</dd>
        <dt>Address</dt>
        <dd className="mono">{hostPort}</dd>
        <dt>Key type</dt>
        <dd className="mono">{keyType}</dd>
        <dt>Fingerprint</dt>
        <dd className="mono fingerprint" data-testid="host-key-fingerprint">
          {fingerprint}
        </dd>
      </dl>
      <div className="explain">
        <p>
          <strong>Check it before you trust it.</strong> On the machine itself (at its console, or over a connection you
          already trust), run
        </p>
        <pre className="mono">ssh-keygen -lf /etc/ssh/{keyFile}</pre>
        <p>
          and compare the <span className="mono">SHA256:</span> fingerprint it prints with the one above. On Windows the key
          is in <span className="mono">C:\ProgramData\ssh\{keyFile}</span>. If they are the same, this is the machine you
          meant. If they differ, something else answered at this address (another machine, or someone in between): reject.
        </p>
        <p className="muted">
          Accept once trusts the key for this connection only. Accept and remember adds it to VirtBench’s known hosts, so you
          are asked again only if the key ever changes.
        </p>
      </div>
      {waiting > 0 ? (
        <p className="muted">
          {waiting} more host {waiting === 1 ? 'key waits' : 'keys wait'} for a decision after this one.
        </p>
      ) : null}
    </Dialog>
  )
}
