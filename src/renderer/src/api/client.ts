import type { EventChannel, InvokeChannel } from '../../../shared/channels'
import {
  eventContract,
  unwrap,
  type EventPayload,
  type InvokeArgs,
  type InvokeResponse,
  type VirtbenchApi,
  type VirtbenchPreloadApi
} from '../../../shared/contract'
import { createBridgeClient, type ConnectionState } from './bridge-client'

const TOKEN_KEY = 'virtbench.bridge-token'

export type ApiSource =
  | { kind: 'ipc'; api: VirtbenchApi }
  | { kind: 'bridge'; api: VirtbenchApi }
  | { kind: 'missing-token' }

/**
 * The desktop app's preload when it is there, otherwise the `virtbench serve` bridge with the
 * token from the URL. The token is moved out of the address bar into session storage at once,
 * so it does not linger in screenshots or history.
 */
export function resolveApi(onState: (state: ConnectionState) => void): ApiSource {
  if (window.virtbench) return { kind: 'ipc', api: typed(window.virtbench) }
  const fromHash = /(?:^#|&)token=([0-9a-f]{64})(?:&|$)/.exec(location.hash)?.[1]
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash)
    history.replaceState(null, '', location.pathname + location.search)
  }
  const token = fromHash ?? sessionStorage.getItem(TOKEN_KEY)
  if (!token) return { kind: 'missing-token' }
  return { kind: 'bridge', api: typed(createBridgeClient(token, onState)) }
}

/** Wraps the envelope API into typed calls that throw `ApiCallError` and validated events. */
function typed(raw: VirtbenchPreloadApi): VirtbenchApi {
  return {
    async invoke<C extends InvokeChannel>(channel: C, ...args: InvokeArgs<C>): Promise<InvokeResponse<C>> {
      return unwrap(channel, await raw.invoke(channel, args[0])) as InvokeResponse<C>
    },
    on<E extends EventChannel>(event: E, listener: (payload: EventPayload<E>) => void) {
      return raw.on(event, (payload) => {
        const parsed = eventContract[event].safeParse(payload)
        if (parsed.success) listener(parsed.data as EventPayload<E>)
      })
    }
  }
}
