import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { ReleaseComparisonView } from '../../../src/renderer/src/features/release/release-comparison-view'
import type { RunDocument } from '../../../src/shared/model/run'
import { loopbackRun } from '../run-fixture'

/**
 * The recorded loopback run as the older run, and the same run with the guest's every figure made
 * half as good (rates halved, times doubled) and a new kernel on the guest as the newer one: what
 * a bad release does.
 */
function halvedGuest(run: RunDocument): RunDocument {
  const guest = run.targets.find((t) => t.role === 'variant')!
  return {
    ...run,
    id: `${run.id}-new`,
    createdAt: '2026-11-26T02:00:00.000Z',
    jobs: run.jobs.map((j) =>
      j.side !== guest.label ? j : { ...j, samples: j.samples.map((s) => ({ ...s, value: s.better === 'higher' ? s.value / 2 : s.better === 'lower' ? s.value * 2 : s.value })) }
    ),
    environment: { ...run.environment, [guest.name]: { ...run.environment[guest.name]!, kernel: '6.99.0-release' } }
  }
}

describe('ReleaseComparisonView', () => {
  it('shows each primary figure moving from old to new with its change, interval and verdict, and what changed on the machines', async () => {
    const older = loopbackRun()
    const newer = halvedGuest(older)
    render(<ReleaseComparisonView newer={newer} older={older} />)
    const heading = screen.getByRole('heading', { name: /^guest \(cache=none\) against host: / })
    const table = within(heading.closest('section')!).getByRole('table')
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.length).toBeGreaterThan(0)
    // fio random read IOPS: a ratio, halved
    const fio = rows.find((r) => /fio\.read\.iops/.test(r.textContent!))!
    const cells = within(fio).getAllByRole('cell')
    expect(cells[2]!.textContent).toMatch(/^50(\.0)? % \[\d+(\.\d)?–\d+(\.\d)? %\]$/)
    expect(cells[3]!.textContent).toMatch(/^regressed: [\d.]+ % → [\d.]+ %: the change's 95 % interval .* lies below 100 %$/)
    expect(heading.textContent).toMatch(/\d+ regressed/)
    // the kernel of the guest changed, the host did not
    const env = screen.getByRole('heading', { name: 'What changed on the machines' }).closest('section')!
    expect(env.textContent).toContain(`Kernel: ${older.environment.guest!.kernel} → 6.99.0-release`)
    expect(env.textContent).toMatch(/host \(baseline\): no change/)

    const before = rows.length
    await userEvent.setup().click(screen.getByRole('checkbox', { name: /every metric/ }))
    expect(within(table).getAllByRole('row').length - 1).toBeGreaterThan(before)
  })

  it('calls a run against itself unchanged or can\'t tell, never regressed', () => {
    const older = loopbackRun()
    render(<ReleaseComparisonView newer={{ ...older, id: 'again' }} older={older} />)
    const verdicts = [...document.querySelectorAll('.release-verdict')].map((v) => v.className.replace(/.*release-verdict-/, ''))
    expect(verdicts.length).toBeGreaterThan(0)
    expect(verdicts.every((v) => v === 'unchanged' || v === 'inconclusive')).toBe(true)
  })
})
