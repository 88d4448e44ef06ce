import { describe, expect, it } from 'vitest'
import { expectedWriteCache, guestChecks, hostChecks, parseGuestProbe } from '../../../../src/main/scenario/guest-check'

// what GUEST_PROBE printed in a lab guest (2 vCPUs, cache=none, 2 queues, virtio-blk)
const PROBE = ['cpus 2', 'mem 492300', 'disk vda 2 write_back', 'disk vdb 2 write_back', 'disk vdc 2 write_back', 'nic eth0 1', ''].join('\n')

describe('guest checks', () => {
  it('reads the probe and checks each disk the setup names', () => {
    const view = parseGuestProbe(PROBE)
    expect(view.cpus).toBe(2)
    expect(view.disks.get('vdb')).toEqual({ mq: 2, writeCache: 'write back' })
    const checks = guestChecks({ cache: 'none', queues: 2, vcpus: 2, disks: ['vdb'] }, view, ['vda', 'vdb', 'vdc'])
    expect(checks.map((c) => `${c.what}=${c.seen} ${c.ok}`)).toEqual(['processors=2 true', 'vdb blk-mq queues=2 true', 'vdb write_cache=write back true'])
  })

  it('fails a check the guest contradicts, and one it cannot show', () => {
    const view = parseGuestProbe(PROBE)
    const checks = guestChecks({ cache: 'writethrough', queues: 1, memoryMiB: 512, nicQueues: 2 }, view, ['vda', 'vdz'])
    expect(checks.filter((c) => !c.ok).map((c) => `${c.what}: ${c.expected} / ${c.seen}`)).toEqual([
      'vda blk-mq queues: 1 / 2',
      'vda write_cache: write through / write back',
      'vdz blk-mq queues: 1 / (not seen)',
      'vdz write_cache: write through / (not seen)',
      'eth0 rx queues: 2 / 1'
    ])
    expect(checks.find((c) => c.what === 'MemTotal')?.ok).toBe(true)
    expect(expectedWriteCache('directsync')).toBe('write through')
  })

  it('checks the live XML on the host', () => {
    const xml = `<domain><devices><disk type='file' device='disk'><driver name='qemu' type='raw' cache='none' io='threads' queues='2'/><source file='/a'/><target dev='vdb' bus='virtio'/></disk></devices></domain>`
    expect(hostChecks({ cache: 'none', io: 'native', queues: 2 }, xml).map((c) => `${c.what} ${c.ok}`)).toEqual(['vdb cache true', 'vdb io false', 'vdb queues true'])
    expect(hostChecks({ cache: 'none' }, '<network/>')[0]).toMatchObject({ ok: false, what: 'domain XML' })
  })
})
