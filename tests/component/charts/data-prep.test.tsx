import { describe, expect, it } from 'vitest'
import { compare } from '../../../src/shared/compare'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import type { RunDocument } from '../../../src/shared/model/run'
import { availableCharts } from '../../../src/renderer/src/features/charts/available'
import { barRows, groupedBarsData } from '../../../src/renderer/src/features/charts/grouped-bars'
import { iozoneChoices, iozoneGrid } from '../../../src/renderer/src/features/charts/iozone'
import { latencyData } from '../../../src/renderer/src/features/charts/latency'
import { defaultMeasure, defaultMonitorJob, monitorJobs, monitorSources, monitorView } from '../../../src/renderer/src/features/charts/monitor'
import { matrixGrids } from '../../../src/renderer/src/features/charts/network-matrix'
import { relativeData, relativeDomainMax, relativeRows, relativeTicks, relativeViews } from '../../../src/renderer/src/features/charts/relative'
import { defaultChoice, labelsText, metricChoices, pick, shortMetric } from '../../../src/renderer/src/features/charts/rows'
import { groupedLoopbackRun, loopbackRun } from '../run-fixture'
import { GUEST_IOZONE, HOST_IOZONE, iozoneRun, iozoneSamples, middle, monitoredRun, queuedRun, rawValues } from './chart-fixtures'

const run = loopbackRun()
const comparison = compare(comparisonInputOf(run))
const HOST = 'host'
const GUEST = 'guest (cache=none)'

describe('metric choices', () => {
  it('groups rows by test and metric, the first primary one as the default', () => {
    const choices = metricChoices(comparison)
    // the fixture's tests and their metrics: fio 19 + 19, dd 4, ping 7, iperf3 6 (cpu has two label sets), mbw 3
    expect(choices).toHaveLength(19 + 19 + 4 + 7 + 6 + 3)
    expect(defaultChoice(choices)).toBe('fio-randread|fio.read.iops|op/s|higher')
    // the primary figure of each test, from the run's own definitions (fio 4 KiB: IOPS; 1 MiB: bandwidth; dd 512 B: time per
    // block...): a metric is primary when its total row is, though mbw's iteration rows (parts of it) come first
    expect(choices.filter((c) => c.headline).map((c) => c.metric)).toEqual([
      'fio.read.iops',
      'fio.write.bandwidth',
      'dd.lat.mean',
      'ping.rtt.avg',
      'iperf3.received.bandwidth',
      'mbw.memcpy.bandwidth',
      'mbw.dumb.bandwidth',
      'mbw.mcblock.bandwidth'
    ])
    const mbw = choices.find((c) => c.metric === 'mbw.memcpy.bandwidth')!
    expect(mbw.rows.map((r) => labelsText(r.labels))).toEqual(['iteration=0', 'iteration=1', ''])
    expect(mbw.rows.map((r) => r.primary)).toEqual([false, false, true])
    expect(pick(choices, 'gone')?.key).toBe('fio-randread|fio.read.iops|op/s|higher')
    expect(pick(choices, mbw.key)).toBe(mbw)
    expect(shortMetric('fio.read.clat.p99')).toBe('Read completion latency p99')
  })

  it('has none before anything was measured', () => {
    const empty = compare(comparisonInputOf(queuedRun()))
    expect(metricChoices(empty)).toEqual([])
    expect(availableCharts(queuedRun(), empty)).toEqual([])
  })
})

describe('grouped bars', () => {
  it("plots each side's median with the range of its repetitions", () => {
    const choice = metricChoices(comparison).find((c) => c.metric === 'fio.read.iops')!
    const data = groupedBarsData(comparison, choice)
    expect(data.series.map((s) => s.name)).toEqual([HOST, GUEST])
    expect(data.unit).toBe('op/s')
    expect(data.aggregate).toBe('median')
    const host = rawValues(run, 'fio-randread', HOST, 'fio.read.iops')
    const guest = rawValues(run, 'fio-randread', GUEST, 'fio.read.iops')
    expect(host).toEqual([21055.944056, 21153.846154, 22376.623377])
    expect(guest).toEqual([21780.21978, 21872.127872, 21754.245754])
    expect(data.groups).toHaveLength(1)
    expect(data.groups[0]!.points).toEqual([
      { value: 21153.846154, min: 21055.944056, max: 22376.623377, n: 3, values: host },
      { value: 21780.21978, min: 21754.245754, max: 21872.127872, n: 3, values: guest }
    ])
    expect(barRows(data)).toEqual([
      {
        group: 'Read IOPS',
        s0: 21153.846154,
        s0range: [21153.846154 - 21055.944056, 22376.623377 - 21153.846154],
        s1: 21780.21978,
        s1range: [21780.21978 - 21754.245754, 21872.127872 - 21780.21978]
      }
    ])
  })

  it('makes one group per label set (mbw iterations and its overall figure)', () => {
    const choice = metricChoices(comparison).find((c) => c.metric === 'mbw.dumb.bandwidth')!
    const data = groupedBarsData(comparison, choice)
    expect(data.groups.map((g) => g.label)).toEqual(['iteration=0', 'iteration=1', 'overall'])
    for (const [i, labels] of ([{ iteration: '0' }, { iteration: '1' }, {}] as Record<string, string>[]).entries()) {
      expect(data.groups[i]!.points[0]!.value).toBe(middle(rawValues(run, 'mbw', HOST, 'mbw.dumb.bandwidth', labels)))
      expect(data.groups[i]!.points[1]!.value).toBe(middle(rawValues(run, 'mbw', GUEST, 'mbw.dumb.bandwidth', labels)))
    }
    expect(data.groups[2]!.points[0]!.value).toBe(25970922749.952)
  })

  it('leaves a side without a value out instead of drawing zero', () => {
    const withoutGuest: RunDocument = { ...run, jobs: run.jobs.filter((j) => !(j.testId === 'mbw' && j.side === GUEST)) }
    const c = compare(comparisonInputOf(withoutGuest))
    const data = groupedBarsData(c, metricChoices(c).find((x) => x.metric === 'mbw.memcpy.bandwidth')!)
    expect(data.groups.every((g) => g.points[1] === undefined)).toBe(true)
    const rows = barRows(data)
    expect(rows.every((r) => !('s1' in r) && 's0' in r)).toBe(true)
  })
})

describe('relative %', () => {
  it("lists every variant's primary metrics, then every metric", () => {
    const views = relativeViews(comparison)
    expect(views[0]).toEqual({ key: `variant:${GUEST}`, kind: 'variant', label: `${GUEST}: every primary metric` })
    expect(views.filter((v) => v.kind === 'metric').length).toBeGreaterThan(0)
  })

  it("takes the variant's relative % and interval from the comparison, with the 100 % line's room", () => {
    const data = relativeData(comparison, relativeViews(comparison)[0]!)
    // the primary rows of the fixture: fio 1 + 1, dd 1, ping 1, iperf3 1, mbw 3 methods overall (never its iterations, parts of it)
    expect(data.items).toHaveLength(1 + 1 + 1 + 1 + 1 + 3)
    expect(data.missing).toEqual([])
    const iops = data.items[0]!
    expect(iops.label).toBe('4 KiB random read · Read IOPS')
    expect(iops.pct).toBeCloseTo((21780.21978 / 21153.846154) * 100, 10)
    const cell = comparison.rows.find((r) => r.metric === 'fio.read.iops')!.cells[0]!
    expect(iops.ci95).toEqual(cell.ci95)
    expect(iops.verdict).toBe('inconclusive')
    expect(iops.verdict).toBe(cell.verdict)
    expect(iops).not.toHaveProperty('withinNoise')
    // latency is inverted: baseline / variant
    const dd = data.items.find((i) => i.label === 'Latency: 200 x 512 B O_DIRECT writes · Mean latency')!
    const hostDd = middle(rawValues(run, 'dd-latency', HOST, 'dd.lat.mean'))
    const guestDd = middle(rawValues(run, 'dd-latency', GUEST, 'dd.lat.mean'))
    expect(hostDd).toBeLessThan(guestDd)
    expect(dd.pct).toBeCloseTo((hostDd / guestDd) * 100, 10)
    // the error bar's ends are exactly the interval's ends
    const [row] = relativeRows([iops])
    const [down, up] = row!.ci as [number, number]
    expect(iops.pct - down).toBeCloseTo(iops.ci95![0], 10)
    expect(iops.pct + up).toBeCloseTo(iops.ci95![1], 10)
    const top = Math.max(...data.items.map((i) => Math.max(i.pct, i.ci95?.[1] ?? 0)))
    expect(relativeDomainMax(data.items)).toBe(Math.min(400, Math.ceil(top / 20) * 20))
    expect(iops.short).toBe('4 KiB random read · Read IOPS')
    expect(relativeTicks(120)).toEqual([0, 20, 40, 60, 80, 100, 120])
    expect(relativeTicks(320)).toEqual([0, 50, 100, 150, 200, 250, 300])
  })

  it.each([
    // the recorded run: its repetitions ran interleaved, so each is compared with its pair; mbw's second iteration reads
    // 117.8 %, 103.3 % and 114.5 % pair by pair, and every interval reaches below 100 %: no finding, no flag
    { schedule: 'interleaved', of: comparison, verdicts: ['inconclusive', 'inconclusive', 'inconclusive'], flags: [['noisy'], [], []] },
    // the same figures run grouped, compared side against side (Welch): 110 % overall still reaches below 100 %, the second
    // iteration's interval lies above it
    { schedule: 'grouped', of: compare(comparisonInputOf(groupedLoopbackRun())), verdicts: ['inconclusive', 'faster', 'inconclusive'], flags: [['noisy'], ['faster-than-baseline'], []] }
  ])('shows one metric for every variant with the verdict of each cell ($schedule)', ({ of, verdicts, flags }) => {
    const view = relativeViews(of).find((v) => v.key === 'metric:mbw|mbw.mcblock.bandwidth|B/s|higher')!
    const data = relativeData(of, view)
    expect(data.items.map((i) => i.label)).toEqual([`${GUEST} (iteration=0)`, `${GUEST} (iteration=1)`, GUEST])
    const ratio = (labels: Record<string, string>): number =>
      (middle(rawValues(run, 'mbw', GUEST, 'mbw.mcblock.bandwidth', labels)) / middle(rawValues(run, 'mbw', HOST, 'mbw.mcblock.bandwidth', labels))) * 100
    const [first, second, overall] = data.items
    expect(overall!.pct).toBeCloseTo(ratio({}), 10)
    expect(second!.pct).toBeCloseTo(ratio({ iteration: '1' }), 10)
    expect([first!.verdict, second!.verdict, overall!.verdict]).toEqual(verdicts)
    expect(overall!.ci95![0]).toBeLessThan(100)
    expect(second!.ci95![0] > 100).toBe(verdicts[1] === 'faster')
    expect([first!.flags, second!.flags, overall!.flags]).toEqual(flags)
  })
})

describe('latency', () => {
  it('takes fio clat p50/p99 and lat mean, dd and ping latency, per target', () => {
    const data = latencyData(comparison)
    expect(data.groups.map((g) => g.label)).toEqual([
      '4 KiB random read · Read completion latency p50',
      '4 KiB random read · Read completion latency p99',
      '4 KiB random read · Mean read latency',
      '1 MiB sequential write · Write completion latency p50',
      '1 MiB sequential write · Write completion latency p99',
      '1 MiB sequential write · Mean write latency',
      'Latency: 200 x 512 B O_DIRECT writes · Mean latency',
      'ping ping · Average round trip'
    ])
    const ping = data.groups[7]!
    expect(ping.points[0]!.value).toBe(middle(rawValues(run, 'ping', HOST, 'ping.rtt.avg')))
    expect(ping.points[1]!.value).toBe(middle(rawValues(run, 'ping', GUEST, 'ping.rtt.avg')))
    expect(data.groups[6]!.points[1]!.value).toBe(middle(rawValues(run, 'dd-latency', GUEST, 'dd.lat.mean')))
    // every latency here lies between 13 µs and 0.1 ms: a linear axis
    expect(data.scale).toBe('linear')
  })
})

describe('network matrix', () => {
  it('puts the median bandwidth of each ordered pair in a source x destination grid', () => {
    const grids = matrixGrids(run)
    // the figures whose definition gives them the network-table role, bandwidth first (bit/s), then ping's round trip
    expect(grids.map((g) => g.metric)).toEqual(['iperf3.received.bandwidth', 'ping.rtt.avg'])
    const bw = grids[0]!
    expect(bw.machines).toEqual([HOST, GUEST])
    const matrix = (target: string, metric: string): number[] =>
      run.jobs.filter((j) => j.kind === 'matrix' && j.testId === metric.split('.')[0] && j.target === target).map((j) => j.samples.find((s) => s.metric === metric)!.value)
    expect(bw.cells[0]![0]).toBeUndefined()
    expect(bw.cells[1]![1]).toBeUndefined()
    expect(bw.cells[0]![1]).toEqual({ value: middle(matrix('host', 'iperf3.received.bandwidth')), values: matrix('host', 'iperf3.received.bandwidth') })
    expect(bw.cells[0]![1]!.value).toBe(29116538466.69207)
    expect(bw.cells[1]![0]!.value).toBe(30247424939.907932)
    expect(grids[1]!.cells[1]![0]!.value).toBe(middle(matrix('guest', 'ping.rtt.avg')))
  })

  it('counts a peer->target flow from the peer to the target', () => {
    const reversed: RunDocument = {
      ...run,
      jobs: run.jobs.map((j) =>
        j.kind === 'matrix' && j.tool === 'iperf3' ? { ...j, samples: j.samples.map((s) => (s.labels.direction ? { ...s, labels: { ...s.labels, direction: 'peer->target' } } : s)) } : j
      )
    }
    const bw = matrixGrids(reversed).find((g) => g.metric === 'iperf3.received.bandwidth')!
    expect(bw.direction).toBe('peer->target')
    // the host's client job (peer: guest) now measured data flowing guest -> host
    expect(bw.cells[1]![0]!.value).toBe(29116538466.69207)
    expect(bw.cells[0]![1]!.value).toBe(30247424939.907932)
  })
})

describe('host monitor', () => {
  it('offers every job with monitor data and shows the summary when no series was recorded', () => {
    const jobs = monitorJobs(run)
    expect(jobs).toHaveLength(18)
    expect(jobs[1]!.label).toBe(`4 KiB random read · ${GUEST} · repetition 1`)
    expect(defaultMonitorJob(run, jobs)).toBe('j0002')
    const job = jobs[1]!.job
    const sources = monitorSources(run, job)
    expect(sources.map((s) => [s.name, s.view])).toEqual([[`${GUEST} · vda, as the guest sees it`, 'measured']])
    expect(defaultMeasure(sources)).toBe('readBytesPerSecond')
    const view = monitorView(sources, 'readBytesPerSecond')
    expect(view).toEqual({ mode: 'summary', why: 'no-series', sources, bars: [{ name: sources[0]!.name, value: 58232353.246753246, seconds: 1.54 }] })
    const write = monitorJobs(run).find((j) => j.key === 'j0008')!.job
    expect(defaultMeasure(monitorSources(run, write))).toBe('writeBytesPerSecond')
  })

  it("draws guest-visible and host-visible series second by second when recorded", () => {
    const r = monitoredRun()
    const jobs = monitorJobs(r)
    expect(defaultMonitorJob(r, jobs)).toBe('j0002')
    const sources = monitorSources(r, jobs.find((j) => j.key === 'j0002')!.job)
    expect(sources.map((s) => s.view)).toEqual(['measured', 'physical-host'])
    expect(sources[1]!.name).toBe('host · sda, as its physical host sees it')
    const view = monitorView(sources, 'readIops')
    expect(view.mode).toBe('series')
    if (view.mode !== 'series') return
    expect(view.rows).toEqual([
      { at: 0, m0: 14000, m1: 1000 },
      { at: 1, m0: 14400, m1: 800 },
      { at: 2, m1: 850 }
    ])
  })

  it('shows devices monitored for one interval each as the summary bars: a line needs two points', () => {
    const r = monitoredRun()
    const job = r.jobs.find((j) => j.id === 'j0002')!
    // each device's one interval ends at its own time (0.6 s, 0.65 s): still one point each
    job.monitor = job.monitor!.map((m, i) => ({ ...m, series: [{ ...m.series![0]!, at: [0.6, 0.65][i]! }] }))
    const sources = monitorSources(r, job)
    expect(monitorView(sources, 'readIops')).toEqual({
      mode: 'summary',
      why: 'one-interval',
      sources,
      bars: [
        { name: sources[0]!.name, value: sources[0]!.activity.readIops, seconds: 1.54 },
        { name: 'host · sda, as its physical host sees it', value: 900, seconds: 2 }
      ]
    })
  })
})

describe('iozone', () => {
  const r = iozoneRun()

  it("reads the fixtures' reports as iozone's samples (the figures the parser's own tests check)", () => {
    const samples = iozoneSamples('plan-script-Raz-g1M-b')
    expect(samples).toHaveLength(13 * (5 + 6 + 7 + 8 + 9))
    const cell = (file: number, record: number) => samples.find((s) => s.metric === 'iozone.write' && s.labels.file_size === String(file * 1024) && s.labels.record_size === String(record * 1024))?.value
    expect(cell(64, 4)).toBe(1279447 * 1024)
    expect(cell(64, 64)).toBe(3363612 * 1024)
    expect(cell(64, 128)).toBeUndefined()
  })

  it('lists the sub-tests and the sides with iozone samples', () => {
    const choices = iozoneChoices(r)
    expect(choices.tests).toEqual([{ id: 'iozone', title: 'iozone auto' }])
    expect(choices.sides).toEqual([HOST, GUEST])
    expect(choices.subtests.slice(0, 4)).toEqual(['write', 'rewrite', 'read', 'reread'])
    expect(choices.subtests).toHaveLength(13)
    expect(iozoneChoices(run).subtests).toEqual([])
  })

  it('takes the median of the repetitions per file size and record size', () => {
    const grid = iozoneGrid(r, 'iozone', HOST, 'write')
    const K = 1024
    expect(grid.fileSizes).toEqual([64, 128, 256, 512, 1024].map((k) => k * K))
    expect(grid.recordSizes).toEqual([4, 8, 16, 32, 64, 128, 256, 512, 1024].map((k) => k * K))
    const cellValues = (file: number, record: number): number[] =>
      HOST_IOZONE.map((name) => iozoneSamples(name).find((s) => s.metric === 'iozone.write' && s.labels.file_size === String(file) && s.labels.record_size === String(record))!.value)
    const values = cellValues(64 * K, 4 * K)
    expect(grid.cells[0]![0]).toEqual({ value: middle(values), values })
    const big = cellValues(1024 * K, 1024 * K)
    expect(grid.cells[4]![8]).toEqual({ value: middle(big), values: big })
    // a record larger than the file: nothing measured
    expect(grid.cells[0]![5]).toBeUndefined()
    expect(grid.cells.flat().filter((c) => c !== undefined)).toHaveLength(5 + 6 + 7 + 8 + 9)
  })

  it("keeps iozone's skipped cells empty (a 32 MiB file without -z)", () => {
    const grid = iozoneGrid(r, 'iozone', GUEST, 'read')
    const samples = iozoneSamples(GUEST_IOZONE[0]).filter((s) => s.metric === 'iozone.read')
    expect(grid.cells.flat().filter((c) => c !== undefined)).toHaveLength(samples.length)
    const last = grid.fileSizes.indexOf(32 * 1024 * 1024)
    expect(grid.cells[last]![0]).toBeUndefined()
    const one = samples.find((s) => s.labels.file_size === String(32 * 1024 * 1024) && s.labels.record_size === String(64 * 1024))!
    expect(grid.cells[last]![grid.recordSizes.indexOf(64 * 1024)]).toEqual({ value: one.value, values: [one.value] })
  })
})

describe('available charts', () => {
  it('offers only the charts the run has data for', () => {
    expect(availableCharts(run, comparison)).toEqual(['grouped-bars', 'relative', 'latency', 'network-matrix', 'monitor'])
    // iozone's grid is the study section's (every machine's, then relative), not a chart of its own as well
    expect(availableCharts(iozoneRun(), compare(comparisonInputOf(iozoneRun())))).toEqual(['grouped-bars', 'relative', 'latency', 'network-matrix', 'monitor'])
    // … unless the comparison has no iozone rows for the study section to draw
    expect(availableCharts(iozoneRun(), comparison)).toEqual(['grouped-bars', 'relative', 'latency', 'network-matrix', 'monitor', 'iozone'])
    // nor are its hundreds of cells bars of the charts of bars: their metrics are no choice there
    const withIozone = compare(comparisonInputOf(iozoneRun()))
    expect(withIozone.rows.filter((r) => r.testId === 'iozone').length).toBeGreaterThan(100)
    expect(metricChoices(withIozone).filter((c) => c.testId === 'iozone')).toEqual([])
    expect(metricChoices(withIozone).map((c) => c.key)).toEqual(metricChoices(comparison).map((c) => c.key))
    expect(availableCharts(undefined, comparison)).toEqual(['grouped-bars', 'relative', 'latency'])
  })

  it('draws no chart that needs a role from a run without metric definitions (one main has not described)', () => {
    const bare: RunDocument = { ...run, metrics: undefined, tests: run.tests.map(({ primary: _primary, ...test }) => test) }
    const c = compare(comparisonInputOf(bare))
    expect(c.rows.some((r) => r.primary || r.roles !== undefined)).toBe(false)
    expect(latencyData(c).groups).toEqual([])
    expect(matrixGrids(bare)).toEqual([])
    expect(availableCharts(bare, c)).toEqual(['grouped-bars', 'relative', 'monitor'])
  })
})
