import { describe, expect, it } from 'vitest'
import { checkJobFile, describeJobFileProblem, parseJobFile } from '../../../../src/shared/fio-job-file'

/** Study 003's job file, exactly as the study prints it. */
const STUDY_003 = `[virt]
ioengine=libaio
iodepth=4
rw=randrw
bs=64k
direct=1
size=1g
numjobs=4
`

/** Written by hand after fio's examples/ (ssd-test.fio, fio-rand-RW.fio): a [global] section and jobs run one after another. */
const SSD_TEST = `; -- start job file --
[global]
bs=4k
ioengine=libaio
iodepth=4
size=10g
direct=1
runtime=60
directory=ssd   # a folder in the work directory
filename=ssd.test.file

[seq-read]
rw=read
stonewall

[rand-read]
rw=randread
stonewall

[seq-write]
rw=write
stonewall

[rand-write]
rw=randwrite
stonewall
; -- end job file --
`

const lines = (text: string, device = {}): string[] => checkJobFile(text, device).problems.map(describeJobFileProblem)

describe('checkJobFile', () => {
  it("reads study 003's job file: one section, four processes of 1 GiB each, 64 KiB blocks, O_DIRECT", () => {
    const check = checkJobFile(STUDY_003)
    expect(check.problems).toEqual([])
    expect(check.jobs).toEqual([
      {
        name: 'virt',
        line: 1,
        numjobs: 4,
        rw: 'randrw',
        ioengine: 'libaio',
        blockBytes: 65536,
        fileBytes: 4 * 2 ** 30,
        ioBytes: 4 * 2 ** 30,
        rampSeconds: 0,
        timeBased: false,
        direct: true,
        waitsForPrevious: false,
        files: [],
        onDevice: false
      }
    ])
  })

  it("applies [global] options to each job after it, as fio does, with each job's own options winning", () => {
    const check = checkJobFile(SSD_TEST)
    expect(check.problems).toEqual([])
    expect(check.jobs.map((j) => [j.name, j.rw, j.blockBytes, j.runtimeSeconds, j.waitsForPrevious, j.files, j.fileBytes])).toEqual([
      ['seq-read', 'read', 4096, 60, true, ['ssd.test.file'], 10 * 2 ** 30],
      ['rand-read', 'randread', 4096, 60, true, ['ssd.test.file'], 10 * 2 ** 30],
      ['seq-write', 'write', 4096, 60, true, ['ssd.test.file'], 10 * 2 ** 30],
      ['rand-write', 'randwrite', 4096, 60, true, ['ssd.test.file'], 10 * 2 ** 30]
    ])
    const own = checkJobFile('[global]\nsize=1g\nbs=4k\n[a]\nbs=4k,1m\nruntime=2m\nramp_time=5\ntime_based\n[b]\nsize=16m\nbuffered=0\n')
    expect(own.problems).toEqual([])
    expect(own.jobs.map((j) => [j.name, j.blockBytes, j.runtimeSeconds, j.rampSeconds, j.timeBased, j.fileBytes, j.direct])).toEqual([
      ['a', 2 ** 20, 120, 5, true, 2 ** 30, false],
      ['b', 4096, undefined, 0, false, 16 * 2 ** 20, true]
    ])
  })

  it('refuses options that run commands or change the target, naming the line, the section and the option', () => {
    const text = '[global]\nexec_prerun=rm -rf /\n[virt]\nsize=1g\nexec_postrun=reboot\nioscheduler=none\ntrigger=/bin/sh -c id\n'
    expect(lines(text)).toEqual([
      'job file line 2, [global], exec_prerun: exec_prerun runs a command on the target before the job; VirtBench runs only fio: remove it and prepare the target yourself',
      'job file line 5, [virt], exec_postrun: exec_postrun runs a command on the target after the job; VirtBench runs only fio: remove it (VirtBench removes the test files itself)',
      "job file line 6, [virt], ioscheduler: ioscheduler switches the device's I/O scheduler for everyone on the target; remove it and set the scheduler before the run if it matters",
      'job file line 7, [virt], trigger: trigger runs a command on the target when fio is triggered; remove it'
    ])
  })

  it('refuses paths outside the work directory, and devices the plan has not confirmed', () => {
    expect(lines('[a]\nsize=1g\nfilename=/etc/passwd\n')).toEqual([
      'job file line 3, [a], filename: /etc/passwd is outside the run\'s work directory; give a path relative to it (fio runs there), like virt.dat'
    ])
    expect(lines('[a]\nsize=1g\ndirectory=../../home\n')).toEqual(["job file line 3, [a], directory: ../../home climbs out of the run's work directory with '..'; give a path inside it"])
    expect(lines('[a]\nsize=1g\nfilename=ok.dat:/root/x\n')[0]).toContain('/root/x is outside')
    expect(lines('[a]\nsize=1g\nwrite_bw_log=/tmp/bw\n')[0]).toContain('[a], write_bw_log: /tmp/bw is outside')
    expect(lines('[a]\nrw=read\nsize=1g\nfilename=/dev/sdb\n')).toEqual([
      "job file line 4, [a], filename: /dev/sdb is a device the plan has not confirmed; choose it as the plan's raw device (storage: device, with the written confirmation) or give a file name relative to the work directory"
    ])
    expect(lines('[a]\nsize=1g\nfilename=${HOME}/x\n')[0]).toContain("fio would put the target's environment variables into filename")
    expect(lines('[a]\nsize=1g\ndirectory=data:/srv\n')[0]).toContain('/srv is outside')
    expect(lines('[a]\nsize=1g\nmem=mmaphuge:/hugetlbfs/file\n')).toEqual([
      'job file line 3, [a], mem: mem=mmaphuge:/hugetlbfs/file maps a file VirtBench does not check; give the kind of memory alone (like mem=malloc)'
    ])
    expect(lines('[a]\nsize=1g\nmem=malloc\n')).toEqual([])
    expect(lines('[../../etc/evil]\nsize=1g\n')[0]).toContain("holds a '/' or '\\' that would put them outside the work directory")
  })

  it('runs on the confirmed raw device, and refuses writes to it until they are confirmed', () => {
    const device = { device: '/dev/vdb', deviceWriteConfirmed: false }
    expect(lines('[a]\nrw=randread\nruntime=10\ntime_based\nfilename=/dev/vdb\n', device)).toEqual([])
    const check = checkJobFile('[a]\nrw=randread\nruntime=10\ntime_based\nfilename=/dev/vdb\n', device)
    expect(check.jobs[0]).toMatchObject({ onDevice: true, fileBytes: 0, files: ['/dev/vdb'] })
    expect(lines('[a]\nrw=randwrite\nruntime=10\nfilename=/dev/vdb\n', device)).toEqual([
      "job file line 2, [a], rw: rw=randwrite writes to /dev/vdb and destroys the data on it; confirm that in the plan's storage (deviceWriteConfirmed) first, or use rw=read or randread"
    ])
    expect(lines('[a]\nrw=randwrite\nruntime=10\nfilename=/dev/vdb\n', { ...device, deviceWriteConfirmed: true })).toEqual([])
    expect(lines('[a]\nrw=read\nsize=1g\n', device)).toEqual(['job file line 1, [a]: the plan tests the raw device /dev/vdb: give filename=/dev/vdb in this job'])
    expect(lines('[a]\nrw=read\nfilename=/dev/vdb\n', device)).toEqual([
      'job file line 1, [a]: the job would read or write the whole of /dev/vdb: add size= or runtime= so it has an end VirtBench can wait for'
    ])
  })

  it('needs a size it can check against free space, and an engine VirtBench runs', () => {
    expect(lines('[a]\nrw=read\n')).toEqual([
      "job file line 1, [a]: the job gives no size: add size= (like size=1g), so fio knows how large its files are and preflight can check that they fit the target's free space"
    ])
    expect(lines('[a]\nsize=50%\n')[0]).toContain("size=50% is not a size VirtBench can check against the target's free space")
    expect(lines('[a]\nsize=1g\nioengine=exec\n')[0]).toMatch(/^job file line 3, \[a\], ioengine: ioengine=exec is not an engine VirtBench runs .*use one of libaio, io_uring/)
    expect(lines('[a]\nsize=1g\nioengine=external:/tmp/x.so\n')[0]).toContain('ioengine=external:/tmp/x.so is not an engine')
    expect(checkJobFile('[a]\nfilesize=1m-4m\nnrfiles=3\nnumjobs=2\n').jobs[0]!.fileBytes).toBe(2 * 3 * 4 * 2 ** 20)
  })

  it('says what is wrong with the syntax, and with values it has to plan with', () => {
    expect(lines('rw=read\n[a]\nsize=1g\n')).toEqual(['job file line 1, rw: the option rw comes before any [section]; fio refuses that: put it under [global] or a job\'s section'])
    expect(lines('[global]\nsize=1g\n')).toEqual(['job file line 1: the job file has no job section (only [global] options, or nothing): add one, like [virt]'])
    expect(lines('[a]\nsize=1g\ninclude other.fio\n')[0]).toContain("[a], include: the job file includes another file")
    expect(lines('[a]\nsize=1g\nnumjobs=0\nruntime=forever\ntime_based\n')).toEqual([
      'job file line 3, [a], numjobs: numjobs must be a whole number from 1 to 64',
      'job file line 4, [a], runtime: runtime must be a time such as 30, 30s, 2m or 1h, at most 24 h'
    ])
    expect(lines('[a]\nsize=1g\ntime_based\n')).toEqual(['job file line 3, [a], time_based: time_based needs a runtime; add runtime= (like runtime=60) or remove time_based'])
    expect(lines('[a]\nsize=1g\nrw=sideways\n')[0]).toContain("rw=sideways is not one of fio's I/O patterns")
    expect(lines(`[a]\nsize=1g\n; ${'x'.repeat(70_000)}\n`)[0]).toContain('VirtBench takes at most 65536')
  })

  it('reads comments and blanks as fio does', () => {
    expect(parseJobFile('# head\n [virt] \n  rw = randread ; why\nsize=16m#x\ntime_based\n').sections).toEqual([
      {
        name: 'virt',
        line: 2,
        global: false,
        options: [
          { key: 'rw', value: 'randread', line: 3 },
          { key: 'size', value: '16m', line: 4 },
          { key: 'time_based', line: 5 }
        ]
      }
    ])
  })
})
