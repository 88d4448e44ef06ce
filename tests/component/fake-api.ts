import type { EventChannel, InvokeChannel } from '../../src/shared/channels'
import type { EventPayload, InvokeRequest, InvokeResponse, VirtbenchApi } from '../../src/shared/contract'

export type FakeHandlers = {
  [C in InvokeChannel]?: (payload: InvokeRequest<C>) => InvokeResponse<C> | Promise<InvokeResponse<C>>
}

export interface FakeApi extends VirtbenchApi {
  /** Every invoke so far, in order. */
  calls: { channel: InvokeChannel; payload: unknown }[]
  /** Sends an event to the listeners, as main would. */
  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void
}

/**
 * An API for component tests: answers from `handlers`, rejects channels it has none for (so a
 * test sees every call it did not expect), and lets the test send events.
 */
export function fakeApi(handlers: FakeHandlers = {}): FakeApi {
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>()
  const calls: FakeApi['calls'] = []
  return {
    calls,
    invoke: (async (channel: InvokeChannel, payload?: unknown) => {
      calls.push({ channel, payload })
      const handler = handlers[channel] as ((p: unknown) => unknown) | undefined
      if (!handler) throw new Error(`fake api: no handler for ${channel}`)
      return handler(payload)
    }) as VirtbenchApi['invoke'],
    on: ((event: EventChannel, listener: (payload: unknown) => void) => {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
      return () => set.delete(listener)
    }) as VirtbenchApi['on'],
    emit: (event, payload) => {
      for (const listener of listeners.get(event) ?? []) listener(payload)
    }
  }
}
