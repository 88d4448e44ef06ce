import { describe, expect, it } from 'vitest'
import { expectedWriteCache, guestChecks, hostChecks, parseGuestProbe, type LiveDisk } from '../../../../src/main/scenario/guest-check'

// what GUEST_PROBE printed in a lab guest (2 vCPUs, cache=none, 2 queues, virtio-blk)
/** virtio-blk disks of the live XML, named as in the original. */
const virtio = (...devs: string[]): LiveDisk[] => devs.map((dev) => ({ named: dev, dev, bus: 'virtio' }))
const PROBE = ['cpus 2', 'mem 492300', 'disk vda 2 write_back', 'disk vdb 2 write_back', 'disk vdc 2 write_back', 'nic eth0 1', ''].join('\n')

describe('guest checks', () => {
  it('reads the probe and checks each disk the setup names', () => {
    const view = parseGuestProbe(PROBE)
    expect(view.cpus).toBe(2)
    expect(view.disks.get('vdb')).toEqual({ mq: 2, writeCache: 'write back' })
    const checks = guestChecks({ cache: 'none', queues: 2, vcpus: 2, disks: ['vdb'] }, view, virtio('vda', 'vdb', 'vdc'))
    expect(checks.map((c) => `${c.what}=${c.seen} ${c.ok}`)).toEqual(['processors=2 true', 'vdb blk-mq queues=2 true', 'vdb write_cache=write back true'])
  })

  it('fails a check the guest contradicts, and one it cannot show', () => {
    const view = parseGuestProbe(PROBE)
    const checks = guestChecks({ cache: 'writethrough', queues: 1, memoryMiB: 512, nicQueues: 2 }, view, virtio('vda', 'vdz'))
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

  it('checks the live vCPUs, current memory and a swapped disk on the host, and the swapped disk in the guest', () => {
    const live = [
      "<domain type='kvm'>",
      "  <memory unit='KiB'>1048576</memory>",
      "  <currentMemory unit='KiB'>786432</currentMemory>",
      "  <vcpu placement='static' current='3'>4</vcpu>",
      '  <devices>',
      "    <disk type='block' device='disk'>",
      "      <driver name='qemu' type='raw'/>",
      "      <source dev='/dev/vg0/bench' index='1'/>",
      "      <target dev='vdb' bus='virtio'/>",
      '    </disk>',
      '  </devices>',
      '</domain>'
    ].join('\n')
    const storage = { backend: 'lvm' as const, sources: { vdb: '/dev/vg0/bench' } }
    expect(hostChecks({ vcpus: 3, memoryMiB: 768, storage }, live).map((c) => `${c.what}=${c.seen} ${c.ok}`)).toEqual([
      'vdb source=block /dev/vg0/bench true',
      'vdb format=raw true',
      'vCPUs=3 true',
      'current memory=786432 KiB true'
    ])
    expect(hostChecks({ vcpus: 4, storage: { backend: 'file-qcow2', sources: { vdb: '/d.qcow2' } } }, live).filter((c) => !c.ok).map((c) => `${c.what}: ${c.expected} / ${c.seen}`)).toEqual([
      'vdb source: file /d.qcow2 / block /dev/vg0/bench',
      'vdb format: qcow2 / raw',
      'vCPUs: 4 / 3'
    ])
    const view = parseGuestProbe(PROBE)
    expect(guestChecks({ storage: { ...storage, sources: { vdb: '/dev/vg0/bench', vdd: '/dev/vg0/other' } } }, view, virtio('vdb', 'vdd')).map((c) => `${c.what}=${c.seen} ${c.ok}`)).toEqual(['vdb present=yes true', 'vdd present=no false'])
  })
})
