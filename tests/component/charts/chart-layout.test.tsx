import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { compare } from '../../../src/shared/compare'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { GroupedBarsChart, RelativeChart } from '../../../src/renderer/src/features/charts'
import { MEASUREMENT_SPAN_ID } from '../../../src/renderer/src/features/charts/measurement-span'
import { relativeLabel } from '../../../src/renderer/src/features/charts/relative-chart'
import { relativeRows, type RelativeItem } from '../../../src/renderer/src/features/charts/relative'
import { loopbackRun } from '../run-fixture'

const comparison = compare(comparisonInputOf(loopbackRun()))

describe('recharts’ text-measuring span', () => {
  it('is taken out of the document after measuring, while the chart is shown and after', async () => {
    const added: string[] = []
    const watch = new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n instanceof HTMLElement && n.id === MEASUREMENT_SPAN_ID) added.push(n.textContent ?? '')
    })
    watch.observe(document.body, { childList: true })
    const { unmount } = render(
      <>
        <GroupedBarsChart comparison={comparison} />
        <RelativeChart comparison={comparison} />
      </>
    )
    // let the observers run (they are microtasks)
    await Promise.resolve()
    await new Promise((resolve) => setTimeout(resolve, 0))
    watch.disconnect()
    expect(added.length, 'recharts measured nothing: the test proves nothing').toBeGreaterThan(0)
    expect(document.getElementById(MEASUREMENT_SPAN_ID)).toBeNull()
    unmount()
    expect(document.getElementById(MEASUREMENT_SPAN_ID)).toBeNull()
  })
})

describe('relative % past the axis end', () => {
  const item = (pct: number, ci95: [number, number]): RelativeItem => ({ label: 'x', short: 'x', pct, ci95, verdict: 'faster', seriesIndex: 1, flags: [] })

  it('stops bars and whiskers at the axis end, so they never run into the figures right of the plot', () => {
    // 150 % with an interval up to 620 %: the whisker would reach far past 400 % and through "150 %"
    const [row] = relativeRows([item(150, [90, 620])], 400)
    const [down, up] = row!.ci as [number, number]
    expect(row!.pct).toBe(150)
    expect(150 - down).toBeCloseTo(90, 10)
    expect(150 + up).toBe(400)
    // a figure itself past the end: drawn at the end, the label keeps the true figure with an arrow
    const [over] = relativeRows([item(900, [700, 1100])], 400)
    expect(over!.pct).toBe(400)
    expect(over!.value).toBe(900)
    expect(over!.ci).toEqual([0, 0])
    expect(relativeLabel({ pct: 900, verdict: 'faster' }, 400)).toMatch(/^▶ 900 %/)
    expect(relativeLabel({ pct: 150, verdict: 'faster' }, 400)).toMatch(/^150 %/)
  })

  it('keeps an interval inside the axis as it is', () => {
    const [row] = relativeRows([item(95, [80, 110])], 120)
    expect(row!.ci).toEqual([15, 15])
  })
})
