/**
 * cgroups that set a target's speed: a CPU quota, and block I/O throttles on one device.
 *
 * Works on cgroup v1 (this CI machine: `cpu` and `blkio` hierarchies under /sys/fs/cgroup/) and on
 * v2 (`cpu.max`, `io.max` in one unified hierarchy), chosen per controller from
 * /proc/self/mountinfo: a v1 hierarchy that has the controller wins, else a v2 hierarchy whose
 * cgroup.controllers lists it.
 *
 * Every cgroup made here also gets the highest CPU weight (v1 cpu.shares 262144, v2 cpu.weight
 * 10000), so that other processes on a loaded machine cannot take the CPU time the quota grants:
 * the quota, not the load, decides the speed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { sleep } from './command'
import { isLeftover } from './owner'

export type CgroupVersion = 1 | 2
/** The two controllers the harness uses, by their v2 names (v1 calls io "blkio"). */
export type TruthController = 'cpu' | 'io'

export interface CgroupHierarchy {
  version: CgroupVersion
  mountPoint: string
}

export type CgroupLayout = Record<TruthController, CgroupHierarchy>

/** v1 CFS bandwidth: the CPU time `percentOfOneCpu` % of one CPU gets in every period. */
export interface CpuLimit {
  percentOfOneCpu: number
  /**
   * The CFS period (default 20 ms). Short periods spread the quota evenly over a 3 s measurement
   * (a longer one lets the first and last period decide up to a period's quota); the kernel's own
   * 100 ms is noisier under load, see docs/known-truth.md.
   */
  periodMicros?: number
  /**
   * The CPUs the target's processes run on (a taskset list; default: the first CPU this process
   * may use). A quota limits time, not work: on a shared CPU the work done in that time depends
   * on what runs beside it (SMT siblings, steal, caches), so targets pinned to the same CPU and
   * measured at the same time see the same speed per CPU-second. Measured with sysbench: the
   * twin's ratio scattered over 98.8-101.0 % unpinned and 99.4-100.4 % pinned.
   */
  cpus?: string
}

/** blk-throttle limits on one block device; a missing field is not limited. */
export interface IoLimit {
  readBytesPerSecond?: number
  writeBytesPerSecond?: number
  readIops?: number
  writeIops?: number
}

export interface CgroupLimits {
  cpu?: CpuLimit
  /** `device` is the block device's `major:minor`, e.g. `7:3` for /dev/loop3. */
  io?: IoLimit & { device: string }
}

/** One value written into one file of the cgroup's directory. */
export interface CgroupWrite {
  controller: TruthController
  file: string
  value: string
}

export const DEFAULT_CPU_PERIOD_MICROS = 20_000
const V1_MAX_SHARES = 262_144
const V2_MAX_WEIGHT = 10_000
/** The kernel refuses a CFS quota below 1 ms. */
const MIN_QUOTA_MICROS = 1000

const IO_FIELDS = [
  { key: 'readBytesPerSecond', v1: 'blkio.throttle.read_bps_device', v2: 'rbps' },
  { key: 'writeBytesPerSecond', v1: 'blkio.throttle.write_bps_device', v2: 'wbps' },
  { key: 'readIops', v1: 'blkio.throttle.read_iops_device', v2: 'riops' },
  { key: 'writeIops', v1: 'blkio.throttle.write_iops_device', v2: 'wiops' }
] as const

function unescapeMountPath(p: string): string {
  return p.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)))
}

/** The cgroup hierarchies in a /proc/<pid>/mountinfo text: v1 ones with their controllers, v2 ones (controllers read separately). */
export function parseCgroupMounts(mountinfo: string): { version: CgroupVersion; mountPoint: string; controllers: string[] }[] {
  const mounts: { version: CgroupVersion; mountPoint: string; controllers: string[] }[] = []
  for (const line of mountinfo.split('\n')) {
    const [before, after] = line.split(' - ')
    if (before === undefined || after === undefined) continue
    const mountPoint = before.split(' ')[4]
    const [fsType, , superOptions = ''] = after.split(' ')
    if (mountPoint === undefined) continue
    if (fsType === 'cgroup') mounts.push({ version: 1, mountPoint: unescapeMountPath(mountPoint), controllers: superOptions.split(',') })
    else if (fsType === 'cgroup2') mounts.push({ version: 2, mountPoint: unescapeMountPath(mountPoint), controllers: [] })
  }
  return mounts
}

/**
 * Where the cpu and io controllers are: a v1 hierarchy that has the controller (`cpu`, `blkio`),
 * else a v2 one whose controllers (read by `v2Controllers`) list it.
 */
export function cgroupLayout(mountinfo: string, v2Controllers: (mountPoint: string) => string[]): CgroupLayout {
  const mounts = parseCgroupMounts(mountinfo)
  const find = (controller: TruthController): CgroupHierarchy => {
    const v1Name = controller === 'io' ? 'blkio' : controller
    const v1 = mounts.find((m) => m.version === 1 && m.controllers.includes(v1Name))
    if (v1) return { version: 1, mountPoint: v1.mountPoint }
    const v2 = mounts.find((m) => m.version === 2 && v2Controllers(m.mountPoint).includes(controller))
    if (v2) return { version: 2, mountPoint: v2.mountPoint }
    throw new Error(
      `known-truth harness: this machine has no cgroup hierarchy with the ${controller} controller ` +
        `(neither a v1 "${v1Name}" mount nor a v2 mount listing "${controller}" in cgroup.controllers); ` +
        'mount one (or boot with cgroups enabled) to run the known-truth tests'
    )
  }
  return { cpu: find('cpu'), io: find('io') }
}

function readV2Controllers(mountPoint: string): string[] {
  try {
    return readFileSync(path.join(mountPoint, 'cgroup.controllers'), 'utf8').trim().split(/\s+/)
  } catch {
    return []
  }
}

let layoutCache: CgroupLayout | undefined

/** This machine's layout, read once. */
export function machineCgroupLayout(): CgroupLayout {
  layoutCache ??= cgroupLayout(readFileSync('/proc/self/mountinfo', 'utf8'), readV2Controllers)
  return layoutCache
}

function positiveInteger(value: number, what: string): string {
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`known-truth harness: ${what} must be a positive whole number, not ${value}`)
  return String(value)
}

/** The CFS quota of a limit, in microseconds per period. */
export function quotaMicros(cpu: CpuLimit): number {
  const period = cpu.periodMicros ?? DEFAULT_CPU_PERIOD_MICROS
  const quota = Math.round((period * cpu.percentOfOneCpu) / 100)
  if (!(cpu.percentOfOneCpu > 0) || quota < MIN_QUOTA_MICROS) {
    throw new Error(
      `known-truth harness: ${cpu.percentOfOneCpu} % of one CPU is ${quota} µs per ${period} µs period; ` +
        `the kernel needs at least ${MIN_QUOTA_MICROS} µs: give a larger percentage or a longer periodMicros`
    )
  }
  return quota
}

/** What to write for the CPU: the highest weight, and the quota when there is one. */
export function cpuWrites(version: CgroupVersion, cpu: CpuLimit | undefined): CgroupWrite[] {
  const period = String(cpu?.periodMicros ?? DEFAULT_CPU_PERIOD_MICROS)
  const quota = cpu ? String(quotaMicros(cpu)) : undefined
  const write = (file: string, value: string): CgroupWrite => ({ controller: 'cpu', file, value })
  if (version === 2) return [write('cpu.weight', String(V2_MAX_WEIGHT)), write('cpu.max', `${quota ?? 'max'} ${period}`)]
  // v1 checks the quota against the period it has, so the period goes first
  return [write('cpu.shares', String(V1_MAX_SHARES)), write('cpu.cfs_period_us', period), write('cpu.cfs_quota_us', quota ?? '-1')]
}

/** What to write for block I/O on one device: one v1 throttle file per limit, or one v2 io.max line; nothing when no limit is given. */
export function ioWrites(version: CgroupVersion, io: IoLimit & { device: string }): CgroupWrite[] {
  if (!/^\d+:\d+$/.test(io.device)) throw new Error(`known-truth harness: a block device is given as major:minor, not "${io.device}"`)
  const given = IO_FIELDS.flatMap((f) => {
    const value = io[f.key]
    return value === undefined ? [] : [{ ...f, value: positiveInteger(value, f.key) }]
  })
  if (given.length === 0) return []
  if (version === 2) return [{ controller: 'io', file: 'io.max', value: `${io.device} ${given.map((f) => `${f.v2}=${f.value}`).join(' ')}` }]
  return given.map((f) => ({ controller: 'io' as const, file: f.v1, value: `${io.device} ${f.value}` }))
}

export interface IoBytes {
  read: number
  write: number
}

/**
 * Bytes a cgroup's bios moved on `device` by direction, from v1 `blkio.throttle.io_service_bytes`
 * (`7:0 Read 123` lines) or v2 `io.stat` (`7:0 rbytes=123 wbytes=456 …`). On v1 the kernel counts
 * every bio charged to the cgroup as it reaches the throttle, so this is the I/O the throttle sees.
 */
export function parseIoBytes(version: CgroupVersion, text: string, device: string): IoBytes {
  const bytes: IoBytes = { read: 0, write: 0 }
  for (const line of text.split('\n')) {
    const words = line.trim().split(/\s+/)
    if (words[0] !== device) continue
    if (version === 1) {
      if (words[1] === 'Read') bytes.read = Number(words[2])
      if (words[1] === 'Write') bytes.write = Number(words[2])
    } else {
      for (const word of words.slice(1)) {
        const [key, value] = word.split('=')
        if (key === 'rbytes') bytes.read = Number(value)
        if (key === 'wbytes') bytes.write = Number(value)
      }
    }
  }
  return bytes
}

export interface TruthCgroup {
  name: string
  /** The cgroup's directories: one per v1 hierarchy used, or the one v2 directory. */
  dirs: string[]
  /** The cgroup.procs files a process writes its PID into to join (every one of them). */
  procsFiles: string[]
  /** What was written, as the truth to report. */
  writes: CgroupWrite[]
  /** PIDs in the cgroup now. */
  processes(): number[]
  /** The bytes the cgroup's bios moved on `device` so far (see parseIoBytes); only for a cgroup with an io limit. */
  ioBytes(device: string): IoBytes
  /** Ends what still runs in the cgroup (it was all started inside the target) and removes the directories. Idempotent. */
  stop(): Promise<void>
}

function readPids(dirs: readonly string[]): number[] {
  const pids = new Set<number>()
  for (const dir of dirs) {
    try {
      for (const line of readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n')) if (line.trim() !== '') pids.add(Number(line))
    } catch {
      // directory already removed
    }
  }
  return [...pids]
}

function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal)
    } catch {
      // already gone
    }
  }
}

async function waitEmpty(dirs: readonly string[], ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (readPids(dirs).length > 0) {
    if (Date.now() > deadline) return false
    await sleep(25)
  }
  return true
}

/** Ends the processes in `dirs` (TERM, then KILL after 3 s) and removes the directories; throws naming what stayed. */
export async function removeCgroupDirs(dirs: readonly string[]): Promise<void> {
  const existing = dirs.filter((d) => existsSync(d))
  signalAll(readPids(existing), 'SIGTERM')
  if (!(await waitEmpty(existing, 3000))) {
    signalAll(readPids(existing), 'SIGKILL')
    await waitEmpty(existing, 3000)
  }
  for (const dir of existing) {
    const deadline = Date.now() + 3000
    for (;;) {
      try {
        await rmdir(dir)
        break
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code === 'ENOENT') break
        if (code !== 'EBUSY' || Date.now() > deadline) {
          throw new Error(`known-truth harness: cannot remove cgroup ${dir} (${code}); processes still in it: ${readPids([dir]).join(', ') || 'none'}`, { cause: err })
        }
        await sleep(25)
      }
    }
  }
}

async function enableV2Controller(mountPoint: string, controller: TruthController): Promise<void> {
  const file = path.join(mountPoint, 'cgroup.subtree_control')
  const enabled = (await readFile(file, 'utf8')).trim().split(/\s+/)
  if (!enabled.includes(controller)) await writeFile(file, `+${controller}`)
}

/** Makes cgroup `name` (see ownedName()) with `limits` in every hierarchy they need; the CPU weight is always set. */
export async function createCgroup(name: string, limits: CgroupLimits, layout: CgroupLayout = machineCgroupLayout()): Promise<TruthCgroup> {
  const writes = [...cpuWrites(layout.cpu.version, limits.cpu), ...(limits.io ? ioWrites(layout.io.version, limits.io) : [])]
  const controllers: TruthController[] = limits.io ? ['cpu', 'io'] : ['cpu']
  const dirOf = (controller: TruthController): string => path.join(layout[controller].mountPoint, name)
  const dirs = [...new Set(controllers.map(dirOf))]
  const made: string[] = []
  try {
    for (const controller of controllers) {
      if (layout[controller].version === 2) await enableV2Controller(layout[controller].mountPoint, controller)
    }
    for (const dir of dirs) {
      await mkdir(dir)
      made.push(dir)
    }
    for (const w of writes) {
      const file = path.join(dirOf(w.controller), w.file)
      await writeFile(file, w.value).catch((err: unknown) => {
        throw new Error(`known-truth harness: writing "${w.value}" to ${file} failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err })
      })
    }
  } catch (err) {
    await removeCgroupDirs(made)
    throw err
  }
  let stopping: Promise<void> | undefined
  return {
    name,
    dirs,
    procsFiles: dirs.map((d) => path.join(d, 'cgroup.procs')),
    writes,
    processes: () => readPids(dirs),
    ioBytes: (device) => {
      const { version } = layout.io
      const file = path.join(dirOf('io'), version === 1 ? 'blkio.throttle.io_service_bytes' : 'io.stat')
      return parseIoBytes(version, readFileSync(file, 'utf8'), device)
    },
    stop: () => (stopping ??= removeCgroupDirs(dirs))
  }
}

/** Cgroup directories of the harness whose owner process has ended. */
export function leftoverCgroupDirs(layout: CgroupLayout = machineCgroupLayout()): string[] {
  const roots = [...new Set([layout.cpu.mountPoint, layout.io.mountPoint])]
  return roots.flatMap((root) => {
    try {
      return readdirSync(root, { withFileTypes: true })
        .filter((e) => e.isDirectory() && isLeftover(e.name))
        .map((e) => path.join(root, e.name))
    } catch {
      return []
    }
  })
}
