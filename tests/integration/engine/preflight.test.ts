import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { evaluatePreflight, formatBytes, type PreflightTarget, type StorageChoice, type StorageNeeds } from '../../../src/main/engine/preflight/evaluate'
import type { PreflightFacts } from '../../../src/main/engine/preflight/facts'
import { installCommand, runInstall, type InstallPlan } from '../../../src/main/engine/preflight/install'
import { collectPreflightFacts, probeTarget, type PreflightRequest } from '../../../src/main/engine/preflight/preflight'
import { LocalSession } from '../../../src/main/ssh/local-session'
import type { Finding } from '../../../src/shared/model/run'
import { quoteSh } from '../../../src/shared/shell-quote'
import { mountedBlockDevice } from '../../harness/devices'

const SCRIPTS = path.resolve(__dirname, '../../../resources/scripts')
const MiB = 1024 ** 2
const TiB = 1024 ** 4
const SMALL: StorageNeeds = { workingSetBytes: 16 * MiB, directIo: false, uncached: false }

const run = (file: string, args: string[]): string => execFileSync(file, args, { encoding: 'utf8' }).trim()
const byCode = (findings: Finding[], code: string): Finding[] => findings.filter((f) => f.code === code)
const deviceErrors = (findings: Finding[]): Finding[] => findings.filter((f) => f.severity === 'error' && f.code.startsWith('device-'))

function evaluate(facts: PreflightFacts, storage: StorageChoice, over: Partial<PreflightTarget> = {}): Finding[] {
  return evaluatePreflight({ storage, targets: [{ name: 'this computer', role: 'baseline', facts, tools: [], storage: SMALL, ...over }] })
}

/** A block device mounted here, found independently of the code under test: what holds /, else any /dev/ mount. */

describe('preflight on this computer (real sh, real tools, real devices)', () => {
  let scratch: string
  let session: LocalSession
  const request = (over: Partial<PreflightRequest>): PreflightRequest => ({ scriptsDir: SCRIPTS, tools: [], ...over })

  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'vb-preflight-'))
    session = new LocalSession({ workRoot: path.join(scratch, 'scripts') })
  })
  afterAll(async () => {
    await session.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('finds installed tools with the version they print themselves, and offers the apt command for a missing one', async () => {
    expect(spawnSync('sh', ['-c', 'command -v iozone']).status, 'iozone must not be installed here for this test').not.toBe(0)
    const dir = path.join(scratch, 'tools', 'work')
    const facts = await collectPreflightFacts(session, request({ tools: ['fio', 'dd', 'iozone'], dir }))
    expect(facts.problems).toEqual([])
    expect(facts.tools.fio).toEqual({ found: true, path: run('sh', ['-c', 'command -v fio']), version: run('fio', ['--version']) })
    expect(facts.tools.dd?.version).toBe(run('dd', ['--version']).split('\n')[0])
    expect(facts.tools.iozone).toEqual({ found: false })
    expect(facts.packageManager).toBe('apt')
    expect(facts.uid).toBe(process.getuid?.())
    expect(facts.dir).toMatchObject({ path: dir, existed: false, created: true, exists: true, writable: true })
    expect(statSync(dir).isDirectory()).toBe(true)

    const findings = evaluate(facts, { kind: 'directory', path: dir }, { tools: ['fio', 'iozone'] })
    const missing = byCode(findings, 'tool-missing')
    const expected = `${process.getuid?.() === 0 ? '' : 'sudo '}apt-get install -y iozone3`
    expect(missing).toEqual([
      expect.objectContaining({ severity: 'error', target: 'this computer', message: 'IOzone is not installed on this computer.', command: expected })
    ])
    expect(installCommand('iozone', 'apt', process.getuid?.() !== 0)).toBe(expected)
    expect(byCode(findings, 'tool-present')[0]?.message).toBe(`fio is installed on this computer at ${facts.tools.fio?.path} (${facts.tools.fio?.version}).`)
  })

  it('reads the real free space and refuses a working set that does not fit', async () => {
    const dir = path.join(scratch, 'space')
    const facts = await collectPreflightFacts(session, request({ dir }))
    const fs = statfsSync(dir)
    const free = fs.bavail * fs.bsize
    expect(facts.dir?.freeBytes).toBeDefined()
    // other processes write meanwhile: the two readings agree within 256 MiB
    expect(Math.abs((facts.dir?.freeBytes ?? 0) - free)).toBeLessThan(256 * MiB)
    expect(facts.dir?.fsType).toBe(run('findmnt', ['-no', 'FSTYPE', '--target', dir]))

    const findings = evaluate(facts, { kind: 'directory', path: dir }, { storage: { ...SMALL, workingSetBytes: 100 * TiB } })
    const space = byCode(findings, 'space')
    expect(space).toHaveLength(1)
    expect(space[0]?.message).toBe(
      `${dir} on this computer has ${formatBytes(facts.dir?.freeBytes ?? 0)} free, but the largest test writes 100.0 TiB and needs 120.0 TiB (1.2 times that).`
    )
    expect(byCode(evaluate(facts, { kind: 'directory', path: dir }), 'space')).toEqual([])
  })

  it('refuses direct I/O in a tmpfs directory (/dev/shm)', async () => {
    const shmType = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .map((l) => l.split(' '))
      .filter((f) => f[1] === '/dev/shm')
      .pop()?.[2]
    expect(shmType, '/dev/shm is tmpfs on this machine').toBe('tmpfs')
    const dir = `/dev/shm/vb-preflight-${process.pid}-${Date.now()}`
    try {
      const facts = await collectPreflightFacts(session, request({ dir }))
      expect(facts.dir).toMatchObject({ path: dir, fsType: 'tmpfs', mountPoint: '/dev/shm' })
      const findings = evaluate(facts, { kind: 'directory', path: dir }, { storage: { ...SMALL, directIo: true } })
      expect(byCode(findings, 'tmpfs-direct')).toEqual([
        expect.objectContaining({
          severity: 'error',
          target: 'this computer',
          message: `The test directory ${dir} on this computer is on tmpfs (memory, mounted at /dev/shm): direct I/O there measures RAM, not a disk, and older kernels refuse O_DIRECT on it.`
        })
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses the mounted disk behind /', async () => {
    const { device, mountPoint } = mountedBlockDevice()
    const facts = await collectPreflightFacts(session, request({ device }))
    expect(facts.device?.mounts).toContainEqual(expect.objectContaining({ mountPoint }))
    const findings = evaluate(facts, { kind: 'device', path: device, confirm: device })
    const mounted = byCode(findings, 'device-mounted').find((f) => f.message.includes(` is mounted on ${mountPoint} `) || f.message.includes(` is mounted on ${mountPoint}.`))
    expect(mounted).toMatchObject({ severity: 'error', target: 'this computer' })
    expect(mounted?.message).toMatch(new RegExp(`^${device.replace(/[/.]/g, '\\$&')}( \\(.*\\))? on this computer is in use: `))
  })

  it('keeps a hostile directory name a plain name', async () => {
    const dir = path.join(scratch, "$(touch pwned); rm -rf ~ 'x'")
    const facts = await collectPreflightFacts(session, request({ dir, tools: ['fio'] }))
    expect(facts.dir).toMatchObject({ path: dir, created: true, exists: true })
    expect(statSync(dir).isDirectory()).toBe(true)
    expect(existsSync(path.join(process.cwd(), 'pwned'))).toBe(false)
    expect(existsSync(path.join(scratch, 'pwned'))).toBe(false)
  })

  it('measures whether the machine is idle', async () => {
    const facts = await collectPreflightFacts(session, request({ idleSeconds: 1 }))
    expect(facts.idle?.seconds).toBe(1)
    expect(facts.idle?.load).toHaveLength(3)
    expect(facts.idle?.busyPct).toBeGreaterThanOrEqual(0)
    expect(facts.idle?.busyPct).toBeLessThanOrEqual(100)
    expect(facts.cpus).toBe(Number(run('getconf', ['_NPROCESSORS_ONLN'])))
  })

  it('finds UnixBench by its ./Run in the folder the plan names, and reads the version Run declares', async () => {
    const folder = path.join(scratch, 'ub', 'UnixBench')
    mkdirSync(folder, { recursive: true })
    // the lines of byte-unixbench's Run that the lookup reads (it never runs Run)
    writeFileSync(path.join(folder, 'Run'), '#!/usr/bin/perl -w\n# Version number of the script.\nmy $version = "5.1.6";\n')
    const facts = await collectPreflightFacts(session, request({ tools: ['unixbench'], unixbenchDir: folder }))
    expect(facts.tools.unixbench).toEqual({ found: true, path: folder, version: 'UnixBench 5.1.6' })
  })

  it('stops when cancelled and says so, keeping what was read', async () => {
    const abort = new AbortController()
    setTimeout(() => abort.abort(), 1500)
    const facts = await collectPreflightFacts(session, request({ tools: ['fio'], idleSeconds: 20, signal: abort.signal }))
    expect(facts.problems[0]).toBe('the checks on this computer were cancelled')
    expect(facts.problems).toContain('the preflight output ended early (no "end" line): the facts after its last line were not read')
    expect(facts.tools.fio?.found).toBe(true)
  })

  it('answers a closed session as unreachable instead of throwing', async () => {
    const closed = new LocalSession({ label: 'gone', workRoot: path.join(scratch, 'closed') })
    await closed.close()
    const facts = await probeTarget(closed, request({ tools: ['fio'] }))
    expect(facts).toEqual({ unreachable: 'the session to gone is closed' })
    expect(evaluatePreflight({ storage: { kind: 'directory', path: '/x' }, targets: [{ name: 'gone', role: 'variant', facts, tools: ['fio'] }] })).toEqual([
      expect.objectContaining({ severity: 'error', code: 'unreachable', message: 'gone (a variant) cannot be reached: the session to gone is closed' })
    ])
  })

  describe('a loop device on a 16 MiB file', () => {
    let image: string
    let loop: string

    beforeAll(() => {
      image = path.join(scratch, 'disk.img')
      writeFileSync(image, '')
      truncateSync(image, 16 * MiB)
      loop = run('losetup', ['-f', '--show', image])
    })
    afterAll(() => {
      if (loop) spawnSync('losetup', ['-d', loop])
      rmSync(image, { force: true })
    })

    it('is refused without a confirmation naming it, or with one naming another device', async () => {
      const facts = await collectPreflightFacts(session, request({ device: loop }))
      const missing = byCode(evaluate(facts, { kind: 'device', path: loop }), 'device-confirm-missing')
      expect(missing).toHaveLength(1)
      expect(missing[0]?.message).toBe(`The plan writes to the raw device ${loop} on this computer, destroying everything on it, but carries no confirmation naming that device.`)
      const other = byCode(evaluate(facts, { kind: 'device', path: loop, confirm: '/dev/sda' }), 'device-confirm-mismatch')
      expect(other[0]?.message).toBe(`The plan writes to the raw device ${loop} on this computer, but its confirmation says "/dev/sda", not ${loop}.`)
    })

    it('passes while empty, and is refused with the ext4 signature once mkfs.ext4 has written one', async () => {
      const storage: StorageChoice = { kind: 'device', path: loop, confirm: loop }
      const clean = await collectPreflightFacts(session, request({ device: loop }))
      expect(clean.device).toMatchObject({ exists: true, block: true, readable: true, sizeBytes: 16 * MiB, signatures: [], mounts: [] })
      expect(deviceErrors(evaluate(clean, storage))).toEqual([])

      execFileSync('mkfs.ext4', ['-q', loop])
      const uuid = run('blkid', ['-p', '-o', 'value', '-s', 'UUID', loop])
      const used = await collectPreflightFacts(session, request({ device: loop }))
      const findings = deviceErrors(evaluate(used, storage))
      expect(findings.map((f) => f.code)).toEqual(['device-signature'])
      expect(findings[0]?.message).toContain(`${loop} on this computer is not empty: it holds ext4 (wipefs: "ext4 0x438"; blkid: "${loop}: UUID=\\"${uuid}\\"`)
      expect(findings[0]?.fix).toBe(`A raw-device test overwrites it. Choose another device, or, if its data is no longer needed, erase the signatures (wipefs -a ${quoteSh(loop)}).`)
    })

    it('checks the device through sudo when the target has it, and the rest as the login user', async () => {
      const dir = path.join(scratch, 'with-sudo')
      const facts = await collectPreflightFacts(session, request({ device: loop, dir, tools: ['fio'], sudo: { mode: 'passwordless' } }))
      expect(facts.problems).toEqual([])
      expect(facts.tools.fio?.found).toBe(true)
      expect(facts.dir?.created).toBe(true)
      expect(facts.device?.signatures.map((s) => s.type)).toEqual(['ext4', 'ext4'])
    })
  })
})

describe('runInstall (real commands on this computer)', () => {
  let scratch: string
  let session: LocalSession

  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'vb-install-'))
    session = new LocalSession({ label: 'this computer', workRoot: path.join(scratch, 'scripts') })
  })
  afterAll(async () => {
    await session.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('runs the package step (apt without questions), then the build steps in the home directory', async () => {
    const out = path.join(scratch, 'frontend')
    const plan: InstallPlan = {
      tool: 'mbw',
      packageManager: 'apt',
      packages: ['sh', '-c', `echo "$DEBIAN_FRONTEND" > ${quoteSh(out)}`],
      build: [`pwd > ${quoteSh(path.join(scratch, 'pwd'))}`],
      notes: []
    }
    const result = await runInstall(session, plan, false)
    expect(result).toMatchObject({ ok: true })
    expect(result.steps.map((s) => [s.exitCode, s.sudo])).toEqual([
      [0, false],
      [0, false]
    ])
    expect(readFileSync(out, 'utf8')).toBe('noninteractive\n')
    expect(readFileSync(path.join(scratch, 'pwd'), 'utf8').trim()).toBe(os.homedir())
  })

  it('stops at the first failure and says which command failed, where, and its last output', async () => {
    const marker = path.join(scratch, 'never')
    const plan: InstallPlan = { tool: 'fio', packageManager: 'dnf', packages: ['sh', '-c', 'echo "No match for argument: fio"; exit 1'], build: [`touch ${quoteSh(marker)}`], notes: [] }
    const result = await runInstall(session, plan, false)
    expect(result.ok).toBe(false)
    expect(result.steps).toHaveLength(1)
    expect(result.error).toBe(
      "installing fio on this computer: `sh -c 'echo \"No match for argument: fio\"; exit 1'` failed with exit status 1: No match for argument: fio. Run it there by hand to see the whole output."
    )
    expect(existsSync(marker)).toBe(false)
  })
})
