import { describe, expect, it } from 'vitest'
import { stressNgParamsSchema, type StressNgParamsInput } from '../../../../../src/main/tools/stress-ng/params'
import { parse } from '../../../../../src/main/tools/stress-ng/parse'
import type { ParseResult } from '../../../../../src/main/tools/types'
import { fixtureOutput, reasonOf, samplesOf, warningsOf } from './fixtures'

const params = (input: StressNgParamsInput) => stressNgParamsSchema.parse(input)

/** [metric, value] of every sample, in order. */
function figures(result: ParseResult): [string, number][] {
  return samplesOf(result).map((s) => [s.metric, s.value])
}

/** One stressor's [metric, value] pairs in the parser's order: ops/s, ops per CPU second, bogo ops, CPU use (where printed). */
function stressorFigures(stressor: string, values: readonly number[]): [string, number][] {
  return ['ops-per-second', 'ops-per-cpu-second', 'ops', 'cpu-usage'].slice(0, values.length).map((what, i) => [`stress-ng.${stressor}.${what}`, values[i]!])
}

const NO_YAML = "stress-ng wrote no YAML report, so the figures are its log's, rounded to two decimals"
const notRead = (stressor: string) => `VirtBench has no metric definitions for stress-ng's ${stressor} stressor (it reads cpu, vm); its figures are not recorded`

describe('stress-ng parse: the YAML report the plan prints (stress-ng 0.15.06)', () => {
  it.each([
    ['cpu-matrixprod-1worker', { stressor: 'cpu' }, [541.679468, 875.530967, 1085, 61.868682]],
    ['cpu-all-2workers', { stressor: 'cpu', workers: 2, cpuMethod: 'all' }, [1137.661147, 1308.682186, 2283, 43.465906]],
    ['cpu-int64-per-cpu', { stressor: 'cpu', workers: 0, cpuMethod: 'int64' }, [1345.688362, 2281.557593, 2693, 29.490563]]
  ] as const)('%s: bogo ops/s (real and CPU time), bogo ops and CPU used per worker, exactly as printed', (name, input, [perSecond, perCpuSecond, ops, usage]) => {
    const result = parse(fixtureOutput(name), params(input))
    expect(samplesOf(result)).toEqual([
      { metric: 'stress-ng.cpu.ops-per-second', value: perSecond, unit: 'op/s', better: 'higher', labels: {} },
      { metric: 'stress-ng.cpu.ops-per-cpu-second', value: perCpuSecond, unit: 'op/s', better: 'higher', labels: {} },
      { metric: 'stress-ng.cpu.ops', value: ops, unit: 'count', better: 'higher', labels: {} },
      { metric: 'stress-ng.cpu.cpu-usage', value: usage, unit: '%', better: 'higher', labels: {} }
    ])
    expect(warningsOf(result)).toEqual([])
  })

  it.each([
    ['vm-write64-64m', { stressor: 'vm', vmBytes: '64M' }, [757.547363, 1144.215899, 1536, 66.20668]],
    ['vm-all-keep-2workers', { stressor: 'vm', workers: 2, vmBytes: '128M', vmMethod: 'all', vmKeep: true }, [47935.686244, 60511.807629, 102450, 39.608539]],
    ['vm-read64-1percent', { stressor: 'vm', vmBytes: '1%', vmMethod: 'read64' }, [2268.276524, 4264.940563, 5142, 53.184247]]
  ] as const)('%s: the vm stressor’s figures, exactly as printed', (name, input, values) => {
    const result = parse(fixtureOutput(name), params(input))
    expect(figures(result)).toEqual(stressorFigures('vm', values))
    expect(warningsOf(result)).toEqual([])
  })

  it('takes the YAML report’s six decimals, which the log table rounds to two', () => {
    const out = fixtureOutput('cpu-matrixprod-1worker')
    expect(out.stderr).toContain('cpu                1085      2.00      1.22      0.02       541.68         875.53')
    expect(figures(parse(out))[0]).toEqual(['stress-ng.cpu.ops-per-second', 541.679468])
  })

  it('reads every stressor it has definitions of from a run of several, and says which it leaves out', () => {
    const result = parse(fixtureOutput('cpu-vm-matrix-together'))
    expect(figures(result)).toEqual([...stressorFigures('cpu', [241.745207, 1286.944973, 500, 18.784425]), ...stressorFigures('vm', [119.8856, 952.289157, 247, 12.589201])])
    expect(warningsOf(result)).toEqual([notRead('matrix')])
  })

  it('with the test’s parameters, refuses an output of another stressor or of several', () => {
    expect(reasonOf(parse(fixtureOutput('cpu-matrixprod-1worker'), params({ stressor: 'vm' })))).toBe(
      'the test ran the vm stressor but the output has figures of cpu only: is it the output of another run?'
    )
    expect(reasonOf(parse(fixtureOutput('cpu-vm-matrix-together'), params({ stressor: 'cpu' })))).toBe(
      'the test ran the cpu stressor alone but the output also has vm, matrix: is it the output of another run?'
    )
  })
})

describe('stress-ng parse: the log alone, and older stress-ng', () => {
  it('reads the --metrics-brief table (metrc: lines) of a run without --yaml, and says the figures have two decimals', () => {
    const result = parse(fixtureOutput('log-only-cpu-brief'), params({ stressor: 'cpu' }))
    expect(figures(result)).toEqual(stressorFigures('cpu', [281.03, 886.7, 568]))
    expect(warningsOf(result)).toEqual([NO_YAML])
  })

  it('reads a log saved with 2>&1 and given as one text, as `virtbench parse` gives it', () => {
    const log = fixtureOutput('log-only-cpu-brief')
    expect(parse({ stdout: log.stderr, stderr: '', exitCode: 0 })).toEqual(parse(log))
  })

  it('reads CPU used per instance from the --metrics table, past the RSS Max column', () => {
    const result = parse(fixtureOutput('log-only-vm-full-metrics'))
    expect(figures(result)).toEqual(stressorFigures('vm', [508.84, 1114.11, 1024, 45.67]))
  })

  it('reads stress-ng 0.13.12’s info: lines (Ubuntu 22.04’s version), without the RSS Max column', () => {
    const result = parse(fixtureOutput('public-0.13.12-vm-mmap-info-lines'))
    expect(figures(result)).toEqual(stressorFigures('vm', [9147.5, 9147.21, 395177506, 100]))
    expect(warningsOf(result)).toEqual([NO_YAML, notRead('mmap')])
  })

  it('reads the YAML report of stress-ng 0.09.25, which has no CPU usage per instance', () => {
    const result = parse(fixtureOutput('public-0.09.25-yaml-cpu-vm'))
    expect(figures(result)).toEqual([...stressorFigures('cpu', [3049.623634, 216.266553, 30539]), ...stressorFigures('vm', [106785.171174, 56803.829787, 1067912])])
    expect(warningsOf(result)).toEqual([])
  })
})

describe('stress-ng parse: runs that are not measurements', () => {
  it('a killed worker: exit 2, with stress-ng’s own complaint', () => {
    const out = fixtureOutput('cpu-worker-killed')
    expect(reasonOf(parse(out, params({})))).toBe(
      'a stressor failed (exit 2): "cpu instance 0 corrupted bogo-ops counter, 658 vs 0"; the figures are not a valid measurement; stress-ng\'s log is in the raw output'
    )
    // its report of 658 bogo ops in 0 s is no measurement either, whatever the exit status
    expect(reasonOf(parse({ ...out, exitCode: null }))).toBe("the cpu stressor's 0 bogo ops/s is not its 658 bogo ops / 0 s, so the output is damaged")
  })

  it('an option this stress-ng does not know: exit 1, quoting what it said', () => {
    const reason = reasonOf(parse(fixtureOutput('error-unknown-cpu-method')))
    expect(reason).toMatch(/^stress-ng refused its options or could not set itself up \(exit 1\): "cpu-method must be one of: all ackermann apery .*…"; check the test's parameters against `stress-ng --help` on this target: an older stress-ng may lack the chosen method$/)
  })

  it('a vm stressor that could not map its memory does no bogo operations although stress-ng exits 0', () => {
    const out = fixtureOutput('vm-no-memory')
    expect(out.exitCode).toBe(0)
    expect(reasonOf(parse(out, params({ stressor: 'vm' })))).toBe(
      'the vm stressor did no bogo operations in 2.000505 s; the vm workers could not map their memory (stress-ng keeps retrying without a word): lower vmBytes or workers, or free memory on the target'
    )
  })

  it.each([
    [3, 'a stressor could not start for lack of resources, such as memory or a system call (exit 3); lower vmBytes or workers, or free memory on the target'],
    [4, 'the stressor is not implemented on this system or architecture (exit 4); choose another method or stressor for this target'],
    [5, 'a worker was killed by an unexpected signal, often by the out-of-memory killer (exit 5); lower vmBytes or workers, or give the target more memory'],
    [6, "a worker exited unexpectedly, so stress-ng could not gather its times (exit 6); see stress-ng's log in the raw output, and run again"],
    [7, 'stress-ng says its bogo-op counts may be untrustworthy, for example after a worker was killed while counting (exit 7); run again; if it repeats, lower vmBytes or workers'],
    [127, "stress-ng exited with code 127; see stress-ng's log in the raw output"]
  ])('exit %i says what stress-ng means by it and what to do', (code, reason) => {
    expect(reasonOf(parse({ stdout: '', stderr: '', exitCode: code }))).toBe(reason)
  })

  it('a run stopped by a signal', () => {
    const out = fixtureOutput('cpu-matrixprod-1worker')
    expect(reasonOf(parse({ ...out, exitCode: null, signal: 'SIGKILL' }))).toBe('stress-ng was stopped by signal SIGKILL before it finished')
  })

  it('a YAML report and a log of two different runs', () => {
    const yaml = fixtureOutput('cpu-matrixprod-1worker')
    const log = fixtureOutput('cpu-all-2workers')
    expect(reasonOf(parse({ ...yaml, stderr: log.stderr }))).toBe(
      "the cpu figures of the YAML report (1085 bogo ops, 541.679468/s) are not the log's (2283, 1137.66/s): are they from two different runs?"
    )
    const vm = fixtureOutput('vm-write64-64m')
    expect(reasonOf(parse({ ...yaml, stderr: vm.stderr }))).toBe("the YAML report lists cpu but the log's table vm: are they from two different runs?")
  })

  it('no metrics at all, and stressors VirtBench does not read', () => {
    expect(reasonOf(parse({ stdout: '', stderr: 'stress-ng: info:  [1] dispatching hogs: 1 cpu\n', exitCode: 0 }))).toBe(
      'no stress-ng metrics found: expected its YAML report (--yaml) on stdout or the metrics table of --metrics-brief on stderr'
    )
    const mmapOnly = fixtureOutput('public-0.13.12-vm-mmap-info-lines').stderr.replace(/^.* vm +395177506 .*\n/m, '')
    expect(reasonOf(parse({ stdout: '', stderr: mmapOnly, exitCode: 0 }))).toBe('none of the stressors in this output (mmap) is one VirtBench reads (cpu, vm)')
  })

  it('a damaged figure: bogo ops / wall-clock time is not the printed rate', () => {
    const out = fixtureOutput('vm-write64-64m')
    const damaged = out.stdout.replace('bogo-ops: 1536', 'bogo-ops: 1636')
    expect(reasonOf(parse({ stdout: damaged, stderr: '', exitCode: 0 }))).toBe("the vm stressor's 757.547363 bogo ops/s is not its 1636 bogo ops / 2.027596 s, so the output is damaged")
  })

  it('passes stress-ng’s own warnings on', () => {
    const out = fixtureOutput('cpu-matrixprod-1worker')
    const stderr = `${out.stderr}stress-ng: warn:  [26180] metrics-check: all bogo-op counters are zero, data may be incorrect\n`
    expect(warningsOf(parse({ ...out, stderr }))).toEqual(['stress-ng warned: metrics-check: all bogo-op counters are zero, data may be incorrect'])
  })
})
