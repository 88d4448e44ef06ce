/**
 * Reads what resources/scripts/linux/environment.sh printed into a TargetEnvironment. Pure and
 * forgiving: unknown lines are ignored, a value that is not what its key promises is left out
 * with a note quoting it, and nothing throws. Units become base units here (KiB and Mb/s to
 * bytes and bit/s).
 */
import type { BlockDeviceInfo, NicInfo, TargetEnvironment } from '../../../shared/model/environment'
import { TOOL_IDS } from '../../../shared/model/tool-ids'
import { parseDomainDisks } from './domain-xml'
import { decideVirtualization, type VirtFacts } from '../../../shared/virtualization'

/** The output format this parser reads (first line `virtbench-environment<TAB>1`). */
export const ENVIRONMENT_FORMAT = '1'

const WHOLE = /^[0-9]{1,18}$/
const DECIMAL = /^[0-9]{1,12}(?:\.[0-9]{1,6})?$/

type Guest = NonNullable<TargetEnvironment['guests']>[string]

/** Steal time in % of all CPU time since boot, from the cpu line of /proc/stat. */
export function stealPercent(statCpu: string): number | undefined {
  const fields = statCpu.trim().split(/\s+/)
  if (fields.length < 8 || !fields.every((f) => WHOLE.test(f))) return undefined
  // user nice system idle iowait irq softirq steal; guest time is already counted in user/nice
  const ticks = fields.slice(0, 8).map(Number)
  const total = ticks.reduce((a, b) => a + b, 0)
  return total > 0 ? ((ticks[7] ?? 0) / total) * 100 : undefined
}

/** The scheduler in brackets ("none [mq-deadline] kyber" gives "mq-deadline"), or the only one. */
export function activeScheduler(line: string): string | undefined {
  const chosen = /\[([^\]\s]+)\]/.exec(line)
  if (chosen) return chosen[1]
  const only = line.trim()
  return /^\S+$/.test(only) ? only : undefined
}

function quoted(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)
}

/** Parses environment.sh output; `capturedAt` is when it ran (ISO). Never throws. */
export function parseEnvironment(stdout: string, capturedAt: string): TargetEnvironment {
  const env: TargetEnvironment = { capturedAt }
  const notes: string[] = []
  const virt: VirtFacts = {}
  const devices = new Map<string, BlockDeviceInfo>()
  const nics = new Map<string, NicInfo>()
  // Maps, so that a hostile name such as __proto__ stays a plain key
  const tools = new Map<string, string>()
  const guests = new Map<string, Guest>()
  const workDir: { path?: string; filesystem?: string; device?: string; freeBytes?: number } = {}
  let sawHeader = false
  let sawEnd = false

  const bad = (key: string, value: string, want: string): void => {
    notes.push(`ignored ${key} ${quoted(value)}: not ${want}`)
  }
  const whole = (key: string, value: string): number | undefined => {
    if (WHOLE.test(value)) return Number(value)
    bad(key, value, 'a whole number')
    return undefined
  }
  const device = (name: string): BlockDeviceInfo => {
    let d = devices.get(name)
    if (!d) devices.set(name, (d = { name }))
    return d
  }
  const nic = (name: string): NicInfo => {
    let n = nics.get(name)
    if (!n) nics.set(name, (n = { name }))
    return n
  }

  const lines = stdout.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    const f = line.split('\t')
    const key = f[0] ?? ''
    const value = f.slice(1).join('\t')
    switch (key) {
      case 'virtbench-environment':
        sawHeader = true
        if (value !== ENVIRONMENT_FORMAT) notes.push(`the environment script speaks format ${quoted(value)}, this VirtBench reads ${ENVIRONMENT_FORMAT}: facts may be missing`)
        break
      case 'end':
        sawEnd = true
        break
      case 'os':
        env.os = value
        break
      case 'kernel':
        env.kernel = value
        break
      case 'arch':
        env.arch = value
        break
      case 'hostname':
        env.hostname = value
        break
      case 'machine_id':
        env.machineId = value
        break
      case 'boot_id':
        env.bootId = value
        break
      case 'cpu_model':
        env.cpuModel = value
        break
      case 'cpu_count': {
        const n = whole(key, value)
        if (n !== undefined && n > 0) env.cpuCount = n
        break
      }
      case 'mem_total_kib': {
        const n = whole(key, value)
        if (n !== undefined) env.memoryBytes = n * 1024
        break
      }
      case 'virt_systemd':
        virt.systemd = value
        break
      case 'container_systemd':
        virt.container = value
        break
      case 'virt_what':
        virt.virtWhat = value
        break
      case 'dmi_vendor':
        virt.dmiVendor = value
        env.dmi = { ...env.dmi, vendor: value }
        break
      case 'dmi_product':
        virt.dmiProduct = value
        env.dmi = { ...env.dmi, product: value }
        break
      case 'hypervisor_type':
        virt.hypervisorType = value
        break
      case 'cpu_hypervisor_flag':
        virt.hypervisorFlag = value
        break
      case 'clocksource':
        env.clocksource = value
        break
      case 'stat_cpu': {
        const steal = stealPercent(value)
        if (steal === undefined) bad(key, value, 'the 8 or more tick counts of /proc/stat')
        else env.stealPct = steal
        break
      }
      case 'loadavg': {
        const [a = '', b = '', c = ''] = value.split(' ')
        if (DECIMAL.test(a) && DECIMAL.test(b) && DECIMAL.test(c)) env.loadAverage = [Number(a), Number(b), Number(c)]
        else bad(key, value, 'three load averages')
        break
      }
      case 'note':
        if (value) notes.push(value)
        break
      case 'tool':
        if (f[1] && f[2] && (TOOL_IDS as readonly string[]).includes(f[1])) tools.set(f[1], f.slice(2).join(' '))
        break
      case 'workdir':
        if (f[1] === 'path' && f[2]) workDir.path = f[2]
        else if (f[1] === 'filesystem' && f[2]) workDir.filesystem = f[2]
        else if (f[1] === 'device' && f[2]) workDir.device = f[2]
        else if (f[1] === 'free_bytes' && f[2] !== undefined) {
          const n = whole('workdir free_bytes', f[2])
          if (n !== undefined) workDir.freeBytes = n
        }
        break
      case 'dev':
        if (f[1] && f[2] && f[3] !== undefined) readDevice(device(f[1]), f[2], f[3], bad)
        break
      case 'nic':
        if (f[1] && f[2] && f[3] !== undefined) readNic(nic(f[1]), f[2], f[3], bad)
        break
      case 'domain-error':
        if (f[1]) guests.set(f[1], { domain: f[1], disks: [], error: f.slice(2).join(' ') || 'virsh dumpxml failed' })
        break
      case 'domain-xml-begin': {
        const name = f[1]
        if (!name) break
        const end = `domain-xml-end\t${name}`
        const stop = lines.indexOf(end, i + 1)
        if (stop < 0) {
          guests.set(name, { domain: name, disks: [], error: `the XML of domain ${name} was cut off (no end marker): the capture output was truncated or interrupted` })
          i = lines.length
          break
        }
        const parsed = parseDomainDisks(lines.slice(i + 1, stop).join('\n'))
        guests.set(name, parsed.ok ? { domain: name, disks: parsed.disks } : { domain: name, disks: [], error: parsed.error })
        i = stop
        break
      }
      default:
        break
    }
  }

  if (stdout.trim() === '') notes.push('the environment script printed nothing')
  else if (!sawHeader) notes.push('this is not the output of environment.sh (its first line is missing): facts may be missing')
  else if (!sawEnd) notes.push('the environment script stopped before its end (interrupted, timed out or cut off): later facts are missing')

  const decided = decideVirtualization(virt, env.arch)
  if (decided.virtualization !== undefined) {
    env.virtualization = decided.virtualization
    env.virtualizationSource = decided.source
  }
  if (decided.container) env.notes = [...(env.notes ?? []), `runs inside a ${decided.container} container (systemd-detect-virt --container)`]
  if (devices.size > 0) env.blockDevices = [...devices.values()]
  if (workDir.path !== undefined) env.workDir = { ...workDir, path: workDir.path }
  if (nics.size > 0) env.nics = [...nics.values()]
  if (tools.size > 0) env.tools = Object.fromEntries(tools)
  if (guests.size > 0) env.guests = Object.fromEntries(guests)
  if (notes.length > 0) env.notes = [...notes, ...(env.notes ?? [])]
  return env
}

function readDevice(d: BlockDeviceInfo, key: string, value: string, bad: (key: string, value: string, want: string) => void): void {
  switch (key) {
    case 'size_bytes':
      if (WHOLE.test(value)) d.sizeBytes = Number(value)
      else bad(`${d.name} size_bytes`, value, 'a whole number')
      break
    case 'model':
      d.model = value
      break
    case 'scheduler': {
      const s = activeScheduler(value)
      if (s !== undefined) d.scheduler = s
      else bad(`${d.name} scheduler`, value, 'a scheduler list')
      break
    }
    case 'rotational':
      if (value === '0' || value === '1') d.rotational = value === '1'
      else bad(`${d.name} rotational`, value, '0 or 1')
      break
    case 'write_cache':
      d.writeCache = value
      break
    case 'mq_queues':
      if (WHOLE.test(value) && Number(value) > 0) d.mqQueues = Number(value)
      else bad(`${d.name} mq_queues`, value, 'a count of queues')
      break
    default:
      break
  }
}

function readNic(n: NicInfo, key: string, value: string, bad: (key: string, value: string, want: string) => void): void {
  switch (key) {
    case 'speed_mbps':
      // -1 (unknown) never reaches here: the script leaves it out
      if (WHOLE.test(value) && Number(value) > 0) n.speedBitsPerSecond = Number(value) * 1_000_000
      else bad(`${n.name} speed_mbps`, value, 'a link speed in Mb/s')
      break
    case 'driver':
      n.driver = value
      break
    case 'channels_current':
    case 'channels_max': {
      if (!WHOLE.test(value)) {
        bad(`${n.name} ${key}`, value, 'a channel count')
        break
      }
      const channels = n.channels ?? {}
      if (key === 'channels_current') channels.current = Number(value)
      else channels.max = Number(value)
      n.channels = channels
      break
    }
    case 'address':
      n.addresses = [...(n.addresses ?? []), value]
      break
    default:
      break
  }
}
