import { describe, expect, it } from 'vitest'
import { mbwParamsSchema } from '../../../../../src/main/tools/mbw/params'
import { parse } from '../../../../../src/main/tools/mbw/parse'
import { fixtureOutput, reasonOf, samplesOf, warningsOf } from './fixtures'

const MIB = 1048576
const SWAPPED = expect.stringContaining('older than 1.4, which labels its results the wrong way round')

/** [metric, iteration or 'AVG', B/s] for every sample, in order. */
function table(result: ReturnType<typeof parse>): [string, string, number][] {
  return samplesOf(result).map((s) => [s.metric, s.labels.iteration ?? 'AVG', s.value])
}

describe('mbw parse (mbw 1.2.2)', () => {
  it('reads every run and the AVG line of MEMCPY, DUMB and MCBLOCK, in B/s from the printed MiB/s', () => {
    const result = parse(fixtureOutput('all-tests-64m-n3'))
    expect(table(result)).toEqual([
      ['mbw.memcpy.bandwidth', '0', 5493.562 * MIB],
      ['mbw.memcpy.bandwidth', '1', 18043.417 * MIB],
      ['mbw.memcpy.bandwidth', '2', 18249.216 * MIB],
      ['mbw.memcpy.bandwidth', 'AVG', 10265.184 * MIB],
      ['mbw.dumb.bandwidth', '0', 8514.035 * MIB],
      ['mbw.dumb.bandwidth', '1', 5441.251 * MIB],
      ['mbw.dumb.bandwidth', '2', 16958.135 * MIB],
      ['mbw.dumb.bandwidth', 'AVG', 8328.634 * MIB],
      ['mbw.mcblock.bandwidth', '0', 6515.321 * MIB],
      ['mbw.mcblock.bandwidth', '1', 32112.393 * MIB],
      ['mbw.mcblock.bandwidth', '2', 10895.472 * MIB],
      ['mbw.mcblock.bandwidth', 'AVG', 10853.59 * MIB]
    ])
    // The probe line "Usage: mbw …" marks an mbw older than 1.4.
    expect(warningsOf(result)).toEqual([SWAPPED])
  })

  it('gives the AVG sample without labels and each run with labels.iteration', () => {
    const samples = samplesOf(parse(fixtureOutput('memcpy-only-32m-quiet')))
    expect(samples.at(-1)).toEqual({ metric: 'mbw.memcpy.bandwidth', value: 7617.234 * MIB, unit: 'B/s', better: 'higher', labels: {} })
    expect(samples[0]).toEqual({ metric: 'mbw.memcpy.bandwidth', value: 4262.12 * MIB, unit: 'B/s', better: 'higher', labels: { iteration: '0' } })
    expect(samples).toHaveLength(5)
  })

  it("takes mbw's printed AVG rate, which MiB / printed Elapsed does not reproduce", () => {
    // AVG Elapsed 0.00623 is rounded to 5 decimals: 64 / 0.00623 = 10272.9, mbw printed 10265.184 from the unrounded time.
    const avg = samplesOf(parse(fixtureOutput('all-tests-64m-n3'))).find((s) => s.metric === 'mbw.memcpy.bandwidth' && !s.labels.iteration)!
    expect(avg.value).toBe(10265.184 * MIB)
    expect(avg.value).not.toBe((64 / 0.00623) * MIB)
  })

  it('warns about copies too short for a steady figure', () => {
    const result = parse(fixtureOutput('all-tests-16m-n2-no-probe'))
    expect(table(result).filter(([, run]) => run === 'AVG')).toEqual([
      ['mbw.memcpy.bandwidth', 'AVG', 5720.415 * MIB],
      ['mbw.dumb.bandwidth', 'AVG', 22424.667 * MIB],
      ['mbw.mcblock.bandwidth', 'AVG', 71428.571 * MIB]
    ])
    // No probe line: the version is unknown, so no label warning.
    expect(warningsOf(result)).toEqual([
      expect.stringMatching(/^DUMB copies took only 0.00071 s on average/),
      expect.stringMatching(/^MCBLOCK copies took only 0.00022 s on average/)
    ])
  })

  it('reads a -t2 -b run and does not warn about MEMCPY/DUMB labels it does not have', () => {
    const result = parse(fixtureOutput('mcblock-64k-blocks'))
    expect(table(result)).toEqual([
      ['mbw.mcblock.bandwidth', '0', 30018.762 * MIB],
      ['mbw.mcblock.bandwidth', '1', 33613.445 * MIB],
      ['mbw.mcblock.bandwidth', 'AVG', 31714.569 * MIB]
    ])
    expect(warningsOf(result)).toEqual([])
  })

  it('keeps the runs of an -a run (no AVG) and says there is no average', () => {
    const result = parse(fixtureOutput('no-average'))
    expect(table(result)).toEqual([
      ['mbw.dumb.bandwidth', '0', 19184.652 * MIB],
      ['mbw.dumb.bandwidth', '1', 18979.834 * MIB]
    ])
    expect(warningsOf(result)).toEqual([SWAPPED, expect.stringContaining('no AVG line for DUMB')])
  })

  it('gives no label warning for mbw 1.4 and later (version on the probe line)', () => {
    const result = parse(fixtureOutput('constructed-v2-probe'))
    expect(warningsOf(result)).toEqual([])
    expect(table(result)).toEqual(table(parse(fixtureOutput('all-tests-64m-n3'))))
  })
})

describe('mbw parse: failures', () => {
  it("quotes mbw's own error", () => {
    expect(reasonOf(parse(fixtureOutput('error-no-size')))).toBe('mbw stopped with an error: Error: no array size given!')
    expect(reasonOf(parse(fixtureOutput('error-block-larger-than-array')))).toBe(
      'mbw stopped with an error: Error: array size larger than block size (4194304 bytes)!'
    )
  })

  it('refuses a line whose rate is not MiB / Elapsed', () => {
    const stdout = 'AVG\tMethod: MEMCPY\tElapsed: 0.06378\tMiB: 512.00000\tCopy: 9027.843 MiB/s\n'
    expect(reasonOf(parse({ stdout, stderr: '', exitCode: 0 }))).toMatch(/Copy 9027.843 MiB\/s is not MiB \/ Elapsed \(512 \/ 0.06378\)/)
  })

  it("accepts the brief's example line (8027.843 MiB/s for 512 MiB in 0.06378 s)", () => {
    const stdout = 'AVG\tMethod: MEMCPY\tElapsed: 0.06378\tMiB: 512.00000\tCopy: 8027.843 MiB/s\n'
    expect(samplesOf(parse({ stdout, stderr: '', exitCode: 0 }))).toEqual([
      { metric: 'mbw.memcpy.bandwidth', value: 8027.843 * MIB, unit: 'B/s', better: 'higher', labels: {} }
    ])
  })

  it('skips a run too fast for the timer (Copy: inf) instead of recording infinity', () => {
    const stdout = '0\tMethod: MCBLOCK\tElapsed: 0.00000\tMiB: 1.00000\tCopy: inf MiB/s\n1\tMethod: MCBLOCK\tElapsed: 0.00002\tMiB: 1.00000\tCopy: 50000.000 MiB/s\n'
    const result = parse({ stdout, stderr: '', exitCode: 0 })
    expect(table(result)).toEqual([['mbw.mcblock.bandwidth', '1', 50000 * MIB]])
    expect(warningsOf(result)[0]).toMatch(/MCBLOCK run 0 took less time than mbw's timer can see/)
    expect(reasonOf(parse({ stdout: stdout.split('\n')[0]!, stderr: '', exitCode: 0 }))).toMatch(/every mbw result was too fast/)
  })

  it('refuses two runs in one output, a non-zero exit, a signal and empty output', () => {
    const one = fixtureOutput('all-tests-64m-n3')
    expect(reasonOf(parse({ ...one, stdout: one.stdout + one.stdout }))).toMatch(/MEMCPY run 0 appears twice/)
    expect(reasonOf(parse({ ...one, exitCode: 1 }))).toMatch(/exited with code 1/)
    expect(reasonOf(parse({ ...one, exitCode: null, signal: 'SIGTERM' }))).toMatch(/signal SIGTERM/)
    expect(reasonOf(parse({ stdout: '', stderr: '', exitCode: 0 }))).toMatch(/no mbw results found/)
  })
})

describe('mbw parse with the test parameters', () => {
  it('reads a run that has every run and AVG line the parameters ask for', () => {
    const params = mbwParamsSchema.parse({ sizeMiB: 64, iterations: 3 })
    expect(parse(fixtureOutput('all-tests-64m-n3'), params)).toEqual(parse(fixtureOutput('all-tests-64m-n3')))
  })

  it('refuses a run with fewer runs or tests than asked for', () => {
    expect(reasonOf(parse(fixtureOutput('all-tests-64m-n3'), mbwParamsSchema.parse({ sizeMiB: 64 })))).toBe(
      'the test asked for 10 runs and an AVG line of MEMCPY, but mbw printed 3 runs: is the output cut short?'
    )
    expect(reasonOf(parse(fixtureOutput('no-average'), mbwParamsSchema.parse({ sizeMiB: 16, iterations: 2, tests: ['dumb'] })))).toBe(
      'the test asked for 2 runs and an AVG line of DUMB, but mbw printed 2 runs and no AVG: is the output cut short?'
    )
    expect(reasonOf(parse(fixtureOutput('all-tests-64m-n3'), mbwParamsSchema.parse({ sizeMiB: 64, iterations: 3, tests: ['memcpy'] })))).toBe(
      'the test asked for MEMCPY but mbw printed DUMB results: is this the output of another run?'
    )
  })
})
