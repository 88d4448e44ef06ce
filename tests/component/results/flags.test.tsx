import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { comparisonOf } from '../../../src/renderer/src/features/results/comparison-of'
import { FlagDetails, FlagExplanation, flagExplanation } from '../../../src/renderer/src/features/results/flags'
import { FLAG_SHORT, FLAG_TITLE } from '../../../src/renderer/src/features/results/flag-text'
import { FLAG_TITLES } from '../../../src/shared/compare/flags'
import type { Flag, FlagKind } from '../../../src/shared/model/comparison'
import type { Scenario } from '../../../src/shared/model/scenario'
import { loopbackRun } from '../run-fixture'
import { oneMetricComparison } from './one-metric-comparison'

const KINDS: FlagKind[] = ['faster-than-baseline', 'noisy', 'scenario-mismatch', 'bandwidth-cap', 'missing', 'contaminated', 'baseline-virtual', 'same-machine']

/** The flag compare() raises on a guest 40 % faster than its host on `metric`, with `scenario` declared. */
function fasterFlag(metric: string, values: { host: number[]; guest: number[] }, scenario?: Scenario): Flag {
  const comparison = oneMetricComparison({
    test: { id: 't', title: 'the test' },
    metric,
    baseline: { label: 'host', values: values.host },
    variants: [{ label: 'guest', values: values.guest, ...(scenario ? { scenario } : {}) }]
  })
  const cell = comparison.rows[0]!.cells[0]!
  expect(cell.verdict).toBe('faster')
  return cell.flags.find((f) => f.kind === 'faster-than-baseline')!
}

const RATES = { host: [1000, 1010, 990], guest: [1400, 1414, 1386] }

describe('flag words', () => {
  it('has a short text and a title for every kind of flag, the titles the CLI and the PDF use', () => {
    for (const kind of KINDS) {
      expect(FLAG_SHORT[kind].length).toBeGreaterThan(0)
      expect(FLAG_TITLE[kind]).toBe(FLAG_TITLES[kind])
    }
    expect(Object.keys(FLAG_SHORT).sort()).toEqual([...KINDS].sort())
    expect(new Set(KINDS.map((k) => FLAG_SHORT[k])).size).toBe(KINDS.length)
    expect([FLAG_SHORT['baseline-virtual'], FLAG_TITLE['baseline-virtual']]).toEqual(['virtual baseline', 'The baseline is a virtual machine'])
    expect([FLAG_SHORT['same-machine'], FLAG_TITLE['same-machine']]).toEqual(['same machine', 'One machine measured twice'])
    expect([FLAG_SHORT.contaminated, FLAG_TITLE.contaminated]).toEqual(['disturbed', 'Disturbed repetitions'])
  })
})

describe('flagExplanation: the words the comparison wrote for the row', () => {
  it('blames the host page cache for fast writes on a writeback disk', () => {
    const flag = fasterFlag('fio.write.iops', RATES, { cache: 'writeback' })
    expect(flagExplanation(flag)).toBe(flag.explanation)
    expect(flagExplanation(flag)).toContain("The guest disk is cache=writeback, so the host's page cache most likely answered instead of the disk.")
    expect(flagExplanation(flag)).toContain('run the test with direct=1')
  })

  it("points at the guest's own cache when the disk is declared cache=none", () => {
    const text = flagExplanation(fasterFlag('fio.read.bandwidth', RATES, { cache: 'none' }))
    expect(text).toContain("The guest disk is declared cache=none, so the host's page cache should be out of the way: the guest's own page cache")
  })

  it('names both caches when the scenario does not say', () => {
    const text = flagExplanation(fasterFlag('dd.bandwidth', RATES))
    expect(text).toContain("the guest disk's writeback cache or the host's page cache")
  })

  it('explains a fast network figure as a shorter path, and a fast CPU figure as a disturbed baseline', () => {
    expect(flagExplanation(fasterFlag('iperf3.received.bandwidth', RATES))).toContain("The variant's path is probably shorter than the baseline's")
    expect(flagExplanation(fasterFlag('sysbench.cpu.events', RATES))).toContain('the baseline may have been busy or slowed down')
    expect(flagExplanation(fasterFlag('mbw.memcpy.bandwidth', RATES))).toContain('the baseline may have been busy or slowed down')
  })

  it('tells what to do for a missing figure: read the log, retry', () => {
    const comparison = oneMetricComparison({
      test: { id: 't', title: 'the test' },
      metric: 'fio.read.iops',
      baseline: { label: 'host', values: [1000, 1010] },
      variants: [{ label: 'guest', values: [] }]
    })
    const missing = comparison.rows[0]!.cells[0]!.flags.find((f) => f.kind === 'missing')!
    expect(flagExplanation(missing)).toContain("Read the job's log for the reason, fix it, and retry the job.")
  })

  it('is empty for a flag that carries no explanation', () => {
    expect(flagExplanation({ kind: 'noisy', message: 'The repetitions vary.' })).toBe('')
  })
})

describe('FlagExplanation', () => {
  it('shows the explanation, then what was seen without repeating it', () => {
    const flag = fasterFlag('fio.write.iops', RATES, { cache: 'writeback' })
    render(<FlagExplanation flag={flag} subject="guest · fio.write.iops" />)
    const box = document.querySelector('.results-explanation') as HTMLElement
    expect(box.textContent).toContain('Faster than the baseline · guest · fio.write.iops')
    expect(box.textContent).toContain(flag.explanation)
    expect(box.textContent).toContain('What was seen: guest reached 140 % of host on fio.write.iops of the test: faster than the baseline beyond noise.')
    expect(box.textContent!.split(flag.explanation!)).toHaveLength(2)
  })

  it('shows the whole message of a flag without an explanation', () => {
    render(<FlagExplanation flag={{ kind: 'noisy', message: 'The repetitions vary.' }} />)
    const box = document.querySelector('.results-explanation') as HTMLElement
    expect(box.querySelectorAll('p')).toHaveLength(2)
    expect(box.textContent).toContain('What was seen: The repetitions vary.')
  })
})

describe('FlagDetails', () => {
  it('keeps the explanation one click away, with what was seen', async () => {
    const user = userEvent.setup()
    const explanation = 'The figure shows the limit, not the network: lift the limit, then measure again.'
    const flag: Flag = { kind: 'bandwidth-cap', message: `eip measured 29.4 Mbit/s, just below 30 Mbit/s. ${explanation}`, explanation }
    render(<FlagDetails flag={flag} subject="guest-eip" />)
    const details = screen.getByText(FLAG_TITLE['bandwidth-cap']).closest('details') as HTMLDetailsElement
    expect(details.open).toBe(false)
    await user.click(screen.getByText(FLAG_TITLE['bandwidth-cap']))
    expect(details.open).toBe(true)
    expect(details.textContent).toContain(explanation)
    expect(details.textContent).toContain('What was seen: eip measured 29.4 Mbit/s, just below 30 Mbit/s.')
  })
})

describe('comparisonOf', () => {
  it('computes the comparison of a run document once', () => {
    const run = loopbackRun()
    const first = comparisonOf(run)
    expect(comparisonOf(run)).toBe(first)
    expect(comparisonOf(loopbackRun())).not.toBe(first)
    expect(first.rows).toHaveLength(65)
  })
})
