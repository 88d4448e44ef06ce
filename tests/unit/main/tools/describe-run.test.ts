import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeRun } from '../../../../src/main/tools/describe-run'
import { compare } from '../../../../src/shared/compare'
import { RunDocumentSchema } from '../../../../src/shared/model/run'
import { comparisonInputOf } from '../../../../src/shared/run-comparison'

/** A run written before runs kept their metric definitions (tests/fixtures/runs/loopback-quick). */
const OLD_RUN = path.join(__dirname, '../../../fixtures/runs/loopback-quick/run.json')
const oldRun = () => RunDocumentSchema.parse(JSON.parse(readFileSync(OLD_RUN, 'utf8')))

describe('a run written before VirtBench kept metric definitions', () => {
  it('has none, and gets today\'s tools\' definitions and primaries when read', () => {
    const old = oldRun()
    expect(old.metrics).toBeUndefined()
    expect(old.tests.every((t) => t.primary === undefined)).toBe(true)
    const described = describeRun(old)
    expect(new Set(described.metrics?.map((m) => m.name.split('.')[0]))).toEqual(new Set(['fio', 'dd', 'ping', 'iperf3', 'mbw']))
    expect(described.tests.map((t) => [t.id, t.primary])).toEqual([
      ['fio-randread', ['fio.<dir>.iops']],
      ['fio-write', ['fio.<dir>.bandwidth']],
      ['dd-latency', ['dd.lat.mean']],
      ['ping', ['ping.rtt.avg']],
      ['iperf3', ['iperf3.received.bandwidth']],
      ['mbw', ['mbw.memcpy.bandwidth', 'mbw.dumb.bandwidth', 'mbw.mcblock.bandwidth']]
    ])
    // a described run is left as it is
    expect(describeRun(described)).toBe(described)
  })

  it('compares with the same figures, now with categories, primaries and verdicts', () => {
    const old = oldRun()
    const before = compare(comparisonInputOf(old))
    const after = compare(comparisonInputOf(describeRun(old)))
    expect(after.rows.map((r) => [r.testId, r.metric, r.baseline?.value])).toEqual(before.rows.map((r) => [r.testId, r.metric, r.baseline?.value]))
    expect(after.rows.map((r) => r.cells[0]?.stats?.value)).toEqual(before.rows.map((r) => r.cells[0]?.stats?.value))
    // the same relative % wherever both compare a ratio (without definitions a count is guessed a difference by its unit)
    after.rows.forEach((r, i) => {
      if (r.comparison === 'ratio' && before.rows[i]?.comparison === 'ratio') expect(r.cells[0]?.relativePct).toBe(before.rows[i]?.cells[0]?.relativePct)
    })
    expect(after.rows.find((r) => r.metric === 'fio.read.ios')).toMatchObject({ comparison: 'ratio' })
    expect(before.rows.find((r) => r.metric === 'fio.read.ios')).toMatchObject({ comparison: 'difference' })
    // without definitions nothing is primary and nothing has a category; with them, every row has one
    expect(before.rows.some((r) => r.primary || r.category)).toBe(false)
    expect(after.rows.every((r) => r.category !== undefined)).toBe(true)
    expect(after.rows.filter((r) => r.primary).map((r) => `${r.testId} ${r.metric}`)).toEqual([
      'fio-randread fio.read.iops',
      'fio-write fio.write.bandwidth',
      'dd-latency dd.lat.mean',
      'ping ping.rtt.avg',
      'iperf3 iperf3.received.bandwidth',
      'mbw mbw.memcpy.bandwidth',
      'mbw mbw.dumb.bandwidth',
      'mbw mbw.mcblock.bandwidth'
    ])
    // counts are differences, as their definitions say: ping's loss 0 against 0 is the same
    const loss = after.rows.find((r) => r.metric === 'ping.loss')!
    expect([loss.comparison, loss.cells[0]?.difference, loss.cells[0]?.verdict]).toEqual(['difference', 0, 'same'])
  })
})
