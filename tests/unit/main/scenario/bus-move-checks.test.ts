/**
 * After a bus move (a data disk from virtio-blk vdc to SATA or virtio-scsi sda, or IDE), the
 * checks find the disk under its new name: in the live XML by the target dev the step defined,
 * in the guest by its serial when it has one, else by that target dev; and each check says which
 * disk it looked at.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { editDomain } from '../../../../src/main/scenario/domain-edit'
import { GUEST_PROBE, guestChecks, hostChecks, liveDisks, parseGuestProbe, renamedDisks } from '../../../../src/main/scenario/guest-check'
import type { DomainSetup } from '../../../../src/shared/model/scenario'

/** A domain booting from vda with a data disk vdc, `serial` on the data disk when given. */
function original(serial?: string): string {
  return `<domain type='kvm'>
  <name>vm</name>
  <memory unit='KiB'>1048576</memory>
  <vcpu placement='static'>2</vcpu>
  <os>
    <type arch='x86_64'>hvm</type>
    <boot dev='hd'/>
  </os>
  <devices>
    <disk type='file' device='disk'>
      <driver name='qemu' type='qcow2' cache='none'/>
      <source file='/var/lib/vb/boot.qcow2'/>
      <target dev='vda' bus='virtio'/>
    </disk>
    <disk type='file' device='cdrom'>
      <source file='/var/lib/vb/seed.iso'/>
      <target dev='sdb' bus='sata'/>
      <readonly/>
    </disk>
    <disk type='file' device='disk'>
      <driver name='qemu' type='qcow2' cache='none'/>
      <source file='/var/lib/vb/data.qcow2'/>
      <target dev='vdc' bus='virtio'/>${serial ? `\n      <serial>${serial}</serial>` : ''}
    </disk>
  </devices>
</domain>
`
}

/** The step's XML (the editor's) and the live XML libvirt gives back: the moved disk listed first, as libvirt may order it. */
function step(setup: DomainSetup, serial?: string): { renamed: Map<string, string>; defined: string; live: string } {
  const edit = editDomain('vm', original(serial), setup)
  if (!edit.ok) throw new Error(edit.errors.join('; '))
  const disks = [...edit.xml.matchAll(/ {4}<disk [\s\S]*?<\/disk>\n/g)].map((m) => m[0])
  const moved = disks.find((d) => d.includes('data.qcow2'))!
  const live = edit.xml.replace(disks.join(''), [moved, ...disks.filter((d) => d !== moved)].join(''))
  return { renamed: renamedDisks(original(serial), edit.xml), defined: edit.xml, live }
}

const brief = (checks: { what: string; seen: string; ok: boolean }[]): string[] => checks.map((c) => `${c.what}=${c.seen} ${c.ok}`)

describe('the disk a bus move renamed', () => {
  it('is named by the target dev the step defined, matched to the original by position, not by the order libvirt gives', () => {
    const sata = step({ bus: { disk: 'vdc', to: 'sata' } })
    // sdb is taken by the cdrom: the data disk becomes sda
    expect(sata.defined).toMatch(/<target dev='sda' bus='sata'\/>/)
    expect([...sata.renamed]).toEqual([['vdc', 'sda']])
    expect(liveDisks(sata.live, sata.renamed)).toEqual([
      { named: 'vdc', dev: 'sda', bus: 'sata' },
      { named: 'vda', dev: 'vda', bus: 'virtio' }
    ])
    expect([...step({ cache: 'writeback' }).renamed]).toEqual([])
    expect([...renamedDisks(original(), '<network/>')]).toEqual([])
  })

  it('is checked on the host under its new name: cache, storage source, and the bus of that very disk', () => {
    const setup: DomainSetup = { cache: 'writeback', disks: ['vdc'], bus: { disk: 'vdc', to: 'sata' }, storage: { backend: 'file-raw', sources: { vdc: '/var/lib/vb/bench.raw' } } }
    const { renamed, live } = step(setup)
    expect(brief(hostChecks(setup, live, renamed))).toEqual([
      'vdc (now sda) cache=writeback true',
      'vdc (now sda) source=file /var/lib/vb/bench.raw true',
      'vdc (now sda) format=raw true',
      'vdc moved to=sata true'
    ])
    // another disk on SATA (the cdrom is not one) does not pass for the moved one: before the move, vdc is on virtio
    const before = original().replace("<target dev='vda' bus='virtio'/>", "<target dev='sdc' bus='sata'/>")
    expect(brief(hostChecks({ bus: { disk: 'vdc', to: 'sata' } }, before, new Map()))).toEqual(['vdc moved to=virtio-blk false'])
  })

  it('is found in the guest under the target dev the move gave it, when it has no serial', () => {
    const setup: DomainSetup = { cache: 'writethrough', disks: ['vdc'], bus: { disk: 'vdc', to: 'sata' } }
    const { renamed, live } = step(setup)
    const view = parseGuestProbe(['disk vda 2 write_back overlayblk', 'disk sda 1 write_through', ''].join('\n'))
    expect(brief(guestChecks(setup, view, liveDisks(live, renamed)))).toEqual(['vdc (now sda) present=yes true', 'vdc (now sda) write_cache=write through true'])
    // not there under that name: said, and failed
    const missing = parseGuestProbe('disk vda 2 write_back\ndisk sdb 1 write_through\n')
    expect(brief(guestChecks(setup, missing, liveDisks(live, renamed)))).toEqual(['vdc (now sda) present=no false', 'vdc (now sda) write_cache=(not seen) false'])
  })

  it('is found in the guest by its serial, under whatever name the guest gave it', () => {
    const setup: DomainSetup = { cache: 'none', bus: { disk: 'vdc', to: 'virtio-scsi' } }
    const { renamed, live } = step(setup, 'vb-data')
    expect(live).toMatch(/<controller type='scsi' index='0' model='virtio-scsi'>/)
    // the guest names it sdb (the cdrom's sr0 is not a disk; another SCSI disk came first)
    const view = parseGuestProbe(['disk vda 1 write_back', 'disk sda 1 write_through other', 'disk sdb 2 write_back vb-data', ''].join('\n'))
    expect(brief(guestChecks(setup, view, liveDisks(live, renamed)))).toEqual([
      'vdc (now sda, guest sdb, serial vb-data) present=yes true',
      'vdc (now sda, guest sdb, serial vb-data) write_cache=write back true',
      'vda write_cache=write back true'
    ])
  })

  it('matches a serial the guest shows cut to 20 characters, and leaves an IDE disk without a serial to the host check', () => {
    const long = 'vb-data-0123456789-abcdef'
    const ide: DomainSetup = { cache: 'none', bus: { disk: 'vdc', to: 'ide' } }
    const withSerial = step(ide, long)
    expect([...withSerial.renamed]).toEqual([['vdc', 'hda']])
    const view = parseGuestProbe(`disk vda 1 write_back\ndisk sda 1 write_back ${long.slice(0, 20)}\n`)
    expect(brief(guestChecks(ide, view, liveDisks(withSerial.live, withSerial.renamed)))[0]).toBe(`vdc (now hda, guest sda, serial ${long}) present=yes true`)
    // Linux names an IDE disk sd*, not hd*: without a serial the guest cannot tell which it is, so only the host checks it
    const without = step(ide)
    expect(brief(guestChecks(ide, view, liveDisks(without.live, without.renamed)))).toEqual(['vda write_cache=write back true'])
    expect(brief(hostChecks(ide, without.live, without.renamed))).toContain('vdc (now hda) cache=none true')
  })
})

describe('the guest probe reads each disk serial', () => {
  const sys = mkdtempSync(path.join(os.tmpdir(), 'vb-probe-sys-'))
  afterAll(() => rmSync(sys, { recursive: true, force: true }))

  it('from virtio-blk serial and from SCSI/ATA VPD page 0x80, trimmed, spaces as _', () => {
    const disk = (name: string, files: Record<string, string | Buffer>): void => {
      for (const [file, body] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(sys, name, file)), { recursive: true })
        writeFileSync(path.join(sys, name, file), body)
      }
    }
    disk('vda', { serial: 'vb-boot', 'queue/write_cache': 'write back\n', 'mq/0/cpu_list': '0', 'mq/1/cpu_list': '1' })
    // an ATA disk's page 0x80: a 4-byte header, then the serial padded with spaces to 20
    disk('sda', { 'device/vpd_pg80': Buffer.concat([Buffer.from([0x00, 0x80, 0x00, 0x14]), Buffer.from('vb data 1'.padEnd(20, ' '))]), 'queue/write_cache': 'write through\n' })
    disk('sdb', { 'queue/write_cache': 'write back\n' })
    disk('loop0', { serial: 'skipped' })
    const out = spawnSync('sh', ['-c', GUEST_PROBE.replace('/sys/block/', `${sys}/`)], { encoding: 'utf8' })
    expect(out.status).toBe(0)
    const view = parseGuestProbe(out.stdout)
    expect(Object.fromEntries(view.disks)).toEqual({
      vda: { mq: 2, writeCache: 'write back', serial: 'vb-boot' },
      sda: { mq: 0, writeCache: 'write through', serial: 'vb_data_1' },
      sdb: { mq: 0, writeCache: 'write back' }
    })
    // the XML's serial with a space matches what the probe printed
    const live = "<domain><devices><disk type='file' device='disk'><source file='/d'/><target dev='sdc' bus='sata'/><serial>vb data 1</serial></disk></devices></domain>"
    expect(brief(guestChecks({ cache: 'writethrough' }, view, liveDisks(live)))).toEqual(['sdc (guest sda, serial vb data 1) write_cache=write through true'])
  })
})
