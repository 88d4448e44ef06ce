import { describe, expect, it } from 'vitest'
import { isLoopbackAddress, loopbackBindAddress } from '../../../../src/main/bridge/loopback'

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.5.6.7', '127.255.255.254', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::FFFF:127.0.0.1'])(
    'accepts %s',
    (address) => {
      expect(isLoopbackAddress(address)).toBe(true)
    }
  )

  it.each([
    '0.0.0.0',
    '::',
    '10.0.0.1',
    '192.168.1.1',
    '128.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:0.0.0.0',
    '::2',
    'fe80::1',
    'example.com',
    'localhost',
    '127.0.0.1.example.com',
    '127.1',
    ''
  ])('refuses %j', (address) => {
    expect(isLoopbackAddress(address)).toBe(false)
  })
})

describe('loopbackBindAddress', () => {
  it('takes localhost as 127.0.0.1 without resolving it', () => {
    expect(loopbackBindAddress('localhost')).toBe('127.0.0.1')
  })

  it('accepts loopback addresses as they are, without IPv6 brackets', () => {
    expect(loopbackBindAddress('127.0.0.1')).toBe('127.0.0.1')
    expect(loopbackBindAddress('127.0.0.2')).toBe('127.0.0.2')
    expect(loopbackBindAddress('::1')).toBe('::1')
    expect(loopbackBindAddress('[::1]')).toBe('::1')
  })

  it('refuses 0.0.0.0 with a message that says why and what to do instead', () => {
    expect(() => loopbackBindAddress('0.0.0.0')).toThrow('Refusing to listen on 0.0.0.0')
    expect(() => loopbackBindAddress('0.0.0.0')).toThrow(/only binds loopback addresses.*SSH tunnel/)
  })

  it.each(['::', '192.168.1.10', 'example.com', 'LOCALHOST', ''])('refuses %j', (host) => {
    expect(() => loopbackBindAddress(host)).toThrow(`Refusing to listen on ${host}:`)
  })
})
