import type { PackageManager } from '../../tools/types'

/**
 * What resources/scripts/linux/preflight.sh found on one target (docs/preflight.md). Every field a
 * target did not expose is absent, never guessed; `problems` says in words what could not be read.
 */
export interface PreflightFacts {
  /** `uname -s`. */
  system?: string
  /** The user the checks ran as (0: root, so installing needs no sudo). */
  uid?: number
  cpus?: number
  memTotalBytes?: number
  /** The first of apt-get, dnf, yum, zypper, apk found on PATH. */
  packageManager?: PackageManager
  sudo?: { present: boolean; passwordless?: boolean }
  /** By the name the check was asked for (a tool id such as 'fio' or 'unixbench'). */
  tools: Record<string, ToolPresence>
  dir?: DirectoryFacts
  device?: DeviceFacts
  idle?: IdleFacts
  /** The TCP ports asked about (a network test's server port there), absent when none were. */
  ports?: PortFacts[]
  /** What the checks could not do, in words: an output cut short, a failed command, a script error. */
  problems: string[]
}

export interface ToolPresence {
  found: boolean
  /** The command's path; for UnixBench the folder that holds ./Run. */
  path?: string
  /** The first line of the tool's own version output ('fio-3.33'), when it prints one. */
  version?: string
}

export interface DirectoryFacts {
  /** With ~ expanded. */
  path: string
  /** It was there before the check. */
  existed?: boolean
  /** The check created it (mkdir -p). */
  created?: boolean
  mkdirError?: string
  exists?: boolean
  writable?: boolean
  writeError?: string
  /** The filesystem holding it ('ext4', 'xfs', 'tmpfs'). */
  fsType?: string
  mountPoint?: string
  /** The device or source of that filesystem ('/dev/vda1', 'tmpfs'). */
  source?: string
  freeBytes?: number
  /** A 4 KiB write with O_DIRECT succeeded there. */
  direct?: boolean
  directError?: string
}

export interface DeviceMount {
  source: string
  mountPoint: string
  fsType?: string
}

/** Something stacked on the device or one of its partitions (LVM, RAID, dm-crypt, multipath). */
export interface DeviceHolder {
  /** The kernel name of what is held ('sdb', 'sdb1'). */
  of: string
  /** The holder's kernel name ('dm-0', 'md0'). */
  name: string
  /** The device-mapper name ('vg0-data'), when it is one. */
  dmName?: string
}

export type SignatureSource = 'wipefs' | 'blkid' | 'lsblk'

/** A filesystem, partition table, LVM or RAID signature found on the device. */
export interface DeviceSignature {
  source: SignatureSource
  /** 'ext4', 'dos', 'gpt', 'LVM2_member', 'linux_raid_member'..., when the line names one. */
  type?: string
  /** The line the tool printed, quoted in messages. */
  text: string
}

export type ProbeStatus = { status: 'ok' } | { status: 'failed'; error?: string } | { status: 'absent' }

export interface DeviceFacts {
  /** The path the plan names. */
  path: string
  exists?: boolean
  /** It is a block device. */
  block?: boolean
  /** The path with links resolved (/dev/disk/by-id/... to /dev/sdb). */
  resolved?: string
  /** The kernel's name ('sdb'). */
  name?: string
  majMin?: string
  /** The device is itself a partition of this disk. */
  partitionOf?: string
  sizeBytes?: number
  readonly?: boolean
  /** Its first 4 KiB could be read (blkid and wipefs are blind without that). */
  readable?: boolean
  readError?: string
  /** Kernel names of its partitions. */
  partitions: string[]
  holders: DeviceHolder[]
  /** Mounts of the device, its partitions or their holders. */
  mounts: DeviceMount[]
  /** Swap areas on any of them. */
  swaps: string[]
  signatures: DeviceSignature[]
  probes: Partial<Record<SignatureSource, ProbeStatus>>
  /** Why the device could not be checked at all (sudo refused, the check failed). */
  checkError?: string
}

export interface IdleFacts {
  /** How long CPU use was measured. */
  seconds: number
  /** Load average over 1, 5 and 15 minutes, read at the end of the measurement. */
  load?: [number, number, number]
  /** CPU time spent working (not idle, not waiting for I/O, not stolen), in % of all CPU time. */
  busyPct?: number
  iowaitPct?: number
  stealPct?: number
}

/** Is something listening on a TCP port already (checks.sh's `ports` section)? */
export interface PortFacts {
  port: number
  /** `unknown`: /proc/net/tcp could not be read. */
  state: 'listening' | 'free' | 'unknown'
  /** The program listening, "iperf3 (pid 4242)", when the login user may see it. */
  program?: string
}

/** A target the checks could not reach: the message says why. */
export interface Unreachable {
  unreachable: string
}

export function isUnreachable(facts: PreflightFacts | Unreachable): facts is Unreachable {
  return 'unreachable' in facts
}

export function emptyFacts(problems: string[] = []): PreflightFacts {
  return { tools: {}, problems }
}
