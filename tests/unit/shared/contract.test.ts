import { describe, expect, it } from 'vitest'
import {
  EVENT_CHANNELS,
  INVOKE_CHANNELS,
  isEventChannel,
  isInvokeChannel
} from '../../../src/shared/channels'
import {
  ApiCallError,
  eventContract,
  ExternalUrl,
  invokeContract,
  isSafeExternalUrl,
  SettingsPatch,
  unwrap,
  type Envelope
} from '../../../src/shared/contract'

describe('isSafeExternalUrl', () => {
  it.each(['https://example.com/x', 'https://example.com:8443/a?b=c#d', 'HTTPS://EXAMPLE.COM/', 'mailto:a@b.c'])(
    'accepts %s',
    (url) => {
      expect(isSafeExternalUrl(url)).toBe(true)
    }
  )

  it.each([
    'http://example.com/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'https://user:pw@host/',
    'https://user@host/',
    'https://:pw@host/',
    'data:text/html,<script>alert(1)</script>',
    'custom-scheme://x',
    'ftp://example.com/',
    'vbscript:msgbox',
    'example.com',
    '//example.com/x',
    'not a url',
    ''
  ])('rejects %j', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false)
  })

  it('is what the ExternalUrl schema enforces, with a 2048 character limit on top', () => {
    expect(ExternalUrl.safeParse('https://example.com/x').success).toBe(true)
    expect(ExternalUrl.safeParse('javascript:alert(1)').success).toBe(false)
    expect(ExternalUrl.safeParse(`https://example.com/${'a'.repeat(2028)}`).success).toBe(true)
    expect(ExternalUrl.safeParse(`https://example.com/${'a'.repeat(2029)}`).success).toBe(false)
  })
})

describe('the contract and the channel lists', () => {
  it('has a request and response schema for exactly the invoke channels', () => {
    expect(Object.keys(invokeContract).sort()).toEqual([...INVOKE_CHANNELS].sort())
    for (const channel of INVOKE_CHANNELS) {
      expect(typeof invokeContract[channel].request.safeParse).toBe('function')
      expect(typeof invokeContract[channel].response.safeParse).toBe('function')
    }
  })

  it('has a payload schema for exactly the event channels', () => {
    expect(Object.keys(eventContract).sort()).toEqual([...EVENT_CHANNELS].sort())
  })

  it('does not reuse a name between invoke and event channels', () => {
    const shared = INVOKE_CHANNELS.filter((channel) => (EVENT_CHANNELS as readonly string[]).includes(channel))
    expect(shared).toEqual([])
  })
})

describe('isInvokeChannel and isEventChannel', () => {
  it('accept the listed names only', () => {
    for (const channel of INVOKE_CHANNELS) {
      expect(isInvokeChannel(channel)).toBe(true)
      expect(isEventChannel(channel)).toBe(false)
    }
    for (const channel of EVENT_CHANNELS) {
      expect(isEventChannel(channel)).toBe(true)
      expect(isInvokeChannel(channel)).toBe(false)
    }
  })

  it.each(['', 'app', 'APP:INFO', 'app:info ', 'settings:*', 'toString', '__proto__', 'constructor'])(
    'refuse the name %j',
    (name) => {
      expect(isInvokeChannel(name)).toBe(false)
      expect(isEventChannel(name)).toBe(false)
    }
  )

  it.each([undefined, null, 42, ['app:info'], { channel: 'app:info' }])('refuse the non-string %j', (value) => {
    expect(isInvokeChannel(value)).toBe(false)
    expect(isEventChannel(value)).toBe(false)
  })
})

describe('SettingsPatch', () => {
  it('accepts an empty patch and each known theme', () => {
    expect(SettingsPatch.parse({})).toEqual({})
    for (const theme of ['system', 'light', 'dark'] as const) {
      expect(SettingsPatch.parse({ theme })).toEqual({ theme })
    }
  })

  it('rejects unknown keys', () => {
    const result = SettingsPatch.safeParse({ theme: 'dark', fontSize: 14 })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.code).toBe('unrecognized_keys')
    expect(result.error?.issues[0]?.message).toContain('fontSize')
  })

  it.each(['purple', 'Dark', '', 1, null])('rejects the theme %j', (theme) => {
    const result = SettingsPatch.safeParse({ theme })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual(['theme'])
  })

  it('rejects a payload that is not an object', () => {
    expect(SettingsPatch.safeParse(undefined).success).toBe(false)
    expect(SettingsPatch.safeParse('dark').success).toBe(false)
  })
})

/** Runs `fn` and returns what it threw; fails the test when it returns instead. */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to throw')
}

describe('unwrap', () => {
  it('returns the value of an ok envelope', () => {
    const envelope: Envelope<{ theme: string }> = { ok: true, value: { theme: 'dark' } }
    expect(unwrap('settings:get', envelope)).toEqual({ theme: 'dark' })
  })

  it('throws an ApiCallError with the code, the channel-prefixed message and the issues', () => {
    const issues = [{ path: 'theme', message: 'Invalid option' }]
    const envelope: Envelope<never> = {
      ok: false,
      error: { code: 'invalid-request', message: 'Invalid request for settings:update: theme: Invalid option', issues }
    }
    const error = thrownBy(() => unwrap('settings:update', envelope))
    expect(error).toBeInstanceOf(ApiCallError)
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({
      name: 'ApiCallError',
      code: 'invalid-request',
      message: 'settings:update: Invalid request for settings:update: theme: Invalid option',
      issues
    })
  })

  it('leaves issues undefined when the error has none', () => {
    const envelope: Envelope<never> = { ok: false, error: { code: 'unavailable', message: 'No desktop here.' } }
    const error = thrownBy(() => unwrap('shell:openExternal', envelope)) as ApiCallError
    expect(error.message).toBe('shell:openExternal: No desktop here.')
    expect(error.code).toBe('unavailable')
    expect(error.issues).toBeUndefined()
  })
})
