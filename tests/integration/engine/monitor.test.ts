import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDiskstats, pickDevices, summarize } from '../../../src/main/engine/monitor/diskstats'
import { startDiskMonitor } from '../../../src/main/engine/monitor/monitor'
import { LocalSession } from '../../../src/main/ssh/local-session'
import type { SshSession } from '../../../src/main/ssh/session'
import { startSshd, type SshdServer } from '../../harness/sshd'
import { sessionFor } from '../ssh/session-helpers'

const SCRIPTS = path.resolve(__dirname, '../../../resources/scripts')
const SCRIPT = path.join(SCRIPTS, 'linux/diskstats.sh')
const MiB = 2 ** 20

/** The block device name (as /proc/diskstats lists it) holding `dir`, or why there is none. */
function blockDeviceOf(dir: string): { device: string } | { why: string } {
  const r = spawnSync('findmnt', ['-n', '-o', 'SOURCE,FSTYPE', '-T', dir], { encoding: 'utf8' })
  const [source = '', fstype = ''] = r.stdout.trim().split(/\s+/)
  // btrfs subvolumes show as /dev/sda2[/@]
  const dev = source.replace(/\[.*\]$/, '')
  if (!dev.startsWith('/dev/')) return { why: `${dir} is on ${source || '?'} (${fstype || '?'}), not a block device` }
  const device = path.basename(realpathSync(dev))
  return readDiskstatsLine(device) ? { device } : { why: `${dir} is on ${dev}, which /proc/diskstats does not list` }
}

/** This test's own reading of one /proc/diskstats line (independent of the parser under test). */
function readDiskstatsLine(device: string): { writes: number; sectorsWritten: number } | undefined {
  const fields = readFileSync('/proc/diskstats', 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f[2] === device)
  return fields ? { writes: Number(fields[7]), sectorsWritten: Number(fields[9]) } : undefined
}

function uptime(): number {
  return Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0])
}

function processesRunning(pattern: string): number {
  const r = spawnSync('pgrep', ['-f', pattern], { encoding: 'utf8' })
  return r.stdout.split('\n').filter((l) => l.trim() !== '' && Number(l) !== process.pid).length
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('the disk monitor on this computer (LocalSession)', () => {
  let scratch: string
  let workRoot: string
  let session: LocalSession
  let remoteScript: string
  /** A directory on a real block device (not tmpfs/overlay), and that device. */
  let disk: { dir: string; device: string }

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'virtbench-monitor-'))
    workRoot = path.join(scratch, 'work')
    session = new LocalSession({ killGraceMs: 500, workRoot })
    remoteScript = `${(await session.ensureScripts(SCRIPTS)).remoteDir}/linux/diskstats.sh`
    const tried: string[] = []
    for (const base of [scratch, '/var/tmp']) {
      const found = blockDeviceOf(base)
      if ('device' in found) {
        const dir = base === scratch ? scratch : mkdtempSync(path.join(base, 'virtbench-monitor-'))
        disk = { dir, device: found.device }
        break
      }
      tried.push(found.why)
    }
    if (!disk) throw new Error(`no writable directory on a real block device here (${tried.join('; ')}): this test measures one`)
  })

  afterAll(async () => {
    await session.close()
    if (disk && disk.dir !== scratch) rmSync(disk.dir, { recursive: true, force: true })
    rmSync(scratch, { recursive: true, force: true })
  })

  it('sees a 32 MiB O_DIRECT write on the disk holding the file, as the kernel counted it', async () => {
    const monitor = startDiskMonitor(session, { scriptsDir: SCRIPTS, intervalSeconds: 0.2, maxSeconds: 60 })
    expect(await monitor.ready).toBe(true)
    const before = { at: uptime(), counters: readDiskstatsLine(disk.device) }
    const dd = spawnSync('dd', ['if=/dev/zero', `of=${path.join(disk.dir, 'ddfile')}`, 'bs=1M', 'count=32', 'oflag=direct', 'conv=fsync'], { encoding: 'utf8' })
    expect(dd.status, dd.stderr).toBe(0)
    expect(dd.stderr).toContain('33554432 bytes')
    const after = { at: uptime(), counters: readDiskstatsLine(disk.device) }
    await sleep(250)
    const result = await monitor.stop()
    rmSync(path.join(disk.dir, 'ddfile'), { force: true })

    expect(result.error).toBeUndefined()
    expect(result.warnings).toEqual([])
    expect(result.raw).toMatch(/^virtbench-diskstats 1 interval=0\.2 sleep=0\.2 max=60\n/)
    expect(result.raw.endsWith('end\nstop signal\n')).toBe(true)
    expect(parseDiskstats(result.raw)).toMatchObject({ ok: true, snapshots: result.snapshots, stopReason: 'signal' })

    // the monitor's window holds the test's own: first snapshot before it, last one after it
    const first = result.snapshots[0]
    const last = result.snapshots.at(-1)
    expect(first && last && result.snapshots.length).toBeGreaterThanOrEqual(2)
    expect(first?.uptimeSeconds).toBeLessThanOrEqual(before.at)
    expect(last?.uptimeSeconds).toBeGreaterThanOrEqual(after.at)

    const summary = summarize(result.snapshots, disk.device, session.label)
    if (!summary.ok) throw new Error(summary.reason)
    const a = summary.activity
    const ownWrittenBytes = ((after.counters?.sectorsWritten ?? 0) - (before.counters?.sectorsWritten ?? 0)) * 512
    const ownWrites = (after.counters?.writes ?? 0) - (before.counters?.writes ?? 0)
    // dd's 32 MiB reached the disk; other programs may have written more meanwhile
    expect(ownWrittenBytes).toBeGreaterThanOrEqual(32 * MiB)
    expect(ownWrites).toBeGreaterThan(0)
    // the monitor saw at least what the test saw in its shorter window
    expect(Math.round(a.writeBytesPerSecond * a.seconds)).toBeGreaterThanOrEqual(ownWrittenBytes)
    expect(Math.round(a.writeIops * a.seconds)).toBeGreaterThanOrEqual(ownWrites)
    expect(a.writeIops).toBeGreaterThan(0)
    expect(a.seconds).toBeCloseTo(Math.round(((last?.uptimeSeconds ?? 0) - (first?.uptimeSeconds ?? 0)) * 100) / 100, 9)
    expect(a.avgIoSizeBytes).toBeGreaterThan(0)
    expect(a.busyPct).toBeGreaterThan(0)
    expect(pickDevices(result.snapshots)).toContain(disk.device)
    expect(processesRunning(remoteScript)).toBe(0)
  })

  it('stops at once, mid-interval, with a last snapshot taken on the way out', async () => {
    const monitor = startDiskMonitor(session, { scriptsDir: SCRIPTS, intervalSeconds: 30, maxSeconds: 600 })
    expect(await monitor.ready).toBe(true)
    expect(processesRunning(remoteScript)).toBeGreaterThan(0)
    const t0 = Date.now()
    const result = await monitor.stop()
    expect(Date.now() - t0).toBeLessThan(1500)
    expect(result.error).toBeUndefined()
    expect(result.snapshots).toHaveLength(2)
    expect(result.raw.endsWith('stop signal\n')).toBe(true)
    expect(processesRunning(remoteScript)).toBe(0)
    // stop() again gives the same result
    expect(await monitor.stop()).toBe(result)
  })

  it('stops by itself at its safety limit, and says that later activity is not covered', async () => {
    const monitor = startDiskMonitor(session, { scriptsDir: SCRIPTS, intervalSeconds: 0.2, maxSeconds: 1 })
    expect(await monitor.ready).toBe(true)
    await sleep(1600)
    expect(processesRunning(remoteScript)).toBe(0)
    const result = await monitor.stop()
    expect(result.error).toBeUndefined()
    expect(result.warnings).toEqual(['the disk monitor on this computer stopped by itself at its safety limit of 1 s; activity after that is not covered'])
    expect(result.raw.endsWith('end\nstop max\n')).toBe(true)
    const span = (result.snapshots.at(-1)?.uptimeSeconds ?? 0) - (result.snapshots[0]?.uptimeSeconds ?? 0)
    expect(span).toBeGreaterThanOrEqual(1)
    expect(span).toBeLessThan(2)
  })

  it('stops when the caller aborts its signal', async () => {
    const ac = new AbortController()
    const monitor = startDiskMonitor(session, { scriptsDir: SCRIPTS, intervalSeconds: 0.5, maxSeconds: 60, signal: ac.signal })
    expect(await monitor.ready).toBe(true)
    ac.abort()
    await sleep(300)
    expect(processesRunning(remoteScript)).toBe(0)
    const result = await monitor.stop()
    expect(result.error).toBeUndefined()
    expect(result.snapshots.length).toBeGreaterThanOrEqual(2)
  })

  it('never throws from stop(): a monitor that could not start or failed gives its reason', async () => {
    const badInterval = startDiskMonitor(session, { scriptsDir: SCRIPTS, intervalSeconds: 0, maxSeconds: 10 })
    expect(await badInterval.ready).toBe(false)
    expect(await badInterval.stop()).toEqual({ raw: '', snapshots: [], warnings: [], error: "the disk monitor's interval must be 0.1 to 3600 seconds, not 0" })

    const noScripts = startDiskMonitor(session, { scriptsDir: path.join(scratch, 'no-such-dir'), maxSeconds: 10 })
    expect(await noScripts.ready).toBe(false)
    const missing = await noScripts.stop()
    expect(missing).toMatchObject({ raw: '', snapshots: [], error: expect.stringMatching(/^the disk monitor on this computer could not run: .*no-such-dir/) })

    const early = startDiskMonitor(session, { scriptsDir: SCRIPTS, maxSeconds: 10 })
    expect(await early.stop()).toEqual({ raw: '', snapshots: [], warnings: [], error: 'the disk monitor on this computer was stopped before it started: nothing was measured' })

    // a target whose /proc/diskstats cannot be read: a script that fails as diskstats.sh does there
    const failing = path.join(scratch, 'failing-scripts')
    mkdirSync(path.join(failing, 'linux'), { recursive: true })
    writeFileSync(path.join(failing, 'linux', 'diskstats.sh'), "printf 'diskstats.sh: cannot read /proc/diskstats on this machine\\n' >&2\nexit 3\n")
    const fails = startDiskMonitor(session, { scriptsDir: failing, maxSeconds: 10 })
    expect(await fails.ready).toBe(false)
    expect(await fails.stop()).toEqual({
      raw: '',
      snapshots: [],
      warnings: [],
      error: 'the disk monitor on this computer failed (exit code 3): diskstats.sh: cannot read /proc/diskstats on this machine'
    })
  })
})

describe('the disk monitor over SSH (real sshd)', () => {
  let server: SshdServer
  let session: SshSession
  let scratch: string

  beforeAll(async () => {
    server = await startSshd()
    scratch = mkdtempSync(path.join(os.tmpdir(), 'virtbench-monitor-ssh-'))
    session = sessionFor(server, { workRoot: path.join(scratch, 'work') })
  })
  afterAll(async () => {
    await session?.close()
    await server?.stop()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('collects snapshots and leaves no process on the target after stop()', async () => {
    const monitor = startDiskMonitor(session, { scriptsDir: SCRIPTS, intervalSeconds: 0.2, maxSeconds: 60 })
    expect(await monitor.ready).toBe(true)
    const remoteScript = `${(await session.ensureScripts(SCRIPTS)).remoteDir}/linux/diskstats.sh`
    expect(processesRunning(remoteScript)).toBeGreaterThan(0)
    await sleep(500)
    const result = await monitor.stop()
    expect(result.error).toBeUndefined()
    expect(result.snapshots.length).toBeGreaterThanOrEqual(3)
    expect(result.raw.endsWith('stop signal\n')).toBe(true)
    for (let i = 0; i < 40 && processesRunning(remoteScript) > 0; i++) await sleep(50)
    expect(processesRunning(remoteScript)).toBe(0)
    expect(summarize(result.snapshots, result.snapshots[0]?.devices[0]?.device ?? '', session.label).ok).toBe(true)
  })
})

describe('diskstats.sh itself', () => {
  const shells = [['dash'], ['busybox', 'sh']]

  it('runs under dash and BusyBox sh: header, snapshots, safety stop', async () => {
    const run = (shell: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        const child = spawn(shell[0] as string, [...shell.slice(1), SCRIPT, '0.2', '1'], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 5000 })
        let stdout = ''
        let stderr = ''
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
        child.on('close', (code) => resolve({ code, stdout, stderr }))
      })
    for (const r of await Promise.all(shells.map(run))) {
      expect(r.code).toBe(0)
      expect(r.stderr).toBe('')
      const parsed = parseDiskstats(r.stdout)
      expect(parsed).toMatchObject({ ok: true, header: { version: 1, intervalSeconds: 0.2, sleepSeconds: 0.2, maxSeconds: 1 }, stopReason: 'max', warnings: [] })
      expect(parsed.ok && parsed.snapshots.length).toBeGreaterThanOrEqual(5)
    }
  })

  it.each(shells)('under %s, ends within a moment of TERM sent to the shell alone', async (...shell) => {
    const child = spawn(shell[0] as string, [...shell.slice(1), SCRIPT, '30', '600'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    for (let i = 0; i < 100 && !out.includes('end\n'); i++) await sleep(20)
    const t0 = Date.now()
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(Date.now() - t0).toBeLessThan(1000)
    await sleep(50)
    expect(out.endsWith('end\nstop signal\n')).toBe(true)
    expect(out.match(/^snapshot /gm)).toHaveLength(2)
  })

  it('refuses bad arguments with a message saying what to give', () => {
    for (const [args, message] of [
      [['1'], 'expected 2 arguments, got 1'],
      [['0', '5'], "INTERVAL_SECONDS must be more than 0, got '0'"],
      [['1e3', '5'], "INTERVAL_SECONDS must be a number of seconds like 1 or 0.5, got '1e3'"],
      [['$(touch pwned)', '5'], "INTERVAL_SECONDS must be a number of seconds like 1 or 0.5, got '$(touch pwned)'"],
      [['1', '2.5'], "MAX_SECONDS must be a whole number of seconds, got '2.5'"],
      [['1', '0'], "MAX_SECONDS must be more than 0, got '0'"]
    ] as const) {
      const r = spawnSync('dash', [SCRIPT, ...args], { encoding: 'utf8', cwd: os.tmpdir() })
      expect(r.status).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toContain(`diskstats.sh: ${message}\nusage: sh diskstats.sh INTERVAL_SECONDS MAX_SECONDS`)
    }
  })
})
