import { describe, expect, it } from 'vitest'
import { unixbenchParamsSchema } from '../../../../../src/main/tools/unixbench/params'
import { parse } from '../../../../../src/main/tools/unixbench/parse'
import type { ParseResult } from '../../../../../src/main/tools/types'
import { fixture, fixtureFile } from './fixture'

function ok(result: ParseResult) {
  if (!result.ok) throw new Error(`expected a parse, got: ${result.error.reason}`)
  return result
}

function failure(result: ParseResult) {
  if (result.ok) throw new Error('expected a failure')
  return result.error
}

describe('UnixBench report', () => {
  it('reads a one-test run (dhry2reg, 1 copy): raw lps, index and the partial index score', () => {
    const result = ok(parse(fixture('c1-i1-dhry2reg')))
    expect(result.samples).toEqual([
      { metric: 'unixbench.dhry2reg', value: 54267169.4, unit: 'lps', better: 'higher', labels: { copies: '1' } },
      { metric: 'unixbench.dhry2reg.index', value: 4650.1, unit: 'index', better: 'higher', labels: { copies: '1' } },
      { metric: 'unixbench.index', value: 4650.1, unit: 'index', better: 'higher', labels: { copies: '1' } }
    ])
    expect(result.warnings).toEqual([])
  })

  it('turns fstime KBps (K = 1024) into bytes per second', () => {
    const result = ok(parse(fixture('c1-i1-fsdisk')))
    expect(result.samples).toEqual([
      { metric: 'unixbench.fsdisk', value: 4046150 * 1024, unit: 'B/s', better: 'higher', labels: { copies: '1' } },
      { metric: 'unixbench.fsdisk.index', value: 6976.1, unit: 'index', better: 'higher', labels: { copies: '1' } },
      { metric: 'unixbench.index', value: 6976.1, unit: 'index', better: 'higher', labels: { copies: '1' } }
    ])
  })

  it('reads the run of study 001 made by the plan (UB_TMPDIR and UB_RESULTDIR in the work directory)', () => {
    const result = ok(parse(fixture('study001-i1-plan-script'), unixbenchParamsSchema.parse({ iterations: 1 })))
    expect(Object.fromEntries(result.samples.map((s) => [s.metric, s.value]))).toEqual({
      'unixbench.dhry2reg': 46730450.5,
      'unixbench.whetstone-double': 5667.1,
      'unixbench.fsdisk': 1688582 * 1024,
      'unixbench.dhry2reg.index': 4004.3,
      'unixbench.whetstone-double.index': 1030.4,
      'unixbench.fsdisk.index': 2911.3,
      'unixbench.index': 2290.2
    })
    expect(result.samples.every((s) => s.labels.copies === '1')).toBe(true)
  })

  it('reads the results file UnixBench writes exactly as the report in its output', () => {
    for (const name of ['c1-i1-dhry2reg', 'c1-i1-fsdisk', 'c1-c2-i1-whetstone-shell1-hanoi', 'study001-i1-plan-script']) {
      const fromFile = parse({ stdout: fixtureFile(`${name}.report.txt`), stderr: '', exitCode: 0 })
      expect(fromFile).toEqual(parse(fixture(name)))
    }
  })

  it('gives each copies section its own labels.copies; MWIPS kept, lpm divided by 60, no index for tests without a baseline', () => {
    const result = ok(parse(fixture('c1-c2-i1-whetstone-shell1-hanoi'), unixbenchParamsSchema.parse({ copies: [1, 2], tests: ['whetstone-double', 'shell1', 'hanoi'], iterations: 1 })))
    const values = Object.fromEntries(result.samples.map((s) => [`${s.metric} x${s.labels.copies}`, s.value]))
    expect(values).toEqual({
      'unixbench.whetstone-double x1': 4374.7,
      'unixbench.hanoi x1': 398955.0,
      'unixbench.shell1 x1': 2741.6 / 60,
      'unixbench.whetstone-double.index x1': 795.4,
      'unixbench.shell1.index x1': 646.6,
      'unixbench.index x1': 717.1,
      'unixbench.whetstone-double x2': 3914.1,
      'unixbench.hanoi x2': 495632.5,
      'unixbench.shell1 x2': 4000.3 / 60,
      'unixbench.whetstone-double.index x2': 711.7,
      'unixbench.shell1.index x2': 943.5,
      'unixbench.index x2': 819.4
    })
    const units = Object.fromEntries(result.samples.map((s) => [s.metric, s.unit]))
    expect(units).toMatchObject({ 'unixbench.whetstone-double': 'MWIPS', 'unixbench.hanoi': 'lps', 'unixbench.shell1': 'lps' })
  })

  it('reads a full index (not partial) the same way', () => {
    const full = fixture('c1-i1-dhry2reg')
    const text = full.stdout.replace('System Benchmarks Partial Index  ', 'System Benchmarks Index Values   ').replace('Index Score (Partial Only)', 'Index Score               ')
    expect(text).toContain('System Benchmarks Index Values')
    expect(parse({ ...full, stdout: text })).toEqual(parse(full))
  })

  it('leaves out a test UnixBench measured nothing for, and its bogus 0.0 index', () => {
    const out = fixture('c1-i1-dhry2reg')
    const text = out.stdout
      .replace('54267169.4 lps   (10.0 s, 1 samples)', '       0.0       (0.0 s, 0 samples)')
      .replace('116700.0   54267169.4   4650.1', '116700.0          0.0      0.0')
    const result = ok(parse({ ...out, stdout: text }))
    expect(result.samples).toEqual([{ metric: 'unixbench.index', value: 4650.1, unit: 'index', better: 'higher', labels: { copies: '1' } }])
    expect(result.warnings).toEqual(['UnixBench measured nothing for dhry2reg (no unit, 0 samples); it has no sample.'])
  })
})

describe('UnixBench failures', () => {
  it('catches an index table whose result differs from the score line', () => {
    const out = fixture('c1-i1-dhry2reg')
    const text = out.stdout.replace('116700.0   54267169.4', '116700.0   54267169.5')
    expect(failure(parse({ ...out, stdout: text })).reason).toBe(
      'UnixBench report: the index table gives dhry2reg the result 54267169.5, but its score line says 54267169.4.'
    )
  })

  it('catches a report cut before its index table or its score line', () => {
    const out = fixture('c1-i1-fsdisk')
    const beforeIndex = out.stdout.slice(0, out.stdout.lastIndexOf('System Benchmarks Partial Index'))
    expect(failure(parse({ ...out, stdout: beforeIndex })).reason).toBe(
      'UnixBench report: the scores are not followed by the index table that fsdisk has (cut short?).'
    )
    const beforeScore = out.stdout.slice(0, out.stdout.lastIndexOf('System Benchmarks Index Score'))
    expect(failure(parse({ ...out, stdout: beforeScore })).reason).toBe('UnixBench report: the "System Benchmarks" index table has no score line (cut short?).')
  })

  it('catches a score line cut in the middle', () => {
    const out = fixture('c1-c2-i1-whetstone-shell1-hanoi')
    const cut = out.stdout.slice(0, out.stdout.lastIndexOf('Recursion Test') + 30)
    expect(failure(parse({ ...out, stdout: cut })).reason).toMatch(/a line among the test scores is not/)
  })

  it('fails when fewer copies sections than asked for were reported', () => {
    const out = fixture('c1-c2-i1-whetstone-shell1-hanoi')
    const oneSection = out.stdout.slice(0, out.stdout.lastIndexOf('------------------------------------------------------------------------\nBenchmark Run'))
    const params = unixbenchParamsSchema.parse({ copies: [1, 2], tests: ['whetstone-double', 'shell1', 'hanoi'] })
    expect(failure(parse({ ...out, stdout: oneSection }, params)).reason).toBe(
      'UnixBench was asked for runs with 1, 2 copies but reported 1; the run was cut short or the output is incomplete.'
    )
  })

  it('fails when a test the parameters asked for is missing', () => {
    const params = unixbenchParamsSchema.parse({ tests: ['whetstone-double', 'dhry2reg', 'fsdisk'] })
    expect(failure(parse(fixture('c1-i1-dhry2reg'), params)).reason).toBe(
      "UnixBench's report for 1 copy lacks whetstone-double, fsdisk; the run was cut short or the output is incomplete."
    )
  })

  it("quotes Run's own complaint when it fails", () => {
    const error = failure(parse(fixture('unknown-test')))
    expect(error.reason).toBe('UnixBench\'s Run exited with status 255: Run: unknown test "dhry3"')
  })

  it('says when there is no report at all', () => {
    const out = fixture('c1-i1-dhry2reg')
    const progressOnly = out.stdout.slice(0, out.stdout.indexOf('========'))
    expect(failure(parse({ ...out, stdout: progressOnly })).reason).toMatch(/No UnixBench report found: no "Benchmark Run:" section/)
  })
})
