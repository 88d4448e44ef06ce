import type { SshTarget, Target } from '../../shared/model/target'
import { connect, type ConnectStage, type DecideHostKey, type KnownHostsFiles, type StageDetail } from './connect'
import type { SecretStore } from '../secrets/secrets'
import { SshSession } from './session'
import { connectSpecFor } from './target-connection'
import type { Session } from './types'

export interface TargetSessionDeps {
  secrets: SecretStore
  decideHostKey: DecideHostKey
  knownHosts: KnownHostsFiles
  /** Makes the session of "This computer". */
  openLocal: (target: Target) => Session
}

/**
 * A session to a saved target: SSH (its jump hosts chained, secrets from the store, host keys
 * checked against both known_hosts files) or this computer. `onConnectStage` hears the stages of
 * the first connect only; reconnects are quiet.
 */
export function openTargetSession(
  target: Target,
  all: readonly Target[],
  deps: TargetSessionDeps,
  onConnectStage?: (stage: ConnectStage, detail: StageDetail) => void,
  options: { retryConnect?: boolean } = {}
): Session {
  if (target.kind === 'local') return deps.openLocal(target)
  let first = true
  return new SshSession({
    label: target.name,
    ...(options.retryConnect === false && { isRetryable: () => false }),
    connect: async () => {
      const spec = await connectSpecFor(target as SshTarget, all, { secrets: deps.secrets })
      const onStage = first ? onConnectStage : undefined
      first = false
      return connect(spec, { decideHostKey: deps.decideHostKey, knownHosts: deps.knownHosts, ...(onStage && { onStage }) })
    }
  })
}
