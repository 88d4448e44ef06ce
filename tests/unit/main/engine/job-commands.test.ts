import { describe, expect, it } from 'vitest'
import { peerAddressOf, peerAddressProblems, type PeerAddressing } from '../../../../src/main/engine/job-commands'

const guest: PeerAddressing = { name: 'vm2', kind: 'ssh', address: '192.0.2.20', addresses: { private: '10.0.0.20', public: '198.51.100.20' } }
const host: PeerAddressing = { name: 'pm2', kind: 'ssh', address: '192.0.2.2', addresses: { private: '10.0.0.2' } }

describe('peerAddressOf', () => {
  it("dials the address of the job's own path before the scenario's", () => {
    expect(peerAddressOf(guest, { network: 'private' }, 'eip')).toBe('198.51.100.20')
    expect(peerAddressOf(guest, { network: 'eip' }, 'private')).toBe('10.0.0.20')
    expect(peerAddressOf(guest, { network: 'eip' })).toBe('198.51.100.20')
    expect(peerAddressOf(host, undefined, 'classic')).toBe('10.0.0.2')
    expect(peerAddressOf({ ...host, addresses: {} }, undefined, 'classic')).toBe('192.0.2.2')
  })

  it('refuses a path whose address the peer lacks, saying what to do', () => {
    expect(() => peerAddressOf(host, undefined, 'eip')).toThrow('pm2 has no public (EIP) address: add it to the target, or choose another network path')
    expect(() => peerAddressOf({ ...guest, addresses: { public: '198.51.100.20' } }, undefined, 'private')).toThrow(
      'vm2 has no private/VPC address: add it to the target, or choose another network path'
    )
  })
})

describe('peerAddressProblems (checked before a run starts)', () => {
  const targets = [
    { name: 'vm1', kind: 'ssh' as const, addresses: { private: '10.0.0.10' }, scenario: { network: 'eip' as const } },
    { ...guest },
    { ...host }
  ]

  it('names each peer and path without an address once, for the jobs of every kind', () => {
    const jobs = [
      { target: 'vm1', peer: 'vm2', network: 'eip' as const },
      { target: 'vm2', peer: 'vm1', network: 'eip' as const },
      { target: 'vm2', peer: 'VM1', network: 'eip' as const },
      // a compare job: the measured side's scenario picks the path
      { target: 'vm1', peer: 'pm2' },
      { target: 'pm2' }
    ]
    expect(peerAddressProblems(jobs, targets)).toEqual([
      'vm1 has no public (EIP) address: add it to the target, or choose another network path',
      'pm2 has no public (EIP) address: add it to the target, or choose another network path'
    ])
  })

  it('has nothing to say when every peer has its address', () => {
    expect(peerAddressProblems([{ target: 'vm1', peer: 'vm2', network: 'eip' }, { target: 'pm2', peer: 'vm2', network: 'private' }], targets)).toEqual([])
  })
})
