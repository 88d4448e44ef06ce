/**
 * Checking, from inside the guest and on the host, that a domain setup took effect: the vCPUs
 * the guest sees, the blk-mq queues and write cache of its disks, its NIC queues, and the
 * host's live domain XML. The probe is one shell script; its output is parsed here (pure).
 *
 * The setup names disks as the original XML does (`<target dev>`); a bus move renames one (vdc
 * on SATA is sda), so each check finds the disk under its name in the live XML, and in the guest
 * by its `<serial>` when it has one (any bus), else by that target dev, and says which it checked.
 */
import type { DomainSetup } from '../../shared/model/scenario'
import { parseDomainDisks } from '../engine/environment/domain-xml'
import { child, children, parseXml, type XmlElement } from '../engine/environment/xml'
import { storageXml } from './domain-edit'
import { textOf } from './xml-edit'
import type { Session } from '../ssh/types'

/**
 * Prints `cpus N`, `mem KIB`, `disk NAME MQ WRITE_CACHE [SERIAL]` and `nic NAME RX_QUEUES` lines.
 * A disk's serial: virtio-blk's `serial`, else SCSI's and ATA's VPD page 0x80 (after its 4-byte
 * header); printable characters only, spaces as `_`.
 */
export const GUEST_PROBE = [
  'echo "cpus $(grep -c ^processor /proc/cpuinfo)"',
  'echo "mem $(awk \'/^MemTotal:/ {print $2}\' /proc/meminfo)"',
  'for d in /sys/block/*; do n=${d##*/}; case $n in loop*|ram*|sr*|dm-*) continue;; esac',
  '  mq=0; [ -d "$d/mq" ] && mq=$(ls "$d/mq" | wc -l)',
  '  wc=$(cat "$d/queue/write_cache" 2>/dev/null | tr " " _)',
  '  sn=$({ cat "$d/serial" 2>/dev/null || tail -c +5 "$d/device/vpd_pg80" 2>/dev/null; } | tr -dc "[:print:]" | sed "s/^ *//; s/ *$//; s/ /_/g")',
  '  echo "disk $n $mq ${wc:-unknown} $sn"; done',
  'for n in /sys/class/net/*; do [ "${n##*/}" = lo ] && continue; echo "nic ${n##*/} $(ls -d "$n"/queues/rx-* 2>/dev/null | wc -l)"; done'
].join('\n')

export interface GuestView {
  cpus?: number
  memKiB?: number
  disks: Map<string, { mq: number; writeCache: string; serial?: string }>
  nics: Map<string, number>
}

export function parseGuestProbe(text: string): GuestView {
  const view: GuestView = { disks: new Map(), nics: new Map() }
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/)
    if (f[0] === 'cpus' && /^\d+$/.test(f[1] ?? '')) view.cpus = Number(f[1])
    else if (f[0] === 'mem' && /^\d+$/.test(f[1] ?? '')) view.memKiB = Number(f[1])
    else if (f[0] === 'disk' && f[1] && /^\d+$/.test(f[2] ?? '')) view.disks.set(f[1], { mq: Number(f[2]), writeCache: (f[3] ?? 'unknown').replace(/_/g, ' '), ...(f[4] ? { serial: f[4] } : {}) })
    else if (f[0] === 'nic' && f[1] && /^\d+$/.test(f[2] ?? '')) view.nics.set(f[1], Number(f[2]))
  }
  return view
}

export interface Check {
  where: 'guest' | 'host'
  what: string
  expected: string
  seen: string
  ok: boolean
}

/** The write_cache a guest shows for a cache mode: flushes passed on (write back) or every write stable (write through). */
export function expectedWriteCache(cache: string): string {
  return cache === 'writethrough' || cache === 'directsync' ? 'write through' : 'write back'
}

function check(where: Check['where'], what: string, expected: string | number, seen: string | number | undefined): Check {
  const s = seen === undefined ? '(not seen)' : String(seen)
  return { where, what, expected: String(expected), seen: s, ok: s === String(expected) }
}

/** A disk of the live domain, named as the setup names it. */
export interface LiveDisk {
  /** Its `<target dev>` in the original XML: the name the setup uses. */
  named: string
  /** Its `<target dev>` in the live XML: another one after a bus move (vdc on SATA: sda). */
  dev: string
  /** Its `<target bus>` in the live XML: virtio, scsi, sata, ide. */
  bus: string | undefined
  /** Its `<serial>`: the guest shows it on any bus. */
  serial?: string
}

/** The disks (`device` disk or lun) of a domain XML, in document order; undefined when it cannot be read. */
function xmlDisks(xml: string): { dev: string; bus: string | undefined; serial: string | undefined }[] | undefined {
  const parsed = parseXml(xml)
  if (!parsed.ok) return undefined
  const disks = children(parsed.root, 'devices')
    .flatMap((d) => children(d, 'disk'))
    .filter((d) => ['disk', 'lun'].includes(d.attributes.get('device') ?? 'disk'))
  return disks.flatMap((disk: XmlElement) => {
    const target = child(disk, 'target')
    const dev = target?.attributes.get('dev')
    const serial = child(disk, 'serial')
    return dev ? [{ dev, bus: target?.attributes.get('bus'), serial: serial ? textOf(xml, serial) || undefined : undefined }] : []
  })
}

/**
 * The disks a step renamed: `<target dev>` in the original XML -> in the XML the step defined,
 * matched by position (the editor rewrites a disk in place, never adds, drops or reorders one;
 * libvirt may reorder them, so the live XML is matched by the new name).
 */
export function renamedDisks(originalXml: string, definedXml: string): Map<string, string> {
  const before = xmlDisks(originalXml)
  const after = xmlDisks(definedXml)
  if (!before || !after || before.length !== after.length) return new Map()
  return new Map(before.flatMap((d, i) => (after[i]!.dev !== d.dev ? [[d.dev, after[i]!.dev] as const] : [])))
}

/** The live XML's disks under the names the setup uses (`renamed`: from renamedDisks). */
export function liveDisks(liveXml: string, renamed: ReadonlyMap<string, string> = new Map()): LiveDisk[] {
  const named = new Map([...renamed].map(([from, to]) => [to, from]))
  return (xmlDisks(liveXml) ?? []).map((d) => ({ named: named.get(d.dev) ?? d.dev, dev: d.dev, bus: d.bus, ...(d.serial ? { serial: d.serial } : {}) }))
}

/** "vdc", or "vdc (now sda)" after a bus move. */
function diskLabel(named: string, dev: string): string {
  return named === dev ? dev : `${named} (now ${dev})`
}

/** The serial as the probe prints it (spaces as `_`); virtio-blk and ATA keep its first 20 characters. */
function sameSerial(xml: string, guest: string): boolean {
  const printed = xml.trim().replace(/\s+/g, '_')
  return guest === printed || guest === printed.slice(0, 20)
}

/**
 * Which disk of the guest is `disk`: the one showing its serial; else its target dev in the live
 * XML, for a virtio-blk disk (vd*, named in the guest as in the XML) and for the disk the setup
 * moved to SATA or virtio-scsi (sd*, as libvirt numbers the drives); undefined when the guest
 * cannot be told which disk it is (an IDE disk without a serial: Linux names hd* disks sd*).
 */
export function guestDiskOf(disk: LiveDisk, view: GuestView, moved: boolean): { name: string; by: 'serial' | 'target dev' } | undefined {
  const bySerial = disk.serial === undefined ? undefined : [...view.disks].find(([, g]) => g.serial !== undefined && sameSerial(disk.serial!, g.serial))
  if (bySerial) return { name: bySerial[0], by: 'serial' }
  return disk.bus === 'virtio' || (moved && (disk.bus === 'sata' || disk.bus === 'scsi')) ? { name: disk.dev, by: 'target dev' } : undefined
}

/** "vdb", "vdc (now sda)", "vdc (now sda, guest sdb, serial vb-data)": which disk a guest check looked at. */
function guestLabel(disk: LiveDisk, found: { name: string; by: 'serial' | 'target dev' }): string {
  const parts = [disk.dev !== disk.named ? `now ${disk.dev}` : '', found.by === 'serial' ? `${found.name !== disk.dev ? `guest ${found.name}, ` : ''}serial ${disk.serial}` : ''].filter((p) => p !== '')
  return parts.length > 0 ? `${disk.named} (${parts.join(', ')})` : disk.named
}

/** The guest's side: what it must show for `setup`, each disk found as guestDiskOf says (`disks`: from liveDisks). */
export function guestChecks(setup: DomainSetup, view: GuestView, disks: readonly LiveDisk[]): Check[] {
  const checks: Check[] = []
  if (setup.vcpus !== undefined) checks.push(check('guest', 'processors', setup.vcpus, view.cpus))
  if (setup.memoryMiB !== undefined) {
    // the kernel keeps some memory for itself: MemTotal is a little under what the domain has
    const total = view.memKiB
    const ok = total !== undefined && total <= setup.memoryMiB * 1024 && total >= setup.memoryMiB * 1024 * 0.75
    checks.push({ where: 'guest', what: 'MemTotal', expected: `75 to 100 % of ${setup.memoryMiB * 1024} kB`, seen: total === undefined ? '(not seen)' : `${total} kB`, ok })
  }
  for (const disk of disks) {
    const moved = setup.bus?.disk === disk.named
    const found = guestDiskOf(disk, view, moved)
    if (!found) continue
    const label = guestLabel(disk, found)
    const seen = view.disks.get(found.name)
    // the disk the setup moved, or swapped to another backend, is there after the change
    if (moved || setup.storage?.sources[disk.named] !== undefined) checks.push(check('guest', `${label} present`, 'yes', seen ? 'yes' : 'no'))
    if (setup.disks && !setup.disks.includes(disk.named)) continue
    if (setup.queues !== undefined && disk.bus === 'virtio') checks.push(check('guest', `${label} blk-mq queues`, setup.queues, seen?.mq))
    if (setup.cache !== undefined) checks.push(check('guest', `${label} write_cache`, expectedWriteCache(setup.cache), seen?.writeCache))
  }
  if (setup.nicQueues !== undefined) for (const [nic, queues] of view.nics) checks.push(check('guest', `${nic} rx queues`, setup.nicQueues, queues))
  return checks
}

/**
 * The host's side: the live domain XML has the cache, io and queues asked for on each disk, each
 * disk found under its live name (`renamed`: from renamedDisks, the setup's names -> the live ones).
 */
export function hostChecks(setup: DomainSetup, liveXml: string, renamed: ReadonlyMap<string, string> = new Map()): Check[] {
  const parsed = parseDomainDisks(liveXml)
  if (!parsed.ok) return [{ where: 'host', what: 'domain XML', expected: 'readable', seen: parsed.error, ok: false }]
  const checks: Check[] = []
  const nameOf = new Map(liveDisks(liveXml, renamed).map((d) => [d.dev, d.named]))
  for (const disk of parsed.disks) {
    const named = nameOf.get(disk.device) ?? disk.device
    if (setup.disks && !setup.disks.includes(named)) continue
    const label = diskLabel(named, disk.device)
    if (setup.cache !== undefined) checks.push(check('host', `${label} cache`, setup.cache, disk.cache))
    if (setup.io !== undefined) checks.push(check('host', `${label} io`, setup.io, disk.io))
    if (setup.queues !== undefined && (disk.bus === 'virtio-blk' || disk.bus === 'virtio-scsi')) checks.push(check('host', `${label} queues`, setup.queues, disk.queues))
  }
  if (setup.storage) {
    const xml = storageXml(setup.storage.backend)
    for (const [named, source] of Object.entries(setup.storage.sources)) {
      const dev = renamed.get(named) ?? named
      const disk = parsed.disks.find((d) => d.device === dev)
      checks.push(check('host', `${diskLabel(named, dev)} source`, `${xml.type} ${source}`, disk && `${disk.sourceType ?? '(unset)'} ${disk.source ?? '(unset)'}`))
      checks.push(check('host', `${diskLabel(named, dev)} format`, xml.format, disk && (disk.format ?? '(unset)')))
    }
  }
  const domain = parseXml(liveXml)
  if (domain.ok && setup.vcpus !== undefined) {
    const vcpu = child(domain.root, 'vcpu')
    checks.push(check('host', 'vCPUs', setup.vcpus, vcpu ? (vcpu.attributes.get('current') ?? textOf(liveXml, vcpu)) : '1'))
  }
  if (domain.ok && setup.memoryMiB !== undefined) {
    const current = child(domain.root, 'currentMemory') ?? child(domain.root, 'memory')
    const unit = current?.attributes.get('unit') ?? 'KiB'
    checks.push(check('host', 'current memory', `${setup.memoryMiB * 1024} KiB`, current && `${textOf(liveXml, current)} ${/^kib$/i.test(unit) ? 'KiB' : unit}`))
  }
  if (setup.bus) {
    // the disk the setup moved, under the name the move gave it (not any disk on that bus)
    const dev = renamed.get(setup.bus.disk) ?? setup.bus.disk
    checks.push(check('host', `${setup.bus.disk} moved to`, setup.bus.to, parsed.disks.find((d) => d.device === dev)?.bus))
  }
  return checks
}

/** Runs the probe in the guest. */
export async function probeGuest(guest: Session, timeoutMs = 30_000): Promise<GuestView> {
  const r = await guest.exec({ script: GUEST_PROBE }, { capture: { maxBytes: 256 * 1024 }, timeoutMs })
  return parseGuestProbe(r.stdout?.toString('utf8') ?? '')
}

export function describeFailed(checks: readonly Check[]): string {
  return checks.filter((c) => !c.ok).map((c) => `${c.where} ${c.what}: expected ${c.expected}, seen ${c.seen}`).join('; ')
}
