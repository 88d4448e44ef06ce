import { readFileSync } from 'node:fs'
import path from 'node:path'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { describeRun } from '../../../src/main/tools/describe-run'
import { compare } from '../../../src/shared/compare'
import { RunDocumentSchema, type RunDocument } from '../../../src/shared/model/run'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { ChartPrintContext } from '../../../src/renderer/src/features/charts'
import { StudySections } from '../../../src/renderer/src/features/studies/study-sections'
import { Study002Bars } from '../../../src/renderer/src/features/studies/study002-bars'

/** A stored run folder (tests/fixtures/runs/README.md). */
function runOf(name: string): RunDocument {
  return describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(__dirname, '../../fixtures/runs', name, 'run.json'), 'utf8'))))
}

describe("study 002's throughput and latency bars (Study002Bars)", () => {
  // block-dd-local: the block-dd pack (quick) on chroot (baseline), kvm-ide and kvm-virtio, 2 repetitions each
  const run = runOf('block-dd-local')
  const comparison = compare(comparisonInputOf(run))

  it('draws one throughput chart and one latency chart, each with a bar for every machine and its % with the interval', () => {
    const { container } = render(
      <ChartPrintContext.Provider value={{ width: 640 }}>
        <Study002Bars run={run} comparison={comparison} />
      </ChartPrintContext.Provider>
    )
    expect(screen.getByText('Block device throughput and latency per machine (study 002)')).toBeTruthy()
    const charts = [...container.querySelectorAll('.studies-002-chart')] as HTMLElement[]
    expect(charts.map((c) => c.dataset.chart)).toEqual(['throughput', 'latency'])
    const [throughput, latency] = charts
    // three bars each, side by side in one chart: the baseline and both variants
    expect(throughput!.querySelectorAll('rect.charts-relative-bar')).toHaveLength(3)
    expect(latency!.querySelectorAll('rect.charts-relative-bar')).toHaveLength(3)
    const labels = (el: HTMLElement): string[] => [...el.querySelectorAll('svg text')].map((t) => t.textContent ?? '').filter((t) => /\(baseline\)|\[/.test(t))
    expect(labels(throughput!)).toEqual(['100 % (baseline)', '106 % [29–382]', '107 % [19–607]'])
    expect(labels(latency!)).toEqual(['100 % (baseline)', '111 % [29–428]', '90 % [26–316]'])
    // each machine's figure in its unit beside its name, and the axis says what the % is of
    expect(within(throughput!).getByText('chroot · 764 MiB/s')).toBeTruthy()
    expect(within(latency!).getByText('kvm-virtio · 60.3 µs')).toBeTruthy()
    expect(within(throughput!).getByText("% of chroot's throughput (dd.bandwidth, more is better)")).toBeTruthy()
    expect(within(latency!).getByText("% of chroot's latency, as baseline / variant (dd.lat.mean, more is better)")).toBeTruthy()
  })

  it('is among the study sections of a block-dd run, and absent from other runs', () => {
    const shown = render(<StudySections run={run} comparison={comparison} />)
    expect(shown.getByText('Block device throughput and latency per machine (study 002)')).toBeTruthy()
    // the numbers behind each chart, the baseline first
    const table = [...shown.container.querySelectorAll('.studies-002-chart[data-chart="latency"] table')][0] as HTMLElement
    expect(within(table).getAllByRole('row').map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))).toEqual([
      ['Machine', 'Figure', 'Relative %', '95 % interval', 'Verdict'],
      ['chroot', '54.0 µs', '100.0 %', '—', 'baseline'],
      ['kvm-ide', '48.7 µs', '110.8 %', '28.5 % to 427.8 %', "can't tell"],
      ['kvm-virtio', '60.3 µs', '89.5 %', '25.7 % to 316.1 %', "can't tell"]
    ])
    shown.unmount()
    const bonnie = runOf('bonnie-local')
    render(<Study002Bars run={bonnie} comparison={compare(comparisonInputOf(bonnie))} />)
    expect(screen.queryByText(/study 002/)).toBeNull()
  })
})
