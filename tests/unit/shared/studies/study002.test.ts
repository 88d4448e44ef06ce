import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeRun } from '../../../../src/main/tools/describe-run'
import { compare, median } from '../../../../src/shared/compare'
import { RunDocumentSchema, type RunDocument } from '../../../../src/shared/model/run'
import { comparisonInputOf } from '../../../../src/shared/run-comparison'
import { isStudy002Run, study002BarLabel, study002Charts, study002Text } from '../../../../src/shared/studies/study002'

const RUN_DIR = path.join(__dirname, '../../../fixtures/runs')

/** A stored run (tests/fixtures/runs/README.md). */
function run(name: string): RunDocument {
  return describeRun(RunDocumentSchema.parse(JSON.parse(readFileSync(path.join(RUN_DIR, name, 'run.json'), 'utf8'))))
}

/** A side's repetitions of one metric of one test, as the jobs kept them. */
function values(doc: RunDocument, testId: string, side: string, metric: string): number[] {
  return doc.jobs.filter((j) => j.testId === testId && j.side === side).flatMap((j) => (j.samples ?? []).filter((s) => s.metric === metric).map((s) => s.value))
}

describe("study 002's throughput and latency bars, from a real run (chroot vs kvm-ide and kvm-virtio)", () => {
  const doc = run('block-dd-local')
  const charts = study002Charts(doc, compare(comparisonInputOf(doc)))

  it('has one throughput chart and one latency chart, each with every machine as a bar, the baseline first', () => {
    expect(charts.map((c) => [c.id, c.metric, c.unit, c.better])).toEqual([
      ['throughput', 'dd.bandwidth', 'B/s', 'higher'],
      ['latency', 'dd.lat.mean', 's', 'lower']
    ])
    for (const chart of charts) expect(chart.bars.map((b) => [b.side, b.baseline])).toEqual([['chroot', true], ['kvm-ide', false], ['kvm-virtio', false]])
  })

  it('gives each bar the median of its two repetitions and its % of the baseline (latency as baseline / variant)', () => {
    const [throughput, latency] = charts
    // the stored samples: 803336266.140916 and 799826278.271793 B/s on chroot, etc.
    expect(values(doc, 'dd-throughput', 'chroot', 'dd.bandwidth')).toEqual([803336266.140916, 799826278.271793])
    expect(throughput!.bars.map((b) => b.value)).toEqual(['chroot', 'kvm-ide', 'kvm-virtio'].map((s) => median(values(doc, 'dd-throughput', s, 'dd.bandwidth'))))
    expect(throughput!.bars[0]!.value).toBeCloseTo(801581272.2063545, 4)
    expect(throughput!.bars.map((b) => b.relativePct)).toEqual([100, expect.closeTo(106.4163, 4), expect.closeTo(107.1198, 4)])
    expect(latency!.bars.map((b) => b.value)).toEqual([expect.closeTo(53.9862e-6, 12), expect.closeTo(48.72835e-6, 12), expect.closeTo(60.2907e-6, 12)])
    // lower is better: chroot's 54.0 µs against kvm-virtio's 60.3 µs is 89.5 %
    expect(latency!.bars[2]!.relativePct).toBeCloseTo((53.9862 / 60.2907) * 100, 9)
    // two values a side on a loaded machine: wide intervals, no verdict either way
    for (const chart of charts) {
      expect(chart.bars[0]!.ci95).toBeUndefined()
      for (const bar of chart.bars.slice(1)) {
        expect(bar.verdict).toBe('inconclusive')
        expect(bar.ci95![0]).toBeLessThan(bar.relativePct!)
        expect(bar.ci95![1]).toBeGreaterThan(bar.relativePct!)
      }
    }
  })

  it('labels each bar with its % and interval, and prints them as text with each figure in its unit', () => {
    expect(charts[0]!.bars.map(study002BarLabel)).toEqual(['100 % (baseline)', '106 % [29–382]', '107 % [19–607]'])
    const text = study002Text(charts, 'chroot')
    expect(text.split('\n')).toEqual([
      "Relative throughput: Throughput: 64 MiB O_DIRECT write · % of chroot's throughput (dd.bandwidth, more is better)",
      `chroot      764 MiB/s  ${'█'.repeat(37).padEnd(40)}  100 % (baseline)`,
      `kvm-ide     813 MiB/s  ${'█'.repeat(40)}  106 % [29–382] (can't tell)`,
      `kvm-virtio  819 MiB/s  ${'█'.repeat(40)}  107 % [19–607] (can't tell)`,
      '',
      "Relative latency: Latency: 200 x 512 B O_DIRECT writes · % of chroot's latency, as baseline / variant (dd.lat.mean, more is better)",
      `chroot      54.0 µs  ${'█'.repeat(36).padEnd(40)}  100 % (baseline)`,
      `kvm-ide     48.7 µs  ${'█'.repeat(40)}  111 % [29–428] (can't tell)`,
      `kvm-virtio  60.3 µs  ${'█'.repeat(32).padEnd(40)}  90 % [26–316] (can't tell)`
    ])
  })

  it('shows only for runs of the block-dd pack', () => {
    expect(isStudy002Run(doc)).toBe(true)
    // loopback-quick ran block-dd's latency test with one guest: its relative chart shows that guest
    // in one chart already, so the study's bars would repeat it
    const loopback = run('loopback-quick')
    expect(compare(comparisonInputOf(loopback)).variants).toHaveLength(1)
    expect(study002Charts(loopback, compare(comparisonInputOf(loopback)))).toEqual([])
    // block-dd-local without its second guest: no bars either (with both, the charts above)
    const one: RunDocument = { ...doc, targets: doc.targets.filter((t) => t.label !== 'kvm-virtio'), jobs: doc.jobs.filter((j) => j.side !== 'kvm-virtio') }
    expect(compare(comparisonInputOf(one)).variants).toEqual(['kvm-ide'])
    expect(study002Charts(one, compare(comparisonInputOf(one)))).toEqual([])
    const bonnie = run('bonnie-local')
    expect(isStudy002Run(bonnie)).toBe(false)
    expect(study002Charts(bonnie, compare(comparisonInputOf(bonnie)))).toEqual([])
  })
})
