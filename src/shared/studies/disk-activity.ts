import { formatValue } from '../format'
import type { DiskActivity, Job, RunDocument, RunTarget } from '../model/run'

/**
 * Study 004's atop table, from the host monitor (docs/monitor.md): for each storage job measured
 * on a guest, what the guest's block layer did (its LVM volume and disk lines) and what its
 * physical host's disks did over the same job, and how many requests the guest sent for each one
 * the host's disk received: the study's "24:1" on Hyper-V and "127:1" on VMware. Nothing is
 * computed here that the monitor did not measure, except the ratio, atop's avio and the request
 * counts (rate x seconds of the monitor's own window).
 */

export type RequestDirection = 'all' | 'read' | 'write'

function requestsOf(activity: DiskActivity, direction: RequestDirection): number {
  if (direction === 'all') return activity.requests
  const perSecond = direction === 'read' ? activity.readIops : activity.writeIops
  return Math.round(perSecond * activity.seconds)
}

/**
 * Logical to physical requests: how many requests the guest (or an upper layer such as LVM) sent
 * for each request the host's disk saw over the same test, as study 004 divides LVM writes by disk
 * writes (1179003 / 47864, "24:1"). Above 1: requests were merged or cached below the guest;
 * below 1: they were split. Totals over each monitor's window, so both monitors should cover the
 * same test. Undefined when the host saw no request (nothing to divide by).
 */
export function logicalToPhysicalRatio(guest: DiskActivity, host: DiskActivity, direction: RequestDirection = 'all'): number | undefined {
  const physical = requestsOf(host, direction)
  if (physical <= 0) return undefined
  return requestsOf(guest, direction) / physical
}

/**
 * atop's "avio": the device's busy time per completed request (service time, without queueing),
 * in seconds. Undefined when no request completed.
 */
export function avioSeconds(activity: DiskActivity): number | undefined {
  if (activity.requests <= 0) return undefined
  return ((activity.busyPct / 100) * activity.seconds) / activity.requests
}

/** atop's line kinds: a device-mapper (LVM) volume, an md array, a disk. */
export type AtopLayer = 'LVM' | 'MDD' | 'DSK'

export function layerOf(device: string): AtopLayer {
  if (/^dm-\d+$/.test(device)) return 'LVM'
  if (/^md\d+/.test(device)) return 'MDD'
  return 'DSK'
}

/** One atop line: one device on one machine over the job's monitored window. */
export interface AtopLine {
  /** The guest itself, or its physical host. */
  view: 'guest' | 'host'
  /** The machine's label in the run. */
  machine: string
  layer: AtopLayer
  device: string
  /** The monitor's window on this machine, in seconds. */
  seconds: number
  busyPct: number
  readIops: number
  writeIops: number
  readBytesPerSecond: number
  writeBytesPerSecond: number
  /** Completed reads and writes over the window. */
  requests: number
  /** Busy time per request, in seconds; absent without requests. */
  avioSeconds?: number
  /** Bytes per request; absent without requests. */
  avgIoSizeBytes?: number
}

/** The guest's requests per request of the host's disk, in the job's main direction. */
export interface LogicalToPhysical {
  direction: 'read' | 'write'
  ratio: number
  guestDevice: string
  hostDevice: string
  /** Requests in that direction over each monitor's window (rate x seconds). */
  guestRequests: number
  hostRequests: number
}

/** One job of a guest: its atop lines, then its host's, and the ratio or why there is none. */
export interface DiskActivityBlock {
  jobId: string
  testId: string
  testTitle: string
  /** The label of the guest the job ran on (a variant, or a baseline that is itself a guest), as tables name it. */
  variant: string
  repetition: number
  /** The guest's lines (upper layers first), then the host's. */
  lines: AtopLine[]
  ratio?: LogicalToPhysical
  /** Why no ratio is given, in a sentence. */
  noRatio?: string
}

function lineOf(activity: DiskActivity, view: AtopLine['view'], machine: string): AtopLine {
  const avio = avioSeconds(activity)
  return {
    view,
    machine,
    layer: layerOf(activity.device),
    device: activity.device,
    seconds: activity.seconds,
    busyPct: activity.busyPct,
    readIops: activity.readIops,
    writeIops: activity.writeIops,
    readBytesPerSecond: activity.readBytesPerSecond,
    writeBytesPerSecond: activity.writeBytesPerSecond,
    requests: activity.requests,
    ...(avio !== undefined ? { avioSeconds: avio } : {}),
    ...(activity.avgIoSizeBytes !== undefined ? { avgIoSizeBytes: activity.avgIoSizeBytes } : {})
  }
}

const LAYER_ORDER: readonly AtopLayer[] = ['LVM', 'MDD', 'DSK']

/** As atop lists them: volumes above arrays above disks; within a layer, the monitor's order (busiest first). */
function atopOrder(activities: readonly DiskActivity[]): DiskActivity[] {
  return activities
    .map((a, i) => ({ a, i }))
    .sort((x, y) => LAYER_ORDER.indexOf(layerOf(x.a.device)) - LAYER_ORDER.indexOf(layerOf(y.a.device)) || x.i - y.i)
    .map(({ a }) => a)
}

const mostIn = (activities: readonly DiskActivity[], direction: 'read' | 'write'): DiskActivity | undefined =>
  activities.reduce<DiskActivity | undefined>((best, a) => (best === undefined || requestsOf(a, direction) > requestsOf(best, direction) ? a : best), undefined)

/**
 * The ratio of a guest's job: the guest's top layer (its LVM volume when it has one, as the study
 * reads the LVM line, else its disk) that moved the most requests in the job's main direction
 * (the one the guest moved more bytes in), against the host's disk (not a volume: the physical
 * layer) that moved the most in that direction.
 */
function ratioOf(guest: readonly DiskActivity[], host: readonly DiskActivity[]): LogicalToPhysical | string {
  const read = guest.reduce((sum, a) => sum + a.readBytesPerSecond * a.seconds, 0)
  const write = guest.reduce((sum, a) => sum + a.writeBytesPerSecond * a.seconds, 0)
  const direction = write >= read ? 'write' : 'read'
  const logical = guest.filter((a) => layerOf(a.device) !== 'DSK')
  const guestDevice = mostIn(logical.length > 0 ? logical : guest, direction)
  const disks = host.filter((a) => layerOf(a.device) === 'DSK')
  const hostDevice = mostIn(disks.length > 0 ? disks : host, direction)
  if (!guestDevice || !hostDevice) return 'no device of the guest or its host was active'
  const ratio = logicalToPhysicalRatio(guestDevice, hostDevice, direction)
  if (ratio === undefined) return `the host's ${hostDevice.device} completed no ${direction} during the job, so there is nothing to divide by`
  return {
    direction,
    ratio,
    guestDevice: guestDevice.device,
    hostDevice: hostDevice.device,
    guestRequests: requestsOf(guestDevice, direction),
    hostRequests: requestsOf(hostDevice, direction)
  }
}

/** The warning a job kept when its physical host's monitor failed (`host monitor on HOST: why`). */
function hostMonitorWarning(job: Job): string | undefined {
  const prefix = 'host monitor on '
  const guest = `${prefix}${job.target}:`.toLowerCase()
  return job.warnings.find((w) => w.startsWith(prefix) && !w.toLowerCase().startsWith(guest))
}

/**
 * Every measured job of a guest with host-monitor data, in run order: the variants' jobs, and the
 * baseline's when the baseline is itself a guest whose host the run monitored (study 004 measured
 * a guest on Hyper-V against a guest on VMware, each with its host's atop). The other baseline
 * jobs (a physical baseline sees no host of its own) and warm-up jobs are left out: the study
 * compares a guest's view with its host's.
 */
export function diskActivityBlocks(run: RunDocument): DiskActivityBlock[] {
  const labelOf = (name: string): string => run.targets.find((t) => t.name.toLowerCase() === name.toLowerCase())?.label ?? name
  const namesOf = (role: RunTarget['role']): Set<string> => new Set(run.targets.filter((t) => t.role === role).map((t) => t.name.toLowerCase()))
  const variants = namesOf('variant')
  const baseline = namesOf('baseline')
  return run.jobs.flatMap((job): DiskActivityBlock[] => {
    if (job.kind === 'warmup' || !job.monitor?.length) return []
    const own = (a: DiskActivity): boolean => a.target.toLowerCase() === job.target.toLowerCase()
    const withHost = job.monitor.some((a) => !own(a)) || hostMonitorWarning(job) !== undefined
    const target = job.target.toLowerCase()
    if (!variants.has(target) && !(baseline.has(target) && withHost)) return []
    const guest = atopOrder(job.monitor.filter(own))
    const host = atopOrder(job.monitor.filter((a) => !own(a)))
    if (guest.length === 0) return []
    const lines = [...guest.map((a) => lineOf(a, 'guest', job.side)), ...host.map((a) => lineOf(a, 'host', labelOf(a.target)))]
    const base = { jobId: job.id, testId: job.testId, testTitle: job.title, variant: job.side, repetition: job.repetition, lines }
    if (host.length === 0) {
      const failed = hostMonitorWarning(job)
      return [{ ...base, noRatio: failed ? `Its physical host was not monitored (${failed}), so no logical-to-physical ratio can be given.` : NOT_MONITORED }]
    }
    const ratio = ratioOf(guest, host)
    return [typeof ratio === 'string' ? { ...base, noRatio: `No logical-to-physical ratio: ${ratio}.` } : { ...base, ratio }]
  })
}

/**
 * The blocks a report shows: every guest job's, when at least one guest was monitored with its
 * host (so the table compares something), or when the run is study 004's pack (seq-dd), whose
 * reader expects the ratio and is told for each job why there is none. Otherwise none: a guest
 * seen alone is already in the host monitor's charts and table.
 */
export function studyDiskActivity(run: RunDocument): DiskActivityBlock[] {
  const blocks = diskActivityBlocks(run)
  const study004 = run.plan.tests.some((t) => 'pack' in t && t.pack === 'seq-dd')
  return study004 || blocks.some((b) => b.lines.some((l) => l.view === 'host')) ? blocks : []
}

export const NOT_MONITORED =
  "Its physical host was not monitored: the guest's target does not name the host it runs on (virtbench targets add --runs-on HOST, with HOST a saved target), so no logical-to-physical ratio can be given."

/** The columns of an atop line, in the terminal, the app and the PDF. */
export const ATOP_HEADER = ['', 'machine', 'device', 'busy', 'reads/s', 'writes/s', 'read', 'written', 'avio', 'avg I/O size'] as const

/** One atop line as the texts of ATOP_HEADER's columns; an absent figure is a dash. */
export function atopCells(line: AtopLine): string[] {
  return [
    line.layer,
    line.machine,
    line.device,
    formatValue(line.busyPct, '%'),
    formatValue(line.readIops, 'op/s'),
    formatValue(line.writeIops, 'op/s'),
    formatValue(line.readBytesPerSecond, 'B/s'),
    formatValue(line.writeBytesPerSecond, 'B/s'),
    avioText(line),
    line.avgIoSizeBytes !== undefined ? formatValue(line.avgIoSizeBytes, 'B') : '–'
  ]
}

/**
 * The kernel counts busy time in whole milliseconds: requests that kept the device busy for less
 * than one in all read 0 ms, so their avio is "under 1 ms / requests", not 0 s.
 */
function avioText(line: AtopLine): string {
  if (line.avioSeconds === undefined) return '–'
  return line.avioSeconds === 0 ? `< ${formatValue(0.001 / line.requests, 's')}` : formatValue(line.avioSeconds, 's')
}

/**
 * "24.6:1", "127.6:1" (study 004 writes 24:1 and 127:1, cutting the decimals off), "1:4.0" when
 * requests were split. One decimal, so a ratio is never rounded across the study's figure.
 */
export function ratioText(ratio: number): string {
  return ratio >= 1 ? `${ratio.toFixed(1)}:1` : `1:${(1 / ratio).toFixed(1)}`
}

/** The ratio in a sentence: "logical to physical writes 24:1 (guest dm-0: 1179003 writes, host sdb: 47864)". */
export function ratioSentence(r: LogicalToPhysical): string {
  const what = r.direction === 'write' ? 'writes' : 'reads'
  return `Logical to physical ${what}: ${ratioText(r.ratio)} (the guest's ${r.guestDevice}: ${r.guestRequests} ${what}; the host's ${r.hostDevice}: ${r.hostRequests} ${what})`
}

/** "Write 64 MiB with dd bs=8k · guest, repetition 2 · monitored 0.62 s on the guest, 0.69 s on the host". */
export function blockTitle(block: DiskActivityBlock): string {
  const windows = block.lines
    .filter((l, i, all) => all.findIndex((m) => m.view === l.view) === i)
    .map((l) => `${formatValue(l.seconds, 's')} on the ${l.view}`)
    .join(', ')
  return `${block.testTitle} · ${block.variant}, repetition ${block.repetition} · monitored ${windows}`
}
