import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { compare } from '../../../src/shared/compare'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { ChartsSection, GroupedBarsGrid } from '../../../src/renderer/src/features/charts'
import { loopbackRun } from '../run-fixture'

const run = loopbackRun()
const comparison = compare(comparisonInputOf(run))
const GUEST = 'guest (cache=none)'

/** The small charts' titles with their metric ids (each chart's hover text). */
function chartTitles(container: HTMLElement): string[] {
  return [...container.querySelectorAll('.charts-multiple')].map((figure) => figure.getAttribute('title') ?? '')
}

describe('GroupedBarsGrid (small multiples)', () => {
  it('draws every primary metric of a category at once, one small chart each, with one legend and one table', () => {
    const { container } = render(<GroupedBarsGrid comparison={comparison} />)
    const card = screen.getByRole('region', { name: 'Baseline and variants side by side' })
    const category = within(card).getByRole('combobox', { name: 'Category' }) as HTMLSelectElement
    expect(category.value).toBe('storage')
    expect([...category.options].map((o) => o.textContent)).toEqual(['Storage (42)', 'Network (13)', 'Memory (3)'])
    // the storage tests' primary figures: fio 4 KiB IOPS, fio 1 MiB bandwidth, dd's time per block
    expect(container.querySelectorAll('.charts-multiple')).toHaveLength(3)
    expect(chartTitles(container)).toEqual([
      '4 KiB random read · Read IOPS (fio.read.iops)',
      '1 MiB sequential write · Write bandwidth (fio.write.bandwidth)',
      'Latency: 200 x 512 B O_DIRECT writes · Mean latency (dd.lat.mean)'
    ])
    // one bar per target in each chart, and one legend naming the targets once
    expect(container.querySelectorAll('.charts-multiple .charts-bar')).toHaveLength(6)
    expect(within(within(card).getByRole('list', { name: 'Targets' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['host', GUEST])
    const table = within(card).getByRole('table', { name: /Storage: primary metrics/ })
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Metric', 'host', GUEST])
    expect(within(table).getAllByRole('row')).toHaveLength(4)
  })

  it('switches category and shows all of its metrics on request', { timeout: 30_000 }, async () => {
    const user = userEvent.setup()
    const { container } = render(<GroupedBarsGrid comparison={comparison} />)
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'memory')
    expect(chartTitles(container)).toHaveLength(3)
    expect(chartTitles(container).every((t) => /bandwidth/.test(t))).toBe(true)
    expect(screen.queryByRole('button', { name: /more chart/ })).toBeNull()
    // every network metric: the first twelve drawn, the rest one click away
    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'network')
    await user.click(screen.getByRole('checkbox', { name: 'All metrics' }))
    expect(container.querySelectorAll('.charts-multiple')).toHaveLength(12)
    await user.click(screen.getByRole('button', { name: 'Show 1 more chart' }))
    expect(container.querySelectorAll('.charts-multiple')).toHaveLength(13)
  })

  it('is the results’ side-by-side chart, with no 50-entry metric list', () => {
    render(<ChartsSection run={run} comparison={comparison} />)
    const card = screen.getByRole('region', { name: 'Baseline and variants side by side' })
    expect(within(card).queryByRole('combobox', { name: 'Metric' })).toBeNull()
    expect(card.querySelectorAll('.charts-multiple').length).toBeGreaterThan(1)
  })
})
