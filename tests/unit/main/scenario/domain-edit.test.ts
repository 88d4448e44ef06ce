import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeChanges, editDomain } from '../../../../src/main/scenario/domain-edit'
import type { DiskBus, DomainSetup } from '../../../../src/shared/model/scenario'

// `virsh dumpxml --inactive` of a lab guest (transient libvirt domain, 2 vCPUs, cache=writeback, io=threads)
const LAB = readFileSync(path.join(__dirname, 'fixtures/lab-domain-transient.xml'), 'utf8')
const SCSI = readFileSync(path.join(__dirname, '../../../fixtures/environment/libvirt/disk-virtio-scsi-reservations.xml'), 'utf8')

function edited(xml: string, setup: DomainSetup, domain = 'vb-lab-sw1') {
  const r = editDomain(domain, xml, setup)
  if (!r.ok) throw new Error(r.errors.join('\n'))
  return r
}

function errorsOf(xml: string, setup: DomainSetup, domain = 'vb-lab-sw1'): string[] {
  const r = editDomain(domain, xml, setup)
  if (r.ok) throw new Error('expected the setup to be refused')
  return r.errors
}

describe('editDomain: disk cache, io and queues', () => {
  it('rewrites only the driver attributes of every disk; every other byte stays', () => {
    const r = edited(LAB, { cache: 'none', queues: 2 })
    const expected = LAB.replaceAll("cache='writeback' io='threads'/>", "cache='none' io='threads' queues='2'/>")
    expect(r.xml).toBe(expected)
    expect(r.changes.map((c) => `${c.what} ${c.from}->${c.to}`)).toEqual([
      'vda cache writeback->none',
      'vda queues (unset)->2',
      'vdb cache writeback->none',
      'vdb queues (unset)->2',
      'vdc cache writeback->none',
      'vdc queues (unset)->2'
    ])
    expect(r.restarts).toEqual(['vb-lab-sw1 restarts: the new vda cache, vda queues, vdb cache, vdb queues, vdc cache, vdc queues take effect at its next boot'])
    expect(r.diff.split('\n').filter((l) => l.startsWith('-') || l.startsWith('+'))).toEqual([
      "-       <driver name='qemu' type='qcow2' cache='writeback' io='threads'/>",
      "+       <driver name='qemu' type='qcow2' cache='none' io='threads' queues='2'/>",
      "-       <driver name='qemu' type='raw' cache='writeback' io='threads'/>",
      "+       <driver name='qemu' type='raw' cache='none' io='threads' queues='2'/>",
      "-       <driver name='qemu' type='qcow2' cache='writeback' io='threads'/>",
      "+       <driver name='qemu' type='qcow2' cache='none' io='threads' queues='2'/>"
    ])
    expect(r.diff).toMatch(/^@@ line 31 @@\n {6}<disk type='file' device='disk'>\n- {7}<driver/)
  })

  it('a setup the domain already has changes nothing and needs no restart', () => {
    const r = edited(LAB, { cache: 'writeback', io: 'threads', vcpus: 2, memoryMiB: 512 })
    expect(r.xml).toBe(LAB)
    expect(r).toMatchObject({ diff: '', changes: [], restarts: [] })
  })

  it('limits the change to the disks named, and applying the old values back gives the same bytes', () => {
    const r = edited(LAB, { cache: 'none', io: 'native', disks: ['vdb'] })
    expect(describeChanges(r.changes)).toBe('vdb cache: writeback -> none; vdb io: threads -> native')
    const back = edited(r.xml, { cache: 'writeback', io: 'threads', disks: ['vdb'] })
    expect(back.xml).toBe(LAB)
  })

  it('puts the queues of a virtio-scsi disk on its controller', () => {
    const r = edited(SCSI, { queues: 4 }, 'QEMUGuest1')
    expect(r.xml).toBe(SCSI.replace("<driver queues='8'/>", "<driver queues='4'/>"))
    expect(describeChanges(r.changes)).toBe('SCSI controller 0 queues: 8 -> 4')
  })
})

describe('editDomain: refuses before anything changes', () => {
  it('queues beyond the vCPUs', () => {
    expect(errorsOf(LAB, { queues: 4 })).toEqual([
      'queues=4 is more than the 2 vCPUs of domain vb-lab-sw1 (Linux uses at most one queue per vCPU): ask for at most 2 queues, or add vcpus: 4'
    ])
    // with as many vCPUs it is fine
    expect(edited(LAB, { queues: 4, vcpus: 4 }).xml).toContain("<vcpu placement='static'>4</vcpu>")
  })

  it('a disk the domain does not have', () => {
    expect(errorsOf(LAB, { cache: 'none', disks: ['vdz'] })).toEqual([
      'domain vb-lab-sw1 has no disk vdz (its disks are vda, vdb, vdc): name a disk by its <target dev> in virsh dumpxml vb-lab-sw1'
    ])
  })

  it('an unknown bus, the boot disk, a disk that does not exist', () => {
    expect(errorsOf(LAB, { bus: { disk: 'vdc', to: 'usb' as DiskBus } })[0]).toBe('unknown disk bus "usb": VirtBench moves disks to virtio-blk, virtio-scsi, ide, sata')
    expect(errorsOf(SCSI, { bus: { disk: 'sda', to: 'sata' } }, 'QEMUGuest1')).toEqual([
      'sda is the disk domain QEMUGuest1 boots from: VirtBench moves only data disks to another bus; name a data disk'
    ])
    expect(errorsOf(LAB, { bus: { disk: 'vdq', to: 'sata' } })).toEqual(['domain vb-lab-sw1 has no disk vdq to move to sata (its disks are vda, vdb, vdc)'])
  })

  it('io=native without a cache mode that opens the disk directly, and queues on a SATA disk', () => {
    expect(errorsOf(LAB, { io: 'native', disks: ['vdb'] })).toEqual([
      'vdb of domain vb-lab-sw1 would get io=native with cache=writeback: QEMU opens native io only with cache none or directsync; add io: "threads" (or io_uring) to this setup'
    ])
    expect(errorsOf(LAB, { queues: 2, disks: ['vdc'], bus: { disk: 'vdc', to: 'sata' } })[0]).toMatch(/^queues apply to virtio-blk and virtio-scsi disks, but vdc of domain vb-lab-sw1 is on sata/)
  })

  it('NIC queues on a domain without an interface, and XML that is not a domain', () => {
    expect(errorsOf(LAB, { nicQueues: 2 })).toEqual(['domain vb-lab-sw1 has no <interface> to give 2 queues'])
    expect(errorsOf('<domain><name>x</name>', { cache: 'none' })[0]).toMatch(/^the XML of domain vb-lab-sw1 is not well-formed: the XML ends inside <domain>/)
    expect(errorsOf('<network/>', { cache: 'none' })).toEqual(['the XML of vb-lab-sw1 has the root <network>, not <domain>: this is not a libvirt domain'])
  })
})

describe('editDomain: bus, vCPUs, memory, NIC queues', () => {
  it('moves a data disk to SATA: new bus and name, its PCI address dropped for libvirt to assign', () => {
    const r = edited(LAB, { bus: { disk: 'vdc', to: 'sata' } })
    const vdc = /<disk[^>]*>\s*<driver[^>]*\/>\s*<source file='[^']*data\.qcow2'[^>]*\/>[\s\S]*?<\/disk>/.exec(r.xml)![0]
    expect(vdc).toContain("<target dev='sda' bus='sata'/>")
    expect(vdc).not.toContain('<address')
    expect(vdc).toContain("<alias name='virtio-disk2'/>")
    expect(describeChanges(r.changes)).toBe('vdc bus: virtio -> sata; vdc target dev: vdc -> sda')
    // the other disks keep their addresses
    expect(r.xml.match(/<address type='pci'/g)).toHaveLength(LAB.match(/<address type='pci'/g)!.length - 1)
  })

  it('moves a data disk to virtio-scsi, adding the controller with the queues asked for', () => {
    const r = edited(LAB, { bus: { disk: 'vdb', to: 'virtio-scsi' }, queues: 2, disks: ['vdb'] })
    expect(r.xml).toContain("<target dev='sda' bus='scsi'/>")
    expect(r.xml).toContain("    <controller type='scsi' index='0' model='virtio-scsi'><driver queues='2'/></controller>\n  </devices>")
  })

  it('sets vCPUs and memory (in KiB)', () => {
    const r = edited(LAB, { vcpus: 1, memoryMiB: 1024 })
    expect(r.xml).toBe(
      LAB.replace("<vcpu placement='static'>2</vcpu>", "<vcpu placement='static'>1</vcpu>")
        .replace("<memory unit='KiB'>524288</memory>", "<memory unit='KiB'>1048576</memory>")
        .replace("<currentMemory unit='KiB'>524288</currentMemory>", "<currentMemory unit='KiB'>1048576</currentMemory>")
    )
  })

  it('gives every virtio interface its queues, adding <driver> where there is none', () => {
    const xml = [
      '<domain type="kvm">',
      '  <vcpu>4</vcpu>',
      '  <devices>',
      '    <interface type="network"><source network="default"/><model type="virtio"/></interface>',
      '    <interface type="bridge">',
      '      <model type="virtio"/>',
      '      <driver name="vhost" queues="1"/>',
      '    </interface>',
      '  </devices>',
      '</domain>',
      ''
    ].join('\n')
    const r = edited(xml, { nicQueues: 4 }, 'web')
    expect(r.xml).toBe(
      xml
        .replace('<model type="virtio"/></interface>', "<model type=\"virtio\"/>\n      <driver queues='4'/>\n    </interface>")
        .replace('queues="1"', 'queues="4"')
    )
    expect(errorsOf(xml, { nicQueues: 8 }, 'web')).toEqual(['nicQueues=8 is more than the 4 vCPUs of domain web: ask for at most 4'])
  })
})
