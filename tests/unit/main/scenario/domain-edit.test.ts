import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeChanges, editDomain, editStep, liveDifference } from '../../../../src/main/scenario/domain-edit'
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

  it('sets vCPUs and memory (in KiB): fewer vCPUs than the maximum as the current count, memory without a balloon as both', () => {
    const r = edited(LAB, { vcpus: 1, memoryMiB: 1024 })
    expect(r.xml).toBe(
      LAB.replace("<vcpu placement='static'>2</vcpu>", "<vcpu placement='static' current='1'>2</vcpu>")
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

describe('hot-apply: which changes a running guest takes live (virsh setvcpus / setmem --live), and which restart it', () => {
  // the lab guest with a virtio balloon, at most 4 vCPUs of which 2 are on, 1 GiB of which 512 MiB are in use
  const HOT = LAB.replace("<memballoon model='none'/>", "<memballoon model='virtio'/>")
    .replace("<vcpu placement='static'>2</vcpu>", "<vcpu placement='static' current='2'>4</vcpu>")
    .replace("<memory unit='KiB'>524288</memory>", "<memory unit='KiB'>1048576</memory>")

  it('applies vCPUs within the maximum live: only the current count changes, and the review says no restart', () => {
    const r = edited(HOT, { vcpus: 4 })
    // 4 is the maximum: libvirt writes no current= then
    expect(r.xml).toBe(HOT.replace("<vcpu placement='static' current='2'>4</vcpu>", "<vcpu placement='static'>4</vcpu>"))
    expect(r.live).toEqual({ vcpus: 4 })
    expect(r.restarts).toEqual(['vCPUs: 2 -> 4, applied live, no restart'])
    const down = edited(HOT, { vcpus: 1 })
    expect(down.xml).toBe(HOT.replace("current='2'>4", "current='1'>4"))
    expect(down.live).toEqual({ vcpus: 1 })
  })

  it('applies memory within <memory> live when the domain has a balloon: only <currentMemory> changes', () => {
    const r = edited(HOT, { memoryMiB: 768, vcpus: 3 })
    expect(r.xml).toBe(HOT.replace("<currentMemory unit='KiB'>524288</currentMemory>", "<currentMemory unit='KiB'>786432</currentMemory>").replace("current='2'>4", "current='3'>4"))
    expect(r.live).toEqual({ vcpus: 3, memoryKiB: 786432 })
    expect(r.restarts).toEqual(['vCPUs: 2 -> 3, applied live, no restart', 'currentMemory: 524288 -> 768 MiB, applied live, no restart'])
  })

  it('restarts for more vCPUs than the maximum, more memory than <memory>, memory without a balloon, or any other change beside them', () => {
    const more = edited(HOT, { vcpus: 8 })
    expect(more.xml).toContain("<vcpu placement='static' current='8'>8</vcpu>")
    expect(more.live).toBeUndefined()
    expect(more.restarts).toEqual(['vb-lab-sw1 restarts: the new vCPUs, vCPUs (current) take effect at its next boot'])
    const bigger = edited(HOT, { memoryMiB: 2048 })
    expect(bigger.xml).toContain("<memory unit='KiB'>2097152</memory>")
    expect(bigger.live).toBeUndefined()
    const noBalloon = edited(LAB, { memoryMiB: 256 })
    expect(noBalloon.xml).toContain("<memory unit='KiB'>262144</memory>")
    expect(noBalloon.live).toBeUndefined()
    const withCache = edited(HOT, { vcpus: 4, cache: 'none' })
    expect(withCache.live).toBeUndefined()
    expect(withCache.restarts).toHaveLength(1)
    expect(withCache.restarts[0]).toMatch(/^vb-lab-sw1 restarts: the new vda cache, .*vCPUs take effect at its next boot$/)
  })

  it('decides from the domain as it is in a sweep step, and tells a restore what to put back live', () => {
    const step1 = edited(HOT, { vcpus: 1 })
    // step 2 from the original, the domain at step 1's: only the current count differs again
    const step2 = editStep('vb-lab-sw1', HOT, step1.xml, { vcpus: 3 })
    if (!step2.ok) throw new Error(step2.errors.join('; '))
    expect(step2.live).toEqual({ vcpus: 3 })
    expect(describeChanges(step2.changes)).toBe('vCPUs: 1 -> 3')
    // the restore: the saved original from the domain as the step left it
    expect(liveDifference(step1.xml, HOT)).toEqual({ vcpus: 2 })
    expect(liveDifference(HOT, HOT)).toBeUndefined()
    // anything else differing is no live difference
    expect(liveDifference(edited(HOT, { vcpus: 1, cache: 'none' }).xml, HOT)).toBeUndefined()
    expect(liveDifference(edited(HOT, { vcpus: 8 }).xml, HOT)).toBeUndefined()
  })

  it('keeps a CPU topology of the maximum when the count stays within it, and refuses one a new maximum contradicts', () => {
    const topo = HOT.replace('<cpu mode=\'custom\' match=\'exact\' check=\'full\'>', "<cpu mode='custom' match='exact' check='full'>\n    <topology sockets='1' dies='1' cores='4' threads='1'/>")
    expect(edited(topo, { vcpus: 1 }).live).toEqual({ vcpus: 1 })
    expect(errorsOf(topo, { vcpus: 6 })).toEqual(['domain vb-lab-sw1 has a CPU topology of 4 vCPUs (<cpu><topology>): change it to 6 by hand, or sweep vcpus in multiples it allows'])
  })
})

describe('storage backend swap: a data disk pointed at a prepared disk of another backend', () => {
  const RAW = "<disk type='file' device='disk'>\n      <driver name='qemu' type='raw' cache='writeback' io='threads'/>\n      <source file='/root/.cache/virtbench-lab/guests/sw1/raw.img' index='2'/>"

  it('points a file disk at an LVM volume: <disk type=block>, <source dev>, the format raw; every other byte stays', () => {
    const r = edited(LAB, { storage: { backend: 'lvm', sources: { vdb: '/dev/vg0/bench' } } })
    expect(r.xml).toBe(LAB.replace(RAW, "<disk type='block' device='disk'>\n      <driver name='qemu' type='raw' cache='writeback' io='threads'/>\n      <source index='2' dev='/dev/vg0/bench'/>"))
    expect(describeChanges(r.changes)).toBe('vdb disk type: file -> block; vdb source: /root/.cache/virtbench-lab/guests/sw1/raw.img -> /dev/vg0/bench')
    expect(r.live).toBeUndefined()
    expect(r.restarts).toEqual(['vb-lab-sw1 restarts: the new vdb disk type, vdb source take effect at its next boot'])
  })

  it('points a disk at a qcow2 file and back from a block device, beside a cache change of the disks named', () => {
    const qcow2 = edited(LAB, { storage: { backend: 'file-qcow2', sources: { vdb: '/var/lib/libvirt/images/d.qcow2' } }, cache: 'none', disks: ['vdc'] })
    expect(describeChanges(qcow2.changes)).toBe('vdb source: /root/.cache/virtbench-lab/guests/sw1/raw.img -> /var/lib/libvirt/images/d.qcow2; vdb type: raw -> qcow2; vdc cache: writeback -> none')
    expect(qcow2.xml).toContain("<driver name='qemu' type='qcow2' cache='writeback' io='threads'/>\n      <source file='/var/lib/libvirt/images/d.qcow2' index='2'/>")
    const block = edited(LAB, { storage: { backend: 'lvm', sources: { vdb: '/dev/vg0/bench' } } }).xml
    const back = edited(block, { storage: { backend: 'file-raw', sources: { vdb: '/var/lib/libvirt/images/d.raw' } } })
    expect(back.xml).toContain("<disk type='file' device='disk'>\n      <driver name='qemu' type='raw' cache='writeback' io='threads'/>\n      <source index='2' file='/var/lib/libvirt/images/d.raw'/>")
    expect(describeChanges(back.changes)).toBe('vdb disk type: block -> file; vdb source: /dev/vg0/bench -> /var/lib/libvirt/images/d.raw')
    // a prepared disk the domain already uses changes nothing
    expect(edited(LAB, { storage: { backend: 'file-raw', sources: { vdb: '/root/.cache/virtbench-lab/guests/sw1/raw.img' } } }).changes).toEqual([])
  })

  it('adds a <driver> with the format to a disk that has none, first in the disk', () => {
    const xml = "<domain>\n  <os><kernel>/k</kernel></os>\n  <devices>\n    <disk type='file' device='disk'>\n      <source file='/a.img'/>\n      <target dev='vdb' bus='virtio'/>\n    </disk>\n  </devices>\n</domain>\n"
    expect(edited(xml, { storage: { backend: 'file-qcow2', sources: { vdb: '/b.qcow2' } } }).xml).toBe(xml.replace("<source file='/a.img'/>", "<driver name='qemu' type='qcow2'/>\n      <source file='/b.qcow2'/>"))
  })

  it('refuses a disk the domain does not have, the boot disk unless allowed, a network disk, and one path for two disks', () => {
    const booted = LAB.replace(/\s*<kernel>[^<]*<\/kernel>/, '')
    expect(errorsOf(LAB, { storage: { backend: 'lvm', sources: { vdx: '/dev/vg0/bench' } } })).toEqual([
      'domain vb-lab-sw1 has no disk vdx to point at /dev/vg0/bench (its disks are vda, vdb, vdc): name a disk by its <target dev> in virsh dumpxml vb-lab-sw1'
    ])
    expect(errorsOf(booted, { storage: { backend: 'lvm', sources: { vda: '/dev/vg0/bench' } } })).toEqual([
      'vda is the disk domain vb-lab-sw1 boots from: VirtBench swaps the storage of data disks only; name a data disk, or allow it explicitly (allowBootDisk, storageBootDisk in a sweep) when /dev/vg0/bench boots the guest'
    ])
    expect(edited(booted, { storage: { backend: 'lvm', sources: { vda: '/dev/vg0/bench' }, allowBootDisk: true } }).xml).toContain("<source index='3' dev='/dev/vg0/bench'/>")
    const rbd = LAB.replace(RAW, "<disk type='network' device='disk'>\n      <driver name='qemu' type='raw' cache='writeback' io='threads'/>\n      <source protocol='rbd' name='pool/img'/>")
    expect(errorsOf(rbd, { storage: { backend: 'file-raw', sources: { vdb: '/x.raw' } } })).toEqual(['vdb of domain vb-lab-sw1 is a network disk: VirtBench swaps file and block disks only; change it by hand'])
    expect(errorsOf(LAB, { storage: { backend: 'lvm', sources: { vdb: '/dev/vg0/b', vdc: '/dev/vg0/b' } } })).toEqual([
      'vdc and vdb of domain vb-lab-sw1 would both use /dev/vg0/b: give each disk a prepared disk of its own'
    ])
  })
})
