import { describe, expect, it } from 'vitest'
import { bonnieParamsSchema } from '../../../../../src/main/tools/bonnie/params'
import { parse } from '../../../../../src/main/tools/bonnie/parse'
import type { Sample } from '../../../../../src/shared/model/sample'
import { fixture } from './fixture'

const KIB = 1024

/** metric → value for one repetition, so a test can compare the whole set at once. */
function valuesOf(samples: Sample[], repetition = '1'): Record<string, number> {
  const out: Record<string, number> = {}
  for (const s of samples.filter((x) => x.labels.repetition === repetition)) {
    expect(out[s.metric], `${s.metric} twice in repetition ${repetition}`).toBeUndefined()
    out[s.metric] = s.value
  }
  return out
}

function ok(result: ReturnType<typeof parse>) {
  if (!result.ok) throw new Error(`expected a parse, got: ${result.error.reason}`)
  return result
}

describe('bonnie++ 1.97.3 CSV (format 1.97)', () => {
  const result = ok(parse(fixture('bonnie197-s2048-n32-q')))

  it('reads every measured field of the line, K/sec as KiB/s and latencies in seconds', () => {
    expect(valuesOf(result.samples)).toEqual({
      'bonnie.putc': 3709 * KIB,
      'bonnie.putc.cpu': 99,
      'bonnie.putc.latency': 0.00243,
      'bonnie.put_block': 522584 * KIB,
      'bonnie.put_block.cpu': 81,
      'bonnie.put_block.latency': 0.005806,
      'bonnie.rewrite': 1709479 * KIB,
      'bonnie.rewrite.cpu': 48,
      'bonnie.rewrite.latency': 0.000237,
      'bonnie.getc': 5445 * KIB,
      'bonnie.getc.cpu': 99,
      'bonnie.getc.latency': 0.001774,
      'bonnie.get_block.latency': 0.000194,
      'bonnie.seeks.latency': 0.00827,
      'bonnie.seq_create': 34904,
      'bonnie.seq_create.cpu': 99,
      'bonnie.seq_create.latency': 0.00052,
      'bonnie.seq_stat.latency': 0.000249,
      'bonnie.seq_del.latency': 0.003059,
      'bonnie.ran_create.latency': 0.000241,
      'bonnie.ran_stat.latency': 0.000098,
      'bonnie.ran_del.latency': 0.002727
    })
  })

  it('gives units, directions and the repetition label from the metric table', () => {
    const byName = new Map(result.samples.map((s) => [s.metric, s]))
    expect(byName.get('bonnie.put_block')).toMatchObject({ unit: 'B/s', better: 'higher', labels: { repetition: '1' } })
    expect(byName.get('bonnie.seq_create')).toMatchObject({ unit: 'op/s', better: 'higher' })
    expect(byName.get('bonnie.putc.cpu')).toMatchObject({ unit: '%', better: 'lower' })
    expect(byName.get('bonnie.seeks.latency')).toMatchObject({ unit: 's', better: 'lower' })
  })

  it('leaves +++++ out (never zero) and says once per test why', () => {
    expect(result.samples.some((s) => s.metric === 'bonnie.get_block' || s.metric === 'bonnie.seeks.cpu')).toBe(false)
    expect(result.warnings).toHaveLength(7)
    expect(result.warnings[0]).toBe(
      'bonnie.get_block not measured: bonnie++ printed +++++ because the test took under 0.5 s; use a larger file size (-s, at least twice the RAM).'
    )
    expect(result.warnings).toContain('bonnie.ran_del not measured: bonnie++ printed +++++ because the test took under 0.5 s; use more files (-n).')
  })
})

describe('bonnie++ 1.96 CSV (format 1.96, PerfKitBenchmarker test data)', () => {
  // bonnie++ -q -d <dir> -s 7423 -n 100 -f, as PerfKitBenchmarker runs it: no per-char tests.
  const result = ok(parse(fixture('bonnie196-pkb-f-n100-q')))

  it('reads the 48 fields where format 1.97 has them', () => {
    expect(valuesOf(result.samples)).toEqual({
      'bonnie.put_block': 72853 * KIB,
      'bonnie.put_block.cpu': 15,
      'bonnie.put_block.latency': 0.512,
      'bonnie.rewrite': 47358 * KIB,
      'bonnie.rewrite.cpu': 5,
      'bonnie.rewrite.latency': 0.67,
      'bonnie.get_block': 156821 * KIB,
      'bonnie.get_block.cpu': 7,
      'bonnie.get_block.latency': 0.04466,
      'bonnie.seeks': 537.7,
      'bonnie.seeks.cpu': 10,
      'bonnie.seeks.latency': 0.2,
      'bonnie.seq_create': 49223,
      'bonnie.seq_create.cpu': 58,
      'bonnie.seq_create.latency': 0.003747,
      'bonnie.seq_stat.latency': 0.001759,
      'bonnie.seq_del': 54405,
      'bonnie.seq_del.cpu': 53,
      'bonnie.seq_del.latency': 0.001643,
      'bonnie.ran_create': 2898,
      'bonnie.ran_create.cpu': 97,
      'bonnie.ran_create.latency': 0.033518,
      'bonnie.ran_stat.latency': 0.000192,
      'bonnie.ran_del': 59089,
      'bonnie.ran_del.cpu': 60,
      'bonnie.ran_del.latency': 0.000839
    })
  })

  it('says which tests were too fast or not run, and nothing about the skipped per-char tests when -f was asked for', () => {
    expect(result.warnings).toEqual([
      'bonnie.seq_stat not measured: bonnie++ printed +++++ because the test took under 0.5 s; use more files (-n).',
      'bonnie.ran_stat not measured: bonnie++ printed +++++ because the test took under 0.5 s; use more files (-n).',
      'bonnie.putc not run (bonnie++ left the field empty: -f, -s 0 or -n 0 skip tests).',
      'bonnie.getc not run (bonnie++ left the field empty: -f, -s 0 or -n 0 skip tests).'
    ])
    const withF = ok(parse(fixture('bonnie196-pkb-f-n100-q'), bonnieParamsSchema.parse({ fileSize: '7423', skipPerChar: true, numFiles: 100 })))
    expect(withF.warnings).toHaveLength(2)
  })
})

describe('bonnie++ 2.00a CSV (format 1.98)', () => {
  it('reads a quiet run (-q): the line on stdout, the table on stderr ignored', () => {
    const result = ok(parse(fixture('q-s64-n1')))
    const v = valuesOf(result.samples)
    expect(v['bonnie.putc']).toBe(1300 * KIB)
    expect(v['bonnie.putc.cpu']).toBe(70)
    expect(v['bonnie.putc.latency']).toBe(0.018512)
    expect(v['bonnie.getc']).toBe(1970 * KIB)
    expect(v['bonnie.getc.cpu']).toBe(67)
    expect(v['bonnie.getc.latency']).toBe(0.033515)
    expect(v['bonnie.seeks.latency']).toBe(0.009812)
    expect(v['bonnie.ran_del.latency']).toBe(0.002429)
    expect(Object.keys(v)).toHaveLength(2 * 2 + 12)
    expect(result.warnings).toHaveLength(10)
  })

  it('gives each -x run its own labels.repetition and skips the header line', () => {
    const result = ok(parse(fixture('q-x3-s32-direct'), bonnieParamsSchema.parse({ repetitions: 3, skipPerChar: true })))
    const one = valuesOf(result.samples, '1')
    const two = valuesOf(result.samples, '2')
    const three = valuesOf(result.samples, '3')
    expect(one).toMatchObject({
      'bonnie.put_block': 64044 * KIB,
      'bonnie.put_block.cpu': 38,
      'bonnie.put_block.latency': 0.012037,
      'bonnie.seq_create': 501,
      'bonnie.seq_create.cpu': 12,
      'bonnie.seq_del': 1250,
      'bonnie.seq_del.cpu': 9,
      'bonnie.ran_create': 826,
      'bonnie.ran_create.cpu': 8,
      'bonnie.ran_del': 521,
      'bonnie.ran_del.cpu': 3,
      'bonnie.ran_del.latency': 0.011639
    })
    expect(two).toMatchObject({ 'bonnie.put_block': 40531 * KIB, 'bonnie.put_block.cpu': 18, 'bonnie.ran_create': 1139, 'bonnie.ran_create.cpu': 48 })
    expect(three).toMatchObject({ 'bonnie.seq_create': 1005, 'bonnie.seq_create.cpu': 54, 'bonnie.ran_create': 1114, 'bonnie.ran_create.cpu': 75 })
    expect(three['bonnie.put_block']).toBeUndefined()
    expect(three['bonnie.put_block.latency']).toBe(0.003433)
    expect(result.samples.every((s) => ['1', '2', '3'].includes(s.labels.repetition ?? ''))).toBe(true)
    // -f was asked for, so the empty putc/getc fields need no warning.
    expect(result.warnings.some((w) => w.startsWith('bonnie.putc'))).toBe(false)
    expect(result.warnings).toContain(
      'bonnie.put_block not measured in repetition 3: bonnie++ printed +++++ because the test took under 0.5 s; use a larger file size (-s, at least twice the RAM).'
    )
    expect(result.warnings).toContain(
      'bonnie.seq_stat not measured in every repetition: bonnie++ printed +++++ because the test took under 0.5 s; use more files (-n).'
    )
  })

  it('warns about tests left empty when the parameters did not ask for that', () => {
    const result = ok(parse(fixture('q-x3-s32-direct')))
    expect(result.warnings).toContain('bonnie.putc not run in every repetition (bonnie++ left the field empty: -f, -s 0 or -n 0 skip tests).')
  })

  it('finds the CSV line after the text table when bonnie++ ran without -q', () => {
    const result = ok(parse(fixture('table-s32-direct')))
    const v = valuesOf(result.samples)
    // The table says 1024 files/s for Create; the CSV line says 547, which is what bonnie++ measured.
    expect(v).toMatchObject({ 'bonnie.seq_create': 547, 'bonnie.seq_create.cpu': 35, 'bonnie.ran_create': 511, 'bonnie.ran_del': 1696 })
    expect(v['bonnie.seq_create.latency']).toBe(0.070856)
    const csvOnly = parse({ stdout: fixture('table-s32-direct').stdout.split('\n').slice(-2).join('\n'), stderr: '', exitCode: 0 })
    expect(csvOnly).toEqual(result)
  })

  it('reads a files-only run (-s 0): no I/O samples at all', () => {
    const result = ok(parse(fixture('q-files-only'), bonnieParamsSchema.parse({ fileSize: '0', numFiles: 1 })))
    const v = valuesOf(result.samples)
    expect(Object.keys(v).filter((m) => /^bonnie\.(putc|put_block|rewrite|getc|get_block|seeks)/.test(m))).toEqual([])
    expect(v).toMatchObject({ 'bonnie.seq_create': 289, 'bonnie.seq_del': 634, 'bonnie.ran_create': 257, 'bonnie.ran_del': 1301 })
    expect(v['bonnie.seq_stat.latency']).toBe(0.000051)
    expect(result.warnings).toEqual([
      'bonnie.seq_stat not measured: bonnie++ printed +++++ because the test took under 0.5 s; use more files (-n).',
      'bonnie.ran_stat not measured: bonnie++ printed +++++ because the test took under 0.5 s; use more files (-n).'
    ])
  })

  it('turns ms and s latencies into seconds', () => {
    const line = fixture('q-s64-n1').stdout.trim().replace('18512us', '45ms').replace('4076us', '3s')
    const v = valuesOf(ok(parse({ stdout: line, stderr: '', exitCode: 0 })).samples)
    expect(v['bonnie.putc.latency']).toBe(0.045)
    expect(v['bonnie.put_block.latency']).toBe(3)
  })
})

describe('bonnie++ failures', () => {
  it('explains the double-RAM refusal in its own words', () => {
    const result = parse(fixture('refused-small-file'))
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.reason).toBe(
      'bonnie++ refused to run: the file size must be at least twice the RAM (1024 MiB). Raise fileSize, or set ramMiB to test a smaller file (results then include the page cache).'
    )
    expect(result.error.excerpt).toContain('File size should be double RAM')
  })

  it('fails on a non-zero exit even when a line was printed', () => {
    const result = parse({ ...fixture('q-s64-n1'), stderr: "Can't write() - disk full?\n", exitCode: 1 })
    expect(result).toEqual({ ok: false, error: { reason: "bonnie++ exited with status 1: Can't write() - disk full?", excerpt: "Can't write() - disk full?" } })
  })

  it('fails when fewer runs than -x asked for were printed', () => {
    const out = fixture('q-x3-s32-direct')
    const twoRuns = { ...out, stdout: out.stdout.split('\n').slice(0, 3).join('\n') + '\n' }
    const result = parse(twoRuns, bonnieParamsSchema.parse({ repetitions: 3, skipPerChar: true }))
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toMatch(/asked for 3 runs \(-x\) but printed 2 CSV line/)
  })

  it('names an unsupported CSV format', () => {
    const result = parse({ stdout: '1.03e,1.03e,vm,1,2,3\n', stderr: '', exitCode: 0 })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toMatch(/format 1\.03e \(bonnie\+\+ 1\.03e\) is not supported; VirtBench reads formats 1\.96, 1\.97 and 1\.98/)
  })

  it('names the field that is not a number', () => {
    const line = fixture('q-s64-n1').stdout.trim().replace(',1300,70,', ',13O0,70,')
    const result = parse({ stdout: line, stderr: '', exitCode: 0 })
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.reason).toBe('bonnie++ CSV line 1: field 10 (putc) is "13O0", expected a number, +++++ or nothing')
      expect(result.error.excerpt).toContain('13O0')
    }
  })

  it('catches a line cut right after a comma (a test that ran always has a latency)', () => {
    const line = fixture('q-s64-n1').stdout.trim().replace(/2429us$/, '')
    const result = parse({ stdout: line, stderr: '', exitCode: 0 })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toMatch(/field 50 \(ran_del_latency\) is "", expected a time, since the ran_del test ran/)
  })

  it('says when the table is there but the CSV line is not', () => {
    const out = fixture('table-s32-direct')
    const result = parse({ ...out, stdout: out.stdout.split('\n').slice(0, -2).join('\n') })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.reason).toMatch(/table is there but its CSV line is not/)
  })
})
