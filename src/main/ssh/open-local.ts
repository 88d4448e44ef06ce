import { LocalSession } from './local-session'
import type { Session } from './types'

/** The session of "This computer". */
export function openLocalSession(label: string): Session {
  return new LocalSession({ label })
}
