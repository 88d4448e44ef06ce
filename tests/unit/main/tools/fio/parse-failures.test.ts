import { describe, expect, it } from 'vitest'
import { parse } from '../../../../../src/main/tools/fio/parse'
import { fixture, fixtureOutput, samplesOf, valueOf } from './fixtures'

const NS = 1e9

/** fio's "fio: pid=…, err=28/file:…, error=No space left on device" line, as it printed it. */
const ENOSPC_LINE = /^fio: pid=\d+, err=28\/file:io_u\.c:\d+, func=io_u error, error=No space left on device$/

function reasonOf(result: ReturnType<typeof parse>): string {
  if (result.ok) throw new Error(`expected a refusal, got ${result.samples.length} samples`)
  return result.error.reason
}

describe('fio parse: a job file in which one job failed and the other ran (fio 3.33)', () => {
  const { out, json } = fixture('jobfile-one-job-enospc')
  const result = parse(out)
  const pidLine = out.stdout.split('\n')[0]!

  it('is what fio printed: exit 1, job "full" stopped with ENOSPC after 1 MiB, job "fits" wrote 16 MiB', () => {
    expect(out.exitCode).toBe(1)
    expect(pidLine).toMatch(ENOSPC_LINE)
    expect(json.jobs.map((job: { jobname: string; error: number }) => [job.jobname, job.error])).toEqual([
      ['fits', 0],
      ['full', 28]
    ])
  })

  it('keeps the job that ran, exactly as fio reported it, under its name', () => {
    const samples = samplesOf(result)
    const write = json.jobs[0].write
    const fits = { job: 'fits' }
    expect(valueOf(samples, 'fio.write.iops', fits)).toBe(write.iops)
    expect(valueOf(samples, 'fio.write.bandwidth', fits)).toBe(write.bw_bytes)
    expect(valueOf(samples, 'fio.write.bytes', fits)).toBe(16 * 2 ** 20)
    expect(valueOf(samples, 'fio.write.ios', fits)).toBe(256)
    expect(valueOf(samples, 'fio.write.clat.p99', fits)).toBe(write.clat_ns.percentile['99.000000'] / NS)
  })

  it('gives nothing of the failed job and no totals that would miss its share', () => {
    const samples = samplesOf(result)
    expect(samples.filter((s) => s.labels.job !== 'fits')).toEqual([])
  })

  it('says which job failed, with its errno and fio\'s own line, and what to do', () => {
    expect(result.ok && result.warnings).toEqual([
      `fio printed: ${out.stderr.trim()}`,
      `job 'full' stopped with error 28 (ENOSPC, No space left on device), so its figures are left out; fio said: ${pidLine}`,
      "1 of 2 jobs failed: the jobs that ran are given each on its own (labels.job), and no totals over all jobs, since the failed job's share is missing. To measure every job, free space on the target's disk or lower the test's size"
    ])
  })

  it('keeps the jobs that ran when several failed, naming each', () => {
    const { out: other, json: report } = fixture('study-003-virt-jobfile')
    report.jobs[1].error = 28
    report.jobs[3].error = 5
    const partial = parse({ ...other, stdout: JSON.stringify(report), exitCode: 1 })
    const samples = samplesOf(partial)
    expect([...new Set(samples.map((s) => s.labels.job))]).toEqual(['virt#0', 'virt#2'])
    expect(valueOf(samples, 'fio.read.iops', { job: 'virt#2' })).toBe(report.jobs[2].read.iops)
    expect(partial.ok && partial.warnings).toEqual([
      "job 'virt#1' stopped with error 28 (ENOSPC, No space left on device), so its figures are left out",
      "job 'virt#3' stopped with error 5 (EIO, Input/output error), so its figures are left out",
      "2 of 4 jobs failed: the jobs that ran are given each on its own (labels.job), and no totals over all jobs, since the failed jobs' shares are missing. To measure every job, fix the cause (path, free space, permissions or job options) and run the test again"
    ])
  })

  it('still refuses a report in which every job failed', () => {
    const { out: other, json: report } = fixture('jobfile-one-job-enospc')
    report.jobs[0].error = 28
    expect(reasonOf(parse({ ...other, stdout: `${pidLine}\n${JSON.stringify(report)}` }))).toMatch(
      /^fio job 'fits' stopped with error 28 .*; job 'full' stopped with error 28 .* do not measure the requested I\/O; fio said: fio: pid=/
    )
  })
})

describe("fio parse: an output holding fio's error lines and no report (fio 3.33)", () => {
  it('leads with what fio said when its I/O engine does not load', () => {
    const out = fixtureOutput('error-engine-not-loadable')
    expect(out.exitCode).toBe(1)
    expect(reasonOf(parse(out))).toBe(
      'fio failed: fio: engine nosuchengine not loadable / fio: failed to load engine / fio: file:ioengines.c:134, func=dlopen, error=nosuchengine: cannot open shared object file: No such file or directory; ' +
        'it wrote no JSON report and exited with code 1. Install the I/O engine on the target or choose another ioengine'
    )
  })

  it('leads with fio\'s error for a saved stdout read without its exit code (virtbench parse)', () => {
    const { stdout } = fixtureOutput('error-engine-not-loadable')
    const reason = reasonOf(parse({ stdout, stderr: '', exitCode: 0 }))
    expect(reason).toMatch(/^fio failed: fio: file:ioengines\.c:134, func=dlopen, error=nosuchengine: cannot open shared object file/)
    expect(reason).not.toMatch(/no JSON report in this output/)
  })

  it('leads with fio\'s ENOSPC line when the report went to a file (--output) and only the error was printed', () => {
    const out = fixtureOutput('error-enospc-report-to-file')
    expect(out.stdout.trim()).toMatch(/^fio: io_u error on file \S+\/full\.0\.0: No space left on device: write offset=1048576, buflen=65536$/)
    for (const exitCode of [out.exitCode, 0]) {
      const reason = reasonOf(parse({ ...out, exitCode }))
      expect(reason).toMatch(/^fio failed: fio: io_u error on file \S+: No space left on device: write offset=1048576, buflen=65536; it wrote no JSON report/)
      expect(reason).toMatch(/Free space on the target's disk or lower the test's size$/)
    }
  })

  it('leads with fio\'s "err=" line when that is all the output holds', () => {
    const pidLine = fixtureOutput('jobfile-one-job-enospc').stdout.split('\n')[0]!
    const result = parse({ stdout: `${pidLine}\n`, stderr: '', exitCode: 0 })
    expect(reasonOf(result)).toBe(`fio failed: ${pidLine}; it wrote no JSON report. Free space on the target's disk or lower the test's size`)
    expect(!result.ok && result.error.excerpt).toBe(`${pidLine}\n`)
  })

  it('leads with fio\'s option error (stderr) over the list of valid values (stdout)', () => {
    const result = parse(fixtureOutput('error-bad-option'))
    expect(reasonOf(result)).toBe(
      "fio failed: fio: failed parsing rw=sideways; it wrote no JSON report and exited with code 1. Check the test's fio parameters"
    )
    expect(!result.ok && result.error.excerpt).toContain('fio: failed parsing rw=sideways')
  })
})
