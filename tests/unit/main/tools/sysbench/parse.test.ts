import { describe, expect, it } from 'vitest'
import { sysbenchParamsSchema } from '../../../../../src/main/tools/sysbench/params'
import { parse } from '../../../../../src/main/tools/sysbench/parse'
import { fixtureOutput, reasonOf, samplesOf, valuesOf, warningsOf } from './fixtures'

const MIB = 1048576
/** A latency sysbench printed in ms, in seconds (converted in decimal, as the parser does). */
const ms = (text: string) => Number(`${text}e-3`)
const ZEROS = (...names: string[]) => `sysbench printed 0.00 for ${names.join(', ')} (below its print precision of two decimals); not recorded`

describe('sysbench parse: cpu (1.0.20)', () => {
  it('events per second and the latency summary, in op/s and seconds', () => {
    const result = parse(fixtureOutput('cpu-1thread'))
    expect(samplesOf(result)).toEqual([
      { metric: 'sysbench.cpu.events', value: 3738.74, unit: 'op/s', better: 'higher', labels: {} },
      { metric: 'sysbench.cpu.lat.min', value: 0.00019, unit: 's', better: 'lower', labels: {} },
      { metric: 'sysbench.cpu.lat.avg', value: 0.00027, unit: 's', better: 'lower', labels: {} },
      { metric: 'sysbench.cpu.lat.max', value: 0.01189, unit: 's', better: 'lower', labels: {} },
      { metric: 'sysbench.cpu.lat.p95', value: 0.00058, unit: 's', better: 'lower', labels: {} }
    ])
    expect(warningsOf(result)).toEqual([])
  })

  it('two threads, cpu-max-prime 20000', () => {
    expect(valuesOf(parse(fixtureOutput('cpu-2threads-prime20000')))).toEqual({
      'sysbench.cpu.events': 1871.39,
      'sysbench.cpu.lat.min': ms('0.51'),
      'sysbench.cpu.lat.avg': ms('1.07'),
      'sysbench.cpu.lat.max': ms('8.54'),
      'sysbench.cpu.lat.p95': ms('4.57')
    })
  })

  it('names the percentile after --percentile, and has none with --percentile=0', () => {
    expect(valuesOf(parse(fixtureOutput('cpu-percentile-99')))['sysbench.cpu.lat.p99']).toBe(ms('0.29'))
    expect(Object.keys(valuesOf(parse(fixtureOutput('cpu-percentile-disabled'))))).toEqual([
      'sysbench.cpu.events',
      'sysbench.cpu.lat.min',
      'sysbench.cpu.lat.avg',
      'sysbench.cpu.lat.max'
    ])
  })

  it('divides total events by total time for sysbench before 1.0.8, and says so', () => {
    const result = parse(fixtureOutput('constructed-1.0.7-cpu'))
    expect(valuesOf(result)['sysbench.cpu.events']).toBe(3746 / 1.0004)
    expect(warningsOf(result)).toEqual([expect.stringContaining('older than 1.0.8')])
  })
})

describe('sysbench parse: memory', () => {
  it('write, 1 KiB blocks: transfer rate in B/s and operations per second; 0.00 ms latencies left out', () => {
    const result = parse(fixtureOutput('memory-write-1k'))
    expect(valuesOf(result)).toEqual({
      'sysbench.memory.operations': 6548234.14,
      'sysbench.memory.bandwidth': 6394.76 * MIB,
      'sysbench.memory.lat.max': ms('3.54')
    })
    expect(warningsOf(result)).toEqual([ZEROS('sysbench.memory.lat.min', 'sysbench.memory.lat.avg', 'sysbench.memory.lat.p95')])
  })

  it('read, 1 MiB blocks, random access, two threads', () => {
    expect(valuesOf(parse(fixtureOutput('memory-read-1m-rnd')))).toEqual({
      'sysbench.memory.operations': 5567.78,
      'sysbench.memory.bandwidth': 5567.78 * MIB,
      'sysbench.memory.lat.min': ms('0.19'),
      'sysbench.memory.lat.avg': ms('0.35'),
      'sysbench.memory.lat.max': ms('16.69'),
      'sysbench.memory.lat.p95': ms('0.47')
    })
  })

  it('has no bandwidth with --memory-oper=none, and says why', () => {
    const result = parse(fixtureOutput('memory-oper-none'))
    expect(valuesOf(result)).toEqual({ 'sysbench.memory.operations': 4642008.62, 'sysbench.memory.lat.max': ms('15.41') })
    expect(warningsOf(result)[0]).toMatch(/memory-oper=none moves no data/)
  })
})

describe('sysbench parse: fileio', () => {
  it('rndrw: reads/s, writes/s, fsyncs/s and both throughputs', () => {
    const result = parse(fixtureOutput('fileio-rndrw'))
    expect(valuesOf(result)).toEqual({
      'sysbench.fileio.reads': 12876.3,
      'sysbench.fileio.read.bandwidth': 201.19 * MIB,
      'sysbench.fileio.writes': 8584.2,
      'sysbench.fileio.write.bandwidth': 134.13 * MIB,
      'sysbench.fileio.fsyncs': 862.39,
      'sysbench.fileio.lat.avg': ms('0.04'),
      'sysbench.fileio.lat.max': ms('9.15'),
      'sysbench.fileio.lat.p95': ms('0.01')
    })
    expect(warningsOf(result)).toEqual([ZEROS('sysbench.fileio.lat.min')])
  })

  it('seqwr: only the write side (its reads/s 0.00 means no reads, not a measured zero)', () => {
    expect(valuesOf(parse(fixtureOutput('fileio-seqwr')))).toEqual({
      'sysbench.fileio.writes': 21932.03,
      'sysbench.fileio.write.bandwidth': 342.69 * MIB,
      'sysbench.fileio.fsyncs': 881.25,
      'sysbench.fileio.lat.avg': ms('0.04'),
      'sysbench.fileio.lat.max': ms('10.65'),
      'sysbench.fileio.lat.p95': ms('0.06')
    })
  })

  it('seqrd and rndrd with O_DIRECT: only the read side, no fsyncs', () => {
    expect(valuesOf(parse(fixtureOutput('fileio-seqrd')))).toEqual({
      'sysbench.fileio.reads': 338243.97,
      'sysbench.fileio.read.bandwidth': 5285.06 * MIB,
      'sysbench.fileio.lat.max': ms('12.06')
    })
    expect(valuesOf(parse(fixtureOutput('fileio-rndrd-direct')))).toEqual({
      'sysbench.fileio.reads': 18686.29,
      'sysbench.fileio.read.bandwidth': 291.97 * MIB,
      'sysbench.fileio.lat.min': ms('0.04'),
      'sysbench.fileio.lat.avg': ms('0.11'),
      'sysbench.fileio.lat.max': ms('7.8'),
      'sysbench.fileio.lat.p95': ms('0.14')
    })
  })
})

describe('sysbench parse: failures', () => {
  it('quotes FATAL and the advice after it', () => {
    expect(reasonOf(parse(fixtureOutput('fileio-error-not-prepared')))).toBe(
      "sysbench stopped with an error: FATAL: Cannot open file 'test_file.0' errno = 2 (No such file or directory) WARNING: Did you forget to run the prepare step?"
    )
    expect(reasonOf(parse(fixtureOutput('error-unknown-test')))).toMatch(/FATAL: Cannot find benchmark 'nosuchtest'/)
  })

  it('is not fooled by the prepare and cleanup steps, which report nothing', () => {
    expect(reasonOf(parse(fixtureOutput('fileio-prepare')))).toMatch(/no sysbench cpu, memory or fileio report found/)
    expect(reasonOf(parse(fixtureOutput('fileio-cleanup')))).toMatch(/no sysbench cpu, memory or fileio report found/)
  })

  it('refuses a report of another test than asked for', () => {
    expect(reasonOf(parse(fixtureOutput('cpu-1thread'), sysbenchParamsSchema.parse({ test: 'memory' })))).toBe(
      'expected a sysbench memory report but this is a cpu report'
    )
  })

  it('refuses sysbench 0.4/0.5 output', () => {
    const old = 'sysbench 0.4.12:  multi-threaded system evaluation benchmark\n\nTest execution summary:\n'
    expect(reasonOf(parse({ stdout: old, stderr: '', exitCode: 0 }))).toMatch(/this is sysbench 0.4; VirtBench reads .* 1.0 and later/)
  })

  it('refuses two reports, a non-zero exit, a signal and empty output', () => {
    const one = fixtureOutput('cpu-1thread')
    expect(reasonOf(parse({ ...one, stdout: one.stdout + one.stdout }))).toMatch(/more than one sysbench report/)
    expect(reasonOf(parse({ ...one, exitCode: 1 }))).toMatch(/exited with code 1/)
    expect(reasonOf(parse({ ...one, exitCode: null, signal: 'SIGKILL' }))).toMatch(/signal SIGKILL/)
    expect(reasonOf(parse({ stdout: '', stderr: '', exitCode: 0 }))).toMatch(/output is empty/)
  })
})
