/**
 * Runs resources/scripts/linux/environment.sh for real on this machine, through LocalSession
 * (the same wrapper as an SSH target) and under BusyBox sh with BusyBox applets alone, and checks
 * what the parser makes of it against what this test reads itself from /proc, /sys, nproc,
 * uname and df.
 *
 * The capture runs with a PATH that hides `virsh` (CI installs libvirt-clients for the guest lab),
 * so a host without libvirt is what is seen. One test puts stand-ins named `virsh` and `ethtool`
 * first on PATH: small scripts printing libvirt's own test XML and ethtool's -l format, to
 * exercise the script's domain markers, its fallback to the read-only system connection, its
 * quoting of domain names and its reading of channels.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureEnvironment } from '../../../src/main/engine/environment/capture'
import { parseEnvironment } from '../../../src/main/engine/environment/parse'
import { toolProbeArgs } from '../../../src/main/engine/tool-probes'
import { TOOL_IDS } from '../../../src/shared/model/tool-ids'
import { LocalSession } from '../../../src/main/ssh/local-session'
import type { TargetEnvironment } from '../../../src/shared/model/environment'

const SCRIPTS = path.resolve(__dirname, '../../../resources/scripts')
const SCRIPT = path.join(SCRIPTS, 'linux', 'environment.sh')
/** How the engine tells the script to find each tool and read its version. */
const TOOL_ARGS = toolProbeArgs(TOOL_IDS).args
const LIBVIRT = path.resolve(__dirname, '../../fixtures/environment/libvirt')

function read(file: string): string {
  return readFileSync(file, 'utf8').trim()
}

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: 'utf8' }).trim()
}

/** The block devices the script describes: /sys/block without loop, ram, zram and empty slots. */
function realBlockDevices(): string[] {
  return readdirSync('/sys/block')
    .filter((d) => !/^(loop|ram|zram)/.test(d) && read(`/sys/block/${d}/size`) !== '0')
    .sort()
}

/**
 * PATH with `command` hidden: each directory on PATH that holds it is replaced by a directory of
 * symlinks to everything else in it.
 */
function pathWithout(command: string, scratch: string): string {
  const dirs = (process.env.PATH ?? '/usr/bin:/bin').split(':').filter(Boolean)
  return dirs
    .map((dir, i) => {
      if (!existsSync(path.join(dir, command))) return dir
      const shadow = path.join(scratch, `path-${i}`)
      mkdirSync(shadow)
      for (const name of readdirSync(dir)) if (name !== command) symlinkSync(path.join(dir, name), path.join(shadow, name))
      return shadow
    })
    .join(':')
}

/**
 * `sh script args` as the user nobody. The script's folder (it sources its neighbours) is copied to
 * one of its own that the user nobody can read, as on a target: the checkout may not be (a
 * private home, a 0700 CI workspace).
 */
function runAsNobody(script: string, args: string[]): SpawnSyncReturns<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'virtbench-as-nobody-'))
  try {
    chmodSync(dir, 0o755)
    for (const name of readdirSync(path.dirname(script))) {
      copyFileSync(path.join(path.dirname(script), name), path.join(dir, name))
      chmodSync(path.join(dir, name), 0o644)
    }
    return spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'sh', path.join(dir, path.basename(script)), ...args], {
      encoding: 'utf8',
      cwd: '/'
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** `df -Pk` of a directory: device and available bytes. */
function df(dir: string): { device: string; freeBytes: number } {
  const fields = run('df', ['-Pk', dir]).split('\n')[1]?.split(/\s+/) ?? []
  return { device: fields[0] ?? '', freeBytes: Number(fields[3]) * 1024 }
}

describe('environment.sh on this machine', () => {
  let scratch: string
  let workDir: string
  let session: LocalSession
  let env: TargetEnvironment
  let noVirshPath: string

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'virtbench-env-'))
    workDir = path.join(scratch, 'work dir')
    mkdirSync(workDir)
    noVirshPath = pathWithout('virsh', scratch)
    session = new LocalSession({ workRoot: path.join(scratch, 'scripts') })
    // LocalSession's commands inherit this process's environment
    const savedPath = process.env.PATH
    process.env.PATH = noVirshPath
    try {
      env = await captureEnvironment(session, { scriptsDir: SCRIPTS, workDir, domains: ['guest-a'] })
    } finally {
      process.env.PATH = savedPath
    }
  })
  afterAll(async () => {
    await session.removeWorkDir()
    await session.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('reads the system facts this test reads itself', () => {
    const memTotalKib = Number(/^MemTotal:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1])
    expect(env.memoryBytes).toBe(memTotalKib * 1024)
    expect(env.cpuCount).toBe(Number(run('nproc', [])))
    expect(env.kernel).toBe(run('uname', ['-r']))
    expect(env.arch).toBe(run('uname', ['-m']))
    expect(env.hostname).toBe(run('uname', ['-n']))
    expect(env.clocksource).toBe(read('/sys/devices/system/clocksource/clocksource0/current_clocksource'))
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1]
    expect(env.os).toBe(pretty)
    expect(env.virtualization).toBe(run('sh', ['-c', 'systemd-detect-virt --vm || true']))
    expect(env.stealPct).toBeGreaterThanOrEqual(0)
    expect(env.stealPct).toBeLessThan(100)
    expect(env.loadAverage).toHaveLength(3)
  })

  it('describes each block device as /sys/block does', () => {
    expect(env.blockDevices?.map((d) => d.name).sort()).toEqual(realBlockDevices())
    for (const d of env.blockDevices ?? []) {
      const sys = `/sys/block/${d.name}`
      expect(d.sizeBytes, d.name).toBe(Number(read(`${sys}/size`)) * 512)
      if (existsSync(`${sys}/queue/scheduler`)) expect(read(`${sys}/queue/scheduler`)).toContain(`[${d.scheduler}]`)
      expect(d.rotational).toBe(read(`${sys}/queue/rotational`) === '1')
      expect(d.writeCache).toBe(read(`${sys}/queue/write_cache`))
      if (existsSync(`${sys}/mq`)) expect(d.mqQueues).toBe(readdirSync(`${sys}/mq`).length)
    }
  })

  it("records the work directory's filesystem, device and free space as df sees them", () => {
    const now = df(workDir)
    expect(env.workDir?.path).toBe(workDir)
    expect(env.workDir?.device).toBe(now.device)
    expect(env.workDir?.filesystem).toBe(run('df', ['-PT', workDir]).split('\n')[1]?.split(/\s+/)[1])
    // other tests write files meanwhile: the same figure within 512 MiB
    expect(Math.abs((env.workDir?.freeBytes ?? 0) - now.freeBytes)).toBeLessThan(512 * 1024 * 1024)
  })

  it('lists the network interfaces but lo, with their drivers and addresses', () => {
    const names = readdirSync('/sys/class/net').filter((n) => n !== 'lo').sort()
    expect(env.nics?.map((n) => n.name).sort()).toEqual(names)
    for (const nic of env.nics ?? []) {
      const driver = `/sys/class/net/${nic.name}/device/driver`
      expect(nic.driver, nic.name).toBe(existsSync(driver) ? path.basename(readlinkSync(driver)) : undefined)
    }
    const ipv4 = run('ip', ['-o', '-4', 'addr', 'show']).split('\n').filter((l) => l.split(/\s+/)[1] !== 'lo')
    for (const line of ipv4) {
      const [, name, , address] = line.split(/\s+/)
      expect(env.nics?.find((n) => n.name === name)?.addresses).toContain(address)
    }
  })

  it("records the tools' own version lines", () => {
    expect(env.tools?.fio).toBe(run('fio', ['--version']))
    expect(env.tools?.sysbench).toBe(run('sysbench', ['--version']))
    expect(env.tools?.iperf3).toBe(run('iperf3', ['--version']).split('\n')[0])
    expect(env.tools?.dd).toBe(run('dd', ['--version']).split('\n')[0])
    expect(env.tools?.iozone).toBeUndefined()
  })

  it('says the domain XML cannot be read on a host without virsh', () => {
    const hasVirsh = spawnSync('sh', ['-c', 'command -v virsh'], { env: { ...process.env, PATH: noVirshPath } }).status === 0
    expect(hasVirsh).toBe(false)
    expect(env.guests).toStrictEqual({ 'guest-a': { domain: 'guest-a', disks: [], error: 'virsh is not installed on this host' } })
    expect(env.notes?.some((n) => /stopped before its end|not the output/.test(n))).toBe(false)
  })

  it('runs under BusyBox sh with BusyBox applets alone, with the same facts and no error output', () => {
    const bin = path.join(scratch, 'busybox-bin')
    mkdirSync(bin)
    for (const applet of run('busybox', ['--list']).split('\n')) {
      symlinkSync('/usr/bin/busybox', path.join(bin, applet))
    }
    const r = spawnSync(path.join(bin, 'sh'), [SCRIPT, ...TOOL_ARGS, workDir, 'guest-a'], { env: { PATH: bin }, encoding: 'utf8' })
    expect(r.status).toBe(0)
    expect(r.stderr).toBe('')
    const bb = parseEnvironment(r.stdout, new Date().toISOString())
    expect(bb.kernel).toBe(env.kernel)
    expect(bb.memoryBytes).toBe(env.memoryBytes)
    expect(bb.cpuModel).toBe(env.cpuModel)
    expect(bb.blockDevices).toStrictEqual(env.blockDevices)
    expect(bb.workDir?.filesystem).toBe(env.workDir?.filesystem)
    expect(bb.workDir?.device).toBe(env.workDir?.device)
    expect(bb.nics?.map((n) => [n.name, n.driver, n.addresses])).toEqual(env.nics?.map((n) => [n.name, n.driver, n.addresses]))
    expect(bb.guests).toStrictEqual(env.guests)
  })

  it('needs no root: as nobody it reads the same facts', () => {
    const r = runAsNobody(SCRIPT, [...TOOL_ARGS, os.tmpdir()])
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
    const asNobody = parseEnvironment(r.stdout, new Date().toISOString())
    expect(asNobody.memoryBytes).toBe(env.memoryBytes)
    expect(asNobody.cpuCount).toBe(env.cpuCount)
    expect(asNobody.virtualization).toBe(env.virtualization)
    expect(asNobody.blockDevices).toStrictEqual(env.blockDevices)
    expect(asNobody.nics).toStrictEqual(env.nics)
    expect(asNobody.tools).toStrictEqual(env.tools)
    expect(asNobody.workDir?.filesystem).toBe(run('df', ['-PT', os.tmpdir()]).split('\n')[1]?.split(/\s+/)[1])
  })

  it('runs under dash with nothing on stderr', () => {
    const r = spawnSync('dash', [SCRIPT, ...TOOL_ARGS, workDir], { encoding: 'utf8' })
    expect(r.status).toBe(0)
    expect(r.stderr).toBe('')
    expect(r.stdout.endsWith('end\tok\n')).toBe(true)
  })

  it('reads virsh dumpxml between markers, falls back to the read-only system connection, and quotes domain names', async () => {
    const bin = path.join(scratch, 'stand-ins')
    mkdirSync(bin)
    const pwned = path.join(scratch, 'pwned')
    const hostile = `guest b $(touch ${pwned})`
    // libvirt is not installed here: this stand-in answers as virsh does for these arguments
    writeFileSync(
      path.join(bin, 'virsh'),
      [
        '#!/bin/sh',
        `case "$*" in`,
        `  'dumpxml -- guest-a') cat '${LIBVIRT}/disk-virtio-queues.xml' ;;`,
        `  '-r -c qemu:///system dumpxml -- ${hostile}') cat '${LIBVIRT}/disk-cache.xml' ;;`,
        `  *) for last; do :; done; echo "error: failed to get domain '$last'" >&2; echo "error: Domain not found: no domain with matching name '$last'" >&2; exit 1 ;;`,
        'esac',
        ''
      ].join('\n')
    )
    // nor is ethtool: this one prints `ethtool -l` as ethtool 6.1 does for a multi-queue NIC
    writeFileSync(
      path.join(bin, 'ethtool'),
      `#!/bin/sh\n[ "$1" = -l ] || exit 1\nprintf 'Channel parameters for %s:\\nPre-set maximums:\\nRX:\\t\\tn/a\\nTX:\\t\\tn/a\\nOther:\\t\\tn/a\\nCombined:\\t4\\nCurrent hardware settings:\\nRX:\\t\\tn/a\\nTX:\\t\\tn/a\\nOther:\\t\\tn/a\\nCombined:\\t2\\n' "$2"\n`
    )
    chmodSync(path.join(bin, 'virsh'), 0o755)
    chmodSync(path.join(bin, 'ethtool'), 0o755)

    const r = await session.exec(
      { argv: ['sh', SCRIPT, workDir, 'guest-a', hostile, 'missing'] },
      { env: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}` }, capture: { maxBytes: 1 << 20 }, timeoutMs: 30_000 }
    )
    expect(r.exitCode).toBe(0)
    const out = parseEnvironment(r.stdout?.toString() ?? '', new Date().toISOString())
    expect(existsSync(pwned)).toBe(false)
    expect(Object.keys(out.guests ?? {})).toEqual(['guest-a', hostile, 'missing'])
    expect(out.guests?.['guest-a']?.disks.map((d) => [d.device, d.queues, d.source])).toEqual([
      ['vda', 4, '/tmp/data.img'],
      ['vdb', undefined, '/tmp/data1.img'],
      ['vdc', 4, '/tmp/data2.img']
    ])
    expect(out.guests?.[hostile]?.disks.map((d) => d.cache)).toEqual(['writeback', 'unsafe', 'none', 'writethrough', 'directsync'])
    expect(out.guests?.missing).toStrictEqual({
      domain: 'missing',
      disks: [],
      error: "error: failed to get domain 'missing' error: Domain not found: no domain with matching name 'missing'"
    })
    for (const nic of out.nics ?? []) expect(nic.channels, nic.name).toStrictEqual({ max: 4, current: 2 })
    expect(out.notes ?? []).not.toContain('ethtool is not installed: NIC channels not read')
  })
})

describe('captureEnvironment: failures become notes', () => {
  it('a scripts directory that cannot be uploaded gives an environment with a note, not an exception', async () => {
    const session = new LocalSession({ workRoot: mkdtempSync(path.join(os.tmpdir(), 'virtbench-env-none-')) })
    try {
      const env = await captureEnvironment(session, { scriptsDir: path.join(os.tmpdir(), 'no-such-virtbench-scripts'), workDir: os.tmpdir() })
      expect(env.notes).toHaveLength(1)
      expect(env.notes?.[0]).toMatch(/^this computer: environment capture failed: cannot read the scripts directory/)
    } finally {
      await session.close()
    }
  })

  it('a cancelled capture says so', async () => {
    const session = new LocalSession({ workRoot: mkdtempSync(path.join(os.tmpdir(), 'virtbench-env-cancel-')) })
    try {
      const env = await captureEnvironment(session, { scriptsDir: SCRIPTS, workDir: os.tmpdir(), signal: AbortSignal.abort() })
      expect(env.notes).toEqual(['this computer: environment capture cancelled before it started'])
    } finally {
      await session.removeWorkDir()
      await session.close()
    }
  })
})
