import { describe, expect, it } from 'vitest'
import { specProblem, type ConnectSpec } from '../../../../src/main/ssh/connect'
import {
  hostPort,
  seconds,
  socketErrorCode,
  socketErrorMessage,
  where,
  type HopIdentity
} from '../../../../src/main/ssh/connect-errors'

const good: ConnectSpec = { host: 'kvm-host', port: 22, username: 'bench', auth: { method: 'agent' } }
const target: HopIdentity = { label: 'kvm-host', host: '10.0.0.5', port: 22, role: 'target' }

describe('specProblem', () => {
  it('accepts a plain spec, with the port defaulting to 22', () => {
    expect(specProblem(good)).toBeUndefined()
    expect(specProblem({ host: 'h', username: 'u', auth: { method: 'agent' } })).toBeUndefined()
  })

  it('names what is wrong', () => {
    expect(specProblem({ ...good, host: ' ' })).toBe('the host is empty')
    expect(specProblem({ ...good, host: 'kvm host' })).toBe('the host "kvm host" contains spaces or control characters')
    expect(specProblem({ ...good, host: 'kvm\nhost' })).toBe('the host "kvm\\nhost" contains spaces or control characters')
    expect(specProblem({ ...good, port: 0 })).toBe('the port 0 is not between 1 and 65535')
    expect(specProblem({ ...good, port: 65_536 })).toBe('the port 65536 is not between 1 and 65535')
    expect(specProblem({ ...good, port: 22.5 })).toBe('the port 22.5 is not between 1 and 65535')
    expect(specProblem({ ...good, username: '' })).toBe('the user name is empty')
    expect(specProblem({ ...good, username: 'a\u0000b' })).toBe('the user name contains control characters')
    expect(specProblem({ ...good, readyTimeoutMs: 0 })).toBe('the connect timeout 0 ms must be a positive number')
    expect(specProblem({ ...good, keepaliveIntervalMs: -1 })).toBe('the keepalive interval -1 ms must be 0 (off) or positive')
    expect(specProblem({ ...good, keepaliveCountMax: 0 })).toBe('the keepalive count 0 must be a positive whole number')
  })
})

describe('connect error wording', () => {
  it('maps Node socket error codes', () => {
    expect(socketErrorCode('ECONNREFUSED')).toBe('refused')
    expect(socketErrorCode('ENOTFOUND')).toBe('dns')
    expect(socketErrorCode('EAI_AGAIN')).toBe('dns')
    expect(socketErrorCode('EHOSTUNREACH')).toBe('unreachable')
    expect(socketErrorCode('ENETUNREACH')).toBe('unreachable')
    expect(socketErrorCode('ETIMEDOUT')).toBe('timeout')
    expect(socketErrorCode('ECONNRESET')).toBe('closed')
    expect(socketErrorCode(undefined)).toBe('closed')
  })

  it('says what happened, where, and what to do', () => {
    expect(socketErrorMessage('refused', target, 'ECONNREFUSED')).toBe(
      "Connection refused by 10.0.0.5:22 (target 'kvm-host'): is sshd running and the port right?"
    )
    expect(socketErrorMessage('dns', { ...target, host: 'kvm-hots' }, 'ENOTFOUND')).toBe(
      "Cannot resolve the host name 'kvm-hots' (target 'kvm-host'): check the spelling, or use the IP address."
    )
    expect(socketErrorMessage('dns', target, 'EAI_AGAIN')).toContain('(the DNS server did not answer)')
    expect(socketErrorMessage('unreachable', target, 'EHOSTUNREACH')).toBe(
      "No route to 10.0.0.5:22 (target 'kvm-host') (EHOSTUNREACH): is the host up and on a network this computer can reach?"
    )
    expect(socketErrorMessage('closed', target, 'ECONNRESET')).toContain('(ECONNRESET)')
  })

  it('names jump hosts and IPv6 addresses clearly', () => {
    expect(where({ label: 'bastion', host: 'fe80::1', port: 2222, role: 'jump', targetLabel: 'guest-1' })).toBe(
      "[fe80::1]:2222 (jump host 'bastion' on the way to 'guest-1')"
    )
    expect(hostPort('10.0.0.5', 22)).toBe('10.0.0.5:22')
    expect(seconds(20_000)).toBe('20 s')
    expect(seconds(750)).toBe('0.8 s')
  })
})
