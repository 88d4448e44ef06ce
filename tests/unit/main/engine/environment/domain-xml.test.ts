import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseDomainDisks, type DomainDisksResult } from '../../../../../src/main/engine/environment/domain-xml'
import type { DetectedDiskSetup } from '../../../../../src/shared/model/scenario'
import { libvirtXml } from './fixtures'

function disksOf(result: DomainDisksResult): DetectedDiskSetup[] {
  if (!result.ok) throw new Error(`expected disks, got the error: ${result.error}`)
  return result.disks
}

function errorOf(result: DomainDisksResult): string {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.disks)}`)
  return result.error
}

/** A domain around some devices, as small as libvirt allows. */
function domain(devices: string): string {
  return `<domain type='kvm'><name>g</name><devices>${devices}</devices></domain>`
}

describe('parseDomainDisks: libvirt test-suite domain XML', () => {
  it('disk-cache: each cache mode, bus and block source', () => {
    const lvm = '/dev/HostVG/QEMUGuest1'
    expect(disksOf(parseDomainDisks(libvirtXml('disk-cache')))).toStrictEqual([
      { device: 'hda', cache: 'writeback', format: 'qcow2', bus: 'ide', sourceType: 'block', source: lvm },
      { device: 'hdb', cache: 'unsafe', format: 'qcow2', bus: 'ide', sourceType: 'block', source: lvm },
      // a scsi disk whose controller the XML does not describe: plain scsi, not virtio-scsi
      { device: 'sda', cache: 'none', format: 'qcow2', bus: 'scsi', sourceType: 'block', source: lvm },
      {
        device: 'vda',
        cache: 'writethrough',
        format: 'qcow2',
        bus: 'virtio-blk',
        sourceType: 'block',
        source: '/dev/disk/by-path/ip-192.168.44.1:3260-iscsi-iqn.2011-02.lan.hdserver:hydrar-desktop.win7vm-lun-0'
      },
      { device: 'sdb', cache: 'directsync', format: 'qcow2', bus: 'usb', sourceType: 'block', source: lvm }
    ])
  })

  it('disk-network-rbd: Ceph RBD images; no cache attribute is the default mode', () => {
    const rbd = (device: string, source: string): DetectedDiskSetup => ({
      device,
      cache: 'default',
      format: 'raw',
      bus: 'virtio-blk',
      sourceType: 'network',
      sourceProtocol: 'rbd',
      source
    })
    expect(disksOf(parseDomainDisks(libvirtXml('disk-network-rbd')))).toStrictEqual([
      rbd('vda', 'pool/image'),
      rbd('vdb', 'pool/image'),
      rbd('vdc', 'pool/image'),
      rbd('vdd', 'pool/image'),
      rbd('vde', 'pool/namespace/image'),
      rbd('vdf', 'pool/namespace/image')
    ])
  })

  it('disk-virtio-queues: queues, not queue_size', () => {
    expect(disksOf(parseDomainDisks(libvirtXml('disk-virtio-queues')))).toStrictEqual([
      { device: 'vda', cache: 'default', format: 'raw', queues: 4, bus: 'virtio-blk', sourceType: 'file', source: '/tmp/data.img' },
      { device: 'vdb', cache: 'default', format: 'raw', bus: 'virtio-blk', sourceType: 'file', source: '/tmp/data1.img' },
      { device: 'vdc', cache: 'default', format: 'raw', queues: 4, bus: 'virtio-blk', sourceType: 'file', source: '/tmp/data2.img' }
    ])
  })

  it("disk-sata-device: cache='default', SATA, a space in the path", () => {
    expect(disksOf(parseDomainDisks(libvirtXml('disk-sata-device')))).toStrictEqual([
      { device: 'sda', cache: 'default', bus: 'sata', sourceType: 'block', source: '/dev/HostVG/QEMUG uest1' }
    ])
  })

  it('disk-virtio-scsi-reservations: LUNs on a virtio-scsi controller take its 8 queues; nested <source> ignored', () => {
    expect(disksOf(parseDomainDisks(libvirtXml('disk-virtio-scsi-reservations')))).toStrictEqual([
      { device: 'sda', cache: 'default', format: 'raw', queues: 8, bus: 'virtio-scsi', sourceType: 'block', source: '/dev/HostVG/QEMUGuest1' },
      { device: 'sdb', cache: 'default', format: 'raw', queues: 8, bus: 'virtio-scsi', sourceType: 'block', source: '/dev/HostVG/QEMUGuest2' }
    ])
  })

  it('disk-network-iscsi: iSCSI on virtio-blk and on virtio-scsi (no address: controller 0)', () => {
    const iscsi = (device: string, bus: string, source: string): DetectedDiskSetup => ({
      device,
      cache: 'default',
      format: 'raw',
      bus,
      sourceType: 'network',
      sourceProtocol: 'iscsi',
      source
    })
    expect(disksOf(parseDomainDisks(libvirtXml('disk-network-iscsi')))).toStrictEqual([
      iscsi('vda', 'virtio-blk', 'iqn.1992-01.com.example'),
      iscsi('vdb', 'virtio-blk', 'iqn.1992-01.com.example/1'),
      iscsi('vdc', 'virtio-blk', 'iqn.1992-01.com.example:storage/1'),
      iscsi('vdd', 'virtio-blk', 'iqn.1992-01.com.example:storage/2'),
      iscsi('sda', 'virtio-scsi', 'iqn.1992-01.com.example'),
      iscsi('sdb', 'virtio-scsi', 'iqn.1992-01.com.example:server/0'),
      iscsi('sdc', 'virtio-scsi', 'iqn.1992-01.com.example:server/0')
    ])
  })

  it("disk-network-nfs: the disk's own source, not its backing store's", () => {
    expect(disksOf(parseDomainDisks(libvirtXml('disk-network-nfs')))).toStrictEqual([
      { device: 'vda', cache: 'none', format: 'raw', bus: 'virtio-blk', sourceType: 'network', sourceProtocol: 'nfs', source: '/foo/bar/baz' },
      { device: 'vdb', cache: 'default', format: 'qcow2', bus: 'virtio-blk', sourceType: 'network', sourceProtocol: 'nfs', source: '/Volume2/Image' }
    ])
  })

  it('disk-scsi-disk-vpd: the cdrom is skipped; a disk on an lsilogic controller is plain scsi', () => {
    expect(disksOf(parseDomainDisks(libvirtXml('disk-scsi-disk-vpd')))).toStrictEqual([
      { device: 'sdb', cache: 'default', bus: 'scsi', sourceType: 'block', source: '/dev/HostVG/QEMUGuest2' }
    ])
  })

  it('disk-backing-chains-noindex: deep chains, nbd, rbd, LVM and a qcow2 file', () => {
    const nbd = (device: string, format: string, source: string): DetectedDiskSetup => ({
      device,
      cache: 'default',
      format,
      bus: 'virtio-blk',
      sourceType: 'network',
      sourceProtocol: 'nbd',
      source
    })
    expect(disksOf(parseDomainDisks(libvirtXml('disk-backing-chains-noindex')))).toStrictEqual([
      nbd('vda', 'qcow2', 'Volume2/Image'),
      nbd('vdb', 'qcow2', 'bar'),
      nbd('vdc', 'raw', 'Volume1/Image'),
      { device: 'vdd', cache: 'default', format: 'qcow2', bus: 'virtio-blk', sourceType: 'network', sourceProtocol: 'rbd', source: 'pool/image' },
      { device: 'vde', cache: 'default', format: 'qcow2', bus: 'virtio-blk', sourceType: 'block', source: '/dev/HostVG/QEMUGuest11' },
      { device: 'vdf', cache: 'default', format: 'qcow2', bus: 'virtio-blk', sourceType: 'file', source: '/var/lib/libvirt/images/rhel7.1484071880' }
    ])
  })

  it('disk-aio: io mode; the cdrom is skipped', () => {
    expect(disksOf(parseDomainDisks(libvirtXml('disk-aio')))).toStrictEqual([
      { device: 'hda', cache: 'none', io: 'native', format: 'qcow2', bus: 'ide', sourceType: 'block', source: '/dev/HostVG/QEMUGuest1' }
    ])
  })

  it('disk-source-pool: comments, unusual attribute order, pool volumes, a disk without <driver>', () => {
    expect(disksOf(parseDomainDisks(libvirtXml('disk-source-pool')))).toStrictEqual([
      { device: 'hdd', cache: 'default', bus: 'ide', sourceType: 'file', source: '/tmp/idedisk.img' },
      { device: 'vda', cache: 'default', format: 'fat', bus: 'virtio-blk', sourceType: 'volume', source: 'pool-disk/dir+vol1' },
      { device: 'vdb', cache: 'default', bus: 'virtio-blk', sourceType: 'volume', source: 'pool-disk/dir+vol2' }
    ])
  })
})

describe('parseDomainDisks: the XML subset, done right', () => {
  it('decodes the five entities and character references in attributes', () => {
    const xml = domain(`<disk type='file'><source file="/a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos; &#x41;&#66;"/><target dev='vda' bus='virtio'/></disk>`)
    expect(disksOf(parseDomainDisks(xml))[0]?.source).toBe(`/a & b <c> "d" 'e' AB`)
  })

  it('takes single quotes inside double quotes and the other way round', () => {
    const xml = domain(`<disk type='file'><source file="/it's"/><target dev='vda' bus='virtio'/></disk><disk type="file"><source file='/say "x"'/><target dev="vdb" bus="virtio"/></disk>`)
    expect(disksOf(parseDomainDisks(xml)).map((d) => d.source)).toEqual([`/it's`, '/say "x"'])
  })

  it('skips the XML declaration, a DOCTYPE, processing instructions, comments and CDATA', () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE domain [ <!ENTITY x "y"> ]>\n<!-- <disk><target dev='vdx'/></disk> -->\n${domain(
      `<?pi stuff?><![CDATA[<disk type='file'><target dev='vdz'/></disk>]]><!-- <disk type='file'><target dev='vdy'/></disk> --><disk type='file'><source file='/real'/><target dev='vda' bus='virtio'/></disk>`
    )}\n<!-- after -->\n`
    expect(disksOf(parseDomainDisks(xml))).toStrictEqual([{ device: 'vda', cache: 'default', bus: 'virtio-blk', sourceType: 'file', source: '/real' }])
  })

  it('reads a disk type libvirt defaults (file) and keeps buses it does not map', () => {
    const xml = domain(`<disk><source file='/x.img'/><target dev='fda' bus='fdc'/></disk><disk device='floppy'><target dev='fdb' bus='fdc'/></disk>`)
    expect(disksOf(parseDomainDisks(xml))).toStrictEqual([{ device: 'fda', cache: 'default', bus: 'fdc', sourceType: 'file', source: '/x.img' }])
  })

  it('leaves out a cache value libvirt does not know, and queues that are not a count', () => {
    const xml = domain(`<disk type='file'><driver cache='bogus' queues='0'/><target dev='vda' bus='virtio'/></disk>`)
    expect(disksOf(parseDomainDisks(xml))).toStrictEqual([{ device: 'vda', bus: 'virtio-blk', sourceType: 'file' }])
  })

  it('finds scsi controllers by their index, or by their order when they have none', () => {
    const xml = domain(
      `<controller type='scsi' model='lsilogic'/><controller type='scsi' model='virtio-scsi'><driver queues='2'/></controller>` +
        `<disk type='file'><target dev='sda' bus='scsi'/><address type='drive' controller='1'/></disk>` +
        `<disk type='file'><target dev='sdb' bus='scsi'/></disk>`
    )
    expect(disksOf(parseDomainDisks(xml)).map((d) => [d.device, d.bus, d.queues])).toEqual([
      ['sda', 'virtio-scsi', 2],
      ['sdb', 'scsi', undefined]
    ])
  })

  it('gives an empty list for a domain without disks', () => {
    expect(disksOf(parseDomainDisks(`<domain type='kvm'><name>x</name></domain>`))).toEqual([])
  })
})

describe('parseDomainDisks: hostile and broken input gives a clear error, never an exception', () => {
  it.each([
    ['', /the domain XML is empty/],
    ['   \n', /the domain XML is empty/],
    ['garbage', /text before the first element at line 1, column 1: "garbage"/],
    ['error: failed to get domain \'x\'', /text before the first element/],
    ['<domain><devices></domain>', /closing tag <\/domain> does not match <devices> opened at line 1, column 9/],
    ['<domain>', /the XML ends inside <domain> opened at line 1, column 1 \(it was cut off\)/],
    ["<domain><disk type='file", /the value of attribute type of <disk> never ends/],
    ['<domain><disk type=file/></domain>', /the value of attribute type of <disk> is not in quotes/],
    ["<domain><disk type='a' type='b'/></domain>", /attribute type appears twice in <disk>/],
    ["<domain><disk a='1'b='2'/></domain>", /attributes of <disk> must be separated by spaces/],
    ["<domain><source file='a &nbsp; b'/></domain>", /unknown entity &nbsp; in attribute file/],
    ["<domain><source file='&constructor;'/></domain>", /unknown entity &constructor; in attribute file/],
    ["<domain><source file='a & b'/></domain>", /a bare "&" in attribute file \(write &amp;\)/],
    ["<domain><source file='a < b'/></domain>", /a "<" inside attribute file \(write &lt;\)/],
    ["<domain><source file='&#0;'/></domain>", /character reference &#0; in attribute file is not a character XML allows/],
    ["<domain><source file='&#xD800;'/></domain>", /character reference &#xD800;/],
    ['<domain><!-- never closed', /a comment that never ends/],
    ['<domain><![CDATA[ never closed', /a CDATA section that never ends/],
    ['<domain></domain><domain></domain>', /a second root element after <domain>/],
    ['<domain></domain> trailing', /text after the root element/],
    ['<domain>< disk/></domain>', /a "<" that starts no element name/],
    ['</domain>', /closing tag <\/domain> without an open element/],
    ['<capabilities><host/></capabilities>', /root element is <capabilities>, not <domain>: this is not a libvirt domain description/]
  ])('%j', (xml, error) => {
    expect(errorOf(parseDomainDisks(xml))).toMatch(error)
  })

  it('reports where a cut-off fixture ends, for every cut before its last tag', () => {
    const xml = libvirtXml('disk-cache')
    const last = xml.lastIndexOf('</domain>') + '</domain>'.length
    for (let cut = 0; cut < last; cut += 7) {
      const result = parseDomainDisks(xml.slice(0, cut))
      expect(result.ok, `cut at ${cut}`).toBe(false)
    }
    expect(parseDomainDisks(xml.slice(0, last)).ok).toBe(true)
  })

  it('refuses nesting deeper than 256 levels without overflowing the stack', () => {
    const deep = `<domain>${'<a>'.repeat(100_000)}`
    expect(errorOf(parseDomainDisks(deep))).toMatch(/elements nested deeper than 256 levels/)
  })

  it('quotes control bytes escaped', () => {
    expect(errorOf(parseDomainDisks('\u0001\u0002<domain/>'))).toContain('"\\x01\\x02<domain/>"')
  })

  it('never throws, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const result = parseDomainDisks(text)
        expect(result.ok ? Array.isArray(result.disks) : result.error.length > 0).toBe(true)
      }),
      { numRuns: 500 }
    )
  })

  it('never throws on binary garbage', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const result = parseDomainDisks(Buffer.from(bytes).toString('latin1'))
        expect(result.ok ? Array.isArray(result.disks) : result.error.length > 0).toBe(true)
      }),
      { numRuns: 300 }
    )
  })

  it('never throws on a real domain XML with random characters inserted or removed', () => {
    const xml = libvirtXml('disk-virtio-scsi-reservations')
    fc.assert(
      fc.property(fc.nat(xml.length), fc.nat(20), fc.string({ maxLength: 5 }), (at, remove, insert) => {
        const mutated = xml.slice(0, at) + insert + xml.slice(at + remove)
        const result = parseDomainDisks(mutated)
        if (result.ok) for (const d of result.disks) expect(typeof d.device).toBe('string')
        else expect(result.error.length).toBeGreaterThan(0)
      }),
      { numRuns: 500 }
    )
  })
})
