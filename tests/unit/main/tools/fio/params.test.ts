import { describe, expect, it } from 'vitest'
import { fioTool } from '../../../../../src/main/tools/fio'
import { FIO_INSTALL } from '../../../../../src/main/tools/fio/install'
import { FIO_METRICS } from '../../../../../src/main/tools/fio/metrics'
import { fioDefaults, fioParamsSchema, fioSizeBytes, jobNameSchema, type FioParamsInput } from '../../../../../src/main/tools/fio/params'

function messages(input: FioParamsInput): string[] {
  const result = fioParamsSchema.safeParse(input)
  return result.success ? [] : result.error.issues.map((i) => i.message)
}

describe('fio params', () => {
  it('gives the defaults for an empty object', () => {
    expect(fioParamsSchema.parse({})).toEqual({
      style: 'command-line',
      name: 'virtbench',
      ioengine: 'auto',
      rw: 'randread',
      bs: '4k',
      size: '1g',
      numjobs: 1,
      iodepth: 16,
      runtime: 30,
      timeBased: true,
      direct: true,
      endFsync: false,
      groupReporting: false,
      outputFormat: 'json',
      deviceWriteConfirmed: false
    })
    expect(fioTool.defaults).toEqual(fioDefaults)
    expect(fioDefaults.device).toBeUndefined()
  })

  it('describes every field', () => {
    for (const [key, field] of Object.entries(fioParamsSchema.shape)) expect(field.description, key).toMatch(/\w{3}/)
  })

  it('reads fio sizes in powers of 1024', () => {
    expect(fioSizeBytes('4k')).toBe(4096)
    expect(fioSizeBytes('64KiB')).toBe(65536)
    expect(fioSizeBytes('1m')).toBe(2 ** 20)
    expect(fioSizeBytes('16g')).toBe(16 * 2 ** 30)
    expect(fioSizeBytes('512')).toBe(512)
    for (const bad of ['', '4x', '-1k', '1.5g', '0', 'k', '4 k']) expect(fioSizeBytes(bad), bad).toBeNull()
  })

  it('refuses sizes fio would not read, with a message saying what it wants', () => {
    expect(messages({ bs: '4 KB' })).toEqual([
      'bs (block size) must be a whole number with an optional unit k, m, g, t or p (powers of 1024), like 4k, 64k, 1m or 4g'
    ])
    expect(messages({ bs: '100' })).toEqual(['bs (block size) must be between 512 bytes and 256 MiB'])
    expect(messages({ size: '1m', bs: '4m' })).toEqual(['bs (4m) is larger than size (1m): no I/O would fit'])
  })

  it('checks counts, durations and combinations', () => {
    expect(messages({ numjobs: 0 })).toEqual(['numjobs must be at least 1'])
    expect(messages({ iodepth: 2.5 })).toEqual(['iodepth must be a whole number'])
    expect(messages({ runtime: 0 })).toEqual(['runtime must be at least 1 second'])
    expect(messages({ runtime: null })).toEqual(['timeBased needs a runtime: give runtime in seconds, or turn timeBased off'])
    expect(messages({ runtime: null, timeBased: false })).toEqual([])
    expect(messages({ rw: 'randread', rwmixread: 70 })).toEqual(['rwmixread applies only to mixed patterns (rw, readwrite, randrw), not to rw=randread'])
    expect(messages({ rw: 'randrw', rwmixread: 101 })).toEqual(['rwmixread must be between 0 and 100'])
    expect(messages({ filename: 'x', device: '/dev/vdb' })).toEqual(['give either filename (a file in the work directory) or device, not both'])
  })

  it('will not write to a raw device without the confirmation', () => {
    expect(messages({ device: '/dev/vdb', rw: 'randread' })).toEqual([])
    expect(messages({ device: '/dev/vdb', rw: 'randwrite' })).toEqual([
      'rw=randwrite writes to /dev/vdb and destroys the data on it; set deviceWriteConfirmed only after the person running the test has confirmed that'
    ])
    expect(messages({ device: '/dev/vdb', rw: 'randwrite', deviceWriteConfirmed: true })).toEqual([])
    expect(messages({ device: 'vdb' })[0]).toMatch(/^a device must be a block device path/)
    expect(messages({ device: '/dev/../etc/passwd' })).toEqual(["a device path cannot contain '..'"])
    expect(messages({ device: '/dev/vdb; rm -rf /' })[0]).toMatch(/^a device must be a block device path/)
  })

  it('refuses job names that would break a job file, with a clear message', () => {
    const nameMessages = (name: string) => {
      const result = jobNameSchema.safeParse(name)
      return result.success ? [] : result.error.issues.map((i) => i.message)
    }
    expect(nameMessages('virt\n[evil]')).toEqual([
      'a job name cannot contain line breaks, tabs or other control characters',
      "a job name cannot contain '[' or ']': in a job file they would start a new job section"
    ])
    expect(nameMessages('virt]')).toEqual(["a job name cannot contain '[' or ']': in a job file they would start a new job section"])
    expect(nameMessages('$(touch pwned); rm -rf ~')).toEqual(["a job name cannot contain ';' or '#': fio reads the rest of a job-file line as a comment"])
    expect(nameMessages("'; reboot #")).toEqual(["a job name cannot contain ';' or '#': fio reads the rest of a job-file line as a comment"])
    expect(nameMessages('../x')).toEqual(["a job name cannot contain '/' or '\\': fio names its data files after the job"])
    expect(nameMessages(' padded')).toEqual(['a job name cannot start or end with a space: fio strips those from job files'])
    expect(nameMessages('global-test')).toEqual(["a job name cannot start with 'global': fio treats such a section as global options, not a job"])
    expect(nameMessages('')).toEqual(['a job name cannot be empty'])
    for (const ok of ['random-read', 'my job (copy) & more', '$(touch pwned) && rm -rf ~', "it's", 'ünï ✓']) expect(nameMessages(ok), ok).toEqual([])
  })

  it('refuses file names outside the work directory or that fio would misread', () => {
    expect(messages({ filename: '../etc/passwd' })).toEqual(["a file name cannot contain '/', '\\' or ':': give a name inside the work directory"])
    expect(messages({ filename: 'a;b' })).toEqual(["a file name cannot contain ';', '#' or '$': fio reads them as a comment or a variable"])
    expect(messages({ filename: '-' })).toEqual(["'.', '..' and '-' are not file names fio can use ('-' means stdin/stdout)"])
    expect(messages({ filename: 'data file.bin' })).toEqual([])
  })
})

describe('fio tool', () => {
  it('describes each metric for the reference page, in base units', () => {
    expect(FIO_METRICS.map((m) => m.name)).toEqual(expect.arrayContaining([
      'fio.<dir>.iops',
      'fio.<dir>.bandwidth',
      'fio.<dir>.lat.mean',
      'fio.<dir>.clat.p50',
      'fio.<dir>.clat.p99'
    ]))
    expect(new Set(FIO_METRICS.map((m) => m.name)).size).toBe(FIO_METRICS.length)
    for (const m of FIO_METRICS) {
      expect(m.description.length, m.name).toBeGreaterThan(60)
      expect(m.labels).toEqual(['job'])
      expect(['op/s', 'B/s', 'B', 's', 'count']).toContain(m.unit)
    }
  })

  it('installs from every package manager and from the official Windows builds', () => {
    const managers = FIO_INSTALL.flatMap((r) => (r.kind === 'package' ? [r.manager] : []))
    expect(managers).toEqual(['apt', 'dnf', 'yum', 'zypper', 'apk'])
    for (const r of FIO_INSTALL) if (r.kind === 'package') expect(r.packages).toEqual(['fio'])
    expect(FIO_INSTALL.find((r) => r.kind === 'download')).toMatchObject({ os: 'windows', url: 'https://github.com/axboe/fio/releases' })
  })

  it('is a Windows-capable storage tool without a peer', () => {
    expect(fioTool).toMatchObject({ id: 'fio', name: 'fio', categories: ['storage'], windows: true, network: false })
  })
})
