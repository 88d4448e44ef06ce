import { describe, expect, it } from 'vitest'
import { parse } from '../../../../../src/main/tools/iozone/parse'
import type { ParseResult } from '../../../../../src/main/tools/types'
import type { Sample } from '../../../../../src/shared/model/sample'
import { fixture } from './fixture'

const KB = 1024

function ok(result: ParseResult) {
  if (!result.ok) throw new Error(`expected a parse, got: ${result.error.reason}`)
  return result
}

function failure(result: ParseResult) {
  if (result.ok) throw new Error('expected a failure')
  return result.error
}

/** The value of one cell: sub-test, file size and record size in kB. */
function cell(samples: Sample[], subtest: string, fileKB: number, recordKB: number): number | undefined {
  const found = samples.filter(
    (s) => s.metric === `iozone.${subtest}` && s.labels.file_size === String(fileKB * KB) && s.labels.record_size === String(recordKB * KB)
  )
  expect(found.length).toBeLessThanOrEqual(1)
  return found[0]?.value
}

describe('iozone -R report', () => {
  it('reads study-style -Raz output: 13 sub-tests x 7 file sizes x 9 record sizes, kB/s as bytes/s', () => {
    const result = ok(parse(fixture('iozone-Raz-g64M')))
    expect(result.samples).toHaveLength(13 * 7 * 9)
    expect(result.warnings).toEqual([])
    expect(result.samples[0]).toEqual({
      metric: 'iozone.write',
      value: 1646334 * KB,
      unit: 'B/s',
      better: 'higher',
      labels: { file_size: String(1024 * KB), record_size: String(4 * KB) }
    })
    expect(cell(result.samples, 'rewrite', 2048, 16)).toBe(9944290 * KB)
    expect(cell(result.samples, 'random_read', 65536, 4)).toBe(3863911 * KB)
    expect(cell(result.samples, 'random_write', 65536, 4)).toBe(2074647 * KB)
    expect(cell(result.samples, 'backward_read', 8192, 512)).toBe(17138687 * KB)
    expect(cell(result.samples, 'record_rewrite', 16384, 512)).toBe(41377192 * KB)
    expect(cell(result.samples, 'stride_read', 1024, 4)).toBe(10454984 * KB)
    expect(cell(result.samples, 'fwrite', 32768, 128)).toBe(13569117 * KB)
    expect(cell(result.samples, 'frewrite', 4096, 8)).toBe(6989921 * KB)
    expect(cell(result.samples, 'fread', 65536, 1024)).toBe(7521668 * KB)
    expect(cell(result.samples, 'freread', 65536, 1024)).toBe(7794459 * KB)
    expect(new Set(result.samples.map((s) => s.metric)).size).toBe(13)
  })

  it("reads the run made by the plan's own script (iozone -Raz -g 1m -b out.wks)", () => {
    const result = ok(parse(fixture('plan-script-Raz-g1M-b')))
    expect(result.samples).toHaveLength(13 * (5 + 6 + 7 + 8 + 9))
    expect(cell(result.samples, 'write', 64, 4)).toBe(1279447 * KB)
    expect(cell(result.samples, 'write', 64, 64)).toBe(3363612 * KB)
  })

  it('reads the -b run the same way (the spreadsheet is a separate file)', () => {
    const result = ok(parse(fixture('iozone-Raz-g64M-b')))
    expect(result.samples).toHaveLength(13 * 7 * 9)
  })

  it('leaves out record sizes larger than the file and the zeros iozone writes for skipped small records (no -z)', () => {
    const result = ok(parse(fixture('iozone-Ra-g32M')))
    expect(result.samples).toHaveLength(13 * (5 + 6 + 7 + 8 + 9 + 10 + 11 + 12 + 13 + 9))
    expect(cell(result.samples, 'write', 64, 64)).toBe(3738358 * KB)
    expect(cell(result.samples, 'write', 64, 128)).toBeUndefined()
    expect(cell(result.samples, 'write', 32768, 32)).toBeUndefined()
    expect(cell(result.samples, 'write', 32768, 64)).toBe(1927079 * KB)
    expect(cell(result.samples, 'freread', 32768, 16384)).toBe(21600369 * KB)
    expect(result.samples.every((s) => s.value > 0)).toBe(true)
    expect(result.warnings).toEqual([
      "52 cells of iozone's report are 0 and were left out: without -z, iozone skips record sizes under 64 KiB for files over 16 MiB."
    ])
  })

  it('takes the report over main-table rows whose numbers run together', () => {
    const result = ok(parse(fixture('iozone-Raz-g1M-b')))
    // Main table: "128     128  3124872 18012359 60968594128000000 45475583 ..."
    expect(cell(result.samples, 'read', 128, 128)).toBe(60968594 * KB)
    expect(cell(result.samples, 'reread', 128, 128)).toBe(128000000 * KB)
    expect(result.samples).toHaveLength(13 * (5 + 6 + 7 + 8 + 9))
  })

  it('checks a -i run for the blocks of its tests only', () => {
    const out = fixture('iozone-Ra-i0-i1-g1M')
    const cut = out.stdout.slice(0, out.stdout.indexOf('"Reader report"'))
    expect(failure(parse({ ...out, stdout: cut })).reason).toBe(
      "iozone's -R report lacks the blocks of read, reread, which its command line asked for; the output was cut short?"
    )
  })

  it('reads only the blocks of the sub-tests that ran (-i 0 -i 1)', () => {
    const result = ok(parse(fixture('iozone-Ra-i0-i1-g1M')))
    expect(new Set(result.samples.map((s) => s.metric))).toEqual(new Set(['iozone.write', 'iozone.rewrite', 'iozone.read', 'iozone.reread']))
    expect(result.samples).toHaveLength(4 * 35)
    expect(cell(result.samples, 'rewrite', 64, 4)).toBe(326641 * KB)
  })

  it('checks the report against the main table', () => {
    const out = fixture('iozone-Raz-g64M')
    const tampered = out.stdout.replace('"1024"   1646334  2688041', '"1024"   1646335  2688041')
    expect(failure(parse({ ...out, stdout: tampered })).reason).toBe(
      "iozone's -R report and its main table disagree on write for a 1024 kB file with 4 kB records (report: 1646335, table: 1646334); " +
        'the output was cut short or is not one iozone run.'
    )
  })

  it('catches a report cut inside a row or between blocks', () => {
    const out = fixture('iozone-Raz-g64M')
    const inRow = out.stdout.slice(0, out.stdout.lastIndexOf('7893164'))
    expect(failure(parse({ ...out, stdout: inRow })).reason).toMatch(/65536 kB row of the "Re-Fread report" block has 7 values, but 9 record sizes fit that file \(the output was cut short\?\)/)
    const betweenBlocks = out.stdout.slice(0, out.stdout.indexOf('"Re-Fread report"'))
    expect(failure(parse({ ...out, stdout: betweenBlocks })).reason).toBe(
      "iozone's -R report lacks the blocks of freread, which its command line asked for; the output was cut short?"
    )
    const lastRowCut = out.stdout.trimEnd().slice(0, -3)
    expect(failure(parse({ ...out, stdout: lastRowCut })).reason).toBe("iozone's -R report: its last row ends in the middle of a number (the output was cut short?).")
  })
})

describe('iozone main table', () => {
  it('gives the same samples as the report when every row is readable', () => {
    const out = fixture('iozone-Raz-g64M')
    // As if run without -R: the report and the line announcing it removed.
    const tableOnly = out.stdout.slice(0, out.stdout.indexOf('Excel output is below:')).replace('\tExcel chart generation enabled\n', '')
    const fromTable = ok(parse({ ...out, stdout: tableOnly }))
    expect(fromTable.samples).toEqual(ok(parse(out)).samples)
    expect(fromTable.warnings).toEqual(['No -R report in this iozone output; the numbers were read from its main table.'])
  })

  it('leaves out rows whose numbers run together, and says so', () => {
    const result = ok(parse(fixture('iozone-a-g1M')))
    expect(result.samples).toHaveLength(13 * 34)
    expect(result.warnings[1]).toBe(
      "1 row of iozone's main table left out: numbers run together or columns are blank (-i). Run iozone with -R to get every cell."
    )
    expect(cell(result.samples, 'write', 64, 4)).toBeGreaterThan(0)
  })

  it('refuses a -R run whose report is missing', () => {
    const out = fixture('iozone-Raz-g64M')
    const cut = out.stdout.slice(0, out.stdout.indexOf('Excel output is below:'))
    expect(failure(parse({ ...out, stdout: cut })).reason).toBe(
      'iozone was run with -R ("Excel chart generation enabled") but its report is missing: the run was cut short.'
    )
  })

  it('refuses a main table that is not followed by "iozone test complete."', () => {
    const out = fixture('iozone-a-g1M')
    const cut = out.stdout.slice(0, out.stdout.indexOf('iozone test complete.'))
    expect(failure(parse({ ...out, stdout: cut })).reason).toMatch(/cut short/)
  })
})

describe('iozone failures', () => {
  it('refuses operations per second (-O)', () => {
    expect(failure(parse(fixture('iozone-RaO-g1M'))).reason).toBe(
      'This iozone output is in operations per second (-O or -N); VirtBench reads throughput in kBytes/sec: run iozone without -O and -N.'
    )
  })

  it("quotes iozone's own error when it exits non-zero", () => {
    const error = failure(parse(fixture('iozone-error-reclen')))
    expect(error.reason).toBe('iozone exited with status 23: Error: record length 131072 is greater than filesize 64 kB')
    expect(error.excerpt).toContain('Error: record length 131072')
  })

  it('says when the unit line is missing', () => {
    const out = fixture('iozone-Raz-g64M')
    expect(failure(parse({ ...out, stdout: out.stdout.replace('Output is in kBytes/sec', '') })).reason).toMatch(/unit of its numbers is unknown/)
  })
})
