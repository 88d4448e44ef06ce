import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { diskActivityText } from '../../../../src/main/report/text-table'
import type { DiskActivity, RunDocument } from '../../../../src/shared/model/run'
import { RunDocumentSchema } from '../../../../src/shared/model/run'
import { atopCells, diskActivityBlocks, NOT_MONITORED, ratioSentence, ratioText } from '../../../../src/shared/studies/disk-activity'

const FIXTURES = path.join(__dirname, '../../../fixtures/runs')

/** A stored run folder (tests/fixtures/runs/README.md). */
function runOf(name: string): RunDocument {
  return RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(FIXTURES, name, 'run.json'), 'utf8')))
}

/** The counters of a device's first and last snapshot in a raw diskstats file the engine kept, read here by hand. */
function counters(name: string, file: string, device: string): { seconds: number; first: number[]; last: number[] } {
  const text = readFileSync(path.join(FIXTURES, name, 'raw', file), 'utf8')
  const uptimes = [...text.matchAll(/^snapshot (\S+)$/gm)].map((m) => Number(m[1]))
  const lines = text.split('\n').filter((l) => l.trim().split(/\s+/)[2] === device)
  const fields = (l: string): number[] => l.trim().split(/\s+/).slice(3).map(Number)
  return { seconds: Math.round((uptimes.at(-1)! - uptimes[0]!) * 100) / 100, first: fields(lines[0]!), last: fields(lines.at(-1)!) }
}

describe('study 004: the atop table of a guest and its physical host', () => {
  // tests/fixtures/runs/seq-dd-host: `virtbench run` of the seq-dd pack (quick) on two loopback
  // sshd targets saved as a host and a guest that runs on it, the host monitor on
  const run = runOf('seq-dd-host')
  const blocks = diskActivityBlocks(run)

  it('has one block per guest job, none for the baseline, in run order', () => {
    expect(blocks.map((b) => `${b.jobId} ${b.testId} r${b.repetition}`)).toEqual(['j0002 dd-write r1', 'j0004 dd-write r2', 'j0006 cat-read r1', 'j0008 cat-read r2'])
    expect(blocks.every((b) => b.variant === 'guest' && b.lines.map((l) => `${l.view}:${l.machine}:${l.layer}:${l.device}`).join() === 'guest:guest:DSK:vda,host:host:DSK:vda')).toBe(true)
  })

  it('gives the guest and the host lines exactly as the kept /proc/diskstats counters say, and their ratio of writes', () => {
    const block = blocks[1]!
    // fields after the name: reads, merged, sectors read, ms reading, writes, merged, sectors written, ms writing, in flight, ms doing I/O
    const g = counters('seq-dd-host', 'j0004-a1-diskstats-guest.txt', 'vda')
    const h = counters('seq-dd-host', 'j0004-a1-diskstats-host.txt', 'vda')
    const d = (c: typeof g, i: number): number => c.last[i]! - c.first[i]!
    expect([g.seconds, d(g, 0), d(g, 4), d(g, 2), d(g, 6), d(g, 9)]).toEqual([0.62, 1, 70, 8, 131120, 36])
    expect([h.seconds, d(h, 0), d(h, 4), d(h, 2), d(h, 6), d(h, 9)]).toEqual([0.69, 1, 70, 8, 131120, 36])
    const [guest, host] = block.lines
    expect(guest).toMatchObject({ seconds: 0.62, readIops: 1 / 0.62, writeIops: 70 / 0.62, writeBytesPerSecond: (131120 * 512) / 0.62 })
    expect(guest!.busyPct).toBeCloseTo((36 / 620) * 100, 12)
    expect(guest!.avioSeconds).toBeCloseTo(0.036 / 71, 15)
    expect(guest!.avgIoSizeBytes).toBeCloseTo(((8 + 131120) * 512) / 71, 9)
    expect(host).toMatchObject({ seconds: 0.69, writeIops: 70 / 0.69, writeBytesPerSecond: (131120 * 512) / 0.69 })
    expect(host!.busyPct).toBeCloseTo((36 / 690) * 100, 12)
    expect(block.ratio).toEqual({ direction: 'write', ratio: 1, guestDevice: 'vda', hostDevice: 'vda', guestRequests: 70, hostRequests: 70 })
    expect(atopCells(guest!)).toEqual(['DSK', 'guest', 'vda', '5.81 %', '1.61 op/s', '113 op/s', '6.45 KiB/s', '103 MiB/s', '507 µs', '923 KiB'])
    expect(atopCells(host!)).toEqual(['DSK', 'host', 'vda', '5.22 %', '1.45 op/s', '101 op/s', '5.80 KiB/s', '92.8 MiB/s', '507 µs', '923 KiB'])
    expect(ratioSentence(block.ratio!)).toBe("Logical to physical writes: 1.0:1 (the guest's vda: 70 writes; the host's vda: 70 writes)")
  })

  it("compares the direction the guest's disk moved more bytes in: a read served by the page cache wrote more than it read", () => {
    // j0006 (cat of the file just written): the guest's vda read nothing and wrote 5 requests, the host's wrote 7
    const read = blocks[2]!
    expect(read.lines.map((l) => l.readBytesPerSecond)).toEqual([0, 0])
    expect(read.ratio).toEqual({ direction: 'write', ratio: 5 / 7, guestDevice: 'vda', hostDevice: 'vda', guestRequests: 5, hostRequests: 7 })
    expect(ratioSentence(read.ratio!)).toBe("Logical to physical writes: 1:1.4 (the guest's vda: 5 writes; the host's vda: 7 writes)")
  })

  it('gives an avio below the kernel\'s millisecond as a bound, not 0 s', () => {
    // j0002: the guest's vda completed 8 reads and writes and its busy counter did not move
    const line = blocks[0]!.lines[0]!
    expect([line.requests, line.busyPct, line.avioSeconds]).toEqual([8, 0, 0])
    expect(atopCells(line)[8]).toBe('< 125 µs')
  })

  it('prints the blocks for a terminal, every figure with its unit', () => {
    const text = diskActivityText(blocks.slice(1, 2))
    expect(text).toBe(
      [
        'Write 64 MiB with dd bs=8k · guest, repetition 2 · monitored 620 ms on the guest, 690 ms on the host',
        'seen by  layer  machine  device    busy    reads/s  writes/s        read     written    avio  avg I/O size',
        '───────  ─────  ───────  ──────  ──────  ─────────  ────────  ──────────  ──────────  ──────  ────────────',
        'guest    DSK    guest    vda     5.81 %  1.61 op/s  113 op/s  6.45 KiB/s   103 MiB/s  507 µs       923 KiB',
        'host     DSK    host     vda     5.22 %  1.45 op/s  101 op/s  5.80 KiB/s  92.8 MiB/s  507 µs       923 KiB',
        "Logical to physical writes: 1.0:1 (the guest's vda: 70 writes; the host's vda: 70 writes).",
        ''
      ].join('\n')
    )
  })

  it("has the baseline's blocks too when the baseline is itself a guest whose host the run monitored (study 004: Hyper-V guest against VMware guest)", () => {
    // the baseline's dd-write repetition 1 as if its target named a host of its own in the run:
    // the guest's host lines, under that host's name
    const job = run.jobs.find((j) => j.id === 'j0001')!
    const hostOfGuest = run.jobs.find((j) => j.id === 'j0002')!.monitor!.filter((m) => m.target === 'host')
    const hyperv = { ...job, monitor: [...job.monitor!.filter((m) => m.target === 'host'), ...hostOfGuest.map((m) => ({ ...m, target: 'hyperv-host' }))] }
    const guests: RunDocument = { ...run, jobs: run.jobs.map((j) => (j.id === 'j0001' ? hyperv : j)) }
    const withBaseline = diskActivityBlocks(guests)
    expect(withBaseline.map((b) => `${b.jobId} ${b.variant}`)).toEqual(['j0001 host', 'j0002 guest', 'j0004 guest', 'j0006 guest', 'j0008 guest'])
    const first = withBaseline[0]!
    expect(first.lines.map((l) => `${l.view}:${l.machine}:${l.device}`)).toEqual(['guest:host:vda', 'host:hyperv-host:vda'])
    expect(first.ratio?.hostDevice).toBe('vda')
  })

  it('says plainly that no ratio can be given when the host was not monitored (a guest without a host in the run)', () => {
    // loopback-quick: the guest's target names no physical host, so only the guest was monitored
    const alone = diskActivityBlocks(runOf('loopback-quick'))
    expect(alone.length).toBe(9)
    expect(alone.every((b) => b.ratio === undefined && b.noRatio === NOT_MONITORED && b.lines.every((l) => l.view === 'guest'))).toBe(true)
    expect(diskActivityText(alone.slice(0, 1))).toContain('so no logical-to-physical ratio can be given.')
  })

  it("names the host monitor's failure when the job kept it", () => {
    const job = run.jobs[1]!
    const failed: RunDocument = {
      ...run,
      jobs: [{ ...job, monitor: job.monitor!.filter((m) => m.target === 'guest'), warnings: ['host monitor on host: the script exited with 3'] }]
    }
    expect(diskActivityBlocks(failed)[0]!.noRatio).toBe('Its physical host was not monitored (host monitor on host: the script exited with 3), so no logical-to-physical ratio can be given.')
  })
})

describe("study 004's own atop figures", () => {
  // the study's atop lines (10 s samples: counts per sample, MiB/s per second; docs/monitor.md)
  const activity = (target: string, device: string, reads: number, writes: number, mibR: number, mibW: number, busy: number): DiskActivity => ({
    target,
    device,
    seconds: 10,
    readIops: reads / 10,
    writeIops: writes / 10,
    readBytesPerSecond: mibR * 1048576,
    writeBytesPerSecond: mibW * 1048576,
    busyPct: busy,
    requests: reads + writes
  })
  const runWith = (guest: DiskActivity[], host: DiskActivity[]): RunDocument => {
    const base = runOf('seq-dd-host')
    return { ...base, jobs: [{ ...base.jobs[1]!, monitor: [...guest, ...host], warnings: [] }] }
  }

  it("gives the study's 24:1 on Hyper-V and 127:1 on VMware (24.6 and 127.6 before it cut the decimals): the guest LVM volume against the host disk, the volume first", () => {
    const hyperV = diskActivityBlocks(runWith([activity('guest', 'sdb', 38, 1179003, 0.01, 460.8, 71), activity('guest', 'dm-0', 38, 1179003, 0.01, 460.73, 73)], [activity('host', 'sdb', 38, 47864, 0.01, 460.8, 71)]))[0]!
    expect(hyperV.lines.map((l) => `${l.view} ${l.layer} ${l.device}`)).toEqual(['guest LVM dm-0', 'guest DSK sdb', 'host DSK sdb'])
    expect(hyperV.ratio).toMatchObject({ direction: 'write', guestDevice: 'dm-0', hostDevice: 'sdb', guestRequests: 1179003, hostRequests: 47864 })
    expect(ratioText(hyperV.ratio!.ratio)).toBe('24.6:1')
    const vmware = diskActivityBlocks(runWith([activity('guest', 'dm-2', 3, 631219, 0, 246.57, 105)], [activity('host', 'dm-7', 3, 631219, 0, 246.57, 105), activity('host', 'sda', 3, 4947, 0, 246.67, 105)]))[0]!
    // the host's physical layer is its disk, not a volume above it
    expect(vmware.ratio).toMatchObject({ guestDevice: 'dm-2', hostDevice: 'sda', guestRequests: 631219, hostRequests: 4947 })
    expect(ratioText(vmware.ratio!.ratio)).toBe('127.6:1')
    expect(Math.floor(vmware.ratio!.ratio)).toBe(127)
  })

  it('writes a split as 1:N, and no ratio when the host disk completed nothing in that direction', () => {
    expect(ratioText(0.25)).toBe('1:4.0')
    const idle = diskActivityBlocks(runWith([activity('guest', 'vda', 0, 500, 0, 10, 50)], [activity('host', 'sda', 0, 0, 0, 0, 0)]))[0]!
    expect(idle.ratio).toBeUndefined()
    expect(idle.noRatio).toBe("No logical-to-physical ratio: the host's sda completed no write during the job, so there is nothing to divide by.")
  })
})
