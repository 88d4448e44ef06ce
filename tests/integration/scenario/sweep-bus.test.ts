/**
 * A sweep that moves a data disk's bus, step after step, on libvirt's test driver behind a
 * libvirtd of the test's own (test-libvirtd.ts; the physical host and the guest are this
 * computer): each step is the original XML plus its combination, so step 2 names vdc although
 * step 1 renamed it sda; a step resumed with its combination in force changes nothing and does
 * not restart; the restore gives back the original XML byte for byte. The guest finds the moved
 * disk by its serial (one of this computer's own disks lends it), under whatever name it has.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyDomainSetup, restoreDomain, savedOriginals } from '../../../src/main/scenario/apply'
import type { DomainHost } from '../../../src/main/scenario/virsh'
import type { LocalSession } from '../../../src/main/ssh/local-session'
import { useTestDomain } from './test-domain'
import type { TestLibvirtd } from './test-libvirtd'

const DOMAIN = 'vb-bus'
// a disk of this computer (the guest) and its serial: the data disk carries it, so the guest's checks find it
const SERIAL_DISK = readdirSync('/sys/block').find((d) => existsSync(`/sys/block/${d}/serial`) && readFileSync(`/sys/block/${d}/serial`, 'utf8').trim() !== '')
const SERIAL = SERIAL_DISK ? readFileSync(`/sys/block/${SERIAL_DISK}/serial`, 'utf8').trim() : 'none'
// booted from vda; vdc is a data disk
const XML = `<domain type='test'>
  <name>${DOMAIN}</name>
  <memory unit='KiB'>1048576</memory>
  <vcpu placement='static'>2</vcpu>
  <os>
    <type arch='x86_64'>hvm</type>
    <boot dev='hd'/>
  </os>
  <devices>
    <disk type='file' device='disk'>
      <driver name='qemu' type='raw' cache='none' io='native'/>
      <source file='/var/lib/vb/boot.img'/>
      <target dev='vda' bus='virtio'/>
    </disk>
    <disk type='file' device='disk'>
      <driver name='qemu' type='raw' cache='none' io='native'/>
      <source file='/var/lib/vb/data.img'/>
      <target dev='vdc' bus='virtio'/>
      <serial>${SERIAL}</serial>
    </disk>
  </devices>
</domain>
`

let libvirt: TestLibvirtd
let scratch: string
let session: LocalSession
useTestDomain({
  domain: DOMAIN,
  scratchPrefix: 'vb-sweep-bus-',
  xml: () => XML,
  ready: (d) => {
    libvirt = d.libvirt
    scratch = d.scratch
    session = d.session
  }
})

describe('a sweep over the bus of a data disk', () => {
  it('runs each step from the original XML, skips a step in force, and restores the original byte for byte', async () => {
    const host: DomainHost = { label: 'phys', session, sudo: false }
    const guest = { label: 'vm1', session }
    const originalsDir = path.join(scratch, 'domains')
    const original = libvirt.virsh('dumpxml', '--inactive', DOMAIN)
    const stages: string[] = []
    const apply = (setup: Parameters<typeof applyDomainSetup>[2]) => applyDomainSetup(host, DOMAIN, setup, guest, { originalsDir, bootPollMs: 100, onStage: (m) => stages.push(m) })

    expect(SERIAL_DISK, 'no disk of this computer has a serial in /sys/block/*/serial').toBeDefined()
    const step1 = await apply({ bus: { disk: 'vdc', to: 'sata' }, io: 'threads' })
    expect(step1.changes.map((c) => `${c.what}: ${c.from} -> ${c.to}`)).toEqual(['vda io: native -> threads', 'vdc bus: virtio -> sata', 'vdc target dev: vdc -> sda', 'vdc io: native -> threads'])
    expect(step1.checks.filter((c) => !c.ok)).toEqual([])
    // the moved disk checked under its new name, on the host and in the guest (found by its serial)
    expect(step1.checks.map((c) => `${c.where} ${c.what}: ${c.seen}`)).toEqual([
      'host vda io: threads',
      'host vdc (now sda) io: threads',
      'host vdc moved to: sata',
      `guest vdc (now sda, guest ${SERIAL_DISK}, serial ${SERIAL}) present: yes`
    ])
    expect(libvirt.virsh('dumpxml', DOMAIN)).toMatch(/<target dev='sda' bus='sata'\/>/)

    // step 2 names vdc, as the original does: before each step started from the previous one, it had no vdc
    const step2 = await apply({ bus: { disk: 'vdc', to: 'virtio-blk' }, io: 'threads' })
    expect(step2.changes[0]).toEqual({ what: 'base', from: "the previous step's XML", to: 'the original XML' })
    expect(step2.diff).toMatch(/^- +<target dev='sda' bus='sata'\/>$/m)
    expect(step2.diff).toMatch(/^\+ +<target dev='vdc' bus='virtio'\/>$/m)
    const live2 = libvirt.virsh('dumpxml', DOMAIN)
    expect(live2).toMatch(/<target dev='vdc' bus='virtio'\/>/)
    expect(live2).not.toMatch(/bus='sata'/)
    expect(live2.match(/io='threads'/g)).toHaveLength(2)

    // the same step again (a resumed step): libvirt's XML is what VirtBench defined, so no define and no restart
    stages.length = 0
    const again = await apply({ bus: { disk: 'vdc', to: 'virtio-blk' }, io: 'threads' })
    expect(again.changes).toEqual([])
    expect(stages).toContain(`${DOMAIN}: has this setup already, no restart`)
    expect(stages.some((s) => s.endsWith('restarting'))).toBe(false)

    const saved = savedOriginals(originalsDir)
    expect(saved.map((s) => s.xml)).toEqual([original])
    await restoreDomain(host, saved[0]!, guest, { bootPollMs: 100 })
    expect(libvirt.virsh('dumpxml', '--inactive', DOMAIN)).toBe(original)
  })
})
