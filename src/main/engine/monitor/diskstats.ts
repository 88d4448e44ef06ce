import type { DiskActivity } from '../../../shared/model/run'
import { excerpt } from '../../tools/common/result'

/**
 * The output of resources/scripts/linux/diskstats.sh (a timestamped series of /proc/diskstats
 * snapshots) read into numbers, and what the block layer did between the first and the last
 * snapshot. Pure: no clock, no files. docs/monitor.md describes the format and the formulas.
 *
 * Field meanings follow the kernel's Documentation/admin-guide/iostats.rst. A line of
 * /proc/diskstats is `major minor name` and then 11 counters (kernels before 4.18: 14 fields in
 * all), 15 (4.18 added 4 discard counters: 18 fields) or 17 (5.5 added 2 flush counters: 20).
 */

/** The counters of one /proc/diskstats line. All are totals since boot except `iosInProgress`. */
export interface DiskCounters {
  readsCompleted: number
  readsMerged: number
  /** In 512-byte units, whatever the device's own sector size. */
  sectorsRead: number
  msReading: number
  writesCompleted: number
  writesMerged: number
  sectorsWritten: number
  msWriting: number
  /** A gauge, not a total: requests in flight when the line was read. */
  iosInProgress: number
  /** Time the device had at least one request in flight (io_ticks). */
  msDoingIo: number
  /** Time spent by all requests, each counted while in flight (time_in_queue). */
  weightedMsDoingIo: number
  discardsCompleted?: number
  discardsMerged?: number
  sectorsDiscarded?: number
  msDiscarding?: number
  flushesCompleted?: number
  msFlushing?: number
}

export interface DiskLine extends DiskCounters {
  major: number
  minor: number
  device: string
}

export interface DiskSnapshot {
  /** First field of /proc/uptime when the snapshot was taken: seconds since boot. */
  uptimeSeconds: number
  devices: DiskLine[]
}

export interface DiskstatsHeader {
  version: number
  /** The interval asked for, in seconds. */
  intervalSeconds?: number
  /** The interval slept: 1 where the target's `sleep` takes whole seconds only. */
  sleepSeconds?: number
  maxSeconds?: number
}

export type DiskstatsParse =
  | {
      ok: true
      snapshots: DiskSnapshot[]
      header?: DiskstatsHeader
      /** 'signal' (stopped by the engine), 'max' (the safety stop); absent when the output ends without a stop line. */
      stopReason?: string
      warnings: string[]
    }
  | { ok: false; reason: string }

/**
 * Each sector counted in /proc/diskstats is 512 bytes, whatever the device's logical or physical
 * sector size (a 4Kn disk included): the kernel's Documentation/block/stat.rst says the sectors
 * "are the standard UNIX 512-byte sectors, not any device- or filesystem-specific block size"
 * (the block layer counts in units of 1 << SECTOR_SHIFT, 9).
 */
export const DISKSTATS_SECTOR_BYTES = 512

const COUNTER_NAMES = [
  'readsCompleted',
  'readsMerged',
  'sectorsRead',
  'msReading',
  'writesCompleted',
  'writesMerged',
  'sectorsWritten',
  'msWriting',
  'iosInProgress',
  'msDoingIo',
  'weightedMsDoingIo',
  'discardsCompleted',
  'discardsMerged',
  'sectorsDiscarded',
  'msDiscarding',
  'flushesCompleted',
  'msFlushing'
] as const satisfies readonly (keyof DiskCounters)[]

/** Counter counts of the formats the kernel has printed: 11 (< 4.18), 15 (4.18+), 17 (5.5+). */
const KNOWN_COUNTER_COUNTS = new Set([11, 15, 17])
/** Linux 2.6.x printed partitions with four counters only and no time; nothing to compute from. */
const OLD_PARTITION_COUNTERS = 4
const MAX_WARNINGS = 20

type LineResult = { ok: true; line: DiskLine; note?: string } | { ok: false; reason: string }

/** One /proc/diskstats line. */
export function parseDiskLine(text: string): LineResult {
  const tokens = text.trim().split(/\s+/)
  const [major, minor, device, ...counters] = tokens
  if (major === undefined || minor === undefined || device === undefined || !/^\d+$/.test(major) || !/^\d+$/.test(minor)) {
    return { ok: false, reason: `not a /proc/diskstats line (expected "major minor name counters..."): "${excerpt(text.trim())}"` }
  }
  if (counters.length === OLD_PARTITION_COUNTERS) {
    return { ok: false, reason: `${device}: the old 4-counter partition format has no time counters, left out: "${excerpt(text.trim())}"` }
  }
  if (counters.length < 11) {
    return { ok: false, reason: `${device}: ${counters.length} counters where at least 11 are needed: "${excerpt(text.trim())}"` }
  }
  const values: number[] = []
  for (const c of counters) {
    const value = Number(c)
    if (!/^\d+$/.test(c) || !Number.isSafeInteger(value)) {
      return { ok: false, reason: `${device}: counter "${excerpt(c, 0, 40)}" is not a whole number below 2^53: "${excerpt(text.trim())}"` }
    }
    values.push(value)
  }
  const line: DiskLine = { major: Number(major), minor: Number(minor), device } as DiskLine
  COUNTER_NAMES.forEach((name, i) => {
    const value = values[i]
    if (value !== undefined) line[name] = value
  })
  const note = KNOWN_COUNTER_COUNTS.has(counters.length)
    ? undefined
    : `${device}: ${counters.length + 3} fields per line, a format this version does not know; the first ${Math.min(counters.length, COUNTER_NAMES.length) + 3} are read`
  return note ? { ok: true, line, note } : { ok: true, line }
}

/** Reads diskstats.sh output as it arrives; `end()` gives the result. Pure state, no I/O. */
export interface DiskstatsReader {
  push(text: string): void
  /** Complete snapshots read so far. */
  snapshotCount(): number
  end(): DiskstatsParse
}

export function diskstatsReader(): DiskstatsReader {
  let partial = ''
  let firstLine: string | undefined
  let header: DiskstatsHeader | undefined
  let stopReason: string | undefined
  let open: { uptimeSeconds: number; devices: DiskLine[]; names: Set<string> } | 'skip' | undefined
  let cutShort = 0
  const snapshots: DiskSnapshot[] = []
  const warnings = new Set<string>()
  let warningsLeftOut = 0
  let result: DiskstatsParse | undefined

  const warn = (message: string): void => {
    if (warnings.has(message)) return
    if (warnings.size < MAX_WARNINGS) warnings.add(message)
    else warningsLeftOut++
  }

  const closeCutShort = (): void => {
    if (open !== undefined && open !== 'skip') cutShort++
    open = undefined
  }

  const onLine = (raw: string): void => {
    const text = raw.replace(/\r$/, '')
    if (text.trim() === '') return
    firstLine ??= text
    const [word, ...rest] = text.trim().split(/\s+/)
    if (word === undefined) return
    if (/^\d+$/.test(word)) {
      if (open === 'skip') return
      if (open === undefined) return warn(`a device line outside a snapshot block was left out: "${excerpt(text.trim())}"`)
      const parsed = parseDiskLine(text)
      if (!parsed.ok) return warn(parsed.reason)
      if (parsed.note) warn(parsed.note)
      if (open.names.has(parsed.line.device)) return warn(`${parsed.line.device} is listed twice in one snapshot; the first line is kept`)
      open.names.add(parsed.line.device)
      open.devices.push(parsed.line)
      return
    }
    switch (word) {
      case 'virtbench-diskstats':
        header = readHeader(rest, warn)
        return
      case 'snapshot': {
        closeCutShort()
        const uptime = rest[0]
        if (rest.length !== 1 || uptime === undefined || !/^\d+(\.\d+)?$/.test(uptime)) {
          warn(`a snapshot line without a readable uptime was left out with its block: "${excerpt(text.trim())}"`)
          open = 'skip'
          return
        }
        open = { uptimeSeconds: Number(uptime), devices: [], names: new Set() }
        return
      }
      case 'end': {
        if (open === undefined) return warn('an "end" line without its snapshot line was ignored')
        if (open !== 'skip') {
          const last = snapshots.at(-1)
          if (last && open.uptimeSeconds < last.uptimeSeconds) {
            warn(`a snapshot at uptime ${open.uptimeSeconds} s came after one at ${last.uptimeSeconds} s (the clock went back?) and was left out`)
          } else {
            snapshots.push({ uptimeSeconds: open.uptimeSeconds, devices: open.devices })
          }
        }
        open = undefined
        return
      }
      case 'stop':
        closeCutShort()
        stopReason = rest.join(' ')
        return
      default:
        warn(`an unexpected line was ignored: "${excerpt(text.trim())}"`)
    }
  }

  return {
    push(text: string): void {
      if (result) return
      const lines = (partial + text).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) onLine(line)
    },
    snapshotCount: () => snapshots.length,
    end(): DiskstatsParse {
      if (result) return result
      if (partial !== '') onLine(partial)
      partial = ''
      closeCutShort()
      if (cutShort > 0) {
        warn(`${cutShort} snapshot${cutShort === 1 ? ' was' : 's were'} cut short (no "end" line: the monitor was stopped while printing) and left out`)
      }
      if (warningsLeftOut > 0) warnings.add(`${warningsLeftOut} more warning${warningsLeftOut === 1 ? '' : 's'} left out`)
      if (snapshots.length === 0) {
        result = { ok: false, reason: noSnapshotReason(firstLine, header, cutShort) }
      } else {
        result = {
          ok: true,
          snapshots,
          ...(header ? { header } : {}),
          ...(stopReason !== undefined ? { stopReason } : {}),
          warnings: [...warnings]
        }
      }
      return result
    }
  }
}

/** The whole output of diskstats.sh at once. */
export function parseDiskstats(text: string): DiskstatsParse {
  const reader = diskstatsReader()
  reader.push(text)
  return reader.end()
}

function readHeader(fields: string[], warn: (message: string) => void): DiskstatsHeader {
  const [version, ...settings] = fields
  const header: DiskstatsHeader = { version: Number(version) }
  if (header.version !== 1) warn(`diskstats.sh output version "${version ?? ''}" is not the version 1 this reader knows; read as version 1`)
  for (const setting of settings) {
    const [key, value] = setting.split('=')
    const n = Number(value)
    if (value === undefined || value === '' || !Number.isFinite(n)) continue
    if (key === 'interval') header.intervalSeconds = n
    else if (key === 'sleep') header.sleepSeconds = n
    else if (key === 'max') header.maxSeconds = n
  }
  return header
}

function noSnapshotReason(firstLine: string | undefined, header: DiskstatsHeader | undefined, cutShort: number): string {
  if (firstLine === undefined) return 'the disk monitor printed nothing: no /proc/diskstats snapshot to read'
  if (cutShort > 0) return 'the disk monitor printed no complete snapshot (each was cut short): it was stopped before its first snapshot was out'
  if (header) return 'the disk monitor printed its header but no snapshot: it was stopped before the first one'
  return `this is not the output of diskstats.sh (no "snapshot" block); it starts with: "${excerpt(firstLine.trim())}"`
}

// ---- what happened between snapshots --------------------------------------------------------

const WRAP_32 = 2 ** 32

/**
 * The increase of a counter between two readings. The kernel prints the time counters as 32-bit
 * values (`(unsigned int)` milliseconds in block/genhd.c, old and current kernels alike), and a
 * 32-bit kernel every counter (`unsigned long`); they wrap to 0 after 2^32 - 1. A lower reading of
 * a counter that fits in 32 bits, less than 2^31 past the wrap, is taken as one wrap. Any other
 * decrease means the counters restarted (the device was removed and added again): the increase
 * is unknown and the result is undefined.
 */
export function counterDelta(previous: number, current: number): number | undefined {
  if (current >= previous) return current - previous
  if (previous < WRAP_32) {
    const wrapped = current + WRAP_32 - previous
    if (wrapped < 2 ** 31) return wrapped
  }
  return undefined
}

const DELTA_FIELDS = ['readsCompleted', 'writesCompleted', 'sectorsRead', 'sectorsWritten', 'msReading', 'msWriting', 'msDoingIo'] as const
type Totals = Record<(typeof DELTA_FIELDS)[number], number>

interface Accumulated {
  totals: Totals
  /** In microseconds, summed as whole numbers so that 0.01 s steps add up exactly. */
  micros: number
  intervals: number
  seen: boolean
  warnings: string[]
  /** Each counted interval: its end (seconds since the first snapshot of the device), length and deltas. */
  steps: { at: number; micros: number; deltas: Totals }[]
}

/** The counters of `device` summed over consecutive snapshot pairs, wraps undone. */
function accumulate(snapshots: readonly DiskSnapshot[], device: string): Accumulated {
  const totals = Object.fromEntries(DELTA_FIELDS.map((f) => [f, 0])) as Totals
  const acc: Accumulated = { totals, micros: 0, intervals: 0, seen: false, warnings: [], steps: [] }
  let previous: { line: DiskLine; uptime: number } | undefined
  let firstUptime: number | undefined
  let missing = 0
  let resets = 0
  for (const snapshot of snapshots) {
    const line = snapshot.devices.find((d) => d.device === device)
    if (!line) {
      if (acc.seen) missing++
      previous = undefined
      continue
    }
    acc.seen = true
    firstUptime ??= snapshot.uptimeSeconds
    if (previous) {
      const before = previous.line
      const deltas = DELTA_FIELDS.map((f) => counterDelta(before[f], line[f]))
      const micros = Math.round((snapshot.uptimeSeconds - previous.uptime) * 1e6)
      if (deltas.some((d) => d === undefined) || micros < 0) {
        resets++
      } else {
        DELTA_FIELDS.forEach((f, i) => (totals[f] += deltas[i] as number))
        acc.steps.push({ at: snapshot.uptimeSeconds - firstUptime, micros, deltas: Object.fromEntries(DELTA_FIELDS.map((f, i) => [f, deltas[i] as number])) as Totals })
        acc.micros += micros
        acc.intervals++
      }
    }
    previous = { line, uptime: snapshot.uptimeSeconds }
  }
  if (missing > 0) acc.warnings.push(`${device} was missing from ${missing} snapshot${missing === 1 ? '' : 's'}; the time around ${missing === 1 ? 'it is' : 'them is'} not counted`)
  if (resets > 0) {
    acc.warnings.push(`the counters of ${device} went back ${resets} time${resets === 1 ? '' : 's'} (the device was removed and added again?); ${resets === 1 ? 'that interval is' : 'those intervals are'} not counted`)
  }
  return acc
}

export type SummaryResult = { ok: true; activity: DiskActivity; warnings: string[] } | { ok: false; reason: string }

/**
 * What `device` did from the first to the last snapshot that lists it, as rates over that time.
 * busyPct is the time with a request in flight over the elapsed time (it may pass 100 % by the
 * timing jitter of the readings, as atop shows in study 004); awaitSeconds is the time requests
 * took (queue and service) per completed read or write; both left out when no request completed.
 */
export function summarize(snapshots: readonly DiskSnapshot[], device: string, target: string): SummaryResult {
  const acc = accumulate(snapshots, device)
  if (!acc.seen) {
    const names = [...new Set(snapshots.flatMap((s) => s.devices.map((d) => d.device)))]
    const listed = names.length > 0 ? `devices listed: ${names.slice(0, 20).join(', ')}${names.length > 20 ? ', …' : ''}` : 'no device is listed at all'
    return { ok: false, reason: `${device} is not in the /proc/diskstats snapshots of ${target} (${listed})` }
  }
  if (acc.intervals === 0 || acc.micros === 0) {
    return {
      ok: false,
      reason: `${target}: ${device} needs two snapshots some time apart to measure anything, and ${acc.intervals === 0 ? 'there was at most one in a row' : 'they were taken at the same moment'}`
    }
  }
  const { totals } = acc
  const seconds = acc.micros / 1e6
  const requests = totals.readsCompleted + totals.writesCompleted
  const activity: DiskActivity = {
    target,
    device,
    seconds,
    readIops: totals.readsCompleted / seconds,
    writeIops: totals.writesCompleted / seconds,
    readBytesPerSecond: (totals.sectorsRead * DISKSTATS_SECTOR_BYTES) / seconds,
    writeBytesPerSecond: (totals.sectorsWritten * DISKSTATS_SECTOR_BYTES) / seconds,
    busyPct: (totals.msDoingIo / 1000 / seconds) * 100,
    requests,
    series: seriesOf(acc.steps)
  }
  if (requests > 0) {
    activity.avgIoSizeBytes = ((totals.sectorsRead + totals.sectorsWritten) * DISKSTATS_SECTOR_BYTES) / requests
    activity.awaitSeconds = (totals.msReading + totals.msWriting) / 1000 / requests
  }
  return { ok: true, activity, warnings: acc.warnings }
}

/** At most this many points per device and job: longer jobs have their seconds merged evenly. */
export const SERIES_MAX_POINTS = 1200

/** The rates of each interval (or of runs of consecutive intervals, for long jobs), as the chart draws them. */
function seriesOf(steps: Accumulated['steps']): NonNullable<DiskActivity['series']> {
  const per = Math.max(1, Math.ceil(steps.length / SERIES_MAX_POINTS))
  const points: NonNullable<DiskActivity['series']> = []
  for (let i = 0; i < steps.length; i += per) {
    const chunk = steps.slice(i, i + per)
    const seconds = chunk.reduce((sum, c) => sum + c.micros, 0) / 1e6
    if (seconds <= 0) continue
    const sum = (f: keyof Totals): number => chunk.reduce((total, c) => total + c.deltas[f], 0)
    points.push({
      at: round3(chunk[chunk.length - 1]!.at),
      readIops: sum('readsCompleted') / seconds,
      writeIops: sum('writesCompleted') / seconds,
      readBytesPerSecond: (sum('sectorsRead') * DISKSTATS_SECTOR_BYTES) / seconds,
      writeBytesPerSecond: (sum('sectorsWritten') * DISKSTATS_SECTOR_BYTES) / seconds,
      busyPct: (sum('msDoingIo') / 1000 / seconds) * 100
    })
  }
  return points
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000
}

/** Names of memory-backed and file-backed devices, counted only when nothing else moved. */
const MEMORY_OR_LOOP = /^(loop\d+(p\d+)?|ram\d+|zram\d+)$/

/** The whole disk a partition name belongs to, by the kernel's naming: sda1 → sda, nvme0n1p2 → nvme0n1. */
export function wholeDiskOf(name: string): string | undefined {
  return /^(.+\d)p\d+$/.exec(name)?.[1] ?? /^(.*[a-z])\d+$/.exec(name)?.[1]
}

/**
 * Devices that completed requests (or were busy) between the first and the last snapshot, the
 * busiest first. A partition is left out when its whole disk is listed (the disk counts it too);
 * loop, ram and zram devices only when no other device was active.
 */
export function pickDevices(snapshots: readonly DiskSnapshot[]): string[] {
  const listed = new Set(snapshots.flatMap((s) => s.devices.map((d) => d.device)))
  const active: { device: string; requests: number }[] = []
  for (const device of listed) {
    const { totals } = accumulate(snapshots, device)
    const requests = totals.readsCompleted + totals.writesCompleted
    if (requests > 0 || totals.msDoingIo > 0) active.push({ device, requests })
  }
  const wholeDisks = active.filter(({ device }) => {
    const disk = wholeDiskOf(device)
    return disk === undefined || !listed.has(disk)
  })
  const real = wholeDisks.filter(({ device }) => !MEMORY_OR_LOOP.test(device))
  const chosen = real.length > 0 ? real : wholeDisks
  return chosen.sort((a, b) => b.requests - a.requests || a.device.localeCompare(b.device)).map((d) => d.device)
}

// the ratio and avio are read by the reports too, so they live in shared (study 004's atop table)
export { avioSeconds, logicalToPhysicalRatio, type RequestDirection } from '../../../shared/studies/disk-activity'
