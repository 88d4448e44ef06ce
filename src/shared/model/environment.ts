import { z } from 'zod'
import { DISK_CACHES, type ScenarioMismatch } from './scenario'

/**
 * What VirtBench found out about a target before measuring it, stored with the run and shown in
 * the report. Every field is optional: a fact the target does not expose is absent, never guessed.
 *
 * The schema reads run documents from disk, older ones included: a fact of the wrong type (a
 * document edited by hand, a field an older VirtBench wrote differently) is left out rather than
 * shown wrong or refused, and keys it does not know are dropped.
 */

/** An optional fact: absent when missing or not of its type. */
function fact<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined)
}

const text = fact(z.string())
const count = fact(z.number().refine(Number.isFinite))
const texts = fact(z.array(z.string()))

export const BlockDeviceInfoSchema = z.object({
  name: z.string(),
  /** Size in bytes. */
  sizeBytes: count,
  model: text,
  /** I/O scheduler in use ([mq-deadline] of /sys/block/<dev>/queue/scheduler). */
  scheduler: text,
  rotational: fact(z.boolean()),
  /** queue/write_cache: 'write back' or 'write through'. */
  writeCache: text,
  /** Number of blk-mq hardware queues (entries of /sys/block/<dev>/mq/). */
  mqQueues: count
})
export type BlockDeviceInfo = z.infer<typeof BlockDeviceInfoSchema>

export const NicInfoSchema = z.object({
  name: z.string(),
  /** Link speed in bit/s, when the driver reports one. */
  speedBitsPerSecond: count,
  driver: text,
  /** Combined channels from `ethtool -l` (current / maximum). */
  channels: fact(z.object({ current: count, max: count })),
  addresses: texts
})
export type NicInfo = z.infer<typeof NicInfoSchema>

export const DetectedDiskSetupSchema = z.object({
  /** The guest disk's target device in the XML (vda, sdb...). */
  device: z.string(),
  cache: fact(z.enum([...DISK_CACHES, 'default'])),
  /** io= mode (native, threads, io_uring), when set. */
  io: text,
  queues: count,
  /** virtio-blk, virtio-scsi, ide, sata, or what the XML says. */
  bus: text,
  /** file, block, network (rbd, nfs, iscsi...), volume. */
  sourceType: text,
  /** For network sources: rbd, nfs, iscsi, gluster... */
  sourceProtocol: text,
  /** Disk image format (raw, qcow2). */
  format: text,
  /** The source path or name (a file, a /dev node, pool/image). */
  source: text
})

/** A list whose entries of the wrong shape are left out. */
function listOf<T extends z.ZodType>(schema: T) {
  return fact(z.array(z.unknown()).transform((items) => items.flatMap((item) => {
    const checked = schema.safeParse(item)
    return checked.success ? [checked.data as z.infer<T>] : []
  })))
}

export const ScenarioMismatchSchema = z.object({
  field: z.enum(['cache', 'queues', 'bus', 'storage']).catch('cache'),
  declared: z.string().catch(''),
  detected: z.string().catch(''),
  /** A sentence for the run log and the report. */
  message: z.string()
})

export const TargetEnvironmentSchema = z.object({
  /** When it was captured (ISO). */
  capturedAt: z.string().catch(''),
  os: text,
  kernel: text,
  arch: text,
  hostname: text,
  /** /etc/machine-id: the installation. */
  machineId: text,
  /** /proc/sys/kernel/random/boot_id: this boot of it. Two targets with the same machine and boot id are one running system. */
  bootId: text,
  cpuModel: text,
  cpuCount: count,
  memoryBytes: count,
  /** What the target says it runs on: 'none' for bare metal, 'kvm', 'xen', 'microsoft', 'vmware'... */
  virtualization: text,
  /** How it was told: systemd-detect-virt, virt-what, dmi, cpuinfo. */
  virtualizationSource: text,
  /** DMI vendor and product (/sys/class/dmi/id). */
  dmi: fact(z.object({ vendor: text, product: text })),
  blockDevices: listOf(BlockDeviceInfoSchema),
  /** The work directory's filesystem and device. */
  workDir: fact(z.object({ path: z.string(), filesystem: text, device: text, freeBytes: count })),
  nics: listOf(NicInfoSchema),
  /** Tool versions by tool id ('fio-3.33'). */
  tools: fact(z.record(z.string(), z.unknown()).transform((r) => Object.fromEntries(Object.entries(r).filter((e): e is [string, string] => typeof e[1] === 'string')))),
  clocksource: text,
  /** Steal time in % of CPU time since boot (from /proc/stat). */
  stealPct: count,
  loadAverage: fact(z.tuple([z.number(), z.number(), z.number()])),
  /** For a physical host with libvirt: what `virsh dumpxml` says about each guest of the plan. */
  guests: fact(
    z.record(z.string(), z.unknown()).transform((r) => {
      const out: Record<string, { domain: string; disks: z.infer<typeof DetectedDiskSetupSchema>[]; error?: string }> = {}
      for (const [name, value] of Object.entries(r)) {
        const checked = z.object({ domain: z.string().optional().catch(undefined), disks: listOf(DetectedDiskSetupSchema), error: text }).safeParse(value)
        if (!checked.success) continue
        const { domain, disks, error } = checked.data
        out[name] = { domain: domain ?? name, disks: disks ?? [], ...(error !== undefined ? { error } : {}) }
      }
      return out
    })
  ),
  /** Anything the capture could not read, in words (a missing tool, a permission). */
  notes: texts,
  /** A guest's declared scenario that its physical host's libvirt contradicts (stored by the engine). */
  scenarioMismatches: listOf(ScenarioMismatchSchema)
})
export type TargetEnvironment = z.infer<typeof TargetEnvironmentSchema>

export type { ScenarioMismatch }
