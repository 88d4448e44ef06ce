import { describe, expect, it } from 'vitest'
import { MALFORMED_REASON, readClientMessage, tooBigAnswer, tooBigReason } from '../../../../src/main/bridge/client-message'

const frame = (value: unknown): Buffer => Buffer.from(JSON.stringify(value))

describe("reading a serve client's message", () => {
  it('reads an invoke within the limit', () => {
    expect(readClientMessage(frame({ type: 'invoke', id: 7, channel: 'app:info' }), false, 100)).toEqual({
      kind: 'invoke',
      message: { type: 'invoke', id: 7, channel: 'app:info' }
    })
  })

  it('measures the limit in bytes, and keeps the id and channel of an invoke over it so it can be answered', () => {
    const message = frame({ type: 'invoke', id: 3, channel: 'presets:import', payload: { text: 'é'.repeat(30) } })
    expect(message.length).toBe(133)
    expect(message.toString().length).toBe(103)
    expect(readClientMessage(message, false, 133)).toMatchObject({ kind: 'invoke' })
    expect(readClientMessage(message, false, 120)).toEqual({ kind: 'too-big', bytes: 133, invoke: { id: 3, channel: 'presets:import' } })
    expect(readClientMessage(Buffer.from('x'.repeat(200)), false, 100)).toEqual({ kind: 'too-big', bytes: 200 })
  })

  it('calls anything but an invoke in a text frame malformed', () => {
    for (const text of ['', 'not json', '{"type":"shell","command":"id"}', '{"type":"invoke","id":-1,"channel":"app:info"}', '[1]', 'null']) {
      expect(readClientMessage(Buffer.from(text), false, 100), text).toEqual({ kind: 'malformed' })
    }
    expect(readClientMessage(frame({ type: 'invoke', id: 1, channel: 'app:info' }), true, 100)).toEqual({ kind: 'malformed' })
  })

  it('answers with the sizes and what to do, and closes with reasons a close frame can carry', () => {
    expect(tooBigAnswer('presets:import', 5_000_000, 4 * 1024 * 1024)).toEqual({
      ok: false,
      error: {
        code: 'invalid-request',
        message:
          'This presets:import request is 5000000 bytes; virtbench serve reads messages of at most 4194304 bytes (4 MiB), so it was not run. Send less in one request (a smaller file, for example).'
      }
    })
    for (const reason of [MALFORMED_REASON, tooBigReason(16 * 1024 * 1024, 4 * 1024 * 1024)]) {
      expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123)
    }
  })
})
