/**
 * The domain editor: a libvirt domain's XML (`virsh dumpxml --inactive`) and a DomainSetup in,
 * the new XML, a readable diff and the changes out; or, before anything changes, the reasons the
 * setup cannot be applied to this domain (a disk it does not have, more queues than vCPUs, a bus
 * libvirt does not know). Pure. Only the attributes and texts the setup names are rewritten:
 * every other byte of the XML stays as it was (docs/scenarios.md).
 */
import { DISK_BUSES, type DiskBus, type DomainSetup, type SwapBackend } from '../../shared/model/scenario'
import { child, children, parseXml, type XmlElement } from '../engine/environment/xml'
import { lineDiff } from './line-diff'
import { appendChild, applyEdits, elementEnd, escapeXml, prependChild, removeAttribute, removeElement, setAttribute, setText, textOf, type TextEdit } from './xml-edit'

/** One thing that changes, for the review and the run log: "vda cache: writeback -> none". */
export interface DomainChange {
  what: string
  from: string
  to: string
}

export type DomainEditResult =
  | {
      ok: true
      xml: string
      /** Line diff of the old and new XML (empty when nothing changes). */
      diff: string
      changes: DomainChange[]
      /**
       * For the review: why the domain restarts (a change that takes effect at its next boot), or
       * the changes applied live ("vCPUs: 1 -> 2, applied live, no restart"); empty: nothing changes.
       */
      restarts: string[]
      /** Set when every change can be applied to the running guest (`virsh setvcpus` / `setmem --live`): no restart. */
      live?: LiveValues
    }
  | { ok: false; errors: string[] }

const LIBVIRT_BUS: Record<DiskBus, string> = { 'virtio-blk': 'virtio', 'virtio-scsi': 'scsi', sata: 'sata', ide: 'ide' }
const DEVICE_PREFIX: Record<DiskBus, string> = { 'virtio-blk': 'vd', 'virtio-scsi': 'sd', sata: 'sd', ide: 'hd' }
const VIRTIO_SCSI_MODELS = new Set(['virtio-scsi', 'virtio-transitional', 'virtio-non-transitional'])
const DIRECT_CACHES = new Set(['none', 'directsync'])

interface Disk {
  element: XmlElement
  dev: string
  bus: DiskBus | string
  driver: XmlElement | undefined
  /** The virtio-scsi controller of a SCSI disk. */
  controller: XmlElement | undefined
}

/** Reads the domain's pieces the editor works on. */
class DomainView {
  readonly devices: XmlElement | undefined
  readonly disks: Disk[]
  readonly allDevs: Set<string>
  readonly scsiControllers: XmlElement[]

  constructor(readonly root: XmlElement) {
    this.devices = child(root, 'devices')
    const devices = this.devices ? [this.devices] : []
    this.scsiControllers = devices.flatMap((d) => children(d, 'controller')).filter((c) => c.attributes.get('type') === 'scsi')
    const allDisks = devices.flatMap((d) => children(d, 'disk'))
    this.allDevs = new Set(allDisks.map((d) => child(d, 'target')?.attributes.get('dev') ?? '').filter((d) => d !== ''))
    this.disks = allDisks
      .filter((d) => ['disk', 'lun'].includes(d.attributes.get('device') ?? 'disk'))
      .flatMap((element) => {
        const target = child(element, 'target')
        const dev = target?.attributes.get('dev')
        if (!dev) return []
        return [{ element, dev, bus: this.busOf(element), driver: child(element, 'driver'), controller: this.controllerOf(element) }]
      })
  }

  private controllerOf(disk: XmlElement): XmlElement | undefined {
    if (child(disk, 'target')?.attributes.get('bus') !== 'scsi') return undefined
    const address = children(disk, 'address').find((a) => a.attributes.get('type') === 'drive')
    const index = address?.attributes.get('controller') ?? '0'
    return this.scsiControllers.find((c) => (c.attributes.get('index') ?? '0') === index)
  }

  private busOf(disk: XmlElement): DiskBus | string {
    const bus = child(disk, 'target')?.attributes.get('bus') ?? ''
    if (bus === 'virtio') return 'virtio-blk'
    if (bus === 'scsi') {
      const model = this.controllerOf(disk)?.attributes.get('model')
      return model !== undefined && VIRTIO_SCSI_MODELS.has(model) ? 'virtio-scsi' : 'scsi'
    }
    return bus
  }

  /** The disk the guest boots from: the one with `<boot>`, else the first (when the domain boots from a disk, not a kernel). */
  bootDisk(): string | undefined {
    const withBoot = this.disks.find((d) => child(d.element, 'boot') !== undefined)
    if (withBoot) return withBoot.dev
    const os = child(this.root, 'os')
    if (os && child(os, 'kernel')) return undefined
    return this.disks[0]?.dev
  }
}

class Editor {
  readonly edits: TextEdit[] = []
  readonly changes: DomainChange[] = []
  constructor(readonly text: string) {}

  attribute(element: XmlElement, name: string, value: string, what: string): void {
    const from = element.attributes.get(name)
    if (from === value) return
    this.edits.push(setAttribute(this.text, element, name, value))
    this.changes.push({ what, from: from ?? '(unset)', to: value })
  }

  dropAttribute(element: XmlElement, name: string, what: string): void {
    const edit = removeAttribute(this.text, element, name)
    if (!edit) return
    this.edits.push(edit)
    this.changes.push({ what, from: element.attributes.get(name) ?? '', to: '(unset)' })
  }

  elementText(element: XmlElement, value: string, what: string, shown = value): void {
    const from = textOf(this.text, element)
    if (from === value) return
    this.edits.push(setText(this.text, element, value))
    this.changes.push({ what, from, to: shown })
  }

  /** Adds `markup` as the last child of `parent`, or its first (where libvirt writes it, so that its XML reads back the same). */
  add(parent: XmlElement, markup: string, what: string, to: string, first = false): void {
    this.edits.push((first ? prependChild : appendChild)(this.text, parent, markup))
    this.changes.push({ what, from: '(unset)', to })
  }

  remove(element: XmlElement): void {
    this.edits.push(removeElement(this.text, element))
  }
}

/** What `virsh setvcpus --live` and `virsh setmem --live` set on a running domain. */
export interface LiveValues {
  vcpus?: number
  memoryKiB?: number
}

/** The domain's maximum vCPU count (`<vcpu>`'s text; 1 without one). */
function maxVcpusOf(text: string, root: XmlElement): number | undefined {
  const vcpu = child(root, 'vcpu')
  if (!vcpu) return 1
  const max = textOf(text, vcpu)
  return /^[0-9]+$/.test(max) ? Number(max) : undefined
}

function vcpusOf(text: string, root: XmlElement): number | undefined {
  const vcpu = child(root, 'vcpu')
  if (!vcpu) return 1
  const current = vcpu.attributes.get('current') ?? textOf(text, vcpu)
  return /^[0-9]+$/.test(current) ? Number(current) : undefined
}

function kib(text: string, element: XmlElement): number | undefined {
  const value = Number(textOf(text, element))
  if (!Number.isFinite(value)) return undefined
  const unit = (element.attributes.get('unit') ?? 'KiB').toLowerCase()
  const factor: Record<string, number> = { b: 1 / 1024, bytes: 1 / 1024, k: 1, kib: 1, kb: 1000 / 1024, m: 1024, mib: 1024, mb: 1e6 / 1024, g: 1024 ** 2, gib: 1024 ** 2, gb: 1e9 / 1024 }
  const f = factor[unit]
  return f === undefined ? undefined : value * f
}

/** Everything wrong with applying `setup` to this domain, as sentences; empty when it can be applied. */
function validate(domain: string, text: string, view: DomainView, setup: DomainSetup): string[] {
  const errors: string[] = []
  const devs = view.disks.map((d) => d.dev)
  const known = `its disks are ${devs.join(', ') || 'none'}`
  for (const dev of setup.disks ?? []) {
    if (!devs.includes(dev)) errors.push(`domain ${domain} has no disk ${dev} (${known}): name a disk by its <target dev> in virsh dumpxml ${domain}`)
  }
  const vcpus = setup.vcpus ?? vcpusOf(text, view.root)
  const bus = setup.bus
  if (bus) {
    if (!(DISK_BUSES as readonly string[]).includes(bus.to)) errors.push(`unknown disk bus ${JSON.stringify(bus.to)}: VirtBench moves disks to ${DISK_BUSES.join(', ')}`)
    if (!devs.includes(bus.disk)) errors.push(`domain ${domain} has no disk ${bus.disk} to move to ${bus.to} (${known})`)
    else if (view.bootDisk() === bus.disk) errors.push(`${bus.disk} is the disk domain ${domain} boots from: VirtBench moves only data disks to another bus; name a data disk`)
    if (bus.to === 'virtio-scsi' && view.scsiControllers.some((c) => !VIRTIO_SCSI_MODELS.has(c.attributes.get('model') ?? ''))) {
      errors.push(`domain ${domain} has a SCSI controller that is not virtio-scsi: move the disk by hand, or remove that controller first`)
    }
  }
  if (setup.storage) errors.push(...validateStorage(domain, view, setup.storage))
  const targets = view.disks.filter((d) => !setup.disks || setup.disks.includes(d.dev))
  for (const disk of targets) {
    const diskBus = bus?.disk === disk.dev ? bus.to : disk.bus
    if (setup.queues !== undefined && diskBus !== 'virtio-blk' && diskBus !== 'virtio-scsi') {
      errors.push(`queues apply to virtio-blk and virtio-scsi disks, but ${disk.dev} of domain ${domain} is on ${diskBus} (one queue): leave queues out, or limit the setup to virtio disks with "disks"`)
    }
    const cache = setup.cache ?? disk.driver?.attributes.get('cache') ?? 'default'
    const io = setup.io ?? disk.driver?.attributes.get('io')
    if (io === 'native' && !DIRECT_CACHES.has(cache) && (setup.io !== undefined || setup.cache !== undefined)) {
      errors.push(`${disk.dev} of domain ${domain} would get io=native with cache=${cache}: QEMU opens native io only with cache none or directsync; add io: "threads" (or io_uring) to this setup`)
    }
  }
  if (setup.queues !== undefined && vcpus !== undefined && setup.queues > vcpus) {
    errors.push(`queues=${setup.queues} is more than the ${vcpus} vCPUs of domain ${domain} (Linux uses at most one queue per vCPU): ask for at most ${vcpus} queues, or add vcpus: ${setup.queues}`)
  }
  if (setup.nicQueues !== undefined) {
    const nics = view.devices ? children(view.devices, 'interface') : []
    if (nics.length === 0) errors.push(`domain ${domain} has no <interface> to give ${setup.nicQueues} queues`)
    for (const nic of nics) {
      const model = child(nic, 'model')?.attributes.get('type')
      if (model !== 'virtio') errors.push(`an interface of domain ${domain} is model ${model ?? '(default)'}: NIC queues need virtio-net`)
    }
    if (vcpus !== undefined && setup.nicQueues > vcpus) errors.push(`nicQueues=${setup.nicQueues} is more than the ${vcpus} vCPUs of domain ${domain}: ask for at most ${vcpus}`)
  }
  if (setup.vcpus !== undefined) {
    const topology = child(child(view.root, 'cpu') ?? view.root, 'topology')
    const max = maxVcpusOf(text, view.root)
    // within the maximum the topology (of the maximum) stays as it is
    if (topology && (max === undefined || setup.vcpus > max)) {
      const product = ['sockets', 'dies', 'cores', 'threads'].reduce((p, k) => p * Number(topology.attributes.get(k) ?? '1'), 1)
      if (product !== setup.vcpus) errors.push(`domain ${domain} has a CPU topology of ${product} vCPUs (<cpu><topology>): change it to ${setup.vcpus} by hand, or sweep vcpus in multiples it allows`)
    }
    if (child(view.root, 'vcpus')) errors.push(`domain ${domain} lists its vCPUs one by one (<vcpus>): change the count by hand`)
  }
  if (setup.memoryMiB !== undefined) {
    const memory = child(view.root, 'memory')
    if (!memory || kib(text, memory) === undefined) errors.push(`domain ${domain} has no <memory> VirtBench can read`)
  }
  return errors
}

/** How each backend is written in a `<disk>`: its type, its `<driver type>`, and the `<source>` attribute naming it. */
const BACKEND_XML: Record<SwapBackend, { type: 'file' | 'block'; format: 'raw' | 'qcow2'; attribute: 'file' | 'dev' }> = {
  'file-raw': { type: 'file', format: 'raw', attribute: 'file' },
  'file-qcow2': { type: 'file', format: 'qcow2', attribute: 'file' },
  lvm: { type: 'block', format: 'raw', attribute: 'dev' }
}

export function storageXml(backend: SwapBackend): (typeof BACKEND_XML)[SwapBackend] {
  return BACKEND_XML[backend]
}

/** The host side of a storage swap: what must exist there before the change (`test -f` of a file, `test -b` of a block device). */
export function storageSources(storage: NonNullable<DomainSetup['storage']>): { disk: string; path: string; kind: 'file' | 'block' }[] {
  const xml = BACKEND_XML[storage.backend]
  return Object.entries(storage.sources).map(([disk, path]) => ({ disk, path, kind: xml.type }))
}

function validateStorage(domain: string, view: DomainView, storage: NonNullable<DomainSetup['storage']>): string[] {
  const errors: string[] = []
  const devs = view.disks.map((d) => d.dev)
  const paths = new Map<string, string>()
  for (const [dev, path] of Object.entries(storage.sources)) {
    const disk = view.disks.find((d) => d.dev === dev)
    if (!disk) {
      errors.push(`domain ${domain} has no disk ${dev} to point at ${path} (its disks are ${devs.join(', ') || 'none'}): name a disk by its <target dev> in virsh dumpxml ${domain}`)
      continue
    }
    if (view.bootDisk() === dev && !storage.allowBootDisk) {
      errors.push(`${dev} is the disk domain ${domain} boots from: VirtBench swaps the storage of data disks only; name a data disk, or allow it explicitly (allowBootDisk, storageBootDisk in a sweep) when ${path} boots the guest`)
    }
    const type = disk.element.attributes.get('type') ?? 'file'
    if (type !== 'file' && type !== 'block') {
      errors.push(`${dev} of domain ${domain} is a ${type} disk: VirtBench swaps file and block disks only; change it by hand`)
    }
    const other = paths.get(path)
    if (other) errors.push(`${dev} and ${other} of domain ${domain} would both use ${path}: give each disk a prepared disk of its own`)
    paths.set(path, dev)
  }
  return errors
}

function editStorage(editor: Editor, disk: Disk, backend: SwapBackend, path: string): void {
  const xml = BACKEND_XML[backend]
  editor.attribute(disk.element, 'type', xml.type, `${disk.dev} disk type`)
  const source = child(disk.element, 'source')
  if (!source) {
    editor.add(disk.element, `<source ${xml.attribute}='${escapeXml(path)}'/>`, `${disk.dev} source`, path)
    return
  }
  const other = xml.attribute === 'file' ? 'dev' : 'file'
  const from = source.attributes.get(other) ?? source.attributes.get(xml.attribute) ?? '(unset)'
  if (from === path && source.attributes.get(xml.attribute) === path) return
  const removed = removeAttribute(editor.text, source, other)
  if (removed) editor.edits.push(removed)
  editor.edits.push(setAttribute(editor.text, source, xml.attribute, path))
  editor.changes.push({ what: `${disk.dev} source`, from, to: path })
}

function freeDev(view: DomainView, bus: DiskBus, current: string): string {
  const prefix = DEVICE_PREFIX[bus]
  if (current.startsWith(prefix)) return current
  for (let c = 0; c < 26; c++) {
    const dev = `${prefix}${String.fromCharCode(97 + c)}`
    if (!view.allDevs.has(dev)) return dev
  }
  return `${prefix}aa`
}

function editDisks(editor: Editor, view: DomainView, setup: DomainSetup): void {
  const doneControllers = new Set<XmlElement>()
  for (const disk of view.disks) {
    const moved = setup.bus?.disk === disk.dev ? setup.bus.to : undefined
    if (moved && moved !== disk.bus) moveDisk(editor, view, disk, moved, setup.queues)
    const swapped = setup.storage?.sources[disk.dev]
    if (swapped !== undefined) editStorage(editor, disk, setup.storage!.backend, swapped)
    const format = swapped !== undefined ? BACKEND_XML[setup.storage!.backend].format : undefined
    if (setup.disks && !setup.disks.includes(disk.dev)) {
      if (format) formatOnly(editor, disk, format)
      continue
    }
    const attrs: [string, string | undefined][] = [
      ['type', format],
      ['cache', setup.cache],
      ['io', setup.io],
      ['queues', (moved ?? disk.bus) === 'virtio-blk' && setup.queues !== undefined ? String(setup.queues) : undefined]
    ]
    if (!disk.driver) {
      const set = attrs.filter((a): a is [string, string] => a[1] !== undefined)
      if (set.length > 0) editor.add(disk.element, `<driver name='qemu'${set.map(([k, v]) => ` ${k}='${v}'`).join('')}/>`, `${disk.dev} driver`, set.map(([k, v]) => `${k}=${v}`).join(' '), true)
    } else {
      for (const [name, value] of attrs) if (value !== undefined) editor.attribute(disk.driver, name, value, `${disk.dev} ${name}`)
    }
    if (setup.queues !== undefined && !moved && disk.bus === 'virtio-scsi' && disk.controller && !doneControllers.has(disk.controller)) {
      doneControllers.add(disk.controller)
      const driver = child(disk.controller, 'driver')
      const what = `SCSI controller ${disk.controller.attributes.get('index') ?? '0'} queues`
      if (driver) editor.attribute(driver, 'queues', String(setup.queues), what)
      else editor.add(disk.controller, `<driver queues='${setup.queues}'/>`, what, String(setup.queues))
    }
  }
}

/** The `<driver type>` of a swapped disk that cache, io and queues leave alone. */
function formatOnly(editor: Editor, disk: Disk, format: string): void {
  if (disk.driver) editor.attribute(disk.driver, 'type', format, `${disk.dev} type`)
  else editor.add(disk.element, `<driver name='qemu' type='${format}'/>`, `${disk.dev} driver`, `type=${format}`, true)
}

function moveDisk(editor: Editor, view: DomainView, disk: Disk, to: DiskBus, queues: number | undefined): void {
  const target = child(disk.element, 'target')!
  const dev = freeDev(view, to, disk.dev)
  editor.attribute(target, 'bus', LIBVIRT_BUS[to], `${disk.dev} bus`)
  if (dev !== disk.dev) editor.attribute(target, 'dev', dev, `${disk.dev} target dev`)
  // libvirt gives the disk an address on its new bus
  for (const address of children(disk.element, 'address')) editor.remove(address)
  if (to !== 'virtio-blk' && disk.driver?.attributes.has('queues')) editor.dropAttribute(disk.driver, 'queues', `${disk.dev} queues`)
  if (to === 'virtio-scsi' && view.scsiControllers.length === 0 && view.devices) {
    const driver = queues !== undefined ? `<driver queues='${queues}'/>` : ''
    editor.add(view.devices, `<controller type='scsi' index='0' model='virtio-scsi'>${driver}</controller>`, 'virtio-scsi controller', queues !== undefined ? `added, ${queues} queues` : 'added')
  }
}

function editMachine(editor: Editor, text: string, view: DomainView, setup: DomainSetup): void {
  if (setup.vcpus !== undefined) {
    const vcpu = child(view.root, 'vcpu')
    const value = String(setup.vcpus)
    const max = maxVcpusOf(text, view.root)
    if (vcpu && max !== undefined && setup.vcpus <= max) {
      // within the maximum only the current count changes: a running guest can take it live (virsh setvcpus --live)
      const from = String(vcpusOf(text, view.root) ?? max)
      if (from !== value) {
        if (setup.vcpus === max) {
          const edit = removeAttribute(text, vcpu, 'current')
          if (edit) editor.edits.push(edit)
        } else editor.edits.push(setAttribute(text, vcpu, 'current', value))
        editor.changes.push({ what: 'vCPUs', from, to: value })
      }
    } else if (vcpu) {
      editor.elementText(vcpu, value, 'vCPUs')
      if (vcpu.attributes.has('current')) editor.attribute(vcpu, 'current', value, 'vCPUs (current)')
    } else editor.add(view.root, `<vcpu>${value}</vcpu>`, 'vCPUs', value)
  }
  if (setup.memoryMiB !== undefined) {
    const value = String(setup.memoryMiB * 1024)
    const memory = child(view.root, 'memory')
    const current = child(view.root, 'currentMemory')
    // within <memory>, with a balloon and a <currentMemory>, only the current memory changes: a running guest can take it live (virsh setmem --live)
    const names = memory && current && hasBalloon(view) && setup.memoryMiB * 1024 <= (kib(text, memory) ?? 0) ? ['currentMemory'] : ['memory', 'currentMemory']
    for (const name of names) {
      const element = child(view.root, name)
      if (!element || kib(text, element) === setup.memoryMiB * 1024) continue
      editor.elementText(element, value, name, `${setup.memoryMiB} MiB`)
      editor.attribute(element, 'unit', 'KiB', `${name} unit`)
    }
  }
  if (setup.nicQueues !== undefined && view.devices) {
    children(view.devices, 'interface').forEach((nic, i) => {
      const driver = child(nic, 'driver')
      const what = `interface ${i + 1} queues`
      if (driver) editor.attribute(driver, 'queues', String(setup.nicQueues), what)
      else editor.add(nic, `<driver queues='${setup.nicQueues}'/>`, what, String(setup.nicQueues))
    })
  }
}

function hasBalloon(view: DomainView): boolean {
  const balloon = view.devices ? child(view.devices, 'memballoon') : undefined
  return balloon !== undefined && balloon.attributes.get('model') !== 'none'
}

/** The element's bytes in `text`, from its `<` to the end of its closing tag. */
function markupOf(text: string, element: XmlElement | undefined): string | undefined {
  return element && text.slice(element.at, elementEnd(text, element))
}

/**
 * The values `virsh setvcpus --live` / `setmem --live` set to turn the domain `from` into `to`,
 * when that is all that differs: `to` is `from` with another `<vcpu>` current count (the maximum
 * kept) and another `<currentMemory>` (within `<memory>`, with a balloon). Undefined when
 * anything else differs (a restart is needed), or nothing does.
 */
export function liveDifference(from: string, to: string): LiveValues | undefined {
  if (from === to) return undefined
  const a = parseXml(from)
  const b = parseXml(to)
  if (!a.ok || !b.ok) return undefined
  const live: LiveValues = {}
  const edits: TextEdit[] = []
  const [vcpuA, vcpuB] = [child(a.root, 'vcpu'), child(b.root, 'vcpu')]
  if (markupOf(from, vcpuA) !== markupOf(to, vcpuB)) {
    if (!vcpuA || !vcpuB || maxVcpusOf(from, a.root) !== maxVcpusOf(to, b.root)) return undefined
    const vcpus = vcpusOf(to, b.root)
    if (vcpus === undefined) return undefined
    live.vcpus = vcpus
    edits.push({ start: vcpuA.at, end: elementEnd(from, vcpuA), text: markupOf(to, vcpuB)! })
  }
  const [memA, memB] = [child(a.root, 'currentMemory'), child(b.root, 'currentMemory')]
  if (markupOf(from, memA) !== markupOf(to, memB)) {
    const memory = child(b.root, 'memory')
    const memoryKiB = memB && kib(to, memB)
    if (!memA || !memB || !memory || memoryKiB === undefined || memoryKiB > (kib(to, memory) ?? 0) || !hasBalloon(new DomainView(b.root))) return undefined
    live.memoryKiB = Math.round(memoryKiB)
    edits.push({ start: memA.at, end: elementEnd(from, memA), text: markupOf(to, memB)! })
  }
  return edits.length > 0 && applyEdits(from, edits) === to ? live : undefined
}

/** For the review: why the domain restarts, or that its changes are applied live. */
function restartsOf(domain: string, changes: readonly DomainChange[], live: LiveValues | undefined): string[] {
  if (changes.length === 0) return []
  if (live) return changes.map((c) => `${c.what}: ${c.from} -> ${c.to}, applied live, no restart`)
  return [`${domain} restarts: the new ${changes.map((c) => c.what).join(', ')} take${changes.length === 1 ? 's' : ''} effect at its next boot`]
}

/** Applies `setup` to the domain XML `xml` of the domain called `domain`. */
export function editDomain(domain: string, xml: string, setup: DomainSetup): DomainEditResult {
  const parsed = parseXml(xml)
  if (!parsed.ok) return { ok: false, errors: [`the XML of domain ${domain} is not well-formed: ${parsed.error}`] }
  if (parsed.root.name !== 'domain') return { ok: false, errors: [`the XML of ${domain} has the root <${parsed.root.name}>, not <domain>: this is not a libvirt domain`] }
  const view = new DomainView(parsed.root)
  const errors = validate(domain, xml, view, setup)
  if (errors.length > 0) return { ok: false, errors }
  const editor = new Editor(xml)
  editDisks(editor, view, setup)
  editMachine(editor, xml, view, setup)
  const next = applyEdits(xml, editor.edits)
  // a change libvirt reads back differently (or not at all) must not pass silently
  const reread = parseXml(next)
  if (!reread.ok) return { ok: false, errors: [`editing the XML of ${domain} made it unreadable (a VirtBench bug): ${reread.error}`] }
  return withLive(domain, { ok: true, xml: next, diff: lineDiff(xml, next), changes: editor.changes, restarts: [] }, xml)
}

/** Decides the restart: none when the domain as it is (`current`) becomes `edit.xml` by live changes alone. */
function withLive(domain: string, edit: Extract<DomainEditResult, { ok: true }>, current: string): DomainEditResult {
  const live = liveDifference(current, edit.xml)
  const { live: _, ...rest } = edit
  return { ...rest, restarts: restartsOf(domain, edit.changes, live), ...(live ? { live } : {}) }
}

/** What VirtBench last put in force on a domain: the XML it defined, and libvirt's `dumpxml --inactive` of it right after. */
export interface InForce {
  xml: string
  defined: string
}

/**
 * One step of a run or a sweep: the domain's ORIGINAL XML (saved before the first change) plus
 * `setup`, never the XML an earlier step left, so disks are named as in the original (a later
 * step can name vdc after an earlier one moved it to sda). `current` is the domain as it is now:
 * the diff goes from it, and nothing changes when it is already that XML, or when it is what
 * `inForce` says VirtBench defined for this very setup (libvirt's form of it: a resumed step).
 * The changes are told from `current` when the setup reads on it (the diff still goes to the
 * original's edit), else from the original after a first change "base: the previous step's XML ->
 * the original XML" (a disk an earlier step renamed by moving it to another bus).
 */
export function editStep(domain: string, original: string, current: string, setup: DomainSetup, inForce?: InForce): DomainEditResult {
  const edit = editDomain(domain, original, setup)
  if (!edit.ok || current === original) return edit
  if (current === edit.xml || (inForce && inForce.xml === edit.xml && inForce.defined === current)) {
    const { live: _, ...unchanged } = edit
    return { ...unchanged, diff: '', changes: [], restarts: [] }
  }
  // told as changes of the domain as it is (each factor set again: "vda io: threads -> io_uring"), whenever the
  // setup reads on it; the XML defined is still the original's edit, and the diff shows every line it changes
  const fromCurrent = editDomain(domain, current, setup)
  if (fromCurrent.ok && fromCurrent.xml === edit.xml) return fromCurrent
  if (fromCurrent.ok && fromCurrent.changes.length > 0) return withLive(domain, { ...fromCurrent, xml: edit.xml, diff: lineDiff(current, edit.xml) }, current)
  const changes = [{ what: 'base', from: "the previous step's XML", to: 'the original XML' }, ...edit.changes]
  return withLive(domain, { ok: true, xml: edit.xml, diff: lineDiff(current, edit.xml), changes, restarts: [] }, current)
}

/** "vda cache: writeback -> none; vCPUs: 1 -> 2" */
export function describeChanges(changes: readonly DomainChange[]): string {
  return changes.map((c) => `${c.what}: ${c.from} -> ${c.to}`).join('; ')
}
