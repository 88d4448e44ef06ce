import type { EventChannel } from '../../shared/channels'
import { eventContract, type EventPayload } from '../../shared/contract'

export type EventListener = (event: EventChannel, payload: unknown) => void

/**
 * Fans main's events out to every connected renderer: Electron windows and bridge clients alike.
 * Payloads are validated against the contract before they leave.
 */
export class EventHub {
  private readonly listeners = new Set<EventListener>()

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  emit<E extends EventChannel>(event: E, payload: EventPayload<E>): void {
    const checked = eventContract[event].parse(payload)
    for (const listener of [...this.listeners]) {
      try {
        listener(event, checked)
      } catch {
        // One broken subscriber (a closed window, a dropped socket) must not starve the others.
      }
    }
  }
}
