import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BRIDGE_MESSAGE_LIMIT_BYTES } from '../../../src/shared/bridge-protocol'
import { describeBytes, PATH_LIMIT_BYTES, stringOfAtMostBytes, utf8ByteLength } from '../../../src/shared/byte-limit'
import { EXTERNAL_URL_LIMIT_BYTES, invokeContract } from '../../../src/shared/contract'
import { FILE_NAME_LIMIT_BYTES, PRESET_TEXT_LIMIT_BYTES } from '../../../src/shared/presets-contract'
import { SECRET_LIMIT_BYTES } from '../../../src/shared/targets-contract'

describe('utf8ByteLength', () => {
  it('counts what TextEncoder writes, for any string (lone surrogates included)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length)
      }),
      { numRuns: 2000 }
    )
    expect(utf8ByteLength('é'.repeat(600_000))).toBe(1_200_000)
    expect(utf8ByteLength('a€😀')).toBe(1 + 3 + 4)
    expect(utf8ByteLength('\ud800x')).toBe(3 + 1)
  })
})

describe('stringOfAtMostBytes', () => {
  const Secretish = stringOfAtMostBytes(8, 'a secret')

  it('takes exactly the limit in bytes and refuses one more, whatever the characters', () => {
    expect(Secretish.safeParse('12345678').success).toBe(true)
    expect(Secretish.safeParse('éééé').success).toBe(true)
    const refused = Secretish.safeParse('éééé1')
    expect(refused.success).toBe(false)
    expect(refused.error?.issues.map((i) => i.message)).toEqual(['a secret is at most 8 bytes in UTF-8; this one is 9 bytes'])
  })

  it('names binary units when the limit is a whole number of them', () => {
    expect(describeBytes(1024 * 1024)).toBe('1048576 bytes (1 MiB)')
    expect(describeBytes(4096)).toBe('4096 bytes (4 KiB)')
    expect(describeBytes(255)).toBe('255 bytes')
  })
})

describe("the contract's size limits", () => {
  it('are in bytes, each with a refusal naming it', () => {
    const over = (limit: number): string => 'é'.repeat(Math.floor(limit / 2) + 1)
    const refusals: [string, unknown, string][] = [
      ['presets:import', { text: over(PRESET_TEXT_LIMIT_BYTES) }, 'text: a preset file is at most 1048576 bytes (1 MiB) in UTF-8'],
      ['presets:import', { text: '{}', fileName: over(FILE_NAME_LIMIT_BYTES) }, 'fileName: a file name is at most 255 bytes in UTF-8'],
      ['targets:update', { id: 't1', patch: {}, secrets: { password: over(SECRET_LIMIT_BYTES) } }, 'secrets.password: a secret is at most 4096 bytes (4 KiB) in UTF-8'],
      ['targets:importPreview', { path: over(PATH_LIMIT_BYTES) }, 'path: a path is at most 4096 bytes (4 KiB) in UTF-8'],
      ['runs:import', { file: `/${over(PATH_LIMIT_BYTES)}` }, 'file: a path is at most 4096 bytes (4 KiB) in UTF-8'],
      ['shell:openExternal', { url: `https://example.com/${over(EXTERNAL_URL_LIMIT_BYTES)}` }, 'url: a link is at most 2048 bytes (2 KiB) in UTF-8']
    ]
    for (const [channel, payload, message] of refusals) {
      const parsed = invokeContract[channel as keyof typeof invokeContract].request.safeParse(payload)
      expect(parsed.success, channel).toBe(false)
      const issues = parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? []
      expect(issues.some((issue) => issue.startsWith(message)), `${channel}: ${issues.join('; ')}`).toBe(true)
    }
  })

  it('sit below the bridge message limit, with room for JSON escapes (two bytes for one) and the frame around them', () => {
    for (const limit of [PRESET_TEXT_LIMIT_BYTES, FILE_NAME_LIMIT_BYTES, SECRET_LIMIT_BYTES, PATH_LIMIT_BYTES, EXTERNAL_URL_LIMIT_BYTES]) {
      expect(2 * limit + 64 * 1024).toBeLessThan(BRIDGE_MESSAGE_LIMIT_BYTES)
    }
    // the largest preset file the contract takes, every character escaped, in one invoke frame
    const text = '"'.repeat(PRESET_TEXT_LIMIT_BYTES)
    expect(invokeContract['presets:import'].request.safeParse({ text, fileName: 'a.json' }).success).toBe(true)
    const frame = JSON.stringify({ type: 'invoke', id: 2 ** 31, channel: 'presets:import', payload: { text, fileName: 'é'.repeat(127) } })
    expect(Buffer.byteLength(frame)).toBeLessThan(BRIDGE_MESSAGE_LIMIT_BYTES)
  })
})
