/**
 * Declared versus detected: compares the scenario a person declared for a guest (cache mode,
 * queues, bus, storage backend) with what the physical host's libvirt domain XML says about the
 * guest's data disk. Every difference becomes a loud, specific sentence, because it changes what
 * the numbers measure. Pure.
 *
 * Which disk: the one named by `disk` (its target dev, "vdb" or "/dev/vdb") when the caller knows
 * which guest disk the tests use; otherwise the first disk of the domain XML (cdroms and floppies
 * excluded), which is the boot disk holding the root filesystem, where a directory test writes
 * unless told otherwise. When a named disk is not in the XML nothing is compared: comparing
 * another disk would make a wrong claim.
 *
 * What cannot be known from the XML is not flagged: a file image may live on an NFS mount; a
 * plain block device may be an iSCSI LUN; a storage-pool volume depends on the pool's type; an
 * absent `queues` means the QEMU default (1 before QEMU 5.2, one per vCPU since, for virtio-blk-pci
 * and virtio-scsi-pci on machine types >= 5.2).
 */
import { SCENARIO_LABELS, type DetectedDiskSetup, type Scenario, type ScenarioMismatch, type StorageBackend } from '../../../shared/model/scenario'

export interface CheckScenarioOptions {
  /** The guest's name for the messages (default: the scenario's domain name). */
  guest?: string
  /** The target dev of the disk the tests use ("vdb", "/dev/vdb"); default: the first disk. */
  disk?: string
}

/** What the XML says about where a disk's data lives. */
export interface DetectedStorage {
  /** Every backend the XML is consistent with (more than one when it cannot tell). */
  backends: StorageBackend[]
  /** The XML's own description in words ("an LVM logical volume (/dev/vg0/guest)"). */
  what: string
  /** What the numbers then measure, in a few words ("LVM"). */
  measures: string
}

/** Sub-directories of /dev that are not LVM volume groups. */
const DEV_DIRS_NOT_LVM = new Set([
  'block', 'bsg', 'bus', 'char', 'cpu', 'disk', 'dri', 'fd', 'hugepages', 'input', 'mapper', 'md',
  'mqueue', 'net', 'nvme-fabrics', 'pts', 'rbd', 'shm', 'snd', 'usb', 'vfio', 'vhost-vdpa', 'zvol'
])

/** The effective cache mode: 'default' is QEMU's default, writeback (see domain-xml.ts). */
function effectiveCache(cache: NonNullable<DetectedDiskSetup['cache']>): string {
  return cache === 'default' ? 'writeback' : cache
}

function blockStorage(path: string): DetectedStorage {
  const where = `(${path})`
  if (/^\/dev\/rbd[0-9]+$/.test(path) || path.startsWith('/dev/rbd/')) {
    return { backends: ['ceph-rbd'], what: `a kernel-mapped Ceph RBD device ${where}`, measures: 'Ceph RBD (mapped by the host kernel)' }
  }
  if (/^\/dev\/disk\/by-path\/.*-iscsi-/.test(path)) return { backends: ['iscsi'], what: `an iSCSI LUN ${where}`, measures: 'iSCSI' }
  // /dev/mapper holds LVM volumes by their device-mapper names (vg-lv)
  if (path.startsWith('/dev/mapper/')) return { backends: ['lvm'], what: `a device-mapper volume ${where}`, measures: 'LVM' }
  const parts = /^\/dev\/([^/]+)\/([^/]+)$/.exec(path)
  if (parts && !DEV_DIRS_NOT_LVM.has(parts[1] ?? '')) return { backends: ['lvm'], what: `an LVM logical volume ${where}`, measures: 'LVM' }
  if (/^\/dev\/dm-[0-9]+$/.test(path)) return { backends: ['lvm', 'iscsi', 'other'], what: `a device-mapper device ${where}`, measures: 'a device-mapper device' }
  return { backends: ['other', 'iscsi'], what: `a raw block device ${where}, not a file image or an LVM volume`, measures: 'a raw block device' }
}

function fileStorage(format: string | undefined, path: string | undefined): DetectedStorage {
  const where = path === undefined ? '' : ` (${path})`
  // a file may sit on an NFS mount: the domain XML cannot tell, so nfs stays possible
  const local = '(local, or on an NFS mount)'
  if (format === 'raw') return { backends: ['file-raw', 'nfs'], what: `a raw image file${where}`, measures: `a raw file image ${local}` }
  if (format === 'qcow2') return { backends: ['file-qcow2', 'nfs'], what: `a qcow2 image file${where}`, measures: `a qcow2 file image ${local}` }
  if (format === undefined) {
    return { backends: ['file-raw', 'file-qcow2', 'nfs'], what: `an image file${where} of unstated format`, measures: `a file image ${local}` }
  }
  return { backends: ['other', 'nfs'], what: `a ${format} image file${where}`, measures: `a ${format} file image ${local}` }
}

/** Where the disk's data lives, as far as its domain XML tells; undefined when it cannot tell. */
export function detectedStorage(disk: DetectedDiskSetup): DetectedStorage | undefined {
  switch (disk.sourceType) {
    case 'file':
      return disk.source === undefined ? undefined : fileStorage(disk.format, disk.source)
    case 'block':
      return disk.source === undefined ? undefined : blockStorage(disk.source)
    case 'network': {
      const name = disk.source === undefined ? '' : ` (${disk.source})`
      if (disk.sourceProtocol === 'rbd') return { backends: ['ceph-rbd'], what: `a Ceph RBD image${name}`, measures: 'Ceph RBD' }
      if (disk.sourceProtocol === 'iscsi') return { backends: ['iscsi'], what: `an iSCSI LUN${name}`, measures: 'iSCSI' }
      if (disk.sourceProtocol === 'nfs') return { backends: ['nfs'], what: `an image on NFS${name}, opened by QEMU itself`, measures: 'NFS' }
      if (disk.sourceProtocol === undefined) return undefined
      return { backends: ['other'], what: `a ${disk.sourceProtocol} network disk${name}`, measures: `a ${disk.sourceProtocol} network disk` }
    }
    case 'nvme':
      return { backends: ['other'], what: 'a host NVMe namespace passed to QEMU', measures: 'an NVMe namespace of the host' }
    case 'vhostuser':
      return { backends: ['other'], what: 'a vhost-user disk served by another process', measures: 'a vhost-user disk' }
    default:
      // 'volume' depends on its storage pool's type; 'dir' is a virtual FAT image
      return undefined
  }
}

/** The disk the comparison uses (see the file comment). */
export function pickDataDisk(disks: readonly DetectedDiskSetup[], disk?: string): DetectedDiskSetup | undefined {
  if (disk === undefined) return disks[0]
  const name = disk.replace(/^\/dev\//, '')
  return disks.find((d) => d.device === name)
}

/** Each declared label the host's domain XML contradicts, for the guest's data disk. */
export function checkScenario(declared: Scenario, disks: readonly DetectedDiskSetup[], opts: CheckScenarioOptions = {}): ScenarioMismatch[] {
  const disk = pickDataDisk(disks, opts.disk)
  if (!disk) return []
  const guest = opts.guest ?? declared.domain ?? 'the guest'
  const where = `the host's domain XML for ${guest} (disk ${disk.device})`
  const out: ScenarioMismatch[] = []

  if (declared.cache !== undefined && disk.cache !== undefined) {
    const effective = effectiveCache(disk.cache)
    if (effective !== declared.cache) {
      const says = disk.cache === 'default' ? "sets no cache mode, so QEMU's default applies (writeback since QEMU 1.2)" : `says cache=${disk.cache}`
      out.push({
        field: 'cache',
        declared: declared.cache,
        detected: disk.cache,
        message: `declared cache=${declared.cache} but ${where} ${says}: the numbers measure ${effective}`
      })
    }
  }

  if (declared.queues !== undefined && disk.queues !== undefined && disk.queues !== declared.queues) {
    const from = disk.bus === 'virtio-scsi' ? ' (on its virtio-scsi controller)' : ''
    out.push({
      field: 'queues',
      declared: String(declared.queues),
      detected: String(disk.queues),
      message: `declared ${declared.queues === 1 ? '1 queue' : `${declared.queues} queues`} but ${where} says queues=${disk.queues}${from}: the numbers measure ${disk.queues === 1 ? '1 queue' : `${disk.queues} queues`}`
    })
  }

  if (declared.bus !== undefined && disk.bus !== undefined && disk.bus !== declared.bus) {
    const label = Object.hasOwn(SCENARIO_LABELS.bus, disk.bus)
      ? SCENARIO_LABELS.bus[disk.bus as keyof typeof SCENARIO_LABELS.bus]
      : disk.bus === 'scsi'
        ? 'an emulated SCSI controller (not virtio-scsi)'
        : disk.bus
    out.push({
      field: 'bus',
      declared: declared.bus,
      detected: disk.bus,
      message: `declared bus ${SCENARIO_LABELS.bus[declared.bus]} but ${where} puts the disk on ${label}: the numbers measure ${label}`
    })
  }

  if (declared.storage !== undefined && declared.storage !== 'other') {
    const storage = detectedStorage(disk)
    if (storage && !storage.backends.includes(declared.storage)) {
      out.push({
        field: 'storage',
        declared: declared.storage,
        detected: storage.backends.join(' or '),
        message: `declared storage ${SCENARIO_LABELS.storage[declared.storage]} but ${where} says ${storage.what}: the numbers measure ${storage.measures}`
      })
    }
  }
  return out
}
