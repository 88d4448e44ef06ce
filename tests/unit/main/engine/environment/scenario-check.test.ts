import { describe, expect, it } from 'vitest'
import { parseDomainDisks } from '../../../../../src/main/engine/environment/domain-xml'
import { checkScenario, detectedStorage, pickDataDisk } from '../../../../../src/main/engine/environment/scenario-check'
import type { DetectedDiskSetup } from '../../../../../src/shared/model/scenario'
import { libvirtXml } from './fixtures'

function disks(name: string): DetectedDiskSetup[] {
  const result = parseDomainDisks(libvirtXml(name))
  if (!result.ok) throw new Error(result.error)
  return result.disks
}

describe('checkScenario: cache', () => {
  it('flags a declared cache mode the domain XML contradicts', () => {
    expect(checkScenario({ cache: 'none', domain: 'guest-a' }, disks('disk-cache'), { disk: 'vda' })).toStrictEqual([
      {
        field: 'cache',
        declared: 'none',
        detected: 'writethrough',
        message: "declared cache=none but the host's domain XML for guest-a (disk vda) says cache=writethrough: the numbers measure writethrough"
      }
    ])
  })

  it("says what no cache mode means: QEMU's default, writeback", () => {
    expect(checkScenario({ cache: 'none' }, disks('disk-network-rbd'), { guest: 'ceph-vm' })).toStrictEqual([
      {
        field: 'cache',
        declared: 'none',
        detected: 'default',
        message:
          "declared cache=none but the host's domain XML for ceph-vm (disk vda) sets no cache mode, so QEMU's default applies (writeback since QEMU 1.2): the numbers measure writeback"
      }
    ])
  })

  it('takes the default mode as the writeback it is', () => {
    expect(checkScenario({ cache: 'writeback' }, disks('disk-sata-device'))).toEqual([])
  })

  it('is quiet when declared and detected agree', () => {
    expect(checkScenario({ cache: 'none', storage: 'nfs', bus: 'virtio-blk' }, disks('disk-network-nfs'))).toEqual([])
    expect(checkScenario({ cache: 'unsafe', bus: 'ide', storage: 'lvm' }, disks('disk-cache'), { disk: 'hdb' })).toEqual([])
  })
})

describe('checkScenario: queues', () => {
  it('flags virtio-blk queues that differ', () => {
    expect(checkScenario({ queues: 1, domain: 'guest-b' }, disks('disk-virtio-queues'))).toStrictEqual([
      {
        field: 'queues',
        declared: '1',
        detected: '4',
        message: "declared 1 queue but the host's domain XML for guest-b (disk vda) says queues=4: the numbers measure 4 queues"
      }
    ])
  })

  it("names the virtio-scsi controller when the queues are its", () => {
    expect(checkScenario({ queues: 4 }, disks('disk-virtio-scsi-reservations'), { guest: 'g' })).toStrictEqual([
      {
        field: 'queues',
        declared: '4',
        detected: '8',
        message: "declared 4 queues but the host's domain XML for g (disk sda) says queues=8 (on its virtio-scsi controller): the numbers measure 8 queues"
      }
    ])
  })

  it('says nothing when the XML leaves queues to QEMU', () => {
    expect(checkScenario({ queues: 4 }, disks('disk-virtio-queues'), { disk: 'vdb' })).toEqual([])
  })
})

describe('checkScenario: bus', () => {
  it('flags a disk on another bus', () => {
    expect(checkScenario({ bus: 'virtio-blk' }, disks('disk-sata-device'), { guest: 'win' })).toStrictEqual([
      {
        field: 'bus',
        declared: 'virtio-blk',
        detected: 'sata',
        message: "declared bus virtio-blk but the host's domain XML for win (disk sda) puts the disk on SATA: the numbers measure SATA"
      }
    ])
  })

  it('tells an emulated SCSI controller from virtio-scsi', () => {
    expect(checkScenario({ bus: 'virtio-scsi' }, disks('disk-scsi-disk-vpd'), { guest: 'g' })[0]?.message).toBe(
      "declared bus virtio-scsi but the host's domain XML for g (disk sdb) puts the disk on an emulated SCSI controller (not virtio-scsi): the numbers measure an emulated SCSI controller (not virtio-scsi)"
    )
    expect(checkScenario({ bus: 'virtio-scsi' }, disks('disk-network-iscsi'), { disk: 'sdb' })).toEqual([])
  })

  it('names a bus it has no label for as the XML wrote it', () => {
    const odd: DetectedDiskSetup = { device: 'vda', bus: 'toString' }
    expect(checkScenario({ bus: 'sata' }, [odd], { guest: 'g' })[0]?.message).toBe(
      "declared bus SATA but the host's domain XML for g (disk vda) puts the disk on toString: the numbers measure toString"
    )
  })
})

describe('checkScenario: storage', () => {
  it('flags LVM declared for a file image', () => {
    expect(checkScenario({ storage: 'lvm', domain: 'guest-a' }, disks('disk-virtio-queues'))).toStrictEqual([
      {
        field: 'storage',
        declared: 'lvm',
        detected: 'file-raw or nfs',
        message:
          "declared storage LVM but the host's domain XML for guest-a (disk vda) says a raw image file (/tmp/data.img): the numbers measure a raw file image (local, or on an NFS mount)"
      }
    ])
  })

  it('flags a file image declared on a volume group', () => {
    expect(checkScenario({ storage: 'file-qcow2' }, disks('disk-cache'), { guest: 'g', disk: 'hda' })).toStrictEqual([
      {
        field: 'storage',
        declared: 'file-qcow2',
        detected: 'lvm',
        message: "declared storage local file (qcow2) but the host's domain XML for g (disk hda) says an LVM logical volume (/dev/HostVG/QEMUGuest1): the numbers measure LVM"
      }
    ])
  })

  it('flags the wrong file format', () => {
    expect(checkScenario({ storage: 'file-raw' }, disks('disk-backing-chains-noindex'), { disk: 'vdf' })[0]?.detected).toBe('file-qcow2 or nfs')
  })

  it('cannot tell a local file from one on an NFS mount, so NFS declared for a file is not flagged', () => {
    expect(checkScenario({ storage: 'nfs' }, disks('disk-virtio-queues'))).toEqual([])
    expect(checkScenario({ storage: 'file-raw' }, disks('disk-virtio-queues'))).toEqual([])
  })

  it('knows Ceph RBD, iSCSI (network and by-path) and NFS opened by QEMU', () => {
    expect(checkScenario({ storage: 'ceph-rbd' }, disks('disk-network-rbd'))).toEqual([])
    expect(checkScenario({ storage: 'lvm' }, disks('disk-network-rbd'), { guest: 'g' })[0]?.message).toBe(
      "declared storage LVM but the host's domain XML for g (disk vda) says a Ceph RBD image (pool/image): the numbers measure Ceph RBD"
    )
    expect(checkScenario({ storage: 'iscsi' }, disks('disk-network-iscsi'))).toEqual([])
    expect(checkScenario({ storage: 'iscsi' }, disks('disk-cache'), { disk: 'vda' })).toEqual([])
    expect(checkScenario({ storage: 'ceph-rbd' }, disks('disk-cache'), { disk: 'vda' })[0]?.detected).toBe('iscsi')
    expect(checkScenario({ storage: 'file-raw' }, disks('disk-network-nfs'))[0]?.detected).toBe('nfs')
  })

  it('says nothing about a pool volume (its pool decides) or a declared "other"', () => {
    expect(checkScenario({ storage: 'lvm' }, disks('disk-source-pool'), { disk: 'vda' })).toEqual([])
    expect(checkScenario({ storage: 'other' }, disks('disk-virtio-queues'))).toEqual([])
  })
})

describe('checkScenario: which disk', () => {
  it('uses the first disk by default and the named one when asked, with or without /dev/', () => {
    const list = disks('disk-cache')
    expect(pickDataDisk(list)?.device).toBe('hda')
    expect(pickDataDisk(list, 'vda')?.device).toBe('vda')
    expect(pickDataDisk(list, '/dev/sdb')?.device).toBe('sdb')
  })

  it('compares nothing when the named disk is not in the XML, or there are no disks', () => {
    expect(checkScenario({ cache: 'none' }, disks('disk-cache'), { disk: 'vdq' })).toEqual([])
    expect(checkScenario({ cache: 'none' }, [])).toEqual([])
  })

  it('reports every contradiction of one disk, in the order cache, queues, bus, storage', () => {
    const found = checkScenario({ cache: 'none', queues: 2, bus: 'virtio-scsi', storage: 'lvm', domain: 'g' }, disks('disk-virtio-queues'))
    expect(found.map((m) => m.field)).toEqual(['cache', 'queues', 'bus', 'storage'])
  })
})

describe('detectedStorage', () => {
  const block = (source: string): DetectedDiskSetup => ({ device: 'vda', sourceType: 'block', source })
  it.each([
    ['/dev/rbd0', ['ceph-rbd']],
    ['/dev/rbd/pool/image', ['ceph-rbd']],
    ['/dev/mapper/vg0-guest', ['lvm']],
    ['/dev/vg0/guest', ['lvm']],
    ['/dev/disk/by-path/ip-10.0.0.1:3260-iscsi-iqn.2001-05.com.example:t-lun-1', ['iscsi']],
    ['/dev/dm-3', ['lvm', 'iscsi', 'other']],
    ['/dev/sdb', ['other', 'iscsi']],
    ['/dev/nvme0n1', ['other', 'iscsi']],
    ['/dev/disk/by-id/wwn-0x5000c500a1b2c3d4', ['other', 'iscsi']],
    ['/dev/zvol/tank/vm', ['other', 'iscsi']]
  ])('block device %s', (source, backends) => {
    expect(detectedStorage(block(source))?.backends).toEqual(backends)
  })

  it('knows nothing of a disk without a source', () => {
    expect(detectedStorage({ device: 'vda', sourceType: 'file' })).toBeUndefined()
    expect(detectedStorage({ device: 'vda', sourceType: 'network' })).toBeUndefined()
  })
})
