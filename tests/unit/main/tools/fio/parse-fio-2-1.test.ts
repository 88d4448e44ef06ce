import { describe, expect, it } from 'vitest'
import { parse } from '../../../../../src/main/tools/fio/parse'
import { fixture, samplesOf, valueOf } from './fixtures'

const US = 1e6
const KIB = 1024

/** Reports of fio before 2.1.14: no total_ios, io_bytes and bw in KiB, latencies in microseconds. */
describe('fio parse: fio 2.1.4 (PerfKitBenchmarker test data, five jobs in five groups)', () => {
  const { out, json } = fixture('fio-2.1.4-pkb-5-groups')
  const result = parse(out)

  it('is a report without total_ios', () => {
    expect(json['fio version']).toBe('fio-2.1.4')
    expect(json.jobs.map((job: { write: object }) => 'total_ios' in job.write)).toEqual([false, false, false, false, false])
  })

  it.each([
    ['sequential_write', 0, 'write'],
    ['sequential_read', 1, 'read'],
    ['random_write_test', 2, 'write'],
    ['random_read_test', 3, 'read'],
    ['random_read_test_parallel', 4, 'read']
  ] as const)("gives job '%s' exactly as fio reported it", (name, index, direction) => {
    const samples = samplesOf(result)
    const job = { job: name }
    const dir = json.jobs[index][direction]
    expect(json.jobs[index].jobname).toBe(name)
    expect(valueOf(samples, `fio.${direction}.iops`, job)).toBe(dir.iops)
    expect(valueOf(samples, `fio.${direction}.bandwidth`, job)).toBe(dir.bw * KIB)
    expect(valueOf(samples, `fio.${direction}.bytes`, job)).toBe(dir.io_bytes * KIB)
    expect(valueOf(samples, `fio.${direction}.runtime`, job)).toBe(dir.runtime / 1000)
    expect(valueOf(samples, `fio.${direction}.slat.max`, job)).toBe(dir.slat.max / US)
    expect(valueOf(samples, `fio.${direction}.clat.mean`, job)).toBe(dir.clat.mean / US)
    expect(valueOf(samples, `fio.${direction}.clat.p99`, job)).toBe(dir.clat.percentile['99.000000'] / US)
    expect(valueOf(samples, `fio.${direction}.clat.p99.99`, job)).toBe(dir.clat.percentile['99.990000'] / US)
    expect(valueOf(samples, `fio.${direction}.lat.max`, job)).toBe(dir.lat.max / US)
    expect(valueOf(samples, `fio.${direction}.lat.stddev`, job)).toBe(dir.lat.stddev / US)
  })

  it('leaves out the I/O counts fio 2.1.4 did not report, gives no totals over its groups, and says both', () => {
    const samples = samplesOf(result)
    expect(samples.filter((s) => s.metric.endsWith('.ios'))).toEqual([])
    expect(samples.filter((s) => s.labels.job === undefined)).toEqual([])
    expect(result.ok && result.warnings).toEqual([
      'fio ran these jobs in 5 groups one after another (stonewall or new_group), so adding them up would describe no moment of the run: only per-job samples are given',
      'fio-2.1.4\'s report has no I/O counts ("total_ios", which fio reports from 2.1.14 on), so fio.write.ios, fio.read.ios are left out'
    ])
  })
})

describe('fio parse: fio 2.1.11 (OPNFV StorPerf test data, four jobs side by side)', () => {
  const { out, json } = fixture('fio-2.1.11-storperf-4-jobs')
  const reads: { io_bytes: number; bw: number; iops: number; clat: { min: number; max: number; mean: number } }[] = json.jobs.map(
    (job: { read: unknown }) => job.read
  )
  const result = parse(out)

  it('adds up what adds up exactly over the four jobs', () => {
    const samples = samplesOf(result)
    expect(json['fio version']).toBe('fio-2.1.11')
    expect(valueOf(samples, 'fio.read.iops')).toBe(reads.reduce((sum, read) => sum + read.iops, 0))
    expect(valueOf(samples, 'fio.read.bandwidth')).toBe(reads.reduce((sum, read) => sum + read.bw * KIB, 0))
    expect(valueOf(samples, 'fio.read.bytes')).toBe(reads.reduce((sum, read) => sum + read.io_bytes * KIB, 0))
    expect(valueOf(samples, 'fio.read.clat.min')).toBe(Math.min(...reads.map((read) => read.clat.min)) / US)
    expect(valueOf(samples, 'fio.read.clat.max')).toBe(Math.max(...reads.map((read) => read.clat.max)) / US)
    expect(valueOf(samples, 'fio.read.clat.mean', { job: 'random-read#2' })).toBe(reads[2]!.clat.mean / US)
  })

  it('leaves out the I/O counts and the I/O-weighted mean over all jobs, and says why', () => {
    const samples = samplesOf(result)
    expect(samples.filter((s) => s.metric.endsWith('.ios'))).toEqual([])
    expect(samples.filter((s) => s.labels.job === undefined && s.metric.endsWith('.mean'))).toEqual([])
    expect(result.ok && result.warnings).toEqual([
      'fio reported 4 jobs separately (no group_reporting), and percentiles of separate jobs cannot be combined: latency percentiles are given per job (labels.job) and not as totals; run with group_reporting to get percentiles over all jobs',
      "fio-2.1.11's report has no I/O counts (\"total_ios\", which fio reports from 2.1.14 on), so fio.read.ios is left out; the mean latencies over all jobs, which weigh each job by its I/O count, are left out too (each job's own mean is given)"
    ])
  })
})

describe('fio parse: what old reports lack or get wrong', () => {
  it('names the fio version and the field when a field VirtBench needs is not there', () => {
    const { out, json } = fixture('fio-2.1.4-pkb-5-groups')
    delete json.jobs[0].write.runtime
    const result = parse({ ...out, stdout: JSON.stringify(json) })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.reason).toMatch(/^fio-2\.1\.4's JSON report has no "runtime" in jobs\[0\] \("sequential_write"\)\.write, which VirtBench needs/)
    expect(result.error.reason).not.toMatch(/not in the shape fio writes/)
  })

  it('reads the first errno of continue_on_error from the "total_err" fio 2.1.3 and older write twice, and says the count is unknown', () => {
    const { out } = fixture('fio-2.1.11-storperf-4-jobs')
    // fio 2.0.10 to 2.1.3 wrote "total_err" : <count>, then "total_err" : <first errno>.
    const stdout = out.stdout.replace('"minf" : 6,', '"minf" : 6,\n      "total_err" : 12,\n      "total_err" : 5,')
    expect(stdout).not.toBe(out.stdout)
    const result = parse({ ...out, stdout })
    expect(result.ok && result.warnings).toContain(
      "job 'random-read#0' went on past I/O errors (continue_on_error; the first was error 5 (EIO, Input/output error)), so its numbers include failed I/Os; fio-2.1.11's report does not say how many"
    )
  })
})
