import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { CPU_SNAPSHOT_SCRIPT, cpuSnapshotOf, cpuWindowOf, disturbance, toolCpuSecondsOf } from '../../../../src/main/engine/contamination'

describe('contamination: what else used the machine while a job measured', () => {
  it('reads the real /proc/stat, load and CPU count of this machine', () => {
    const snapshot = cpuSnapshotOf(execFileSync('sh', ['-c', CPU_SNAPSHOT_SCRIPT], { encoding: 'utf8' }), 0)
    expect(snapshot?.ticks.length).toBeGreaterThanOrEqual(8)
    expect(snapshot?.cpus).toBe(Number(execFileSync('nproc', { encoding: 'utf8' }).trim()))
    expect(snapshot?.load1).toBeGreaterThanOrEqual(0)
  })

  it("reads the tool's CPU seconds from sh's `times` (its children's line)", () => {
    expect(toolCpuSecondsOf('0m0.01s 0m0.00s\n0m2.97s 0m0.04s\n')).toBeCloseTo(3.01, 10)
    expect(toolCpuSecondsOf('0m0.01s 0m0.00s\n1m2.50s 0m0.50s\n')).toBeCloseTo(63, 10)
    expect(toolCpuSecondsOf('')).toBeUndefined()
  })

  it('takes steal and busy time as shares of the window, and the busy time beyond the tool', () => {
    // two CPUs for 3 s: 600 ticks; the tool used 3 s (300 ticks), other work 150, steal 30
    const before = { ticks: [1000, 0, 500, 9000, 0, 0, 0, 100], at: 0 }
    const after = { ticks: [1400, 0, 550, 9120, 0, 0, 0, 130], at: 3000 }
    const window = cpuWindowOf('guest', before, after, 3)
    expect(window).toMatchObject({ target: 'guest', seconds: 3, stealPct: 5, busyPct: 75 })
    expect(window.otherPct).toBeCloseTo(25, 10)
    expect(disturbance([window])).toBeUndefined()
    const stolen = cpuWindowOf('guest', before, { ...after, ticks: [1400, 0, 550, 9100, 0, 0, 0, 150] }, 3)
    expect(disturbance([stolen])).toBe('guest lost 8 % of its CPU time to steal')
    const busy = cpuWindowOf('guest', before, { ...after, ticks: [1550, 0, 550, 8970, 0, 0, 0, 130] }, 3)
    expect(disturbance([busy])).toBe("other work used 50 % of guest's CPU time beside the tool")
  })

  it("records a physical host's busy time without judging it (its guest's own work is part of it)", () => {
    const host = cpuWindowOf('host', { ticks: [0, 0, 0, 0, 0, 0, 0, 0], at: 0 }, { ticks: [500, 0, 0, 100, 0, 0, 0, 0], at: 3000 })
    expect(host.busyPct).toBeCloseTo(83.3, 1)
    expect(host).not.toHaveProperty('otherPct')
    expect(disturbance([host])).toBeUndefined()
  })
})
