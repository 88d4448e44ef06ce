import { readFileSync } from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  counterDelta,
  diskstatsReader,
  logicalToPhysicalRatio,
  parseDiskstats,
  pickDevices,
  summarize,
  type DiskSnapshot
} from '../../../../../src/main/engine/monitor/diskstats'

const counter = fc.oneof(fc.nat(), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 2 ** 32 - 1000, max: 2 ** 32 + 1000 }))
const counters = fc.array(counter, { minLength: 11, maxLength: 17 }).filter((c) => c.length !== 12 && c.length !== 13 && c.length !== 14 && c.length !== 16)
const device = fc.constantFrom('sda', 'sda1', 'vda', 'nvme0n1', 'nvme0n1p1', 'dm-0', 'loop0', 'zram0')
/** Uptimes in hundredths of a second, as /proc/uptime prints them. */
const uptimes = fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 8 }).map((steps) => {
  let t = 360000
  return steps.map((s) => ((t += s) / 100).toFixed(2))
})

const output = fc
  .tuple(uptimes, fc.array(fc.tuple(device, counters), { minLength: 1, maxLength: 40 }))
  .map(([times, lines]) => {
    const perSnapshot = Math.max(1, Math.floor(lines.length / times.length))
    return times
      .map((up, i) => {
        const block = lines.slice(i * perSnapshot, (i + 1) * perSnapshot).map(([name, c]) => ` 8 0 ${name} ${c.join(' ')}`)
        return [`snapshot ${up}`, ...block, 'end'].join('\n')
      })
      .join('\n')
  })

function checkActivity(snapshots: DiskSnapshot[], name: string): void {
  const summary = summarize(snapshots, name, 'host')
  if (!summary.ok) {
    expect(summary.reason).toMatch(/\S/)
    return
  }
  const a = summary.activity
  for (const value of [a.seconds, a.readIops, a.writeIops, a.readBytesPerSecond, a.writeBytesPerSecond, a.busyPct, a.requests, a.avgIoSizeBytes, a.awaitSeconds]) {
    if (value === undefined) continue
    expect(Number.isFinite(value)).toBe(true)
    expect(value).toBeGreaterThanOrEqual(0)
  }
  expect(a.seconds).toBeGreaterThan(0)
  expect(Number.isInteger(a.requests)).toBe(true)
  expect(a.avgIoSizeBytes === undefined).toBe(a.requests === 0)
  expect(a.awaitSeconds === undefined).toBe(a.requests === 0)
}

describe('diskstats properties', () => {
  it('never gives NaN, an infinity or a negative figure, whatever the counters do', () => {
    fc.assert(
      fc.property(output, (text) => {
        const parsed = parseDiskstats(text)
        expect(parsed.ok).toBe(true)
        if (!parsed.ok) return
        for (const name of ['sda', 'sda1', 'vda', 'nvme0n1', 'nvme0n1p1', 'dm-0', 'loop0', 'zram0', 'absent']) checkActivity(parsed.snapshots, name)
      }),
      { numRuns: 300 }
    )
  })

  it('with counters that only grow, the rates times the seconds give back the counter increases', () => {
    const growth = fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.array(fc.nat({ max: 10 ** 9 }), { minLength: 11, maxLength: 11 })), { minLength: 2, maxLength: 6 })
    fc.assert(
      fc.property(growth, (steps) => {
        let t = 100
        const totals = new Array<number>(11).fill(0)
        const blocks = steps.map(([dt, adds]) => {
          t += dt
          adds.forEach((v, i) => (totals[i] = (totals[i] ?? 0) + v))
          return `snapshot ${(t / 100).toFixed(2)}\n 8 0 sdx ${totals.join(' ')}\nend`
        })
        const parsed = parseDiskstats(blocks.join('\n'))
        if (!parsed.ok) throw new Error(parsed.reason)
        const summary = summarize(parsed.snapshots, 'sdx', 'host')
        if (!summary.ok) throw new Error(summary.reason)
        const a = summary.activity
        const first = steps[0]?.[1] ?? []
        const delta = (i: number): number => (totals[i] ?? 0) - (first[i] ?? 0)
        expect(a.seconds).toBeCloseTo(steps.slice(1).reduce((s, [dt]) => s + dt, 0) / 100, 9)
        expect(a.requests).toBe(delta(0) + delta(4))
        expect(a.readIops * a.seconds).toBeCloseTo(delta(0), 3)
        expect(a.writeBytesPerSecond * a.seconds).toBeCloseTo(delta(6) * 512, 0)
        expect((a.busyPct / 100) * a.seconds * 1000).toBeCloseTo(delta(9), 3)
      }),
      { numRuns: 200 }
    )
  })

  it('parses any text without throwing: snapshots with whole-number counters, or a reason', () => {
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.array(fc.constantFrom('snapshot 1.00', 'end', 'stop signal', ' 8 0 sda 1 2 3', 'snapshot x', '8 0 sda 1 2 3 4 5 6 7 8 9 10 11', '\u0000\u00ff')).map((l) => l.join('\n')))
    fc.assert(
      fc.property(text, (t) => {
        const parsed = parseDiskstats(t)
        if (!parsed.ok) {
          expect(parsed.reason).toMatch(/\S/)
          return
        }
        for (const s of parsed.snapshots) {
          expect(Number.isFinite(s.uptimeSeconds)).toBe(true)
          for (const d of s.devices) expect(Number.isSafeInteger(d.readsCompleted) && Number.isSafeInteger(d.msDoingIo)).toBe(true)
        }
        expect(pickDevices(parsed.snapshots).every((name) => parsed.snapshots.some((s) => s.devices.some((d) => d.device === name)))).toBe(true)
      }),
      { numRuns: 300 }
    )
  })

  it('reads the same however the output is cut into pieces', () => {
    const text = readFileSync(path.resolve(__dirname, '../../../../fixtures/monitor/dd-write-32m.out'), 'utf8')
    const whole = parseDiskstats(text)
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 30 }), (cuts) => {
        const points = [...new Set([0, ...cuts, text.length])].sort((a, b) => a - b)
        const reader = diskstatsReader()
        for (let i = 0; i + 1 < points.length; i++) reader.push(text.slice(points[i], points[i + 1]))
        expect(reader.end()).toEqual(whole)
      }),
      { numRuns: 100 }
    )
  })

  it('a counter increase is a whole number, never negative, or unknown', () => {
    fc.assert(
      fc.property(counter, counter, (a, b) => {
        const d = counterDelta(a, b)
        if (d !== undefined) expect(Number.isSafeInteger(d) && d >= 0).toBe(true)
      })
    )
  })

  it('a logical to physical ratio is a finite positive number or absent', () => {
    const activity = fc.record({
      target: fc.constant('t'),
      device: fc.constant('d'),
      seconds: fc.double({ min: 0.01, max: 1e5, noNaN: true }),
      readIops: fc.double({ min: 0, max: 1e7, noNaN: true }),
      writeIops: fc.double({ min: 0, max: 1e7, noNaN: true }),
      readBytesPerSecond: fc.constant(0),
      writeBytesPerSecond: fc.constant(0),
      busyPct: fc.constant(0),
      requests: fc.nat()
    })
    fc.assert(
      fc.property(activity, activity, fc.constantFrom('all', 'read', 'write') as fc.Arbitrary<'all' | 'read' | 'write'>, (g, h, dir) => {
        const r = logicalToPhysicalRatio(g, h, dir)
        if (r !== undefined) expect(Number.isFinite(r) && r >= 0).toBe(true)
      })
    )
  })
})
