import type { BlockDeviceInfo, NicInfo, TargetEnvironment } from '../../../../shared/model/environment'
import type { RunDocument } from '../../../../shared/model/run'
import type { DetectedDiskSetup, ScenarioMismatch } from '../../../../shared/model/scenario'
import { formatValue } from '../../../../shared/format'

/**
 * A target's environment as the run stored it (run.environment[<target name>]), read field by
 * field: the document comes from disk, so a field of the wrong type is left out rather than shown
 * wrong. A fact the target did not expose stays absent ("not reported"), never guessed.
 */

type Loose = Record<string, unknown>

const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined)
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined)

/** Drops the keys whose value is undefined, so optional fields stay absent. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
}

export function environmentOf(run: RunDocument, target: string): TargetEnvironment | undefined {
  const raw = run.environment[target]
  if (!isObject(raw)) return undefined
  const dmi = isObject(raw.dmi) ? defined({ vendor: str(raw.dmi.vendor), product: str(raw.dmi.product) }) : undefined
  const workDir =
    isObject(raw.workDir) && typeof raw.workDir.path === 'string'
      ? defined({
          path: raw.workDir.path,
          filesystem: str(raw.workDir.filesystem),
          device: str(raw.workDir.device),
          freeBytes: num(raw.workDir.freeBytes)
        })
      : undefined
  const load = Array.isArray(raw.loadAverage) && raw.loadAverage.length === 3 && raw.loadAverage.every((x) => num(x) !== undefined)
  const tools = isObject(raw.tools)
    ? Object.fromEntries(Object.entries(raw.tools).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined
  return defined({
    capturedAt: str(raw.capturedAt) ?? '',
    os: str(raw.os),
    kernel: str(raw.kernel),
    arch: str(raw.arch),
    hostname: str(raw.hostname),
    cpuModel: str(raw.cpuModel),
    cpuCount: num(raw.cpuCount),
    memoryBytes: num(raw.memoryBytes),
    virtualization: str(raw.virtualization),
    virtualizationSource: str(raw.virtualizationSource),
    dmi,
    blockDevices: Array.isArray(raw.blockDevices) ? raw.blockDevices.filter(isObject).flatMap(blockDeviceOf) : undefined,
    workDir,
    nics: Array.isArray(raw.nics) ? raw.nics.filter(isObject).flatMap(nicOf) : undefined,
    tools,
    clocksource: str(raw.clocksource),
    stealPct: num(raw.stealPct),
    loadAverage: load ? (raw.loadAverage as [number, number, number]) : undefined,
    guests: isObject(raw.guests) ? guestsOf(raw.guests) : undefined,
    notes: strings(raw.notes)
  })
}

function blockDeviceOf(d: Loose): BlockDeviceInfo[] {
  const name = str(d.name)
  if (name === undefined) return []
  return [
    defined({
      name,
      sizeBytes: num(d.sizeBytes),
      model: str(d.model),
      scheduler: str(d.scheduler),
      rotational: bool(d.rotational),
      writeCache: str(d.writeCache),
      mqQueues: num(d.mqQueues)
    })
  ]
}

function nicOf(n: Loose): NicInfo[] {
  const name = str(n.name)
  if (name === undefined) return []
  const channels = isObject(n.channels) ? defined({ current: num(n.channels.current), max: num(n.channels.max) }) : undefined
  return [
    defined({
      name,
      speedBitsPerSecond: num(n.speedBitsPerSecond),
      driver: str(n.driver),
      channels,
      addresses: strings(n.addresses)
    })
  ]
}

function guestsOf(raw: Loose): NonNullable<TargetEnvironment['guests']> {
  const out: NonNullable<TargetEnvironment['guests']> = {}
  for (const [name, value] of Object.entries(raw)) {
    if (!isObject(value)) continue
    const disks = Array.isArray(value.disks) ? value.disks.filter(isObject).flatMap(diskSetupOf) : []
    out[name] = defined({ domain: str(value.domain) ?? name, disks, error: str(value.error) })
  }
  return out
}

function diskSetupOf(d: Loose): DetectedDiskSetup[] {
  const device = str(d.device)
  if (device === undefined) return []
  return [
    defined({
      device,
      cache: str(d.cache) as DetectedDiskSetup['cache'],
      io: str(d.io),
      queues: num(d.queues),
      bus: str(d.bus),
      sourceType: str(d.sourceType),
      sourceProtocol: str(d.sourceProtocol),
      format: str(d.format),
      source: str(d.source)
    })
  ]
}

/** The declared-vs-detected differences the engine stored for a variant. */
export function scenarioMismatchesOf(run: RunDocument, target: string): ScenarioMismatch[] {
  const raw = run.environment[target]
  if (!isObject(raw) || !Array.isArray(raw.scenarioMismatches)) return []
  return raw.scenarioMismatches.filter(isObject).flatMap((m) => {
    const message = str(m.message)
    if (message === undefined) return []
    return [{ field: (str(m.field) ?? 'cache') as ScenarioMismatch['field'], declared: str(m.declared) ?? '', detected: str(m.detected) ?? '', message }]
  })
}

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
