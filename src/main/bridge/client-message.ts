import { describeBytes } from '../../shared/byte-limit'
import { BRIDGE_MESSAGE_LIMIT_BYTES, ClientMessage } from '../../shared/bridge-protocol'
import type { Envelope } from '../../shared/contract'

/** What a client's message is, before anything runs. */
export type ReadMessage =
  | { kind: 'invoke'; message: ClientMessage }
  /** Over BRIDGE_MESSAGE_LIMIT_BYTES: with the invoke's id and channel when it is one, so the caller gets an answer. */
  | { kind: 'too-big'; bytes: number; invoke?: { id: number; channel: string } }
  | { kind: 'malformed' }

/** The close reason of a message that is not an invoke (close code 1008). */
export const MALFORMED_REASON = 'Malformed message: expected {"type":"invoke","id":N,"channel":"...","payload":...}'

/** Reads one WebSocket message: an invoke, one over the size limit, or anything else. */
export function readClientMessage(data: Buffer, isBinary: boolean, limit = BRIDGE_MESSAGE_LIMIT_BYTES): ReadMessage {
  if (isBinary) return { kind: 'malformed' }
  const invoke = parseInvoke(data)
  if (data.length > limit) {
    return { kind: 'too-big', bytes: data.length, ...(invoke && { invoke: { id: invoke.id, channel: invoke.channel } }) }
  }
  return invoke ? { kind: 'invoke', message: invoke } : { kind: 'malformed' }
}

function parseInvoke(data: Buffer): ClientMessage | undefined {
  try {
    const parsed = ClientMessage.safeParse(JSON.parse(data.toString('utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** The answer to an invoke over the limit: it did not run, and the error says how big it was and how big it may be. */
export function tooBigAnswer(channel: string, bytes: number, limit = BRIDGE_MESSAGE_LIMIT_BYTES): Envelope<never> {
  return {
    ok: false,
    error: {
      code: 'invalid-request',
      message: `This ${channel} request is ${bytes} bytes; virtbench serve reads messages of at most ${describeBytes(limit)}, so it was not run. Send less in one request (a smaller file, for example).`
    }
  }
}

/** The close reason (at most 123 bytes) for a message over the limit that is not an invoke (close code 1009). */
export function tooBigReason(bytes: number, limit = BRIDGE_MESSAGE_LIMIT_BYTES): string {
  return `Message too big: ${bytes} bytes; the limit is ${limit} bytes`
}
