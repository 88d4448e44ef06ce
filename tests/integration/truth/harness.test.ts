/**
 * The known-truth harness measured directly, without VirtBench: for each kind of limit, the real
 * tool runs on targets given different limits, over their own sshd (so inside their cgroups and
 * namespaces, as VirtBench's commands run). A variant given 40 % of the baseline's limit must
 * measure 40 % ± 3 points of it; a twin with the baseline's limit 100 % ± 3.
 *
 * Each case runs three rounds, the three targets at the same time in each, and compares the
 * targets' medians: a kernel thread the load delays now and then (the loop device's worker, the
 * throttle's dispatch) costs one target one round, not the verdict. The sizes are chosen so that
 * the throttles' start-up allowance does not bias the ratio (docs/known-truth.md): dd bs=1M at
 * the rates used here gets none (the IOPS case reads ~0.6 points low); a 20 ms CFS period gives a
 * 2 s sysbench 100 periods; iperf3 leaves its first second out (-O 1).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TargetSchema } from '../../../src/shared/model/target'
import { footprintOf, whatRemains, type Footprint } from '../../harness/truth/footprint'
import {
  burstBytesFor,
  cgroupLayout,
  cpuWrites,
  ioWrites,
  machineCgroupLayout,
  measureCpu,
  measureDd,
  measureNetwork,
  parseIoBytes,
  percentOf,
  removeLeftovers,
  runOn,
  startLimitedSshd,
  startTruthLab,
  tbfArgs,
  type TruthLab,
  type TruthLimits
} from '../../harness/truth'
import { freePort } from '../../harness/free-port'

const MIB = 2 ** 20
/** The truth of a variant given 40 % of the baseline's limit, and how far a measurement may be from it. */
const SLOW_TRUTH = 40
const TWIN_TRUTH = 100
const TOLERANCE_POINTS = 3

const ROUNDS = 3
const NAMES = ['base', 'slow', 'twin'] as const

/** A lab of three targets: `base` with the limits of share 1, `slow` with 40 % of them, `twin` with the same as base. */
function useTrioLab(limits: (share: number) => TruthLimits): () => TruthLab {
  let lab: TruthLab | undefined
  beforeAll(async () => {
    lab = await startTruthLab(NAMES.map((name) => ({ name, ...limits(name === 'slow' ? SLOW_TRUTH / 100 : 1) })))
  })
  afterAll(() => lab?.stop())
  return () => {
    if (!lab) throw new Error('the lab did not start (see beforeAll)')
    return lab
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

/** Measures baseline, slow variant and twin at the same time, ROUNDS times; returns the ratios of their medians in %. */
async function ratios(lab: TruthLab, measure: (name: string) => Promise<number>): Promise<{ slow: number; twin: number; values: number[] }> {
  const rounds: number[][] = []
  for (let round = 0; round < ROUNDS; round++) rounds.push(await Promise.all(NAMES.map(measure)))
  const [base = NaN, slow = NaN, twin = NaN] = NAMES.map((_, i) => median(rounds.map((r) => r[i] ?? NaN)))
  return { slow: percentOf(slow, base), twin: percentOf(twin, base), values: [base, slow, twin] }
}

function expectTruth(measured: { slow: number; twin: number; values: number[] }, what: string): void {
  const detail = `${what}: baseline, slow, twin measured ${measured.values.map((v) => v.toPrecision(6)).join(', ')}; slow ${measured.slow.toFixed(2)} %, twin ${measured.twin.toFixed(2)} %`
  expect(Math.abs(measured.slow - SLOW_TRUTH), detail).toBeLessThanOrEqual(TOLERANCE_POINTS)
  expect(Math.abs(measured.twin - TWIN_TRUTH), detail).toBeLessThanOrEqual(TOLERANCE_POINTS)
}

describe('CPU quota (cgroup cpu: CFS quota and the highest weight)', () => {
  const lab = useTrioLab((share) => ({ cpu: { percentOfOneCpu: 30 * share } }))

  it('sysbench cpu (2 s) at 12 % of one CPU measures 40 % ± 3 points of 30 %, and a twin 100 % ± 3', async () => {
    expectTruth(await ratios(lab(), (name) => measureCpu(lab().get(name), 2)), 'sysbench cpu events/s')
  })

  it('puts sshd, every session and what a session leaves running in the cgroup', async () => {
    const slow = lab().get('slow')
    // a job left running after its session ended, as VirtBench's detached jobs are
    const { stdout } = await runOn(slow, 'sleep 30 </dev/null >/dev/null 2>&1 & echo $!')
    const detached = Number(stdout.trim())
    expect(detached).toBeGreaterThan(0)
    expect(slow.cgroup.processes()).toEqual(expect.arrayContaining([slow.server.pid, detached]))
    const cpuDir = slow.cgroup.dirs[0] as string
    expect(readFileSync(path.join(cpuDir, 'cgroup.procs'), 'utf8')).toContain(`${detached}\n`)
  })

  it('pins every CPU-limited target to the same CPU', async () => {
    const affinities = await Promise.all(lab().targets.map(async (t) => (await runOn(t, 'taskset -pc $$')).stdout.split(':')[1]?.trim()))
    expect(new Set(affinities).size).toBe(1)
    expect(affinities[0]).toMatch(/^\d+$/)
  })
})

describe('disk throttle (loop device, cgroup blkio / io)', () => {
  const lab = useTrioLab((share) => ({
    disk: { writeBytesPerSecond: Math.round(32 * MIB * share), writeIops: Math.round(400 * share), readBytesPerSecond: Math.round(32 * MIB * share) }
  }))

  it('each target sees its own loop disk at the one work directory a plan names', async () => {
    for (const target of lab().targets) {
      const { stdout } = await runOn(target, `findmnt --noheadings --output SOURCE --target ${lab().workDir}`)
      expect(stdout.trim()).toBe(target.disk?.device)
    }
  })

  it('dd 64 MiB O_DIRECT writes (bs=1M) at 12.8 MiB/s measure 40 % ± 3 points of 32 MiB/s, and a twin 100 % ± 3', async () => {
    expectTruth(await ratios(lab(), (name) => measureDd(lab().get(name), { mode: 'write', blockSize: '1M', count: 64 })), 'dd bs=1M write B/s')
  })

  it('dd 300 x 512 B O_DIRECT writes at 160 IOPS measure 40 % ± 3 points of 400 IOPS, and a twin 100 % ± 3', async () => {
    expectTruth(await ratios(lab(), (name) => measureDd(lab().get(name), { mode: 'write', blockSize: '512', count: 300, file: 'small.dd' })), 'dd bs=512 write B/s')
  })

  it('throttles what the cgroup submits itself (O_DIRECT, uncached reads, fsync) and not background writeback', async () => {
    const base = lab().get('base')
    const device = base.disk?.device ?? ''
    const majorMinor = base.disk?.majorMinor ?? ''
    const delta = async (command: string): Promise<{ read: number; write: number }> => {
      const before = base.cgroup.ioBytes(majorMinor)
      await runOn(base, `cd ${lab().workDir} && ${command}`)
      const after = base.cgroup.ioBytes(majorMinor)
      return { read: after.read - before.read, write: after.write - before.write }
    }
    const eight = 8 * MIB
    // besides the data, a file system may read a metadata block now and then
    const metadata = 64 * 1024
    expect(device).toMatch(/^\/dev\/loop\d+$/)
    // O_DIRECT writes and reads: every byte goes through the throttle
    const directWrite = await delta('dd if=/dev/zero of=cover bs=1M count=8 oflag=direct 2>/dev/null')
    expect(directWrite.write).toBeGreaterThanOrEqual(eight)
    expect(directWrite.write).toBeLessThan(eight + metadata)
    const directRead = await delta('dd if=cover of=/dev/null bs=1M iflag=direct 2>/dev/null')
    expect(directRead.read).toBeGreaterThanOrEqual(eight)
    expect(directRead.read).toBeLessThan(eight + metadata)
    // a buffered read of a file not in the page cache (O_DIRECT left it out): the read-ahead is the reader's
    expect((await delta('dd if=cover of=/dev/null bs=1M 2>/dev/null')).read).toBeGreaterThanOrEqual(eight)
    // ...and read again from the page cache: no data read
    expect((await delta('dd if=cover of=/dev/null bs=1M 2>/dev/null')).read).toBeLessThan(metadata)
    // buffered writes the writer flushes itself (fsync): charged to the writer
    expect((await delta('dd if=/dev/zero of=flushed bs=1M count=8 conv=fsync 2>/dev/null')).write).toBeGreaterThanOrEqual(eight)
    // buffered writes left to the kernel's flusher threads: on cgroup v1 charged to no cgroup, so
    // not throttled; v2's cgroup writeback charges them to the writer's cgroup
    const background = await delta('dd if=/dev/zero of=background bs=1M count=16 2>/dev/null && sync')
    if (machineCgroupLayout().io.version === 1) expect(background.write).toBeLessThan(MIB)
    else expect(background.write).toBeGreaterThanOrEqual(16 * MIB)
  })
})

describe('network rate (network namespace, veth, tc tbf)', () => {
  const lab = useTrioLab((share) => ({ network: { bitsPerSecond: Math.round(200e6 * share) } }))

  it('iperf3 (2 s after 1 s left out) to the peer at 80 Mbit/s measures 40 % ± 3 points of 200 Mbit/s, and a twin 100 % ± 3', async () => {
    const run = { address: lab().peerAddress ?? '', seconds: 2, omitSeconds: 1, serverCgroupOf: lab().peer }
    const measure = async (name: string): Promise<number> => measureNetwork(lab().get(name), { ...run, port: await freePort() })
    expectTruth(await ratios(lab(), measure), 'iperf3 received bit/s')
  })

  it('gives VirtBench an inventory: targets at their veth addresses, a peer every target reaches, known host keys', () => {
    const { inventory, targets, peerAddress, knownHostsFile } = lab()
    expect(inventory.map((t) => TargetSchema.parse(t).name)).toEqual(['base', 'slow', 'twin', 'peer'])
    for (const target of targets) {
      expect(target.host).toBe(target.link?.namespaceAddress)
      expect(target.url).toBe(`ssh://${target.user}@${target.host}:${target.port}`)
    }
    expect(inventory.find((t) => t.name === 'peer')?.addresses.private).toBe(lab().get('base').peerAddress)
    expect(peerAddress).toBe(lab().get('base').peerAddress)
    const knownHosts = readFileSync(knownHostsFile, 'utf8')
    for (const target of targets) expect(knownHosts).toContain(target.knownHostsLine)
    expect(knownHosts.trim().split('\n')).toHaveLength(4)
  })
})

describe('clean-up', () => {
  const everything = { cpu: { percentOfOneCpu: 20 }, disk: { writeIops: 100, imageBytes: 64 * MIB }, network: { bitsPerSecond: 10e6 } }

  it('stop() removes the cgroups, the namespace, the mount, the loop device and the directory, and ends every process', async () => {
    const target = await startLimitedSshd({ name: 'stopped', ...everything })
    await runOn(target, 'sleep 60 </dev/null >/dev/null 2>&1 &')
    const footprint = footprintOf(target)
    expect(await whatRemains(footprint)).toHaveLength(7)
    await target.stop()
    expect(await whatRemains(footprint)).toEqual([])
  })

  it('removeLeftovers() removes all of it after the test process that made it was killed', async () => {
    const holder = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, '../../harness/truth/hold-target.ts'), JSON.stringify({ name: 'crashed', ...everything })], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const footprint = await new Promise<Footprint>((resolve, reject) => {
      let out = ''
      let err = ''
      holder.stderr.on('data', (d: Buffer) => (err += d.toString()))
      holder.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        if (out.includes('\n')) resolve(JSON.parse(out) as Footprint)
      })
      holder.once('exit', (code) => reject(new Error(`hold-target exited (${code}) before it held a target: ${err}`)))
    })
    const exited = new Promise((resolve) => holder.once('exit', resolve))
    holder.kill('SIGKILL')
    await exited
    expect(await whatRemains(footprint)).toHaveLength(7)
    const removed = await removeLeftovers()
    expect(removed).toEqual(expect.arrayContaining([expect.stringContaining(footprint.cgroupDirs[0] as string), `network namespace ${footprint.namespace}`]))
    expect(await whatRemains(footprint)).toEqual([])
  })
})

describe('cgroup limit files (pure)', () => {
  it('finds v1 hierarchies first and falls back to a v2 one that lists the controller', () => {
    const v1 = [
      '30 25 0:27 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu',
      '31 25 0:28 / /sys/fs/cgroup/blkio rw,relatime shared:10 - cgroup cgroup rw,blkio',
      '32 25 0:29 / /sys/fs/cgroup/unified rw,relatime shared:11 - cgroup2 cgroup2 rw'
    ].join('\n')
    expect(cgroupLayout(v1, () => ['hugetlb'])).toEqual({ cpu: { version: 1, mountPoint: '/sys/fs/cgroup/cpu' }, io: { version: 1, mountPoint: '/sys/fs/cgroup/blkio' } })
    const v2 = '29 23 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate'
    expect(cgroupLayout(v2, () => ['cpuset', 'cpu', 'io', 'memory'])).toEqual({ cpu: { version: 2, mountPoint: '/sys/fs/cgroup' }, io: { version: 2, mountPoint: '/sys/fs/cgroup' } })
    expect(() => cgroupLayout(v2, () => ['memory'])).toThrow('no cgroup hierarchy with the cpu controller')
  })

  it('writes the quota, the weight and the throttles in each version\'s own files', () => {
    expect(cpuWrites(1, { percentOfOneCpu: 12 }).map((w) => `${w.file}=${w.value}`)).toEqual(['cpu.shares=262144', 'cpu.cfs_period_us=20000', 'cpu.cfs_quota_us=2400'])
    expect(cpuWrites(2, { percentOfOneCpu: 30, periodMicros: 100_000 }).map((w) => `${w.file}=${w.value}`)).toEqual(['cpu.weight=10000', 'cpu.max=30000 100000'])
    expect(cpuWrites(2, undefined).map((w) => w.value)).toEqual(['10000', 'max 20000'])
    expect(() => cpuWrites(1, { percentOfOneCpu: 4 })).toThrow('at least 1000 µs')
    expect(ioWrites(1, { device: '7:3', writeBytesPerSecond: 1024, readIops: 5 }).map((w) => `${w.file}=${w.value}`)).toEqual([
      'blkio.throttle.write_bps_device=7:3 1024',
      'blkio.throttle.read_iops_device=7:3 5'
    ])
    expect(ioWrites(2, { device: '7:3', writeBytesPerSecond: 1024, readIops: 5 })).toEqual([{ controller: 'io', file: 'io.max', value: '7:3 wbps=1024 riops=5' }])
  })

  it('reads the bytes a cgroup moved on a device from v1 and v2 statistics', () => {
    const v1 = '7:3 Read 4096\n7:3 Write 8388608\n7:3 Sync 0\n7:30 Write 1\nTotal 8392704\n'
    expect(parseIoBytes(1, v1, '7:3')).toEqual({ read: 4096, write: 8388608 })
    expect(parseIoBytes(2, '7:3 rbytes=4096 wbytes=8388608 rios=1 wios=8 dbytes=0 dios=0\n', '7:3')).toEqual({ read: 4096, write: 8388608 })
    expect(parseIoBytes(2, '', '7:3')).toEqual({ read: 0, write: 0 })
  })
})

describe('network limit files (pure)', () => {
  it('holds both ends to the rate with a bucket of 10 ms of traffic, at least 32 KiB', () => {
    expect(burstBytesFor(200e6)).toBe(250_000)
    expect(burstBytesFor(1e6)).toBe(32 * 1024)
    expect(tbfArgs('vbtr3r', 80e6, 100_000)).toEqual(['qdisc', 'replace', 'dev', 'vbtr3r', 'root', 'tbf', 'rate', '80000000bit', 'burst', '100000', 'latency', '50ms'])
    expect(() => tbfArgs('vbtr3r', 1.5e6 + 0.5, 100_000)).toThrow('whole number of bit/s')
  })
})
