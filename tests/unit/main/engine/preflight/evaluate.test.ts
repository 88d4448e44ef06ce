import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  deviceConfirmationFinding,
  deviceConfirmed,
  evaluatePreflight,
  formatBytes,
  installOffers,
  type PreflightInput,
  type PreflightTarget,
  type StorageNeeds
} from '../../../../../src/main/engine/preflight/evaluate'
import type { DeviceFacts, PreflightFacts } from '../../../../../src/main/engine/preflight/facts'
import { parsePreflightOutput } from '../../../../../src/main/engine/preflight/parse'
import { FindingSchema, type Finding } from '../../../../../src/shared/model/run'

const FIXTURES = path.resolve(__dirname, '../../../../fixtures/preflight')
const fromFixture = (name: string): PreflightFacts => parsePreflightOutput(readFileSync(path.join(FIXTURES, name), 'utf8'))

const GiB = 1024 ** 3
const MiB = 1024 ** 2
const SMALL: StorageNeeds = { workingSetBytes: 64 * MiB, directIo: false, uncached: false }
const DIR = { kind: 'directory', path: '/srv/vb' } as const

function facts(over: Partial<PreflightFacts> = {}): PreflightFacts {
  return {
    system: 'Linux',
    uid: 1000,
    cpus: 4,
    memTotalBytes: 8 * GiB,
    packageManager: 'apt',
    sudo: { present: true, passwordless: true },
    tools: { fio: { found: true, path: '/usr/bin/fio', version: 'fio-3.33' } },
    dir: { path: '/srv/vb', exists: true, writable: true, fsType: 'ext4', mountPoint: '/srv', source: '/dev/vdb1', freeBytes: 100 * GiB, direct: true },
    problems: [],
    ...over
  }
}

function device(over: Partial<DeviceFacts> = {}): DeviceFacts {
  return {
    path: '/dev/vdb',
    exists: true,
    block: true,
    resolved: '/dev/vdb',
    name: 'vdb',
    sizeBytes: 20 * GiB,
    readonly: false,
    readable: true,
    partitions: [],
    holders: [],
    mounts: [],
    swaps: [],
    signatures: [],
    probes: { wipefs: { status: 'ok' }, blkid: { status: 'ok' }, lsblk: { status: 'ok' } },
    ...over
  }
}

function target(over: Partial<PreflightTarget> = {}): PreflightTarget {
  return { name: 'guest-a', role: 'variant', facts: facts(), tools: ['fio'], storage: SMALL, ...over }
}

function run(input: Partial<PreflightInput> & { targets: PreflightTarget[] }): Finding[] {
  return evaluatePreflight({ storage: DIR, ...input })
}

const problems = (findings: Finding[]): Finding[] => findings.filter((f) => f.severity !== 'info')
const byCode = (findings: Finding[], code: string): Finding[] => findings.filter((f) => f.code === code)
const only = (findings: Finding[], code: string): Finding => {
  const found = byCode(findings, code)
  expect(found, `one ${code} finding in ${JSON.stringify(findings, null, 1)}`).toHaveLength(1)
  return found[0] as Finding
}

describe('evaluatePreflight: a target ready to measure', () => {
  it('has no error and no warning, and records the tools it found', () => {
    const findings = run({ targets: [target()] })
    expect(problems(findings)).toEqual([])
    expect(findings).toEqual([{ severity: 'info', target: 'guest-a', code: 'tool-present', tool: 'fio', message: 'fio is installed on guest-a at /usr/bin/fio (fio-3.33).' }])
  })
})

describe('evaluatePreflight: reachability', () => {
  it('refuses a target that cannot be reached, naming it, its role and the reason, and checks nothing else there', () => {
    const findings = run({ targets: [target({ name: 'host-1', role: 'baseline', facts: { unreachable: 'connect ECONNREFUSED 10.0.0.5:22' } })] })
    expect(findings).toEqual([
      {
        severity: 'error',
        target: 'host-1',
        code: 'unreachable',
        message: 'host-1 (the baseline) cannot be reached: connect ECONNREFUSED 10.0.0.5:22',
        fix: 'Check that host-1 is running and that its address, port, user and key are right (Targets, Test connection), then run the checks again.'
      }
    ])
  })

  it('warns when some checks could not be completed', () => {
    const f = only(run({ targets: [target({ facts: facts({ problems: ['the checks on guest-a did not finish within 120 s'] }) })] }), 'preflight-incomplete')
    expect(f).toMatchObject({ severity: 'warning', target: 'guest-a' })
    expect(f.message).toBe('Some checks on guest-a could not be completed: the checks on guest-a did not finish within 120 s.')
  })
})

describe('evaluatePreflight: tools', () => {
  it('offers the install command of the target\'s package manager, with sudo for a normal user', () => {
    const f = only(run({ targets: [target({ tools: ['iozone'], facts: facts({ tools: { iozone: { found: false } } }) })] }), 'tool-missing')
    expect(f).toMatchObject({ severity: 'error', target: 'guest-a', message: 'IOzone is not installed on guest-a.', command: 'sudo apt-get install -y iozone3' })
    expect(f.fix).toContain('VirtBench can run `sudo apt-get install -y iozone3` on guest-a when you say so.')
    expect(f.fix).toContain('non-free')
  })

  it('drops sudo for root, and says sudo needs a password when it is not passwordless', () => {
    const asRoot = only(run({ targets: [target({ facts: facts({ uid: 0, packageManager: 'dnf', tools: { fio: { found: false } } }) })] }), 'tool-missing')
    expect(asRoot.command).toBe('dnf install -y fio')
    expect(asRoot.fix).not.toContain('sudo')
    const withPassword = only(run({ targets: [target({ facts: facts({ sudo: { present: true, passwordless: false }, tools: { fio: { found: false } } }) })] }), 'tool-missing')
    expect(withPassword.command).toBe('sudo apt-get install -y fio')
    expect(withPassword.fix).toContain("It needs sudo there: give VirtBench guest-a's sudo password in Targets, or run it yourself.")
  })

  it('names the missing tool by its id in every case (an install offered, none known, no package manager)', () => {
    const missing = (tool: 'iozone' | 'fio' | 'unixbench', packageManager: 'apt' | 'dnf' | undefined) =>
      only(run({ targets: [target({ tools: [tool], facts: facts({ packageManager, tools: { [tool]: { found: false } } }) })] }), 'tool-missing')
    expect(missing('iozone', 'apt')).toMatchObject({ tool: 'iozone', command: 'sudo apt-get install -y iozone3' })
    expect(missing('iozone', 'dnf')).toMatchObject({ tool: 'iozone', message: 'IOzone is not installed on guest-a, and dnf has no package for it.' })
    expect(missing('fio', undefined)).toMatchObject({ tool: 'fio', message: 'fio is not installed on guest-a.' })
    expect(missing('unixbench', 'apt').tool).toBe('unixbench')
    // and the finding stays a valid one of the run document
    expect(FindingSchema.parse(missing('iozone', 'dnf')).tool).toBe('iozone')
    expect(() => FindingSchema.parse({ ...missing('fio', undefined), tool: 'nope' })).toThrow()
  })

  it('builds UnixBench from source after its build dependencies', () => {
    const f = only(run({ targets: [target({ tools: ['unixbench'], facts: facts({ packageManager: 'zypper', tools: { unixbench: { found: false } } }) })] }), 'tool-missing')
    expect(f.message).toBe('UnixBench is not on guest-a (no folder with ./Run in ~/byte-unixbench/UnixBench, ~/UnixBench or /opt).')
    expect(f.command).toBe(
      'sudo zypper --non-interactive install git make gcc perl && git clone https://github.com/kdlucas/byte-unixbench.git "$HOME/byte-unixbench" && make -C "$HOME/byte-unixbench/UnixBench"'
    )
  })

  it('has no command where no recipe fits, and says how to install by hand', () => {
    const f = only(run({ targets: [target({ tools: ['iozone'], facts: facts({ packageManager: 'dnf', tools: { iozone: { found: false } } }) })] }), 'tool-missing')
    expect(f.command).toBeUndefined()
    expect(f.message).toBe('IOzone is not installed on guest-a, and dnf has no package for it.')
    expect(f.fix).toContain('Install IOzone on guest-a by hand')
    expect(f.fix).toContain('http://www.iozone.org/')
    const noPm = only(run({ targets: [target({ facts: facts({ packageManager: undefined, tools: { fio: { found: false } } }) })] }), 'tool-missing')
    expect(noPm.command).toBeUndefined()
    expect(noPm.fix).toBe('No package manager VirtBench knows (apt-get, dnf, yum, zypper, apk) was found on guest-a: install fio there by hand, then run the checks again.')
  })

  it('warns about a tool that was not looked for', () => {
    const f = only(run({ targets: [target({ tools: ['fio', 'sysbench'] })] }), 'tool-not-checked')
    expect(f).toMatchObject({ severity: 'warning', message: 'Whether sysbench is installed on guest-a was not checked.' })
  })

  it('lists what can be installed, per target and tool', () => {
    const targets = [
      target({ name: 'host', role: 'baseline', tools: ['fio', 'mbw'], facts: facts({ uid: 0, packageManager: 'yum', tools: { fio: { found: false }, mbw: { found: false } } }) }),
      target({ name: 'down', facts: { unreachable: 'timeout' } })
    ]
    const offers = installOffers(targets)
    expect(offers.map((o) => [o.target, o.tool, o.command])).toEqual([
      ['host', 'fio', 'yum install -y fio'],
      ['host', 'mbw', 'yum install -y gcc make git && git clone https://github.com/raas/mbw.git mbw-src && make -C mbw-src && install -m 0755 mbw-src/mbw /usr/local/bin/mbw']
    ])
  })
})

describe('evaluatePreflight: the test directory', () => {
  it('refuses too little free space, naming both sizes', () => {
    const f = only(
      run({ targets: [target({ storage: { ...SMALL, workingSetBytes: 10 * GiB }, facts: facts({ dir: { ...facts().dir!, freeBytes: 3.5 * GiB } }) })] }),
      'space'
    )
    expect(f).toMatchObject({ severity: 'error', target: 'guest-a' })
    expect(f.message).toBe('/srv/vb on guest-a has 3.5 GiB free, but the largest test writes 10.0 GiB and needs 12.0 GiB (1.2 times that).')
    expect(f.fix).toContain('Free at least 8.5 GiB there')
  })

  it('accepts exactly 1.2 times the working set, and refuses one byte less', () => {
    const at = (free: number): Finding[] => byCode(run({ targets: [target({ storage: { ...SMALL, workingSetBytes: 100 * MiB }, facts: facts({ dir: { ...facts().dir!, freeBytes: free } }) })] }), 'space')
    expect(at(120 * MiB)).toEqual([])
    expect(at(120 * MiB - 1)).toHaveLength(1)
  })

  it('warns when free space could not be read', () => {
    const f = only(run({ targets: [target({ facts: facts({ dir: { path: '/srv/vb', exists: true, writable: true } }) })] }), 'space-unknown')
    expect(f.message).toBe('The free space in /srv/vb on guest-a could not be read.')
  })

  it('refuses tmpfs with direct I/O, and warns about tmpfs without it', () => {
    const shm = fromFixture('shm-directory.txt')
    const direct = only(run({ targets: [target({ storage: { ...SMALL, directIo: true }, facts: { ...shm, tools: facts().tools } })] }), 'tmpfs-direct')
    expect(direct).toMatchObject({ severity: 'error', target: 'guest-a' })
    expect(direct.message).toBe(
      'The test directory /dev/shm/vb-preflight-fixture on guest-a is on tmpfs (memory, mounted at /dev/shm): direct I/O there measures RAM, not a disk, and older kernels refuse O_DIRECT on it.'
    )
    const cached = only(run({ targets: [target({ facts: { ...shm, tools: facts().tools } })] }), 'tmpfs-dir')
    expect(cached.severity).toBe('warning')
  })

  it('refuses a filesystem that rejects O_DIRECT when the tests use it', () => {
    const dir = { ...facts().dir!, fsType: 'fuse.sshfs', direct: false, directError: "dd: failed to open '/srv/vb/.vb-direct-probe.1': Invalid argument" }
    const f = only(run({ targets: [target({ storage: { ...SMALL, directIo: true }, facts: facts({ dir }) })] }), 'direct-unsupported')
    expect(f.message).toBe(
      "The filesystem of /srv/vb on guest-a (fuse.sshfs) refuses direct I/O (O_DIRECT): dd: failed to open '/srv/vb/.vb-direct-probe.1': Invalid argument."
    )
    expect(byCode(run({ targets: [target({ facts: facts({ dir }) })] }), 'direct-unsupported')).toEqual([])
  })

  it('refuses a directory that could not be created, or is not writable', () => {
    const nobody = fromFixture('loop-ext4-as-nobody.txt')
    const missing = only(evaluatePreflight({ storage: { kind: 'directory', path: '/var/empty-vb-test/x' }, targets: [target({ tools: [], facts: nobody })] }), 'dir-missing')
    expect(missing.message).toBe(
      "The test directory /var/empty-vb-test/x does not exist on guest-a and could not be created: mkdir: cannot create directory '/var/empty-vb-test': Permission denied."
    )
    const readOnly = only(run({ targets: [target({ facts: facts({ dir: { ...facts().dir!, writable: false, writeError: 'Read-only file system' } }) })] }), 'dir-not-writable')
    expect(readOnly.message).toBe('The login user cannot write in the test directory /srv/vb on guest-a: Read-only file system.')
  })
})

describe('evaluatePreflight: uncached numbers', () => {
  it('warns when the working set is under twice the RAM', () => {
    const f = only(run({ targets: [target({ storage: { workingSetBytes: 4 * GiB, directIo: false, uncached: true } })] }), 'cache-fits')
    expect(f).toMatchObject({ severity: 'warning', target: 'guest-a' })
    expect(f.message).toBe(
      'The largest storage test on guest-a works on 4.0 GiB, less than twice its 8.0 GiB of RAM: the page cache can hold much of it, so the numbers may measure memory rather than the disk.'
    )
    expect(f.fix).toBe('Use a working set of at least 16.0 GiB on guest-a, or direct I/O.')
    expect(byCode(run({ targets: [target({ storage: { workingSetBytes: 16 * GiB, directIo: false, uncached: true } })] }), 'cache-fits')).toEqual([])
    expect(byCode(run({ targets: [target({ storage: { workingSetBytes: 1 * GiB, directIo: false, uncached: false } })] }), 'cache-fits')).toEqual([])
  })
})

describe('evaluatePreflight: raw devices', () => {
  const DEV = { kind: 'device', path: '/dev/vdb', confirm: '/dev/vdb' } as const
  const onDevice = (d: DeviceFacts, over: Partial<PreflightTarget> = {}): Finding[] =>
    evaluatePreflight({ storage: DEV, targets: [target({ facts: facts({ dir: undefined, device: d }), ...over })] })

  it('accepts an empty, unmounted, confirmed device', () => {
    expect(problems(onDevice(device()))).toEqual([])
  })

  it('refuses a plan whose confirmation is missing or names another device, naming the device and targets', () => {
    const missing = only(evaluatePreflight({ storage: { kind: 'device', path: '/dev/vdb' }, targets: [target(), target({ name: 'host', role: 'baseline' })] }), 'device-confirm-missing')
    expect(missing).toEqual({
      severity: 'error',
      code: 'device-confirm-missing',
      message: 'The plan writes to the raw device /dev/vdb on guest-a and host, destroying everything on it, but carries no confirmation naming that device.',
      fix: 'Type the device path /dev/vdb again in the confirmation field (storage.confirm in a preset) to say you mean it.'
    })
    const other = only(evaluatePreflight({ storage: { kind: 'device', path: '/dev/vdb', confirm: '/dev/vdc' }, targets: [target()] }), 'device-confirm-mismatch')
    expect(other.message).toBe('The plan writes to the raw device /dev/vdb on guest-a, but its confirmation says "/dev/vdc", not /dev/vdb.')
    expect(deviceConfirmed({ kind: 'device', path: '/dev/vdb', confirm: ' /dev/vdb' })).toBe(false)
    expect(deviceConfirmed(DEV)).toBe(true)
    expect(deviceConfirmationFinding(DIR, ['x'])).toBeUndefined()
  })

  it('refuses a mounted device, naming the mount point (the real root disk of this VM)', () => {
    const vda = fromFixture('root-disk-mounted.txt').device!
    const findings = evaluatePreflight({ storage: { kind: 'device', path: '/dev/vda', confirm: '/dev/vda' }, targets: [target({ facts: { ...facts(), device: vda } })] })
    const f = only(findings, 'device-mounted')
    expect(f).toMatchObject({ severity: 'error', target: 'guest-a', message: '/dev/vda on guest-a is in use: /dev/vda is mounted on / (ext4).' })
    expect(f.fix).toContain('umount /')
    const blind = only(findings, 'device-unreadable')
    expect(blind.message).toBe(
      "VirtBench could not check whether /dev/vda on guest-a holds data: reading it failed (dd: failed to open '/dev/vda': Operation not permitted); wipefs failed (wipefs: error: /dev/vda: probing initialization failed: Operation not permitted); blkid failed (blkid: error: /dev/vda: Operation not permitted)."
    )
    expect(blind.fix).toBe('Reading a device needs root: set up sudo for guest-a in Targets (passwordless, or with its password), then run the checks again.')
  })

  it('quotes the signatures it found (a real ext4 and a real DOS partition table)', () => {
    const ext4 = only(onDevice({ ...fromFixture('loop-ext4.txt').device!, path: '/dev/vdb' }), 'device-signature')
    expect(ext4.message).toBe(
      '/dev/vdb (/dev/loop0) on guest-a is not empty: it holds ext4 (wipefs: "ext4 0x438"; blkid: "/dev/loop0: UUID=\\"f320331c-b55d-442d-a127-3c3db2681a2d\\" VERSION=\\"1.0\\" BLOCK_SIZE=\\"1024\\" TYPE=\\"ext4\\" USAGE=\\"filesystem\\"").'
    )
    expect(ext4.fix).toBe('A raw-device test overwrites it. Choose another device, or, if its data is no longer needed, erase the signatures (wipefs -a /dev/vdb).')
    const dos = only(onDevice({ ...fromFixture('loop-dos.txt').device!, path: '/dev/vdb' }), 'device-signature')
    expect(dos.message).toContain('it holds dos (wipefs: "dos  0x1fe"; blkid: "/dev/loop0: PTTYPE=\\"dos\\"")')
  })

  it('calls a device that could not be read unreadable, never clean (a real ext4 seen by an unprivileged user)', () => {
    const findings = onDevice({ ...fromFixture('loop-ext4-as-nobody.txt').device!, path: '/dev/vdb' })
    expect(byCode(findings, 'device-signature')).toEqual([])
    expect(only(findings, 'device-unreadable').message).toContain("reading it failed (dd: failed to open '/dev/loop0': Permission denied)")
  })

  it('asks for util-linux when no prober exists', () => {
    const f = only(onDevice(device({ probes: { wipefs: { status: 'absent' }, blkid: { status: 'absent' }, lsblk: { status: 'absent' } } })), 'device-unreadable')
    expect(f.message).toBe('VirtBench could not check whether /dev/vdb on guest-a holds data: neither wipefs nor blkid is installed.')
    expect(f.fix).toBe('Install util-linux (wipefs, blkid) on guest-a, then run the checks again.')
  })

  it('trusts one prober that worked', () => {
    expect(byCode(onDevice(device({ probes: { wipefs: { status: 'failed', error: 'x' }, blkid: { status: 'ok' } } })), 'device-unreadable')).toEqual([])
  })

  it('refuses partitions, holders (LVM, RAID) and swap, naming them', () => {
    const findings = onDevice(
      device({
        partitions: ['vdb1', 'vdb2'],
        holders: [
          { of: 'vdb1', name: 'dm-0', dmName: 'vg0-data' },
          { of: 'vdb2', name: 'md0' }
        ],
        swaps: ['/dev/vdb2'],
        mounts: [{ source: '/dev/mapper/vg0-data', mountPoint: '/srv/my data', fsType: 'xfs' }]
      })
    )
    expect(only(findings, 'device-partitioned').message).toBe('/dev/vdb on guest-a has partitions: vdb1, vdb2.')
    expect(only(findings, 'device-in-use').message).toBe('/dev/vdb on guest-a is in use: held vdb1 by dm-0 (vg0-data) and vdb2 by md0 (LVM, RAID, encryption or multipath).')
    expect(only(findings, 'device-swap').message).toBe('/dev/vdb on guest-a is in use as swap (/dev/vdb2).')
    const mounted = only(findings, 'device-mounted')
    expect(mounted.message).toBe('/dev/vdb on guest-a is in use: /dev/mapper/vg0-data is mounted on /srv/my data (xfs).')
    expect(mounted.fix).toContain("umount '/srv/my data'")
    expect(byCode(findings, 'device-unreadable')).toEqual([])
  })

  it('refuses a missing device, a file that is not a block device, a read-only or too small device', () => {
    expect(only(onDevice(device({ exists: false })), 'device-missing').message).toBe('The device /dev/vdb does not exist on guest-a.')
    expect(only(onDevice(device({ block: false })), 'device-not-block').message).toBe('/dev/vdb on guest-a is not a block device.')
    expect(only(onDevice(device({ readonly: true })), 'device-readonly').message).toBe('/dev/vdb on guest-a is read-only.')
    const small = only(onDevice(device({ sizeBytes: 16 * MiB }), { storage: { ...SMALL, workingSetBytes: 1 * GiB } }), 'device-too-small')
    expect(small.message).toBe('/dev/vdb on guest-a holds 16.0 MiB, but the largest test needs 1.0 GiB.')
  })

  it('refuses a device whose checks could not run (sudo refused) or were never made', () => {
    const refused = only(onDevice(device({ checkError: 'sudo on guest-a needs a password, and none is stored' })), 'device-unreadable')
    expect(refused.message).toBe('The device /dev/vdb on guest-a could not be checked: sudo on guest-a needs a password, and none is stored')
    const none = only(evaluatePreflight({ storage: DEV, targets: [target({ facts: facts() })] }), 'device-not-checked')
    expect(none.severity).toBe('error')
  })

  it('checks storage only where storage tests run (not on a network peer)', () => {
    const findings = evaluatePreflight({ storage: { kind: 'device', path: '/dev/vdb' }, targets: [target({ name: 'peer', role: 'peer', tools: [], storage: undefined })] })
    expect(findings).toEqual([])
  })
})

describe('evaluatePreflight: the idle gate', () => {
  const idleTarget = (idle: PreflightFacts['idle'], cpus = 4): PreflightTarget => target({ facts: facts({ cpus, idle }) })

  it('passes a quiet machine', () => {
    expect(byCode(run({ targets: [idleTarget({ seconds: 3, load: [0.2, 0.3, 0.3], busyPct: 1.5, iowaitPct: 0, stealPct: 0 })] }), 'not-idle')).toEqual([])
  })

  it('warns with every reading over its threshold', () => {
    const f = only(run({ targets: [idleTarget({ seconds: 3, load: [3.1, 2, 1], busyPct: 55.2, iowaitPct: 12.5, stealPct: 9.1 })] }), 'not-idle')
    expect(f).toMatchObject({ severity: 'warning', target: 'guest-a' })
    expect(f.message).toBe(
      'guest-a is not idle: load average 3.1 on 4 CPUs, CPU 55.2 % busy, 12.5 % of CPU time waiting for I/O and 9.1 % of CPU time taken by the hypervisor (steal) over 3 s.'
    )
  })

  it('takes custom thresholds', () => {
    const t = idleTarget({ seconds: 3, load: [1, 1, 1], busyPct: 20 }, 1)
    expect(byCode(run({ targets: [t] }), 'not-idle')).toHaveLength(1)
    expect(byCode(run({ targets: [t], idle: { loadPerCpu: 2, busyPct: 50 } }), 'not-idle')).toEqual([])
  })
})

describe('formatBytes', () => {
  it('uses binary units with one decimal', () => {
    expect([formatBytes(512), formatBytes(1536), formatBytes(16 * MiB), formatBytes(1.25 * GiB), formatBytes(3 * 1024 * GiB)]).toEqual([
      '512 bytes',
      '1.5 KiB',
      '16.0 MiB',
      '1.3 GiB',
      '3.0 TiB'
    ])
  })
})
