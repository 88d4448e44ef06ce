import { z } from 'zod'

/**
 * A scenario: the labels that say how a guest is set up. Every field is optional (a physical
 * baseline has none); the wizard offers them as choices, and the engine compares them with what
 * the physical host reports (libvirt domain XML) where it can.
 */

export const HYPERVISORS = ['kvm', 'xen-pv', 'xen-hvm', 'hyper-v', 'vmware-esxi', 'other'] as const
export const STORAGE_BACKENDS = ['file-raw', 'file-qcow2', 'lvm', 'ceph-rbd', 'nfs', 'iscsi', 'other'] as const
export const DISK_CACHES = ['none', 'writeback', 'writethrough', 'directsync', 'unsafe'] as const
export const DISK_BUSES = ['virtio-blk', 'virtio-scsi', 'ide', 'sata'] as const
export const NETWORK_PATHS = ['classic', 'private', 'eip'] as const

export type Hypervisor = (typeof HYPERVISORS)[number]
export type StorageBackend = (typeof STORAGE_BACKENDS)[number]
export type DiskCache = (typeof DISK_CACHES)[number]
export type DiskBus = (typeof DISK_BUSES)[number]
export type NetworkPath = (typeof NETWORK_PATHS)[number]

/** Names people read, for tables and reports. */
export const SCENARIO_LABELS = {
  hypervisor: { kvm: 'KVM', 'xen-pv': 'Xen PV', 'xen-hvm': 'Xen HVM', 'hyper-v': 'Hyper-V', 'vmware-esxi': 'VMware ESXi', other: 'other' },
  storage: {
    'file-raw': 'local file (raw)',
    'file-qcow2': 'local file (qcow2)',
    lvm: 'LVM',
    'ceph-rbd': 'Ceph RBD',
    nfs: 'NFS',
    iscsi: 'iSCSI',
    other: 'other'
  },
  cache: { none: 'cache=none', writeback: 'cache=writeback', writethrough: 'cache=writethrough', directsync: 'cache=directsync', unsafe: 'cache=unsafe' },
  bus: { 'virtio-blk': 'virtio-blk', 'virtio-scsi': 'virtio-scsi', ide: 'IDE', sata: 'SATA' },
  network: { classic: 'classic network', private: 'private/VPC', eip: 'public EIP' }
} as const

/** io= modes of a libvirt disk (`<driver io=>`). */
export const IO_MODES = ['native', 'threads', 'io_uring'] as const
export type IoMode = (typeof IO_MODES)[number]

const GUEST_DEVICE = /^[a-z]{2,3}[a-z]{1,3}$/

/** The storage backends VirtBench swaps a data disk between: a file (raw or qcow2), or a block device (an LVM logical volume). */
export const SWAP_BACKENDS = ['file-raw', 'file-qcow2', 'lvm'] as const satisfies readonly StorageBackend[]
export type SwapBackend = (typeof SWAP_BACKENDS)[number]

/** A prepared disk on the physical host: an absolute path that a shell and the domain XML take as it is. */
export const HostPathSchema = z
  .string()
  .max(4096)
  .regex(/^\//, 'a prepared disk is named by its absolute path on the physical host, such as /var/lib/libvirt/images/bench.qcow2')
  .regex(/^[^'"`$\\\p{Cc}]+$/u, 'a prepared disk\'s path has no quotes, backquotes, $, backslashes, newlines or other control characters')
  .refine((p) => !p.split('/').some((part) => part === '..' || part === '.'), 'a prepared disk\'s path has no "." or ".." parts: give the path itself')
  .describe('A prepared disk on the physical host: its absolute path (a file, or a block device such as an LVM volume)')

export const DiskDeviceSchema = z.string().regex(GUEST_DEVICE, 'a disk is named by its <target dev> in the domain XML, such as vdb')

/**
 * What VirtBench sets on a libvirt domain before a variant's jobs (docs/scenarios.md). Unset
 * fields are left as the domain has them. cache, io and queues apply to the disks named in
 * `disks` (their `<target dev>`), or to every disk of the domain.
 */
export const DomainSetupSchema = z.strictObject({
  cache: z.enum(DISK_CACHES).optional().describe('<driver cache=> of the disks'),
  io: z.enum(IO_MODES).optional().describe('<driver io=> of the disks (native needs cache none or directsync)'),
  queues: z.number().int().min(1).max(64).optional().describe('virtio queues of the disks (virtio-blk) or of their virtio-scsi controller'),
  disks: z
    .array(z.string().regex(GUEST_DEVICE, 'a disk is named by its <target dev> in the domain XML, such as vdb').describe("A disk's <target dev>"))
    .min(1)
    .optional()
    .describe('The disks (by <target dev>) that cache, io and queues apply to; default: every disk'),
  bus: z
    .strictObject({
      disk: z.string().regex(GUEST_DEVICE, 'a disk is named by its <target dev> in the domain XML, such as vdc').describe('The data disk moved, by its <target dev>'),
      to: z.enum(DISK_BUSES).describe('The bus it moves to')
    })
    .optional()
    .describe('Move one data disk to another bus (the guest must not boot from it)'),
  storage: z
    .strictObject({
      backend: z.enum(SWAP_BACKENDS).describe('file-raw and file-qcow2: a file (<disk type=file>, <driver type=raw|qcow2>); lvm: a block device (<disk type=block>, raw)'),
      sources: z
        .record(DiskDeviceSchema, HostPathSchema)
        .refine((r) => Object.keys(r).length > 0, 'name at least one disk and its prepared disk')
        .describe('Each data disk (its <target dev>) and the prepared disk on the host it is pointed at'),
      allowBootDisk: z.boolean().optional().describe('Allow swapping the disk the guest boots from (the prepared disk must then boot)')
    })
    .optional()
    .describe('Point data disks at prepared disks of another storage backend'),
  vcpus: z.number().int().min(1).max(512).optional().describe('vCPU count'),
  memoryMiB: z.number().int().min(64).max(16 * 1024 * 1024).optional().describe('Memory in MiB'),
  nicQueues: z.number().int().min(1).max(256).optional().describe('virtio-net queues of every interface')
})
export type DomainSetup = z.infer<typeof DomainSetupSchema>

/** A libvirt domain name, as virsh takes it. */
export const DomainNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}/]+$/u, 'a libvirt domain name has no "/" or control characters')

export const ScenarioSchema = z.strictObject({
  hypervisor: z.enum(HYPERVISORS).optional().describe('The hypervisor running the guest'),
  storage: z.enum(STORAGE_BACKENDS).optional().describe("Where the guest's disk lives on the host"),
  cache: z.enum(DISK_CACHES).optional().describe("The disk's cache mode (qemu/libvirt cache=)"),
  queues: z.number().int().min(1).max(64).optional().describe('virtio queues of the disk'),
  bus: z.enum(DISK_BUSES).optional().describe('The bus the guest sees its disk on'),
  network: z.enum(NETWORK_PATHS).optional().describe('The network path of network tests (which address of the peer is used)'),
  os: z.string().trim().max(80).optional().describe('The guest OS, as people call it (for example "Windows Server 2019")'),
  domain: DomainNameSchema.optional().describe('The libvirt domain name of this guest on its physical host, to read the real disk setup with virsh dumpxml'),
  setup: DomainSetupSchema.optional().describe(
    'What VirtBench sets on the domain before this variant\'s jobs and undoes after the run (needs "domain" and the user\'s consent: virtbench run --change-domains)'
  )
})
export type Scenario = z.infer<typeof ScenarioSchema>

/** One line naming a scenario: "KVM, Ceph RBD, cache=none, 4 queues, virtio-blk". */
export function describeScenario(s: Scenario): string {
  const parts: string[] = []
  if (s.hypervisor) parts.push(SCENARIO_LABELS.hypervisor[s.hypervisor])
  if (s.storage) parts.push(SCENARIO_LABELS.storage[s.storage])
  if (s.cache) parts.push(SCENARIO_LABELS.cache[s.cache])
  if (s.queues !== undefined) parts.push(s.queues === 1 ? '1 queue' : `${s.queues} queues`)
  if (s.bus) parts.push(SCENARIO_LABELS.bus[s.bus])
  if (s.network) parts.push(SCENARIO_LABELS.network[s.network])
  if (s.os) parts.push(s.os)
  return parts.join(', ')
}

/** The disk setup a host reports for a guest (from its libvirt domain XML). */
export interface DetectedDiskSetup {
  /** The guest disk's target device in the XML (vda, sdb...). */
  device: string
  cache?: DiskCache | 'default'
  /** io= mode (native, threads, io_uring), when set. */
  io?: string
  queues?: number
  bus?: DiskBus | string
  /** file, block, network (rbd, nfs, iscsi...), volume. */
  sourceType?: string
  /** For network sources: rbd, nfs, iscsi, gluster... */
  sourceProtocol?: string
  /** Disk image format (raw, qcow2). */
  format?: string
  /** The source path or name (a file, a /dev node, pool/image). */
  source?: string
}

/** One declared label that the host's own description contradicts. */
export interface ScenarioMismatch {
  field: 'cache' | 'queues' | 'bus' | 'storage'
  declared: string
  detected: string
  /** A sentence for the run log and the report. */
  message: string
}

