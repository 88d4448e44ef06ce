import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { DiskActivity } from '../../../../../src/shared/model/run'
import {
  avioSeconds,
  counterDelta,
  diskstatsReader,
  logicalToPhysicalRatio,
  parseDiskLine,
  parseDiskstats,
  pickDevices,
  SERIES_MAX_POINTS,
  summarize,
  wholeDiskOf,
  type DiskSnapshot
} from '../../../../../src/main/engine/monitor/diskstats'

const FIXTURES = path.resolve(__dirname, '../../../../fixtures/monitor')
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8')

function snapshotsOf(text: string): DiskSnapshot[] {
  const parsed = parseDiskstats(text)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.snapshots
}

/** The summary without its per-second series (tested on its own below). */
function activityOf(snapshots: DiskSnapshot[], device: string, target = 'host'): DiskActivity {
  const summary = summarize(snapshots, device, target)
  if (!summary.ok) throw new Error(summary.reason)
  const { series: _series, ...activity } = summary.activity
  return activity
}

/** A diskstats.sh output from [uptime, lines] pairs. */
function output(...snapshots: [string, string[]][]): string {
  return ['virtbench-diskstats 1 interval=1 sleep=1 max=60', ...snapshots.flatMap(([up, lines]) => [`snapshot ${up}`, ...lines, 'end']), 'stop signal', ''].join('\n')
}

describe('parseDiskstats on real output (tests/fixtures/monitor)', () => {
  it('reads the header, every snapshot with its uptime, and the stop reason', () => {
    const parsed = parseDiskstats(fixture('dd-write-32m.out'))
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    expect(parsed.header).toEqual({ version: 1, intervalSeconds: 1, sleepSeconds: 1, maxSeconds: 30 })
    expect(parsed.stopReason).toBe('signal')
    expect(parsed.warnings).toEqual([])
    expect(parsed.snapshots.map((s) => s.uptimeSeconds)).toEqual([4267.99, 4268.99, 4269.52])
    expect(parsed.snapshots[0]?.devices.map((d) => d.device)).toEqual(['loop0', 'loop1', 'loop2', 'loop3', 'loop4', 'loop5', 'loop6', 'loop7', 'vda', 'zram0'])
    // " 254       0 vda 1833610 93119 50975082 843922 923578 293933 55023374 185022 0 111112 1047425 198593 150 18828264 13854 104968 4626"
    expect(parsed.snapshots[0]?.devices.find((d) => d.device === 'vda')).toEqual({
      major: 254,
      minor: 0,
      device: 'vda',
      readsCompleted: 1833610,
      readsMerged: 93119,
      sectorsRead: 50975082,
      msReading: 843922,
      writesCompleted: 923578,
      writesMerged: 293933,
      sectorsWritten: 55023374,
      msWriting: 185022,
      iosInProgress: 0,
      msDoingIo: 111112,
      weightedMsDoingIo: 1047425,
      discardsCompleted: 198593,
      discardsMerged: 150,
      sectorsDiscarded: 18828264,
      msDiscarding: 13854,
      flushesCompleted: 104968,
      msFlushing: 4626
    })
  })

  it("summarizes the dd write: vda's counters from 4267.99 s to 4269.52 s, worked out by hand", () => {
    const a = activityOf(snapshotsOf(fixture('dd-write-32m.out')), 'vda')
    // deltas, first to last snapshot (the middle one equals the last: the test had ended):
    // reads 1833776-1833610 = 166, writes 923618-923578 = 40, sectors read 50990218-50975082 = 15136,
    // sectors written 55089350-55023374 = 65976, ms reading 844035-843922 = 113,
    // ms writing 185040-185022 = 18, ms doing I/O 111144-111112 = 32; 1.53 s
    expect(a.target).toBe('host')
    expect(a.device).toBe('vda')
    expect(a.seconds).toBe(1.53)
    expect(a.requests).toBe(206)
    expect(a.readIops).toBeCloseTo(166 / 1.53, 9)
    expect(a.writeIops).toBeCloseTo(40 / 1.53, 9)
    expect(a.readBytesPerSecond).toBeCloseTo((15136 * 512) / 1.53, 6)
    expect(a.writeBytesPerSecond).toBeCloseTo(33_779_712 / 1.53, 6)
    // at least dd's 32 MiB went through the disk in this window
    expect(a.writeBytesPerSecond * a.seconds).toBeGreaterThanOrEqual(32 * 2 ** 20)
    expect(a.busyPct).toBeCloseTo((32 / 1530) * 100, 9)
    expect(a.avgIoSizeBytes).toBeCloseTo(((15136 + 65976) * 512) / 206, 6)
    expect(a.awaitSeconds).toBeCloseTo(131 / 1000 / 206, 12)
  })

  it('summarizes the dd read: 64 reads of exactly 512 KiB, 32 MiB in all', () => {
    const a = activityOf(snapshotsOf(fixture('dd-read-32m.out')), 'vda')
    // reads 1833840-1833776 = 64, sectors 51055754-50990218 = 65536, ms reading 844092-844035 = 57,
    // no write, ms doing I/O 111176-111144 = 32; 4271.05 - 4269.52 = 1.53 s
    expect(a).toEqual({
      target: 'host',
      device: 'vda',
      seconds: 1.53,
      readIops: 64 / 1.53,
      writeIops: 0,
      readBytesPerSecond: (65536 * 512) / 1.53,
      writeBytesPerSecond: 0,
      busyPct: (32 / 1000 / 1.53) * 100,
      requests: 64,
      avgIoSizeBytes: 524288,
      awaitSeconds: 57 / 1000 / 64
    })
  })

  it('gives the same figures from the 14- and 18-field formats of older kernels', () => {
    const full = activityOf(snapshotsOf(fixture('dd-write-32m.out')), 'vda')
    for (const name of ['dd-write-32m.fields14.out', 'dd-write-32m.fields18.out']) {
      const parsed = parseDiskstats(fixture(name))
      expect(parsed.ok && parsed.warnings).toEqual([])
      expect(activityOf(snapshotsOf(fixture(name)), 'vda')).toEqual(full)
    }
    const vda14 = snapshotsOf(fixture('dd-write-32m.fields14.out'))[0]?.devices.find((d) => d.device === 'vda')
    expect(vda14?.weightedMsDoingIo).toBe(1047425)
    expect(vda14 && 'discardsCompleted' in vda14).toBe(false)
    const vda18 = snapshotsOf(fixture('dd-write-32m.fields18.out'))[0]?.devices.find((d) => d.device === 'vda')
    expect(vda18?.msDiscarding).toBe(13854)
    expect(vda18 && 'flushesCompleted' in vda18).toBe(false)
  })

  it('picks the disk that moved, not the idle loop and zram devices', () => {
    expect(pickDevices(snapshotsOf(fixture('dd-write-32m.out')))).toEqual(['vda'])
    expect(pickDevices(snapshotsOf(fixture('dd-read-32m.out')))).toEqual(['vda'])
  })

  it('reads output that arrives in pieces exactly as in one piece', () => {
    const text = fixture('dd-write-32m.out')
    const reader = diskstatsReader()
    for (let i = 0; i < text.length; i += 7) reader.push(text.slice(i, i + 7))
    expect(reader.snapshotCount()).toBe(3)
    expect(reader.end()).toEqual(parseDiskstats(text))
  })
})

describe('parseDiskLine', () => {
  it('reads 14, 18 and 20 fields, and names with a slash (cciss/c0d1)', () => {
    const line14 = parseDiskLine(' 104 16 cciss/c0d1 1 2 3 4 5 6 7 8 9 10 11')
    expect(line14).toEqual({
      ok: true,
      line: {
        major: 104,
        minor: 16,
        device: 'cciss/c0d1',
        readsCompleted: 1,
        readsMerged: 2,
        sectorsRead: 3,
        msReading: 4,
        writesCompleted: 5,
        writesMerged: 6,
        sectorsWritten: 7,
        msWriting: 8,
        iosInProgress: 9,
        msDoingIo: 10,
        weightedMsDoingIo: 11
      }
    })
    const line18 = parseDiskLine('8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15')
    expect(line18.ok && [line18.line.discardsCompleted, line18.line.msDiscarding, line18.line.flushesCompleted]).toEqual([12, 15, undefined])
    const line20 = parseDiskLine('8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17')
    expect(line20.ok && [line20.line.flushesCompleted, line20.line.msFlushing]).toEqual([16, 17])
    expect(line20.ok && 'note' in line20).toBe(false)
  })

  it('reads a longer line from a future kernel and says it did', () => {
    const line = parseDiskLine('8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19')
    expect(line).toMatchObject({ ok: true, note: 'sda: 22 fields per line, a format this version does not know; the first 20 are read' })
  })

  it('refuses what it cannot read, quoting it', () => {
    expect(parseDiskLine('8 1 sda1 40 336 2 16')).toEqual({
      ok: false,
      reason: 'sda1: the old 4-counter partition format has no time counters, left out: "8 1 sda1 40 336 2 16"'
    })
    expect(parseDiskLine('8 0 sda 1 2 3')).toMatchObject({ ok: false, reason: expect.stringContaining('sda: 3 counters where at least 11 are needed') })
    expect(parseDiskLine('8 0 sda 1 2 3 4 -5 6 7 8 9 10 11')).toMatchObject({ ok: false, reason: expect.stringContaining('counter "-5" is not a whole number') })
    expect(parseDiskLine('8 0 sda 1 2 3 4 5 6 7 8 9 10 99999999999999999999')).toMatchObject({ ok: false, reason: expect.stringContaining('below 2^53') })
    expect(parseDiskLine('sda 1 2 3')).toMatchObject({ ok: false, reason: expect.stringContaining('not a /proc/diskstats line') })
  })
})

describe('parseDiskstats on damaged output', () => {
  const vda = (n: number): string => ` 254 0 vda ${n} 0 ${n * 8} ${n} 0 0 0 0 0 ${n} ${n}`

  it('drops a snapshot cut short and keeps the complete ones', () => {
    const text = output(['10.00', [vda(1)]], ['11.00', [vda(2)]]) + 'snapshot 12.00\n' + vda(3) + '\n'
    const parsed = parseDiskstats(text)
    expect(parsed).toMatchObject({ ok: true, stopReason: 'signal' })
    expect(parsed.ok && parsed.snapshots.map((s) => s.uptimeSeconds)).toEqual([10, 11])
    expect(parsed.ok && parsed.warnings).toEqual(['1 snapshot was cut short (no "end" line: the monitor was stopped while printing) and left out'])
    // a block cut short by the next snapshot line (the script was killed mid-print, then printed its last snapshot)
    const killed = 'snapshot 5.00\n 254 0 vda 1 0 8\nsnapshot 6.00\n' + vda(1) + '\nend\nstop signal\n'
    expect(parseDiskstats(killed)).toMatchObject({ ok: true, snapshots: [{ uptimeSeconds: 6 }] })
  })

  it('leaves out bad lines and snapshots whose clock went back, with a warning for each', () => {
    const text = output(['10.00', [vda(1), 'garbage here', ' 254 0 vda 9 9']], ['9.00', [vda(2)]], ['11.00', [vda(2), vda(5)]])
    const parsed = parseDiskstats(text)
    expect(parsed.ok && parsed.snapshots.map((s) => [s.uptimeSeconds, s.devices.map((d) => d.readsCompleted)])).toEqual([
      [10, [1]],
      [11, [2]]
    ])
    expect(parsed.ok && parsed.warnings).toEqual([
      'an unexpected line was ignored: "garbage here"',
      'vda: 2 counters where at least 11 are needed: "254 0 vda 9 9"',
      'a snapshot at uptime 9 s came after one at 10 s (the clock went back?) and was left out',
      'vda is listed twice in one snapshot; the first line is kept'
    ])
  })

  it('fails with a reason, never a number, when there is no complete snapshot', () => {
    expect(parseDiskstats('')).toEqual({ ok: false, reason: 'the disk monitor printed nothing: no /proc/diskstats snapshot to read' })
    expect(parseDiskstats('virtbench-diskstats 1 interval=1 sleep=1 max=5\nstop signal\n')).toEqual({
      ok: false,
      reason: 'the disk monitor printed its header but no snapshot: it was stopped before the first one'
    })
    expect(parseDiskstats('snapshot 1.00\n 8 0 sda 1 2')).toMatchObject({ ok: false, reason: expect.stringContaining('each was cut short') })
    expect(parseDiskstats('fio-3.33\nrandwrite: (g=0): rw=randwrite\n')).toEqual({
      ok: false,
      reason: 'this is not the output of diskstats.sh (no "snapshot" block); it starts with: "fio-3.33"'
    })
  })

  it('says when the output is a version it does not know', () => {
    const parsed = parseDiskstats(output(['1.00', [vda(1)]]).replace('diskstats 1', 'diskstats 7'))
    expect(parsed.ok && parsed.warnings).toEqual(['diskstats.sh output version "7" is not the version 1 this reader knows; read as version 1'])
  })
})

describe('counterDelta', () => {
  it('takes a lower 32-bit reading as one wrap, and any other decrease as a reset', () => {
    expect(counterDelta(5, 9)).toBe(4)
    expect(counterDelta(7, 7)).toBe(0)
    expect(counterDelta(2 ** 32 - 10, 5)).toBe(15)
    expect(counterDelta(2 ** 32 - 1, 0)).toBe(1)
    // a counter restarted from 0 at 5000: not a wrap (that would be ~4.29 billion in one interval)
    expect(counterDelta(5000, 10)).toBeUndefined()
    // a 64-bit counter cannot wrap in practice: going back means a reset
    expect(counterDelta(2 ** 40, 5)).toBeUndefined()
  })
})

describe('summarize', () => {
  const line = (name: string, c: { r?: number; rs?: number; rms?: number; w?: number; ws?: number; wms?: number; io?: number }): string =>
    ` 8 0 ${name} ${c.r ?? 0} 0 ${c.rs ?? 0} ${c.rms ?? 0} ${c.w ?? 0} 0 ${c.ws ?? 0} ${c.wms ?? 0} 0 ${c.io ?? 0} 0`

  it('undoes a 32-bit wrap of the time counters (32-bit milliseconds on every kernel) between two snapshots', () => {
    const top = 2 ** 32
    const snaps = snapshotsOf(
      output(
        ['100.00', [line('sda', { w: 10, ws: 80, wms: top - 300, io: top - 200 })]],
        ['101.00', [line('sda', { w: 110, ws: 880, wms: 200, io: 300 })]],
        ['102.00', [line('sda', { w: 210, ws: 1680, wms: 700, io: 800 })]]
      )
    )
    const a = activityOf(snaps, 'sda')
    // writes 200, sectors 1600, ms writing 300+200 then 500 = 1000, ms doing I/O 200+300 then 500 = 1000, over 2 s
    expect(a).toEqual({
      target: 'host',
      device: 'sda',
      seconds: 2,
      readIops: 0,
      writeIops: 100,
      readBytesPerSecond: 0,
      writeBytesPerSecond: 409600,
      busyPct: 50,
      requests: 200,
      avgIoSizeBytes: 4096,
      awaitSeconds: 0.005
    })
  })

  it('leaves out an interval where the counters restarted, and says so', () => {
    const snaps = snapshotsOf(
      output(
        ['10.00', [line('vdb', { r: 5000, rs: 40000, io: 9000 })]],
        ['11.00', [line('vdb', { r: 10, rs: 80, io: 20 })]],
        ['13.00', [line('vdb', { r: 30, rs: 240, rms: 4, io: 520 })]]
      )
    )
    const summary = summarize(snaps, 'vdb', 'guest')
    expect(summary).toEqual({
      ok: true,
      activity: {
        target: 'guest',
        device: 'vdb',
        seconds: 2,
        // the interval whose counters went back is left out of the series too
        series: [{ at: 3, readIops: 10, writeIops: 0, readBytesPerSecond: 40960, writeBytesPerSecond: 0, busyPct: 25 }],
        readIops: 10,
        writeIops: 0,
        readBytesPerSecond: 40960,
        writeBytesPerSecond: 0,
        busyPct: 25,
        requests: 20,
        avgIoSizeBytes: 4096,
        awaitSeconds: 0.0002
      },
      warnings: ['the counters of vdb went back 1 time (the device was removed and added again?); that interval is not counted']
    })
  })

  it('counts only the time a device was listed, when it came and went', () => {
    const snaps = snapshotsOf(
      output(['1.00', [line('sdb', { r: 1, rs: 8, io: 1 })]], ['2.00', [line('sdc', { r: 1 })]], ['3.00', [line('sdb', { r: 2, rs: 16, io: 2 })]], ['4.00', [line('sdb', { r: 6, rs: 48, io: 7 })]])
    )
    const summary = summarize(snaps, 'sdb', 'host')
    expect(summary.ok && summary.activity).toMatchObject({ seconds: 1, readIops: 4, requests: 4, busyPct: 0.5 })
    expect(summary.ok && summary.warnings).toEqual(['sdb was missing from 1 snapshot; the time around it is not counted'])
  })

  it('leaves await and I/O size out, not 0, when no request completed', () => {
    const snaps = snapshotsOf(output(['1.00', [line('sda', { io: 10 })]], ['2.50', [line('sda', { io: 1510 })]]))
    const a = activityOf(snaps, 'sda')
    expect(a).toEqual({ target: 'host', device: 'sda', seconds: 1.5, readIops: 0, writeIops: 0, readBytesPerSecond: 0, writeBytesPerSecond: 0, busyPct: 100, requests: 0 })
    expect('awaitSeconds' in a || 'avgIoSizeBytes' in a).toBe(false)
  })

  it('fails with a reason when the device is absent or seen only once or with no time between', () => {
    const snaps = snapshotsOf(output(['1.00', [line('sda', {}), line('sdb', {})]], ['2.00', [line('sda', {})]]))
    expect(summarize(snaps, 'nvme0n1', 'host')).toEqual({ ok: false, reason: 'nvme0n1 is not in the /proc/diskstats snapshots of host (devices listed: sda, sdb)' })
    expect(summarize(snaps, 'sdb', 'host')).toEqual({ ok: false, reason: 'host: sdb needs two snapshots some time apart to measure anything, and there was at most one in a row' })
    const same = snapshotsOf(output(['1.00', [line('sda', {})]], ['1.00', [line('sda', { r: 1 })]]))
    expect(summarize(same, 'sda', 'host')).toEqual({ ok: false, reason: 'host: sda needs two snapshots some time apart to measure anything, and they were taken at the same moment' })
    expect(summarize([], 'sda', 'host')).toEqual({ ok: false, reason: 'sda is not in the /proc/diskstats snapshots of host (no device is listed at all)' })
  })
})

describe('pickDevices', () => {
  const moved = (name: string, reads: number): [string, string] => [` 8 0 ${name} 0 0 0 0 0 0 0 0 0 0 0`, ` 8 0 ${name} ${reads} 0 0 0 0 0 0 0 0 0 0`]
  const series = (...devices: [string, string][]): DiskSnapshot[] => snapshotsOf(output(['1.00', devices.map((d) => d[0])], ['2.00', devices.map((d) => d[1])]))

  it('keeps whole disks and device-mapper volumes, busiest first, not their partitions', () => {
    const snaps = series(moved('sda', 50), moved('sda1', 50), moved('nvme0n1', 900), moved('nvme0n1p2', 900), moved('dm-0', 50), moved('sdb', 0), moved('loop3', 70))
    expect(pickDevices(snaps)).toEqual(['nvme0n1', 'dm-0', 'sda'])
  })

  it('keeps a partition whose whole disk is not listed (a Xen guest sees only xvda1)', () => {
    expect(pickDevices(series(moved('xvda1', 3), moved('xvdb', 0)))).toEqual(['xvda1'])
  })

  it('falls back to loop, ram and zram devices only when nothing else moved', () => {
    expect(pickDevices(series(moved('loop0', 2), moved('zram0', 9), moved('vda', 0)))).toEqual(['zram0', 'loop0'])
    expect(pickDevices(series(moved('vda', 0)))).toEqual([])
    expect(pickDevices([])).toEqual([])
  })

  it('names the whole disk of a partition by the kernel naming', () => {
    expect(['sda1', 'vda15', 'xvdb2', 'nvme0n1p3', 'mmcblk0p1', 'loop0p1', 'md127p1', 'dm-0', 'sr0', 'nvme0n1'].map(wholeDiskOf)).toEqual([
      'sda',
      'vda',
      'xvdb',
      'nvme0n1',
      'mmcblk0',
      'loop0',
      'md127',
      undefined,
      'sr',
      'nvme0n'
    ])
  })
})

describe("study 004's ratios", () => {
  // atop's lines of study 004, test 1 (Hyper-V) and test 3 (VMware), writes: the LVM volume is the
  // logical side, the disk the physical one; each count is one atop sample, taken as 1 s here
  const activity = (device: string, reads: number, writes: number, busyPct: number): DiskActivity => ({
    target: 'host',
    device,
    seconds: 1,
    readIops: reads,
    writeIops: writes,
    readBytesPerSecond: 0,
    writeBytesPerSecond: 0,
    busyPct,
    requests: reads + writes
  })

  it('reproduces "the ratio between LVM writes and HDD writes is 24:1" and "127:1"', () => {
    const hyperV = { lvm: activity('main1-app', 38, 1179003, 73), disk: activity('sdb', 38, 47864, 71) }
    expect(logicalToPhysicalRatio(hyperV.lvm, hyperV.disk, 'write')).toBeCloseTo(1179003 / 47864, 12)
    expect(Math.floor(logicalToPhysicalRatio(hyperV.lvm, hyperV.disk, 'write') ?? 0)).toBe(24)
    const vmware = { lvm: activity('test-lv_home', 3, 631219, 105), disk: activity('sda', 3, 4947, 105) }
    expect(Math.floor(logicalToPhysicalRatio(vmware.lvm, vmware.disk, 'write') ?? 0)).toBe(127)
    // all requests, the default: (3 + 631219) / (3 + 4947)
    expect(logicalToPhysicalRatio(vmware.lvm, vmware.disk)).toBeCloseTo(631222 / 4950, 12)
    expect(logicalToPhysicalRatio(vmware.lvm, vmware.disk, 'read')).toBe(1)
  })

  it('has no ratio when the host saw no request', () => {
    expect(logicalToPhysicalRatio(activity('vda', 5, 5, 1), activity('sdb', 0, 0, 0))).toBeUndefined()
  })

  it("gives atop's avio: busy time per request", () => {
    // 85 % busy over 10 s for 37834 requests is 0.2247 ms a request
    expect(avioSeconds({ ...activity('sdb', 37834, 0, 85), seconds: 10 })).toBeCloseTo((0.85 * 10) / 37834, 15)
    expect(avioSeconds(activity('sdb', 0, 0, 0))).toBeUndefined()
  })
})

describe('the per-second series of the host monitor', () => {
  it('gives each interval of the real dd read (64 reads of 512 KiB in the first second, then idle)', () => {
    const summary = summarize(snapshotsOf(fixture('dd-read-32m.out')), 'vda', 'host')
    if (!summary.ok) throw new Error(summary.reason)
    expect(summary.activity.series).toEqual([
      { at: 1, readIops: 64, writeIops: 0, readBytesPerSecond: 64 * 512 * 1024, writeBytesPerSecond: 0, busyPct: 3.2 },
      { at: 1.53, readIops: 0, writeIops: 0, readBytesPerSecond: 0, writeBytesPerSecond: 0, busyPct: 0 }
    ])
  })

  it('merges the seconds of a long job evenly so that a job keeps at most SERIES_MAX_POINTS points, with the same totals', () => {
    const seconds = SERIES_MAX_POINTS * 3
    const text = [
      'virtbench-diskstats 1 interval=1 sleep=1 max=99999',
      ...Array.from({ length: seconds + 1 }, (_, i) => [`snapshot ${100 + i}.00`, `   8       0 sda ${i * 10} 0 ${i * 80} 0 0 0 0 0 0 ${i * 5} ${i * 5}`, 'end']).flat(),
      'stop signal',
      ''
    ].join('\n')
    const summary = summarize(snapshotsOf(text), 'sda', 'host')
    if (!summary.ok) throw new Error(summary.reason)
    const series = summary.activity.series!
    expect(series).toHaveLength(SERIES_MAX_POINTS)
    expect(series[0]).toEqual({ at: 3, readIops: 10, writeIops: 0, readBytesPerSecond: 80 * 512, writeBytesPerSecond: 0, busyPct: 0.5 })
    expect(series.at(-1)!.at).toBe(seconds)
  })
})
