import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { pwshJoin, shJoin } from '../../../../../src/shared/shell-quote'
import { renderJobSection } from '../../../../../src/main/tools/fio/job-options'
import { fioParamsSchema, type FioParams, type FioParamsInput } from '../../../../../src/main/tools/fio/params'
import { estimateSeconds, plan } from '../../../../../src/main/tools/fio/plan'
import type { PlanContext, TargetFacts } from '../../../../../src/main/tools/types'

const WORK = '/var/tmp/virtbench'
const linux: TargetFacts = { os: 'linux', workDir: WORK }
const windows: TargetFacts = { os: 'windows', workDir: 'C:\\VirtBench\\work' }
const on = (target: TargetFacts): PlanContext => ({ target })
const params = (input: FioParamsInput): FioParams => fioParamsSchema.parse(input)

/** Study 001's six fio invocations, as printed in the study. */
const STUDY_001: { command: string; params: FioParamsInput }[] = [
  {
    command: 'fio --name=random-read --ioengine=posixaio --rw=randread --bs=4k --size=4g --numjobs=1 --iodepth=16 --runtime=60 --time_based --direct=1',
    params: { name: 'random-read', ioengine: 'posixaio', rw: 'randread', bs: '4k', size: '4g', numjobs: 1, iodepth: 16, runtime: 60, timeBased: true, direct: true }
  },
  {
    command:
      'fio --name=random-write --ioengine=posixaio --rw=randwrite --bs=4k --size=4g --numjobs=1 --iodepth=16 --runtime=60 --time_based --direct=1 --end_fsync=1',
    params: { name: 'random-write', ioengine: 'posixaio', rw: 'randwrite', bs: '4k', size: '4g', numjobs: 1, iodepth: 16, runtime: 60, timeBased: true, direct: true, endFsync: true }
  },
  {
    command: 'fio --name=random-read --ioengine=posixaio --rw=read --bs=4k --size=4g --numjobs=1 --iodepth=16 --runtime=60 --time_based --direct=1',
    params: { name: 'random-read', ioengine: 'posixaio', rw: 'read', bs: '4k', size: '4g', numjobs: 1, iodepth: 16, runtime: 60, timeBased: true, direct: true }
  },
  {
    command:
      'fio --name=random-write --ioengine=posixaio --rw=write --bs=4k --size=4g --numjobs=1 --iodepth=16 --runtime=60 --time_based --direct=1 --end_fsync=1',
    params: { name: 'random-write', ioengine: 'posixaio', rw: 'write', bs: '4k', size: '4g', numjobs: 1, iodepth: 16, runtime: 60, timeBased: true, direct: true, endFsync: true }
  },
  {
    command: 'fio --name=seq-read --ioengine=posixaio --rw=read --bs=1m --size=16g --numjobs=1 --iodepth=1 --runtime=60 --time_based --direct=1',
    params: { name: 'seq-read', ioengine: 'posixaio', rw: 'read', bs: '1m', size: '16g', numjobs: 1, iodepth: 1, runtime: 60, timeBased: true, direct: true }
  },
  {
    command:
      'fio --name=seq-write --ioengine=posixaio --rw=write --bs=1m --size=16g --numjobs=1 --iodepth=1 --runtime=60 --time_based --direct=1 --end_fsync=1',
    params: { name: 'seq-write', ioengine: 'posixaio', rw: 'write', bs: '1m', size: '16g', numjobs: 1, iodepth: 1, runtime: 60, timeBased: true, direct: true, endFsync: true }
  }
]

/** Study 003's job file, as printed in the study. */
const STUDY_003_JOB = '[virt]\nioengine=libaio\niodepth=4\nrw=randrw\nbs=64k\ndirect=1\nsize=1g\nnumjobs=4\n'
const STUDY_003: FioParamsInput = {
  style: 'job-file',
  name: 'virt',
  ioengine: 'libaio',
  iodepth: 4,
  rw: 'randrw',
  bs: '64k',
  direct: true,
  size: '1g',
  numjobs: 4,
  runtime: null,
  timeBased: false
}

describe('fio plan: the studies', () => {
  it.each(STUDY_001)('reproduces study 001: $command', ({ command, params: input }) => {
    const p = plan(params(input), on(linux))
    const step = p.steps[0]!
    const [fio, ...options] = command.split(' ')
    expect(step.argv).toEqual([fio, '--output-format=json', ...options, `--directory=${WORK}`])
    expect(step.script).toBe(`fio --output-format=json ${options.join(' ')} --directory=${WORK}`)
    expect(step.shell).toBe('sh')
    expect(step.measured).toBe(true)
    expect(step.sudo).toBeUndefined()
    expect(p.files).toEqual([{ on: 'target', path: `${WORK}/${input.name}.0.0` }])
  })

  it("writes study 003's job file and runs fio on it", () => {
    const p = plan(params(STUDY_003), on(linux))
    const step = p.steps[0]!
    const jobFile = `${WORK}/virtbench-virt.fio`
    expect(step.files).toEqual([{ path: jobFile, content: `${STUDY_003_JOB}directory=${WORK}\n` }])
    expect(step.argv).toEqual(['fio', '--output-format=json', jobFile])
    expect(step.script).toBe(`fio --output-format=json ${jobFile}`)
    expect(p.files.map((f) => f.path)).toEqual([`${WORK}/virt.0.0`, `${WORK}/virt.1.0`, `${WORK}/virt.2.0`, `${WORK}/virt.3.0`, jobFile])
  })

  it('renders a params object as a job file section', () => {
    expect(renderJobSection(params(STUDY_003), linux)).toBe(`${STUDY_003_JOB}directory=${WORK}\n`)
    const all = params({ name: 'mix', rw: 'randrw', rwmixread: 70, rampTime: 5, endFsync: true, groupReporting: true, filename: 'data.bin' })
    expect(renderJobSection(all, linux)).toBe(
      '[mix]\nioengine=libaio\niodepth=16\nrw=randrw\nrwmixread=70\nbs=4k\ndirect=1\nsize=1g\nnumjobs=1\nruntime=30\nramp_time=5\ntime_based\nend_fsync=1\ngroup_reporting\n' +
        `filename=${WORK}/data.bin\n`
    )
  })

  it('asks fio for json+ when the histogram is wanted', () => {
    expect(plan(params({ outputFormat: 'json+' }), on(linux)).steps[0]!.argv![1]).toBe('--output-format=json+')
  })
})

describe('fio plan: defaults and where the I/O goes', () => {
  it('defaults to a 30 s 4k random read with libaio in the work directory, never a device', () => {
    const step = plan(params({}), on(linux)).steps[0]!
    expect(step.argv).toEqual([
      'fio',
      '--output-format=json',
      '--name=virtbench',
      '--ioengine=libaio',
      '--rw=randread',
      '--bs=4k',
      '--size=1g',
      '--numjobs=1',
      '--iodepth=16',
      '--runtime=30',
      '--time_based',
      '--direct=1',
      `--directory=${WORK}`
    ])
    expect(step.sudo).toBeUndefined()
  })

  it('lists a file per job for cleanup', () => {
    const p = plan(params({ name: 'rr', numjobs: 3 }), on({ os: 'linux', workDir: '/data/vb/' }))
    expect(p.files.map((f) => f.path)).toEqual(['/data/vb/rr.0.0', '/data/vb/rr.1.0', '/data/vb/rr.2.0'])
  })

  it('shares one named file in the work directory', () => {
    const p = plan(params({ filename: 'shared file.bin', numjobs: 2 }), on(linux))
    expect(p.steps[0]!.argv).toContain(`--filename=${WORK}/shared file.bin`)
    expect(p.files).toEqual([{ on: 'target', path: `${WORK}/shared file.bin` }])
  })

  it('runs on a named raw device as root, and never lists the device for removal', () => {
    const p = plan(params({ device: '/dev/vdb', rw: 'randread' }), on(linux))
    const step = p.steps[0]!
    expect(step.sudo).toBe(true)
    expect(step.argv!.at(-1)).toBe('--filename=/dev/vdb')
    expect(step.argv!.some((a) => a.startsWith('--directory'))).toBe(false)
    expect(p.files).toEqual([])
  })

  it('escapes colons, which fio reads as separators of several files', () => {
    const byPath = plan(params({ device: '/dev/disk/by-path/pci-0000:06:00.0' }), on(linux)).steps[0]!
    expect(byPath.argv!.at(-1)).toBe('--filename=/dev/disk/by-path/pci-0000\\:06\\:00.0')
    const dir = plan(params({}), on({ os: 'linux', workDir: '/mnt/a:b' })).steps[0]!
    expect(dir.argv!.at(-1)).toBe('--directory=/mnt/a\\:b')
  })

  it('refuses a device of the other OS and a relative work directory', () => {
    expect(() => plan(params({ device: '\\\\.\\PhysicalDrive1' }), on(linux))).toThrow('\\\\.\\PhysicalDrive1 is not a Linux block device path')
    expect(() => plan(params({}), on({ os: 'linux', workDir: 'scratch' }))).toThrow('the work directory must be an absolute path on the target, not "scratch"')
  })

  it('refuses an engine the target OS does not have', () => {
    expect(() => plan(params({ ioengine: 'libaio' }), on(windows))).toThrow("fio's libaio engine does not exist on Windows; choose windowsaio (or auto)")
    expect(() => plan(params({ ioengine: 'windowsaio' }), on(linux))).toThrow(/exists only on Windows/)
  })

  it('uses fio from toolPaths when it is not on PATH', () => {
    const step = plan(params({}), on({ ...linux, toolPaths: { fio: '/opt/fio 3/bin/fio' } })).steps[0]!
    expect(step.argv![0]).toBe('/opt/fio 3/bin/fio')
    expect(step.script.startsWith("'/opt/fio 3/bin/fio' --output-format=json")).toBe(true)
  })
})

describe('fio plan: Windows', () => {
  it('runs fio.exe with windowsaio from PowerShell, passing on its exit code', () => {
    const p = plan(params({ name: 'random-read', rw: 'randread', size: '4g', runtime: 60 }), on(windows))
    const step = p.steps[0]!
    expect(step.shell).toBe('powershell')
    expect(step.argv).toEqual([
      'fio.exe',
      '--output-format=json',
      '--name=random-read',
      '--ioengine=windowsaio',
      '--rw=randread',
      '--bs=4k',
      '--size=4g',
      '--numjobs=1',
      '--iodepth=16',
      '--runtime=60',
      '--time_based',
      '--direct=1',
      '--directory=C\\:\\VirtBench\\work'
    ])
    expect(step.script).toBe(`${pwshJoin(step.argv!)}\nif ($null -eq $LASTEXITCODE) { exit 127 }\nexit $LASTEXITCODE`)
    expect(p.files).toEqual([{ on: 'target', path: 'C:\\VirtBench\\work\\random-read.0.0' }])
  })

  it('writes a job file next to the data on Windows too', () => {
    const p = plan(params({ ...STUDY_003, ioengine: 'auto' }), on(windows))
    const step = p.steps[0]!
    expect(step.files![0]!.path).toBe('C:\\VirtBench\\work\\virtbench-virt.fio')
    expect(step.files![0]!.content).toBe(
      '[virt]\nioengine=windowsaio\niodepth=4\nrw=randrw\nbs=64k\ndirect=1\nsize=1g\nnumjobs=4\ndirectory=C\\:\\VirtBench\\work\n'
    )
  })

  it('tests a physical drive as administrator', () => {
    const step = plan(params({ device: '\\\\.\\PhysicalDrive1' }), on(windows)).steps[0]!
    expect(step.argv!.at(-1)).toBe('--filename=\\\\.\\PhysicalDrive1')
    expect(step.sudo).toBe(true)
  })

  it('quotes hostile names for PowerShell', () => {
    const step = plan(params({ name: "it's $(Remove-Item -Recurse ~) & more" }), on(windows))
    expect(step.steps[0]!.script).toContain("'--name=it''s $(Remove-Item -Recurse ~) & more'")
    expect(() => plan(params({ name: 'a<b>' }), on(windows))).toThrow(/Windows does not allow/)
  })
})

describe('fio plan: hostile values stay strings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vb-fio-plan-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // Stands in for fio: prints each argument it receives, NUL-terminated.
  const fakeFio = join(dir, 'print-args')
  writeFileSync(fakeFio, '#!/bin/sh\nfor a in "$@"; do printf \'%s\\0\' "$a"; done\n')
  chmodSync(fakeFio, 0o755)

  function runInShell(argvTarget: TargetFacts, input: FioParamsInput): { argv: readonly string[]; received: string[] } {
    const step = plan(params(input), on({ ...argvTarget, toolPaths: { fio: fakeFio } })).steps[0]!
    expect(step.script).toBe(shJoin(step.argv!))
    const printed = execFileSync('sh', ['-c', step.script], { cwd: dir, encoding: 'utf8' })
    return { argv: step.argv!, received: printed.split('\0').slice(0, -1) }
  }

  it.each(['$(touch pwned); rm -rf ~', "'; reboot #", '`touch pwned`', 'a  b * c'])('keeps the work directory %j as one argument', (hostile) => {
    const { argv, received } = runInShell({ os: 'linux', workDir: `${dir}/${hostile}` }, {})
    expect(received).toEqual(argv.slice(1))
    expect(received.at(-1)).toBe(`--directory=${dir}/${hostile}`)
    expect(readdirSync(dir)).toEqual(['print-args'])
  })

  it.each(['$(touch pwned) && rm -rf ~', "' || touch pwned '", '`touch pwned`', 'my job (copy) & more'])('keeps the job name %j as one argument', (hostile) => {
    const { argv, received } = runInShell(linux, { name: hostile })
    expect(received).toEqual(argv.slice(1))
    expect(received).toContain(`--name=${hostile}`)
    expect(readdirSync(dir)).toEqual(['print-args'])
  })

  it("refuses work directories a job file would misread, but allows them on the command line", () => {
    for (const workDir of ['/tmp/a;b', '/tmp/a#b', '/tmp/${HOME}']) {
      expect(() => plan(params({ style: 'job-file' }), on({ os: 'linux', workDir }))).toThrow(/reads as a comment or a variable/)
      expect(plan(params({}), on({ os: 'linux', workDir })).steps[0]!.argv!.at(-1)).toBe(`--directory=${workDir}`)
    }
    expect(() => plan(params({}), on({ os: 'linux', workDir: '/tmp/a\nb' }))).toThrow(/line break/)
  })

  it('refuses to render a job file from unchecked params that would inject a section', () => {
    const injected = { ...params(STUDY_003), name: 'virt]\n[evil' } as FioParams
    expect(() => renderJobSection(injected, linux)).toThrow(/cannot write the job name .* into a job file/)
  })
})

describe('fio plan: time', () => {
  it('estimates layout, ramp and runtime, and allows more before the step counts as hung', () => {
    const timed = params({ size: '4g', runtime: 60, rampTime: 5 })
    // 2 s start-up + 4 GiB laid out at 200 MiB/s (20.48 s) + 5 s ramp + 60 s.
    expect(estimateSeconds(timed)).toBe(88)
    const step = plan(timed, on(linux)).steps[0]!
    expect(step.timeoutSeconds).toBeGreaterThan(estimateSeconds(timed))
    expect(plan(timed, on(linux)).estimatedSeconds).toBe(88)
  })

  it('estimates a size-bound job from its size (study 003: 4 x 1 GiB)', () => {
    const sized = params(STUDY_003)
    // 2 s + 4 GiB laid out at 200 MiB/s (20.48 s) + 4 GiB moved at 100 MiB/s (40.96 s).
    expect(estimateSeconds(sized)).toBe(64)
    // The timeout allows for a slow disk: 4 GiB twice at 5 MiB/s.
    expect(plan(sized, on(linux)).steps[0]!.timeoutSeconds).toBeGreaterThan(1638)
  })

  it('needs no layout for writes or devices', () => {
    expect(estimateSeconds(params({ rw: 'randwrite', runtime: 10 }))).toBe(12)
    expect(estimateSeconds(params({ device: '/dev/vdb', runtime: 10 }))).toBe(12)
  })
})
