import { z } from 'zod'
import { EVENT_CHANNELS } from './channels'

/**
 * The wire format of `virtbench serve`: JSON text frames over one WebSocket.
 * The token travels as a WebSocket subprotocol (`virtbench.token.<hex>`), never in a URL the
 * server sees or logs.
 */
export const BRIDGE_PROTOCOL = 'virtbench.v1'
export const BRIDGE_TOKEN_PREFIX = 'virtbench.token.'
export const BRIDGE_PATH = '/api'

/**
 * The longest client message the server runs, in bytes. Every size limit of the contract sits
 * well below it (a 1 MiB preset file fits with JSON's escapes), so a request the desktop app
 * takes is never too big for `virtbench serve`. A longer message is answered with an error naming
 * this limit (see bridge-server.ts).
 */
export const BRIDGE_MESSAGE_LIMIT_BYTES = 4 * 1024 * 1024

export const ClientMessage = z.object({
  type: z.literal('invoke'),
  id: z.number().int().nonnegative(),
  channel: z.string(),
  payload: z.unknown().optional()
})
export type ClientMessage = z.infer<typeof ClientMessage>

export const ServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), id: z.number().int(), result: z.unknown() }),
  z.object({ type: z.literal('event'), event: z.enum(EVENT_CHANNELS), payload: z.unknown() })
])
export type ServerMessage = z.infer<typeof ServerMessage>
