import fc from 'fast-check'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parsePreflightOutput, readSignature, unescapeMount } from '../../../../../src/main/engine/preflight/parse'

const FIXTURES = path.resolve(__dirname, '../../../../fixtures/preflight')
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8')

/** Synthetic output: the script's header and end around the given lines. */
const wrap = (...lines: string[]): string => ['preflight\t1', ...lines, 'end\t1', ''].join('\n')

describe('parsePreflightOutput: real output of preflight.sh', () => {
  it('reads the machine, the tools, the test directory and the idle measurement', () => {
    const facts = parsePreflightOutput(fixture('host-directory.txt'))
    expect(facts.problems).toEqual([])
    expect(facts).toMatchObject({ system: 'Linux', uid: 0, cpus: 2, memTotalBytes: 25276510208, packageManager: 'apt', sudo: { present: true, passwordless: true } })
    expect(facts.tools).toEqual({
      fio: { found: true, path: '/usr/bin/fio', version: 'fio-3.33' },
      dd: { found: true, path: '/usr/bin/dd', version: 'dd (coreutils) 9.1' },
      iperf3: { found: true, path: '/usr/bin/iperf3', version: 'iperf 3.12 (cJSON 1.7.15)' },
      iperf: { found: true, path: '/usr/bin/iperf', version: 'iperf version 2.1.8 (12 August 2022) pthreads' },
      ping: { found: true, path: '/usr/bin/ping', version: 'ping from iputils 20221126' },
      bonnie: { found: true, path: '/usr/sbin/bonnie++', version: '2.00a' },
      iozone: { found: false },
      unixbench: { found: false },
      mbw: { found: true, path: '/usr/bin/mbw' },
      sysbench: { found: true, path: '/usr/bin/sysbench', version: 'sysbench 1.0.20' }
    })
    expect(facts.dir).toEqual({
      path: '/tmp/vb-preflight-fixture/work',
      existed: false,
      created: true,
      exists: true,
      source: '/dev/vda',
      freeBytes: 84124741632,
      mountPoint: '/',
      fsType: 'ext4',
      writable: true,
      direct: true
    })
    expect(facts.idle).toEqual({ seconds: 2, load: [1.9, 1.09, 1.41], busyPct: 1.2, iowaitPct: 0, stealPct: 0 })
    expect(facts.device).toBeUndefined()
  })

  it('reads a tmpfs directory', () => {
    const facts = parsePreflightOutput(fixture('shm-directory.txt'))
    expect(facts.problems).toEqual([])
    expect(facts.dir).toMatchObject({ path: '/dev/shm/vb-preflight-fixture', fsType: 'tmpfs', mountPoint: '/dev/shm', source: 'tmpfs', freeBytes: 25276510208, direct: true })
  })

  it('reads a mounted root disk that even root cannot open', () => {
    const device = parsePreflightOutput(fixture('root-disk-mounted.txt')).device
    expect(device).toMatchObject({
      path: '/dev/vda',
      exists: true,
      block: true,
      resolved: '/dev/vda',
      name: 'vda',
      majMin: '254:0',
      sizeBytes: 274877906944,
      readonly: false,
      readable: false,
      readError: "dd: failed to open '/dev/vda': Operation not permitted",
      mounts: [{ source: '/dev/vda', mountPoint: '/', fsType: 'ext4' }],
      signatures: [],
      partitions: [],
      holders: [],
      swaps: []
    })
    expect(device?.probes).toEqual({
      wipefs: { status: 'failed', error: 'wipefs: error: /dev/vda: probing initialization failed: Operation not permitted' },
      blkid: { status: 'failed', error: 'blkid: error: /dev/vda: Operation not permitted' },
      lsblk: { status: 'ok' }
    })
  })

  it('reads a clean device: every probe ran, none found anything (lsblk without udev says nothing)', () => {
    const device = parsePreflightOutput(fixture('loop-clean.txt')).device
    expect(device).toMatchObject({ path: '/dev/loop0', readable: true, sizeBytes: 16777216, signatures: [], mounts: [] })
    expect(device?.probes).toEqual({ wipefs: { status: 'ok' }, blkid: { status: 'ok' }, lsblk: { status: 'ok' } })
  })

  it('reads the ext4 signature wipefs and blkid find', () => {
    const device = parsePreflightOutput(fixture('loop-ext4.txt')).device
    expect(device?.signatures).toEqual([
      { source: 'wipefs', type: 'ext4', text: 'ext4 0x438' },
      {
        source: 'blkid',
        type: 'ext4',
        text: '/dev/loop0: UUID="f320331c-b55d-442d-a127-3c3db2681a2d" VERSION="1.0" BLOCK_SIZE="1024" TYPE="ext4" USAGE="filesystem"'
      }
    ])
  })

  it('reads a DOS partition table', () => {
    const device = parsePreflightOutput(fixture('loop-dos.txt')).device
    expect(device?.signatures).toEqual([
      { source: 'wipefs', type: 'dos', text: 'dos  0x1fe' },
      { source: 'blkid', type: 'dos', text: '/dev/loop0: PTTYPE="dos"' }
    ])
  })

  it('reads what an unprivileged user sees: no signature, because nothing could read the device', () => {
    const facts = parsePreflightOutput(fixture('loop-ext4-as-nobody.txt'))
    expect(facts).toMatchObject({ uid: 65534, sudo: { present: true, passwordless: false } })
    expect(facts.dir).toEqual({
      path: '/var/empty-vb-test/x',
      existed: false,
      created: false,
      mkdirError: "mkdir: cannot create directory '/var/empty-vb-test': Permission denied",
      exists: false
    })
    expect(facts.device).toMatchObject({ readable: false, readError: "dd: failed to open '/dev/loop0': Permission denied", signatures: [] })
    expect(facts.device?.probes.wipefs).toEqual({ status: 'failed', error: 'wipefs: error: /dev/loop0: probing initialization failed: Permission denied' })
  })
})

describe('parsePreflightOutput: device layouts this VM cannot make (synthetic lines in the script\'s format)', () => {
  it('reads partitions, holders with device-mapper names, swaps and escaped mount points', () => {
    const device = parsePreflightOutput(
      wrap(
        'device.path\t/dev/disk/by-id/virtio-data',
        'device.exists\tyes',
        'device.block\tyes',
        'device.resolved\t/dev/vdb',
        'device.partition\tvdb1',
        'device.partition\tvdb2',
        'device.holder\tvdb1\tdm-0\tvg0-data',
        'device.holder\tvdb2\tmd0\t',
        'device.mount\t/dev/mapper/vg0-data\t/srv/my\\040data\txfs',
        'device.swap\t/dev/vdb2'
      )
    ).device
    expect(device).toMatchObject({
      path: '/dev/disk/by-id/virtio-data',
      resolved: '/dev/vdb',
      partitions: ['vdb1', 'vdb2'],
      holders: [
        { of: 'vdb1', name: 'dm-0', dmName: 'vg0-data' },
        { of: 'vdb2', name: 'md0' }
      ],
      mounts: [{ source: '/dev/mapper/vg0-data', mountPoint: '/srv/my data', fsType: 'xfs' }],
      swaps: ['/dev/vdb2']
    })
  })

  it('reads the tables of older wipefs versions, LVM and RAID members, and blkid\'s ambivalent answer', () => {
    expect(readSignature('wipefs_raw', '0x438 ext4 [filesystem]')).toEqual({ source: 'wipefs', type: 'ext4', text: '0x438 ext4 [filesystem]' })
    expect(readSignature('wipefs_raw', 'sdb 0x218 LVM2_member abc-123')).toEqual({ source: 'wipefs', type: 'LVM2_member', text: 'sdb 0x218 LVM2_member abc-123' })
    expect(readSignature('wipefs_raw', 'UUID:  6e0c-1')).toBeUndefined()
    expect(readSignature('blkid', '/dev/sdb: UUID="x" TYPE="linux_raid_member"')).toMatchObject({ type: 'linux_raid_member' })
    expect(readSignature('blkid', '/dev/sdb: SEC_TYPE="msdos" TYPE="vfat"')).toMatchObject({ type: 'vfat' })
    expect(readSignature('blkid', 'ambivalent: blkid: /dev/sdb: ambivalent result')).toEqual({ source: 'blkid', text: 'ambivalent: blkid: /dev/sdb: ambivalent result' })
    expect(readSignature('lsblk', 'NAME="sdb" FSTYPE="" PTTYPE="gpt"')).toEqual({ source: 'lsblk', type: 'gpt', text: 'NAME="sdb" FSTYPE="" PTTYPE="gpt"' })
    expect(readSignature('lsblk', 'NAME="sdb" FSTYPE="" PTTYPE=""')).toBeUndefined()
  })

  it('turns the octal escapes of /proc/self/mountinfo back into characters', () => {
    expect(unescapeMount('/mnt/a\\040b\\011c\\134d')).toBe('/mnt/a b\tc\\d')
  })
})

describe('parsePreflightOutput: bad input says what is wrong and guesses nothing', () => {
  it('names output that is not from the script', () => {
    const facts = parsePreflightOutput('sh: 1: preflight.sh: not found\n')
    expect(facts.problems).toEqual(['this is not VirtBench preflight output (no "preflight" line): "sh: 1: preflight.sh: not found"'])
    expect(facts.tools).toEqual({})
  })

  it('names output that stops early, and keeps what came before', () => {
    const text = fixture('host-directory.txt').split('\n').slice(0, 12).join('\n')
    const facts = parsePreflightOutput(text)
    expect(facts.problems).toEqual(['the preflight output ended early (no "end" line): the facts after its last line were not read'])
    expect(facts.tools.fio).toEqual({ found: true, path: '/usr/bin/fio', version: 'fio-3.33' })
    expect(facts.dir).toBeUndefined()
  })

  it('leaves out values that are not numbers or yes/no, quoting the line', () => {
    const facts = parsePreflightOutput(wrap('mem_total_bytes\t12e9', 'dir.path\t/w', 'dir.free_bytes\t-5', 'dir.direct\tmaybe', 'idle.load\t0.1\tx\t0.3', 'package_manager\tpacman'))
    expect(facts.memTotalBytes).toBeUndefined()
    expect(facts.dir).toEqual({ path: '/w' })
    expect(facts.idle?.load).toBeUndefined()
    expect(facts.packageManager).toBeUndefined()
    expect(facts.problems).toEqual([
      'the preflight output has a bad mem_total_bytes value: "mem_total_bytes 12e9"',
      'the preflight output has a bad dir.free_bytes value: "dir.free_bytes -5"',
      'the preflight output has a bad dir.direct value: "dir.direct maybe"',
      'the preflight output has a bad idle.load value: "idle.load 0.1 x 0.3"',
      'the preflight output names an unknown package manager: "package_manager pacman"'
    ])
  })

  it('passes on what the script itself reports as an error', () => {
    expect(parsePreflightOutput(wrap('error\tnot a tool name: x;y')).problems).toEqual(['the preflight script says: not a tool name: x;y'])
  })

  it('reads Windows line ends and skips keys it does not know', () => {
    const facts = parsePreflightOutput('preflight\t1\r\nuid\t1000\r\nsomething.new\t42\r\nend\t1\r\n')
    expect(facts).toEqual({ uid: 1000, tools: {}, problems: [] })
  })

  it('never throws and never yields a number that is not finite and non-negative, whatever the input', () => {
    const keys = ['preflight', 'end', 'uid', 'cpus', 'mem_total_bytes', 'dir.path', 'dir.free_bytes', 'device.size_bytes', 'idle.load', 'idle.busy_pct', 'device.mount', 'tool.found', 'device.blkid']
    const line = fc.tuple(fc.constantFrom(...keys), fc.array(fc.string(), { maxLength: 4 })).map(([k, v]) => [k, ...v].join('\t'))
    const text = fc.oneof(fc.string(), fc.array(line, { maxLength: 20 }).map((ls) => ls.join('\n')), fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')))
    fc.assert(
      fc.property(text, (t) => {
        const facts = parsePreflightOutput(t)
        const numbers = [facts.uid, facts.cpus, facts.memTotalBytes, facts.dir?.freeBytes, facts.device?.sizeBytes, facts.idle?.busyPct, ...(facts.idle?.load ?? [])]
        for (const n of numbers) if (n !== undefined) expect(Number.isFinite(n) && n >= 0).toBe(true)
        expect(Array.isArray(facts.problems)).toBe(true)
      }),
      { numRuns: 300 }
    )
  })
})
