import { describe, expect, it } from 'vitest'
import { FIO_METRICS } from '../../../../../src/main/tools/fio/metrics'
import { parse } from '../../../../../src/main/tools/fio/parse'
import { ERROR_FIXTURES, SUCCESS_FIXTURES, fixture, fixtureOutput, samplesOf, valueOf } from './fixtures'

const NS = 1e9
const US = 1e6

function metricsOf(samples: readonly { metric: string }[]): string[] {
  return [...new Set(samples.map((s) => s.metric))]
}

describe('fio parse: fio 3.33 single job', () => {
  it('reads randread 4k libaio iodepth 16 exactly as fio reported it', () => {
    const { out, json } = fixture('randread-4k-libaio-qd16')
    const samples = samplesOf(parse(out))
    const read = json.jobs[0].read
    expect(valueOf(samples, 'fio.read.iops')).toBe(read.iops)
    expect(valueOf(samples, 'fio.read.bandwidth')).toBe(read.bw_bytes)
    expect(valueOf(samples, 'fio.read.bytes')).toBe(read.io_bytes)
    expect(valueOf(samples, 'fio.read.ios')).toBe(read.total_ios)
    expect(valueOf(samples, 'fio.read.runtime')).toBe(read.runtime / 1000)
    expect(valueOf(samples, 'fio.read.lat.mean')).toBe(read.lat_ns.mean / NS)
    expect(valueOf(samples, 'fio.read.lat.min')).toBe(read.lat_ns.min / NS)
    expect(valueOf(samples, 'fio.read.lat.max')).toBe(read.lat_ns.max / NS)
    expect(valueOf(samples, 'fio.read.lat.stddev')).toBe(read.lat_ns.stddev / NS)
    expect(valueOf(samples, 'fio.read.clat.mean')).toBe(read.clat_ns.mean / NS)
    expect(valueOf(samples, 'fio.read.slat.mean')).toBe(read.slat_ns.mean / NS)
    expect(valueOf(samples, 'fio.read.clat.p50')).toBe(read.clat_ns.percentile['50.000000'] / NS)
    expect(valueOf(samples, 'fio.read.clat.p90')).toBe(read.clat_ns.percentile['90.000000'] / NS)
    expect(valueOf(samples, 'fio.read.clat.p95')).toBe(read.clat_ns.percentile['95.000000'] / NS)
    expect(valueOf(samples, 'fio.read.clat.p99')).toBe(read.clat_ns.percentile['99.000000'] / NS)
    expect(valueOf(samples, 'fio.read.clat.p99.9')).toBe(read.clat_ns.percentile['99.900000'] / NS)
    expect(valueOf(samples, 'fio.read.clat.p99.99')).toBe(read.clat_ns.percentile['99.990000'] / NS)
  })

  it('gives only the direction that did I/O, as totals without a job label', () => {
    const { out } = fixture('randread-4k-libaio-qd16')
    const result = parse(out)
    const samples = samplesOf(result)
    expect(metricsOf(samples).every((m) => m.startsWith('fio.read.'))).toBe(true)
    expect(samples.every((s) => Object.keys(s.labels).length === 0)).toBe(true)
    expect(result.ok && result.warnings).toEqual([])
  })

  it('is consistent with itself: bandwidth is about iops x 4 KiB', () => {
    const samples = samplesOf(parse(fixtureOutput('randread-4k-libaio-qd16')))
    const iops = valueOf(samples, 'fio.read.iops')!
    const bandwidth = valueOf(samples, 'fio.read.bandwidth')!
    expect(iops).toBeGreaterThan(100)
    expect(Math.abs(bandwidth / (iops * 4096) - 1)).toBeLessThan(0.01)
  })

  it('passes on the note fio prints before the JSON, and leaves out submission latency psync did not measure', () => {
    const { out, json } = fixture('psync-qd16-note')
    expect(out.stdout.startsWith('note: both iodepth >= 1 and synchronous I/O engine are selected')).toBe(true)
    const result = parse(out)
    const samples = samplesOf(result)
    const read = json.jobs[0].read
    expect(read.slat_ns.N).toBe(0)
    expect(valueOf(samples, 'fio.read.iops')).toBe(read.iops)
    expect(valueOf(samples, 'fio.read.clat.p99')).toBe(read.clat_ns.percentile['99.000000'] / NS)
    expect(metricsOf(samples).filter((m) => m.includes('.slat.'))).toEqual([])
    expect(result.ok && result.warnings).toEqual([
      'fio printed: note: both iodepth >= 1 and synchronous I/O engine are selected, queue depth will be capped at 1'
    ])
  })

  it('reads a trim job (falloc engine on a file)', () => {
    const { out, json } = fixture('randtrim-falloc')
    const samples = samplesOf(parse(out))
    const trim = json.jobs[0].trim
    expect(valueOf(samples, 'fio.trim.iops')).toBe(trim.iops)
    expect(valueOf(samples, 'fio.trim.bandwidth')).toBe(trim.bw_bytes)
    expect(valueOf(samples, 'fio.trim.lat.mean')).toBe(trim.lat_ns.mean / NS)
    expect(valueOf(samples, 'fio.trim.clat.p50')).toBe(trim.clat_ns.percentile['50.000000'] / NS)
    expect(valueOf(samples, 'fio.trim.clat.p99')).toBe(trim.clat_ns.percentile['99.000000'] / NS)
    expect(metricsOf(samples).every((m) => m.startsWith('fio.trim.'))).toBe(true)
  })

  it("reads study 001's 1 MiB sequential write with end_fsync (posixaio)", () => {
    const { out, json } = fixture('seq-write-1m-posixaio-end-fsync')
    const samples = samplesOf(parse(out))
    const write = json.jobs[0].write
    expect(valueOf(samples, 'fio.write.iops')).toBe(write.iops)
    expect(valueOf(samples, 'fio.write.bandwidth')).toBe(write.bw_bytes)
    expect(valueOf(samples, 'fio.write.lat.mean')).toBe(write.lat_ns.mean / NS)
    expect(valueOf(samples, 'fio.write.clat.p50')).toBe(write.clat_ns.percentile['50.000000'] / NS)
    expect(valueOf(samples, 'fio.write.clat.p99')).toBe(write.clat_ns.percentile['99.000000'] / NS)
    expect(valueOf(samples, 'fio.read.iops')).toBeUndefined()
  })

  it('reads unified_rw_reporting as the mixed direction', () => {
    const { out, json } = fixture('randrw-unified-mixed')
    const samples = samplesOf(parse(out))
    const mixed = json.jobs[0].mixed
    expect(json.jobs[0].read).toBeUndefined()
    expect(valueOf(samples, 'fio.mixed.iops')).toBe(mixed.iops)
    expect(valueOf(samples, 'fio.mixed.bandwidth')).toBe(mixed.bw_bytes)
    expect(valueOf(samples, 'fio.mixed.lat.mean')).toBe(mixed.lat_ns.mean / NS)
    expect(valueOf(samples, 'fio.mixed.clat.p99')).toBe(mixed.clat_ns.percentile['99.000000'] / NS)
  })
})

describe('fio parse: json+', () => {
  it('reads the same figures as json (the histogram bins are not needed)', () => {
    const { out, json } = fixture('randrw-4k-json-plus')
    expect(out.stdout).toContain('"bins" : {')
    const samples = samplesOf(parse(out))
    const read = json.jobs[0].read
    const write = json.jobs[0].write
    expect(valueOf(samples, 'fio.read.iops')).toBe(read.iops)
    expect(valueOf(samples, 'fio.write.iops')).toBe(write.iops)
    expect(valueOf(samples, 'fio.read.lat.mean')).toBe(read.lat_ns.mean / NS)
    expect(valueOf(samples, 'fio.write.clat.p50')).toBe(write.clat_ns.percentile['50.000000'] / NS)
    expect(valueOf(samples, 'fio.read.clat.p99')).toBe(read.clat_ns.percentile['99.000000'] / NS)
    expect(valueOf(samples, 'fio.write.clat.p99.9')).toBe(write.clat_ns.percentile['99.900000'] / NS)
  })

  it('gives exactly what the same report without bins gives', () => {
    const { out, json } = fixture('randrw-4k-json-plus')
    for (const job of json.jobs) for (const dir of ['read', 'write', 'trim']) delete job[dir].clat_ns.bins
    const plain = JSON.stringify(json, null, 2)
    expect(plain).not.toContain('"bins"')
    expect(parse(out)).toEqual(parse({ ...out, stdout: plain }))
  })
})

describe('fio parse: several jobs', () => {
  it('adds up two randrw jobs without group_reporting and keeps each job apart', () => {
    const { out, json } = fixture('randrw-64k-2jobs')
    const samples = samplesOf(parse(out))
    const [a, b] = json.jobs
    expect(a.jobname).toBe('randrw')
    expect(b.jobname).toBe('randrw')
    for (const dir of ['read', 'write']) {
      expect(valueOf(samples, `fio.${dir}.iops`)).toBe(a[dir].iops + b[dir].iops)
      expect(valueOf(samples, `fio.${dir}.bandwidth`)).toBe(a[dir].bw_bytes + b[dir].bw_bytes)
      expect(valueOf(samples, `fio.${dir}.bytes`)).toBe(a[dir].io_bytes + b[dir].io_bytes)
      expect(valueOf(samples, `fio.${dir}.ios`)).toBe(a[dir].total_ios + b[dir].total_ios)
      const ios = a[dir].total_ios + b[dir].total_ios
      expect(valueOf(samples, `fio.${dir}.lat.mean`)).toBe(
        ((a[dir].lat_ns.mean / NS) * a[dir].total_ios + (b[dir].lat_ns.mean / NS) * b[dir].total_ios) / ios
      )
      expect(valueOf(samples, `fio.${dir}.clat.mean`)).toBe(
        ((a[dir].clat_ns.mean / NS) * a[dir].total_ios + (b[dir].clat_ns.mean / NS) * b[dir].total_ios) / ios
      )
      expect(valueOf(samples, `fio.${dir}.lat.max`)).toBe(Math.max(a[dir].lat_ns.max, b[dir].lat_ns.max) / NS)
      expect(valueOf(samples, `fio.${dir}.lat.min`)).toBe(Math.min(a[dir].lat_ns.min, b[dir].lat_ns.min) / NS)
      expect(valueOf(samples, `fio.${dir}.iops`, { job: 'randrw#0' })).toBe(a[dir].iops)
      expect(valueOf(samples, `fio.${dir}.iops`, { job: 'randrw#1' })).toBe(b[dir].iops)
      expect(valueOf(samples, `fio.${dir}.clat.p99`, { job: 'randrw#0' })).toBe(a[dir].clat_ns.percentile['99.000000'] / NS)
      expect(valueOf(samples, `fio.${dir}.clat.p50`, { job: 'randrw#1' })).toBe(b[dir].clat_ns.percentile['50.000000'] / NS)
      expect(valueOf(samples, `fio.${dir}.lat.stddev`, { job: 'randrw#1' })).toBe(b[dir].lat_ns.stddev / NS)
    }
  })

  it('invents no percentiles for the total of separate jobs, and says so', () => {
    const result = parse(fixtureOutput('randrw-64k-2jobs'))
    const samples = samplesOf(result)
    const totals = samples.filter((s) => s.labels.job === undefined).map((s) => s.metric)
    expect(totals.filter((m) => /\.p\d/.test(m) || m.endsWith('.stddev') || m.endsWith('.runtime'))).toEqual([])
    expect(result.ok && result.warnings).toHaveLength(1)
    expect(result.ok && result.warnings[0]).toMatch(/percentiles of separate jobs cannot be combined.*group_reporting/)
  })

  it('takes the percentiles of group_reporting as the totals', () => {
    const { out, json } = fixture('randrw-64k-2jobs-group-reporting')
    expect(json.jobs).toHaveLength(1)
    const result = parse(out)
    const samples = samplesOf(result)
    const read = json.jobs[0].read
    expect(valueOf(samples, 'fio.read.iops')).toBe(read.iops)
    expect(valueOf(samples, 'fio.read.bandwidth')).toBe(read.bw_bytes)
    expect(valueOf(samples, 'fio.read.lat.mean')).toBe(read.lat_ns.mean / NS)
    expect(valueOf(samples, 'fio.read.clat.p50')).toBe(read.clat_ns.percentile['50.000000'] / NS)
    expect(valueOf(samples, 'fio.write.clat.p99')).toBe(json.jobs[0].write.clat_ns.percentile['99.000000'] / NS)
    expect(samples.every((s) => s.labels.job === undefined)).toBe(true)
    expect(result.ok && result.warnings).toEqual([])
  })

  it("reads study 003's job file run: four 'virt' jobs, numbered like fio's files", () => {
    const { out, json } = fixture('study-003-virt-jobfile')
    const samples = samplesOf(parse(out))
    expect(json.jobs.map((j: { jobname: string }) => j.jobname)).toEqual(['virt', 'virt', 'virt', 'virt'])
    const jobs = json.jobs
    expect(valueOf(samples, 'fio.read.iops')).toBe(jobs[0].read.iops + jobs[1].read.iops + jobs[2].read.iops + jobs[3].read.iops)
    expect(valueOf(samples, 'fio.write.bandwidth')).toBe(
      jobs[0].write.bw_bytes + jobs[1].write.bw_bytes + jobs[2].write.bw_bytes + jobs[3].write.bw_bytes
    )
    for (let i = 0; i < 4; i++) {
      expect(valueOf(samples, 'fio.read.iops', { job: `virt#${i}` })).toBe(jobs[i].read.iops)
      expect(valueOf(samples, 'fio.write.clat.p99', { job: `virt#${i}` })).toBe(jobs[i].write.clat_ns.percentile['99.000000'] / NS)
    }
  })
})

describe('fio parse: fio 2.21', () => {
  it('reads microsecond latencies, KiB/s bandwidth and clat percentiles of fio 2.x', () => {
    const { out, json } = fixture('fio2-randread-4k-libaio-qd16')
    expect(json['fio version']).toBe('fio-2.21')
    const samples = samplesOf(parse(out))
    const read = json.jobs[0].read
    expect(read.bw_bytes).toBeUndefined()
    expect(valueOf(samples, 'fio.read.iops')).toBe(read.iops)
    expect(valueOf(samples, 'fio.read.bandwidth')).toBe(read.bw * 1024)
    expect(valueOf(samples, 'fio.read.bytes')).toBe(read.io_bytes)
    expect(valueOf(samples, 'fio.read.ios')).toBe(read.total_ios)
    expect(valueOf(samples, 'fio.read.lat.mean')).toBe(read.lat.mean / US)
    expect(valueOf(samples, 'fio.read.lat.max')).toBe(read.lat.max / US)
    expect(valueOf(samples, 'fio.read.clat.mean')).toBe(read.clat.mean / US)
    expect(valueOf(samples, 'fio.read.slat.mean')).toBe(read.slat.mean / US)
    expect(valueOf(samples, 'fio.read.clat.p50')).toBe(read.clat.percentile['50.000000'] / US)
    expect(valueOf(samples, 'fio.read.clat.p99')).toBe(read.clat.percentile['99.000000'] / US)
    expect(valueOf(samples, 'fio.read.clat.p99.9')).toBe(read.clat.percentile['99.900000'] / US)
    expect(metricsOf(samples).every((m) => m.startsWith('fio.read.'))).toBe(true)
  })

  it('reads io_bytes as KiB in fio before 2.21, which had no io_kbytes', () => {
    const { out, json } = fixture('fio2-randread-4k-libaio-qd16')
    const read = json.jobs[0].read
    read.io_bytes = read.io_kbytes
    delete read.io_kbytes
    const samples = samplesOf(parse({ ...out, stdout: JSON.stringify(json) }))
    expect(valueOf(samples, 'fio.read.bytes')).toBe(json.jobs[0].read.io_bytes * 1024)
  })
})

describe('fio parse: errors', () => {
  it('refuses a job that stopped with an errno, naming the job, the errno and quoting fio', () => {
    const { out, json } = fixture('error-enotdir')
    expect(json.jobs[0].error).toBe(20)
    const result = parse(out)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.reason).toContain("job 'enotdir' stopped with error 20 (ENOTDIR, Not a directory)")
    expect(result.error.reason).toContain('fio said: fio: pid=0, err=20/file:filesetup.c:455, func=fstat, error=Not a directory')
    expect(result.error.excerpt).toContain('err=20')
  })

  it('refuses a trim that psync cannot do on a file (error 25 printed on stdout before the JSON)', () => {
    const { out, json } = fixture('error-trim-psync')
    expect(json.jobs[0].error).toBe(25)
    expect(out.stderr).toBe('')
    const result = parse(out)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.reason).toContain("job 'trim-psync' stopped with error 25 (ENOTTY, Inappropriate ioctl for device)")
    expect(result.error.excerpt).toContain('error=Inappropriate ioctl for device')
  })

  it('refuses output of a run that was stopped by a signal', () => {
    const out = fixtureOutput('randread-4k-libaio-qd16')
    const result = parse({ ...out, exitCode: null, signal: 'SIGTERM' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toMatch(/stopped by SIGTERM/)
  })

  it('says so when the report is cut short', () => {
    const out = fixtureOutput('randread-4k-libaio-qd16')
    const result = parse({ ...out, stdout: out.stdout.slice(0, 3000) })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toMatch(/cut short or damaged/)
  })

  it('says so when fio printed nothing', () => {
    const result = parse({ stdout: '', stderr: '', exitCode: 127 })
    expect(result).toEqual({ ok: false, error: { reason: 'fio printed nothing and exited with code 127; check that fio is installed and runs on this target', excerpt: '' } })
  })

  it('asks for --output-format=json when given fio text output', () => {
    const text = 'randread: (groupid=0, jobs=1): err= 0: pid=123: Fri Nov 20 23:04:10 2026\n  read: IOPS=79.6k, BW=311MiB/s (326MB/s)(311MiB/1001msec)\n'
    const result = parse({ stdout: text, stderr: '', exitCode: 0 })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toMatch(/--output-format=json/)
  })

  it("refuses another tool's JSON (iperf3)", () => {
    const iperf3 = JSON.stringify({ start: { version: 'iperf 3.12' }, intervals: [], end: { sum_sent: { bits_per_second: 1e9 } } })
    const result = parse({ stdout: iperf3, stderr: '', exitCode: 0 })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toMatch(/not a fio report/)
  })

  it('names a field that is not a number', () => {
    const { out, json } = fixture('randread-4k-libaio-qd16')
    json.jobs[0].read.iops = 'fast'
    const result = parse({ ...out, stdout: JSON.stringify(json) })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.reason).toContain('jobs[0] ("randread-4k").read: "iops" is not a number')
    expect(result.error.excerpt).toBe('"iops" : "fast"')
  })

  it('refuses a report in which no job did I/O', () => {
    const { out, json } = fixture('randread-4k-libaio-qd16')
    json.jobs[0].read.total_ios = 0
    json.jobs[0].read.io_bytes = 0
    const result = parse({ ...out, stdout: JSON.stringify(json) })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toMatch(/did no I\/O/)
  })
})

describe('fio parse: warnings', () => {
  it('passes on notes after the JSON and on stderr', () => {
    const out = fixtureOutput('randread-4k-libaio-qd16')
    const result = parse({ ...out, stdout: `${out.stdout}fio: file hash not empty on exit\n`, stderr: 'fio: some warning\n' })
    expect(result.ok && result.warnings).toEqual(['fio printed: fio: file hash not empty on exit', 'fio printed: fio: some warning'])
  })

  it('warns about a non-zero exit code when every job succeeded', () => {
    const result = parse({ ...fixtureOutput('randread-4k-libaio-qd16'), exitCode: 1 })
    expect(result.ok && result.warnings).toEqual(['fio exited with code 1 although every job in its report finished without an error'])
  })

  it('warns about I/O errors a job went past (continue_on_error)', () => {
    const { out, json } = fixture('randread-4k-libaio-qd16')
    json.jobs[0].total_err = 3
    json.jobs[0].first_error = 5
    const result = parse({ ...out, stdout: JSON.stringify(json) })
    expect(result.ok && result.warnings).toEqual([
      "job 'randread-4k' went on past 3 I/O errors (continue_on_error; the first was error 5 (EIO, Input/output error)), so its numbers include failed I/Os"
    ])
  })

  it('leaves out rates fio could not time (runtime 0 ms) instead of reporting 0', () => {
    const { out, json } = fixture('randread-4k-libaio-qd16')
    json.jobs[0].read.runtime = 0
    json.jobs[0].read.iops = 0
    json.jobs[0].read.bw_bytes = 0
    const result = parse({ ...out, stdout: JSON.stringify(json) })
    const samples = samplesOf(result)
    expect(valueOf(samples, 'fio.read.iops')).toBeUndefined()
    expect(valueOf(samples, 'fio.read.bandwidth')).toBeUndefined()
    expect(valueOf(samples, 'fio.read.ios')).toBe(json.jobs[0].read.total_ios)
    expect(result.ok && result.warnings[0]).toMatch(/0 ms and gives no rate/)
  })

  it('gives no totals over jobs that ran one after another in separate groups', () => {
    const { out, json } = fixture('randrw-64k-2jobs')
    json.jobs[1].groupid = 1
    const result = parse({ ...out, stdout: JSON.stringify(json) })
    const samples = samplesOf(result)
    expect(samples.filter((s) => s.labels.job === undefined)).toEqual([])
    expect(valueOf(samples, 'fio.read.iops', { job: 'randrw#1' })).toBe(json.jobs[1].read.iops)
    expect(result.ok && result.warnings[0]).toMatch(/2 groups one after another/)
  })

  it('labels jobs without a name by position, and keeps distinct names as they are', () => {
    const { out, json } = fixture('randrw-64k-2jobs')
    delete json.jobs[0].jobname
    json.jobs[1].jobname = 'randrw#0'
    const samples = samplesOf(parse({ ...out, stdout: JSON.stringify(json) }))
    expect(valueOf(samples, 'fio.read.iops', { job: 'job 1' })).toBe(json.jobs[0].read.iops)
    expect(valueOf(samples, 'fio.read.iops', { job: 'randrw#0' })).toBe(json.jobs[1].read.iops)
  })
})

describe('fio parse: contract', () => {
  const defined = new Set(FIO_METRICS.map((m) => m.name))

  it.each([...SUCCESS_FIXTURES])('%s: every sample is a defined metric in base units', (name) => {
    const samples = samplesOf(parse(fixtureOutput(name)))
    expect(samples.length).toBeGreaterThan(0)
    for (const s of samples) {
      const pattern = s.metric.replace(/^fio\.(read|write|trim|mixed)\./, 'fio.<dir>.')
      expect(defined.has(pattern), s.metric).toBe(true)
      const def = FIO_METRICS.find((m) => m.name === pattern)!
      expect(s.unit).toBe(def.unit)
      expect(s.better).toBe(def.better)
      expect(Number.isFinite(s.value)).toBe(true)
      expect(s.value).toBeGreaterThanOrEqual(0)
    }
  })

  it.each([...ERROR_FIXTURES])('%s: refused with a reason and a quote', (name) => {
    const result = parse(fixtureOutput(name))
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.reason.length).toBeGreaterThan(20)
      expect(result.error.excerpt.length).toBeGreaterThan(0)
    }
  })
})
