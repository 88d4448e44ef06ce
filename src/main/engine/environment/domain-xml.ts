/**
 * What a libvirt domain's XML (`virsh dumpxml <domain>` on the physical host) says about the
 * guest's disks: cache and io mode, queues, bus, image format and where the data really lives.
 * Pure; never throws (bad XML gives `{ ok: false, error }`).
 *
 * Read from each `<disk>` whose device is "disk" (the default) or "lun"; cdroms and floppies are
 * not where benchmarks write. Element meanings are libvirt's (https://libvirt.org/formatdomain.html#hard-drives-floppy-disks-cdroms).
 */
import { DISK_CACHES, type DetectedDiskSetup, type DiskCache } from '../../../shared/model/scenario'
import { child, children, parseXml, type XmlElement } from './xml'

export type DomainDisksResult = { ok: true; disks: DetectedDiskSetup[] } | { ok: false; error: string }

/** SCSI controller models that are virtio-scsi (libvirt's names). */
const VIRTIO_SCSI_MODELS = new Set(['virtio-scsi', 'virtio-transitional', 'virtio-non-transitional'])

interface ScsiController {
  model?: string
  queues?: number
}

function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^[0-9]{1,6}$/.test(value.trim())) return undefined
  const n = Number(value.trim())
  return n > 0 ? n : undefined
}

/**
 * The cache mode. An absent `cache` and `cache='default'` both mean libvirt passes no cache
 * setting, so the hypervisor's own default applies: for QEMU that is writeback (host page cache
 * used for reads and writes, a write completes once it is in host memory, guest flushes are
 * honoured) since QEMU 1.2 (2012); older qemu-kvm defaulted to writethrough. See qemu(1),
 * `-drive cache=`: "The default mode is cache=writeback", and libvirt's `<driver cache>`
 * ("default" leaves the choice to the hypervisor). A guest driver can still turn the emulated
 * write cache off, which makes writeback behave as writethrough.
 */
function cacheMode(driver: XmlElement | undefined): DiskCache | 'default' | undefined {
  const value = driver?.attributes.get('cache')
  if (value === undefined || value === 'default') return 'default'
  return (DISK_CACHES as readonly string[]).includes(value) ? (value as DiskCache) : undefined
}

/** SCSI controllers by index; a controller without `index` takes the next one, as libvirt numbers them. */
function scsiControllers(devices: XmlElement[]): Map<number, ScsiController> {
  const out = new Map<number, ScsiController>()
  let next = 0
  for (const devs of devices) {
    for (const c of children(devs, 'controller')) {
      if (c.attributes.get('type') !== 'scsi') continue
      const index = c.attributes.has('index') ? Number(c.attributes.get('index')) : next
      if (!Number.isInteger(index) || index < 0) continue
      next = index + 1
      const controller: ScsiController = {}
      const model = c.attributes.get('model')
      if (model !== undefined) controller.model = model
      const queues = positiveInt(child(c, 'driver')?.attributes.get('queues'))
      if (queues !== undefined) controller.queues = queues
      out.set(index, controller)
    }
  }
  return out
}

/** The source path or name: a file, a /dev node, a directory, protocol name, or pool/volume. */
function sourceOf(source: XmlElement | undefined): string | undefined {
  if (!source) return undefined
  const a = source.attributes
  const direct = a.get('file') ?? a.get('dev') ?? a.get('dir') ?? a.get('name')
  if (direct !== undefined) return direct
  const pool = a.get('pool')
  const volume = a.get('volume')
  if (pool !== undefined && volume !== undefined) return `${pool}/${volume}`
  return volume ?? a.get('path')
}

function diskSetup(disk: XmlElement, controllers: Map<number, ScsiController>): DetectedDiskSetup | undefined {
  const target = child(disk, 'target')
  const device = target?.attributes.get('dev')
  if (device === undefined || device === '') return undefined
  const driver = child(disk, 'driver')
  // only the disk's own <source>: the ones inside <backingStore> and <mirror> describe other images
  const source = child(disk, 'source')
  const setup: DetectedDiskSetup = { device }

  const cache = cacheMode(driver)
  if (cache !== undefined) setup.cache = cache
  const io = driver?.attributes.get('io')
  if (io !== undefined) setup.io = io
  const format = driver?.attributes.get('type')
  if (format !== undefined) setup.format = format
  const queues = positiveInt(driver?.attributes.get('queues'))
  if (queues !== undefined) setup.queues = queues

  const bus = target?.attributes.get('bus')
  if (bus === 'virtio') setup.bus = 'virtio-blk'
  else if (bus === 'scsi') {
    const address = children(disk, 'address').find((a) => a.attributes.get('type') === 'drive')
    const index = address?.attributes.has('controller') ? Number(address.attributes.get('controller')) : 0
    const controller = controllers.get(index)
    if (controller?.model !== undefined && VIRTIO_SCSI_MODELS.has(controller.model)) {
      setup.bus = 'virtio-scsi'
      // a virtio-scsi disk's queues are its controller's
      if (setup.queues === undefined && controller.queues !== undefined) setup.queues = controller.queues
    } else setup.bus = 'scsi'
  } else if (bus !== undefined) setup.bus = bus

  // libvirt's default disk type is "file"
  setup.sourceType = disk.attributes.get('type') ?? 'file'
  const protocol = source?.attributes.get('protocol')
  if (setup.sourceType === 'network' && protocol !== undefined) setup.sourceProtocol = protocol
  const where = sourceOf(source)
  if (where !== undefined) setup.source = where
  return setup
}

/** The disks of a libvirt domain XML, in document order. */
export function parseDomainDisks(xml: string): DomainDisksResult {
  if (xml.trim() === '') return { ok: false, error: 'the domain XML is empty' }
  const parsed = parseXml(xml)
  if (!parsed.ok) return { ok: false, error: `the domain XML is not well-formed: ${parsed.error}` }
  const root = parsed.root
  if (root.name !== 'domain') return { ok: false, error: `the XML's root element is <${root.name}>, not <domain>: this is not a libvirt domain description` }
  const devices = children(root, 'devices')
  const controllers = scsiControllers(devices)
  const disks: DetectedDiskSetup[] = []
  for (const devs of devices) {
    for (const disk of children(devs, 'disk')) {
      const kind = disk.attributes.get('device') ?? 'disk'
      if (kind !== 'disk' && kind !== 'lun') continue
      const setup = diskSetup(disk, controllers)
      if (setup) disks.push(setup)
    }
  }
  return { ok: true, disks }
}
