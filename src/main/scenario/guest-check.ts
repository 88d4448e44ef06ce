/**
 * Checking, from inside the guest and on the host, that a domain setup took effect: the vCPUs
 * the guest sees, the blk-mq queues and write cache of its disks, its NIC queues, and the
 * host's live domain XML. The probe is one shell script; its output is parsed here (pure).
 */
import type { DomainSetup } from '../../shared/model/scenario'
import { parseDomainDisks } from '../engine/environment/domain-xml'
import { child, parseXml } from '../engine/environment/xml'
import { storageXml } from './domain-edit'
import { textOf } from './xml-edit'
import type { Session } from '../ssh/types'

/** Prints `cpus N`, `mem KIB`, `disk NAME MQ WRITE_CACHE` and `nic NAME RX_QUEUES` lines. */
export const GUEST_PROBE = [
  'echo "cpus $(grep -c ^processor /proc/cpuinfo)"',
  'echo "mem $(awk \'/^MemTotal:/ {print $2}\' /proc/meminfo)"',
  'for d in /sys/block/*; do n=${d##*/}; case $n in loop*|ram*|sr*|dm-*) continue;; esac',
  '  mq=0; [ -d "$d/mq" ] && mq=$(ls "$d/mq" | wc -l)',
  '  wc=$(cat "$d/queue/write_cache" 2>/dev/null | tr " " _)',
  '  echo "disk $n $mq ${wc:-unknown}"; done',
  'for n in /sys/class/net/*; do [ "${n##*/}" = lo ] && continue; echo "nic ${n##*/} $(ls -d "$n"/queues/rx-* 2>/dev/null | wc -l)"; done'
].join('\n')

export interface GuestView {
  cpus?: number
  memKiB?: number
  disks: Map<string, { mq: number; writeCache: string }>
  nics: Map<string, number>
}

export function parseGuestProbe(text: string): GuestView {
  const view: GuestView = { disks: new Map(), nics: new Map() }
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/)
    if (f[0] === 'cpus' && /^\d+$/.test(f[1] ?? '')) view.cpus = Number(f[1])
    else if (f[0] === 'mem' && /^\d+$/.test(f[1] ?? '')) view.memKiB = Number(f[1])
    else if (f[0] === 'disk' && f[1] && /^\d+$/.test(f[2] ?? '')) view.disks.set(f[1], { mq: Number(f[2]), writeCache: (f[3] ?? 'unknown').replace(/_/g, ' ') })
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

/** The guest's side: what it must show for `setup` (virtio-blk disks are named in the guest as in the XML). */
export function guestChecks(setup: DomainSetup, view: GuestView, virtioDisks: readonly string[]): Check[] {
  const checks: Check[] = []
  if (setup.vcpus !== undefined) checks.push(check('guest', 'processors', setup.vcpus, view.cpus))
  if (setup.memoryMiB !== undefined) {
    // the kernel keeps some memory for itself: MemTotal is a little under what the domain has
    const total = view.memKiB
    const ok = total !== undefined && total <= setup.memoryMiB * 1024 && total >= setup.memoryMiB * 1024 * 0.75
    checks.push({ where: 'guest', what: 'MemTotal', expected: `75 to 100 % of ${setup.memoryMiB * 1024} kB`, seen: total === undefined ? '(not seen)' : `${total} kB`, ok })
  }
  for (const dev of virtioDisks) {
    if (setup.disks && !setup.disks.includes(dev)) continue
    const disk = view.disks.get(dev)
    if (setup.queues !== undefined) checks.push(check('guest', `${dev} blk-mq queues`, setup.queues, disk?.mq))
    if (setup.cache !== undefined) checks.push(check('guest', `${dev} write_cache`, expectedWriteCache(setup.cache), disk?.writeCache))
  }
  // a swapped disk is there after the change (a virtio-blk disk is named in the guest as in the XML)
  for (const dev of Object.keys(setup.storage?.sources ?? {})) {
    if (virtioDisks.includes(dev)) checks.push(check('guest', `${dev} present`, 'yes', view.disks.has(dev) ? 'yes' : 'no'))
  }
  if (setup.nicQueues !== undefined) for (const [nic, queues] of view.nics) checks.push(check('guest', `${nic} rx queues`, setup.nicQueues, queues))
  return checks
}

/** The host's side: the live domain XML has the cache, io and queues asked for on each disk. */
export function hostChecks(setup: DomainSetup, liveXml: string): Check[] {
  const parsed = parseDomainDisks(liveXml)
  if (!parsed.ok) return [{ where: 'host', what: 'domain XML', expected: 'readable', seen: parsed.error, ok: false }]
  const checks: Check[] = []
  for (const disk of parsed.disks) {
    if (setup.disks && !setup.disks.includes(disk.device)) continue
    if (setup.cache !== undefined) checks.push(check('host', `${disk.device} cache`, setup.cache, disk.cache))
    if (setup.io !== undefined) checks.push(check('host', `${disk.device} io`, setup.io, disk.io))
    if (setup.queues !== undefined && (disk.bus === 'virtio-blk' || disk.bus === 'virtio-scsi')) checks.push(check('host', `${disk.device} queues`, setup.queues, disk.queues))
  }
  if (setup.storage) {
    const xml = storageXml(setup.storage.backend)
    for (const [dev, source] of Object.entries(setup.storage.sources)) {
      const disk = parsed.disks.find((d) => d.device === dev)
      checks.push(check('host', `${dev} source`, `${xml.type} ${source}`, disk && `${disk.sourceType ?? '(unset)'} ${disk.source ?? '(unset)'}`))
      checks.push(check('host', `${dev} format`, xml.format, disk && (disk.format ?? '(unset)')))
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
  if (setup.bus) checks.push(check('host', `${setup.bus.disk} moved to`, setup.bus.to, parsed.disks.find((d) => d.bus === setup.bus?.to && d.source !== undefined)?.bus))
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
