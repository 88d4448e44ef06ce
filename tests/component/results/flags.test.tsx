import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { comparisonOf } from '../../../src/renderer/src/features/results/comparison-of'
import { FlagDetails, flagExplanation } from '../../../src/renderer/src/features/results/flags'
import { FLAG_SHORT, FLAG_TITLE } from '../../../src/renderer/src/features/results/flag-text'
import type { Flag, FlagKind } from '../../../src/shared/model/comparison'
import { loopbackRun } from '../run-fixture'

const faster: Flag = { kind: 'faster-than-baseline', message: 'guest reached 140 % of host.' }
const KINDS: FlagKind[] = ['faster-than-baseline', 'noisy', 'scenario-mismatch', 'bandwidth-cap', 'missing']

describe('flagExplanation', () => {
  it('has a short text, a title and a paragraph for every kind of flag', () => {
    const paragraphs = KINDS.map((kind) => flagExplanation({ kind, message: '' }))
    for (const [i, kind] of KINDS.entries()) {
      expect(FLAG_SHORT[kind].length).toBeGreaterThan(0)
      expect(FLAG_TITLE[kind].length).toBeGreaterThan(0)
      expect(paragraphs[i]!.length).toBeGreaterThan(100)
    }
    expect(new Set(paragraphs).size).toBe(KINDS.length)
  })

  it('blames the host page cache for fast writes on a writeback disk', () => {
    const text = flagExplanation(faster, { category: 'storage', metric: 'fio.write.iops', scenario: { cache: 'writeback' } })
    expect(text).toMatch(/^Faster than physical: the host page cache is probably serving these writes; cache=writeback\./)
    expect(text).toContain('direct=1')
  })

  it("points at the guest's own cache when the disk is declared cache=none", () => {
    const text = flagExplanation(faster, { category: 'storage', metric: 'fio.read.bandwidth', scenario: { cache: 'none' } })
    expect(text).toContain('a cache is probably serving these reads')
    expect(text).toContain("The disk is declared cache=none, so the host page cache should be out of the way")
  })

  it('names both caches when the scenario does not say', () => {
    const text = flagExplanation(faster, { category: 'storage', metric: 'dd.bandwidth' })
    expect(text).toContain('serving this I/O')
    expect(text).toContain('cache=writeback')
  })

  it('explains a fast network figure as a shorter path, and a fast CPU figure as a disturbed baseline', () => {
    expect(flagExplanation(faster, { category: 'network' })).toContain('shorter path')
    expect(flagExplanation(faster, { category: 'cpu' })).toContain('The baseline may have been busy')
    expect(flagExplanation(faster)).toContain('The baseline may have been busy')
  })

  it('tells what to do for a missing figure: read the log, retry', () => {
    expect(flagExplanation({ kind: 'missing', message: '' })).toContain("Open the job's log")
  })
})

describe('FlagDetails', () => {
  it('keeps the explanation one click away, with what was seen', async () => {
    const user = userEvent.setup()
    const flag: Flag = { kind: 'bandwidth-cap', message: 'eip measured 29.4 Mbit/s, just below 30 Mbit/s.' }
    render(<FlagDetails flag={flag} subject="guest-eip" />)
    const details = screen.getByText(FLAG_TITLE['bandwidth-cap']).closest('details') as HTMLDetailsElement
    expect(details.open).toBe(false)
    await user.click(screen.getByText(FLAG_TITLE['bandwidth-cap']))
    expect(details.open).toBe(true)
    expect(details.textContent).toContain(flagExplanation(flag))
    expect(details.textContent).toContain(`What was seen: ${flag.message}`)
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
