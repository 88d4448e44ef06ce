import type { DetectedDiskSetup, ScenarioMismatch } from './scenario'

/**
 * What VirtBench found out about a target before measuring it, stored with the run and shown in
 * the report. Every field is optional: a fact the target does not expose is absent, never guessed.
 */

export interface BlockDeviceInfo {
  name: string
  /** Size in bytes. */
  sizeBytes?: number
  model?: string
  /** I/O scheduler in use ([mq-deadline] of /sys/block/<dev>/queue/scheduler). */
  scheduler?: string
  rotational?: boolean
  /** queue/write_cache: 'write back' or 'write through'. */
  writeCache?: string
  /** Number of blk-mq hardware queues (entries of /sys/block/<dev>/mq/). */
  mqQueues?: number
}

export interface NicInfo {
  name: string
  /** Link speed in bit/s, when the driver reports one. */
  speedBitsPerSecond?: number
  driver?: string
  /** Combined channels from `ethtool -l` (current / maximum). */
  channels?: { current?: number; max?: number }
  addresses?: string[]
}

export interface TargetEnvironment {
  /** When it was captured (ISO). */
  capturedAt: string
  os?: string
  kernel?: string
  arch?: string
  hostname?: string
  cpuModel?: string
  cpuCount?: number
  memoryBytes?: number
  /** What the target says it runs on: 'none' for bare metal, 'kvm', 'xen', 'microsoft', 'vmware'... */
  virtualization?: string
  /** How it was told: systemd-detect-virt, virt-what, dmi, cpuinfo. */
  virtualizationSource?: string
  /** DMI vendor and product (/sys/class/dmi/id). */
  dmi?: { vendor?: string; product?: string }
  blockDevices?: BlockDeviceInfo[]
  /** The work directory's filesystem and device. */
  workDir?: { path: string; filesystem?: string; device?: string; freeBytes?: number }
  nics?: NicInfo[]
  /** Tool versions by tool id ('fio-3.33'). */
  tools?: Record<string, string>
  clocksource?: string
  /** Steal time in % of CPU time since boot (from /proc/stat). */
  stealPct?: number
  loadAverage?: [number, number, number]
  /** For a physical host with libvirt: what `virsh dumpxml` says about each guest of the plan. */
  guests?: Record<string, { domain: string; disks: DetectedDiskSetup[]; error?: string }>
  /** Anything the capture could not read, in words (a missing tool, a permission). */
  notes?: string[]
}

export type { ScenarioMismatch }
