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
