import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { compare } from '../../../src/shared/compare'
import { formatPct } from '../../../src/shared/format'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { ChartPrintContext, ChartsSection, ChartStagingContext, RelativeChart } from '../../../src/renderer/src/features/charts'
import { relativeLabel } from '../../../src/renderer/src/features/charts/relative-chart'
import { labelledTicks, RELATIVE_LAYOUT } from '../../../src/renderer/src/features/charts/relative-plot'
import { relativeData, relativeDomainMax, relativeViews } from '../../../src/renderer/src/features/charts/relative'
import { MEASUREMENT_SPAN_ID } from '../../../src/renderer/src/features/charts/measurement-span'
import { loopbackRun } from '../run-fixture'

const run = loopbackRun()
const comparison = compare(comparisonInputOf(run))
const WIDTH = 640

describe('the relative chart in print (the PDF)', () => {
  it('is plain SVG drawn in one pass: a bar and a whisker per figure, its name in HTML, its figure and verdict right of the plot', () => {
    const measured: string[] = []
    const watch = new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n instanceof HTMLElement && n.id === MEASUREMENT_SPAN_ID) measured.push(n.textContent ?? '')
    })
    watch.observe(document.body, { childList: true })
    const { container } = render(
      <ChartPrintContext.Provider value={{ width: WIDTH }}>
        <RelativeChart comparison={comparison} />
      </ChartPrintContext.Provider>
    )
    watch.disconnect()
    // nothing of recharts: no measuring, nothing to settle before printing
    expect(container.querySelector('.recharts-wrapper')).toBeNull()
    expect(measured).toEqual([])

    const data = relativeData(comparison, relativeViews(comparison)[0]!)
    const max = relativeDomainMax(data.items)
    expect(data.items.length).toBeGreaterThan(1)
    const svg = container.querySelector('svg.charts-static-svg')!
    expect(Number(svg.getAttribute('width'))).toBe(WIDTH)
    const bars = [...svg.querySelectorAll('rect')]
    expect(bars).toHaveLength(data.items.length)
    // each bar's length is its figure on the axis from 0 to max, in the plot between the name column and the label column
    const plotWidth = WIDTH - RELATIVE_LAYOUT.left - RELATIVE_LAYOUT.yAxisWidth - RELATIVE_LAYOUT.right
    bars.forEach((bar, i) => {
      expect(Number(bar.getAttribute('x'))).toBe(RELATIVE_LAYOUT.left + RELATIVE_LAYOUT.yAxisWidth)
      expect(Number(bar.getAttribute('width'))).toBeCloseTo((Math.min(max, data.items[i]!.pct) / max) * plotWidth, 6)
      expect(Number(bar.getAttribute('height'))).toBe(RELATIVE_LAYOUT.barSize)
    })
    const texts = [...svg.querySelectorAll('text')].map((t) => t.textContent)
    for (const item of data.items) expect(texts).toContain(relativeLabel(item, max))
    expect(texts).toContain('100 %')
    expect([...container.querySelectorAll('.charts-static-label')].map((l) => l.textContent)).toEqual(data.items.map((i) => i.short))
  })

  it('labels as many ticks as have room, counting back from the axis end', () => {
    // 0..140 % in steps of 20 on 202 px: every second label, the end's kept (as recharts thins them)
    expect(labelledTicks([0, 20, 40, 60, 80, 100, 120, 140], 202)).toEqual([20, 60, 100, 140])
    expect(labelledTicks([0, 20, 40, 60, 80, 100, 120], 202)).toEqual([0, 40, 80, 120])
    expect(labelledTicks([0, 50, 100], 400)).toEqual([0, 50, 100])
    expect(labelledTicks([0, 50, 100, 150, 200, 250, 300, 350, 400], 202).map((t) => formatPct(t))).toEqual(['0 %', '100 %', '200 %', '300 %', '400 %'])
  })
})

describe('charts arriving one at a time (the results view)', () => {
  it('draws no chart in the first render, then one more per task until all are drawn', { timeout: 60_000 }, async () => {
    const staged = render(
      <ChartStagingContext value={true}>
        <ChartsSection run={run} comparison={comparison} />
      </ChartStagingContext>
    )
    expect(staged.container.querySelectorAll('.charts-card')).toHaveLength(0)
    const all = render(<ChartsSection run={run} comparison={comparison} />)
    const cards = all.container.querySelectorAll('.charts-card').length
    const multiples = all.container.querySelectorAll('.charts-multiple').length
    expect(cards).toBeGreaterThan(1)
    // every chart and every small chart, as drawn at once
    await expect.poll(() => staged.container.querySelectorAll('.charts-card').length, { timeout: 30_000 }).toBe(cards)
    await expect.poll(() => staged.container.querySelectorAll('.charts-multiple').length, { timeout: 30_000 }).toBe(multiples)
    expect(screen.getAllByRole('region', { name: 'Latency' })).toHaveLength(2)
    expect(staged.container.querySelectorAll('.charts-multiple-pending')).toHaveLength(0)
  })
})
