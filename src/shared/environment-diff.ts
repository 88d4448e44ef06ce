import type { NicInfo, TargetEnvironment } from './model/environment'
import type { RunDocument } from './model/run'
import type { DetectedDiskSetup } from './model/scenario'
import { formatValue } from './format'

/**
 * A target's environment as text facts, and the facts that differ between two captures: the
 * environment diff of Compare runs and of a release comparison (virtbench compare), where a new
 * kernel or a new qemu is what explains a figure that moved.
 * The results screen and the report page use them too (through
 * src/renderer/src/features/results/environment-fields.ts, which re-exports them).
 */

// ---- Words for people ----

export const yesNo = (v: boolean): string => (v ? 'yes' : 'no')

export function virtualizationText(env: TargetEnvironment): string | undefined {
  if (env.virtualization === undefined) return undefined
  const what = env.virtualization === 'none' ? 'none (bare metal)' : env.virtualization
  return env.virtualizationSource ? `${what}, by ${env.virtualizationSource}` : what
}

export function channelsText(channels: NicInfo['channels']): string | undefined {
  if (!channels || (channels.current === undefined && channels.max === undefined)) return undefined
  return `${channels.current ?? '?'} of ${channels.max ?? '?'} combined`
}

export function loadText(load: [number, number, number]): string {
  return load.map((x) => x.toFixed(2)).join(', ')
}

export function diskSetupText(d: DetectedDiskSetup): string {
  const parts = [
    d.cache ? `cache=${d.cache}` : undefined,
    d.io ? `io=${d.io}` : undefined,
    d.queues !== undefined ? `queues=${d.queues}` : undefined,
    d.bus ? `bus=${d.bus}` : undefined,
    d.format ? `format=${d.format}` : undefined,
    d.sourceProtocol ?? d.sourceType,
    d.source
  ]
  return parts.filter(Boolean).join(', ')
}

/** One fact of an environment, as text, with a stable key for comparing two targets. */
export interface EnvironmentField {
  key: string
  group: string
  label: string
  value: string
}

/** Every fact of an environment as text (the diff compares these, so equal text is equal). */
export function environmentFields(env: TargetEnvironment): EnvironmentField[] {
  const fields: EnvironmentField[] = []
  const add = (key: string, group: string, label: string, value: string | undefined): void => {
    if (value !== undefined && value !== '') fields.push({ key, group, label, value })
  }
  add('os', 'System', 'OS', env.os)
  add('kernel', 'System', 'Kernel', env.kernel)
  add('arch', 'System', 'Architecture', env.arch)
  add('hostname', 'System', 'Host name', env.hostname)
  add('virtualization', 'System', 'Virtualization', virtualizationText(env))
  add('dmi', 'System', 'Hardware (DMI)', [env.dmi?.vendor, env.dmi?.product].filter(Boolean).join(' ') || undefined)
  add('cpuModel', 'CPU and memory', 'CPU model', env.cpuModel)
  add('cpuCount', 'CPU and memory', 'CPUs', env.cpuCount?.toString())
  add('memory', 'CPU and memory', 'Memory', env.memoryBytes !== undefined ? formatValue(env.memoryBytes, 'B') : undefined)
  add('clocksource', 'CPU and memory', 'Clock source', env.clocksource)
  add('steal', 'CPU and memory', 'Steal time since boot', env.stealPct !== undefined ? formatValue(env.stealPct, '%') : undefined)
  add('load', 'CPU and memory', 'Load average (1, 5, 15 min)', env.loadAverage ? loadText(env.loadAverage) : undefined)
  if (env.workDir) {
    add('workDir.path', 'Work directory', 'Path', env.workDir.path)
    add('workDir.filesystem', 'Work directory', 'Filesystem', env.workDir.filesystem)
    add('workDir.device', 'Work directory', 'Device', env.workDir.device)
    add('workDir.free', 'Work directory', 'Free space', env.workDir.freeBytes !== undefined ? formatValue(env.workDir.freeBytes, 'B') : undefined)
  }
  for (const d of env.blockDevices ?? []) {
    const k = `block.${d.name}`
    add(`${k}.size`, 'Block devices', `${d.name}: size`, d.sizeBytes !== undefined ? formatValue(d.sizeBytes, 'B') : undefined)
    add(`${k}.model`, 'Block devices', `${d.name}: model`, d.model)
    add(`${k}.scheduler`, 'Block devices', `${d.name}: I/O scheduler`, d.scheduler)
    add(`${k}.rotational`, 'Block devices', `${d.name}: rotational`, d.rotational !== undefined ? yesNo(d.rotational) : undefined)
    add(`${k}.writeCache`, 'Block devices', `${d.name}: write cache`, d.writeCache)
    add(`${k}.mqQueues`, 'Block devices', `${d.name}: blk-mq queues`, d.mqQueues?.toString())
  }
  for (const n of env.nics ?? []) {
    const k = `nic.${n.name}`
    add(`${k}.speed`, 'Network interfaces', `${n.name}: link speed`, n.speedBitsPerSecond !== undefined ? formatValue(n.speedBitsPerSecond, 'bit/s') : undefined)
    add(`${k}.driver`, 'Network interfaces', `${n.name}: driver`, n.driver)
    add(`${k}.channels`, 'Network interfaces', `${n.name}: channels`, channelsText(n.channels))
    add(`${k}.addresses`, 'Network interfaces', `${n.name}: addresses`, n.addresses?.join(', '))
  }
  for (const [tool, version] of Object.entries(env.tools ?? {})) add(`tool.${tool}`, 'Tools', tool, version)
  for (const [guest, g] of Object.entries(env.guests ?? {})) {
    for (const d of g.disks) add(`guest.${guest}.${d.device}`, 'Guests on this host (libvirt)', `${guest} (${g.domain}): ${d.device}`, diskSetupText(d))
    add(`guest.${guest}.error`, 'Guests on this host (libvirt)', `${guest} (${g.domain}): error`, g.error)
  }
  return fields
}

export interface FieldDifference {
  key: string
  group: string
  label: string
  /** The first target's value; undefined when it did not report this fact. */
  a?: string
  b?: string
}

/** The facts whose text differs between two environments, in the first's order, then the second's. */
export function environmentDifferences(a: TargetEnvironment, b: TargetEnvironment): FieldDifference[] {
  const left = environmentFields(a)
  const right = environmentFields(b)
  const rightByKey = new Map(right.map((f) => [f.key, f]))
  const leftKeys = new Set(left.map((f) => f.key))
  const out: FieldDifference[] = []
  for (const f of left) {
    const other = rightByKey.get(f.key)
    if (other?.value !== f.value) out.push({ key: f.key, group: f.group, label: f.label, a: f.value, ...(other ? { b: other.value } : {}) })
  }
  for (const f of right) {
    if (!leftKeys.has(f.key)) out.push({ key: f.key, group: f.group, label: f.label, b: f.value })
  }
  return out
}

/**
 * Facts that change from one run to the next on an unchanged machine: left out of a release's
 * environment change (the work directory's path holds the run id).
 */
export const VOLATILE_FACTS: readonly string[] = ['load', 'steal', 'workDir.free', 'workDir.path']

export interface TargetEnvironmentChange {
  /** The target's name (the same name in both runs). */
  target: string
  role: 'baseline' | 'variant' | 'peer'
  /** Missing: one of the runs has no environment for this target. */
  missing?: 'older' | 'newer'
  differences: FieldDifference[]
}

/**
 * What changed on each target between two runs of one preset (a new kernel, a new qemu, another
 * CPU count), by target name: `a` is the older run's fact, `b` the newer's. Volatile facts (load,
 * steal time, free space, the run's own work directory) are left out.
 */
export function environmentChanges(older: RunDocument, newer: RunDocument): TargetEnvironmentChange[] {
  const names = [...newer.targets, ...older.targets.filter((t) => !newer.targets.some((n) => n.name === t.name))]
  return names.map((t) => {
    const a = older.environment[t.name]
    const b = newer.environment[t.name]
    if (!a || !b) return { target: t.name, role: t.role, missing: !a ? ('older' as const) : ('newer' as const), differences: [] }
    return { target: t.name, role: t.role, differences: environmentDifferences(a, b).filter((d) => !VOLATILE_FACTS.includes(d.key)) }
  })
}
