import type { MetricDef } from '../../../shared/model/metric-def'
import type { MetricCategory, Unit } from '../../../shared/model/sample'
import { UNIXBENCH_TESTS, type UnixbenchTest } from './tests'

/** How a score UnixBench prints becomes a value in a VirtBench unit. */
export interface ScoreConversion {
  unit: Unit
  convert: (score: number) => number
  /** How the description explains it. */
  says: string
}

/** Graphics scores (`score`, `fps`) have no VirtBench unit; those tests give only their index. */
export const SCORE_CONVERSIONS: Readonly<Record<string, ScoreConversion>> = {
  lps: { unit: 'lps', convert: (v) => v, says: 'loops per second (lps), as UnixBench reports them' },
  lpm: { unit: 'lps', convert: (v) => v / 60, says: 'loops per second: UnixBench reports loops per minute (lpm) and VirtBench divides by 60' },
  MWIPS: { unit: 'MWIPS', convert: (v) => v, says: 'millions of Whetstone instructions per second (MWIPS), as UnixBench reports them' },
  KBps: { unit: 'B/s', convert: (v) => v * 1024, says: 'bytes per second: UnixBench reports KBps with K = 1024 bytes (fstime) and VirtBench multiplies by 1024' }
}

const COPIES = ['copies']

/** The file tests (fstime, fsbuffer, fsdisk and their -r/-w halves) measure storage; the others the CPU and the system. */
function categoryOf(testId: string): MetricCategory {
  return testId.startsWith('fs') ? 'storage' : 'cpu'
}

const printed = (testId: string) => ({ category: categoryOf(testId), source: 'tool', comparison: 'ratio' }) as const

function scoreMetric(test: UnixbenchTest, conversion: ScoreConversion): MetricDef {
  const name = typeof test.name === 'string' ? test.name : 'C Compiler Throughput (<compiler>)'
  return {
    name: `unixbench.${test.id}`,
    unit: conversion.unit,
    better: 'higher',
    ...printed(test.id),
    description:
      `UnixBench "${name}": ${test.about}. Raw score in ${conversion.says}; with several copies (labels.copies) it is the sum over the copies.`,
    labels: COPIES
  }
}

export const unixbenchMetrics: readonly MetricDef[] = [
  ...UNIXBENCH_TESTS.flatMap((test) => {
    const conversion = SCORE_CONVERSIONS[test.reportUnit]
    return conversion ? [scoreMetric(test, conversion)] : []
  }),
  ...UNIXBENCH_TESTS.map(
    (test): MetricDef => ({
      name: `unixbench.${test.id}.index`,
      unit: 'index',
      better: 'higher',
      ...printed(test.id),
      description:
        `The index of "${typeof test.name === 'string' ? test.name : test.id}": its raw score divided by the score of UnixBench's baseline machine (a SPARCstation 20-61, "George") times 10, ` +
        'as UnixBench prints it. Only tests with a baseline (the index tests, and a few more) have one.',
      labels: COPIES
    })
  ),
  {
    name: 'unixbench.index',
    unit: 'index',
    better: 'higher',
    ...printed('index'),
    description:
      'The System Benchmarks Index Score: the geometric mean of the indexes of the index tests that ran. With fewer than all 12 index ' +
      'tests UnixBench calls it a partial index ("Partial Only"); compare it only with runs of the same tests and copies.',
    labels: COPIES
  }
]
