import { aggregateOf } from './compare/stats'
import type { Job, RunDocument } from './model/run'
import type { Better, Sample, Unit } from './model/sample'
import type { Aggregate } from './model/tool-ids'

/**
 * The network tests that are tables of their own, not baseline-vs-variant rows: the matrix of
 * every ordered pair of targets (study 001's classic network table) and the clients run at once
 * against one peer (study 000's contention test). Both read only succeeded jobs' samples.
 */

/** The figures these tables show: bandwidth (what study 000 and 001 tabulate) and ping's mean round trip. */
const TABLE_METRICS = /^(iperf3\.received\.bandwidth|iperf3\.bandwidth|iperf\.bandwidth|ping\.rtt\.avg)$/

/** What one metric of one network test measured, for one direction label. */
interface MetricKey {
  testId: string
  testTitle: string
  metric: string
  /** The sample's direction label ('target->peer'), when the tool gives one. */
  direction?: string
  unit: Unit
  better: Better
  aggregate: Aggregate
}

export interface MatrixCell {
  /**
   * Where the data came from and where it went, by their labels in the run: the client and the
   * server's machine, the other way round for a `peer->target` flow (iperf3 -R). ping has no
   * direction: the machine that pinged and the one that answered.
   */
  from: string
  to: string
  /** The repetitions' values, in run order (base units). */
  values: number[]
  /** The test's aggregate of `values`; absent when no repetition succeeded. */
  value?: number
}

export interface NetworkMatrix extends MetricKey {
  /** Every machine of the matrix, in the plan's order. */
  targets: string[]
  cells: MatrixCell[]
}

export interface SimultaneousClient {
  client: string
  values: number[]
  value?: number
}

export interface SimultaneousTable extends MetricKey {
  /** The machine every client talked to. */
  peer: string
  clients: SimultaneousClient[]
  /** Per repetition, the sum over clients (bandwidth shared by the clients), aggregated; only for bandwidths. */
  total?: { values: number[]; value?: number }
}

/** The source-by-destination tables of a run's matrix jobs, one per test, metric and direction. */
export function networkMatrices(run: RunDocument): NetworkMatrix[] {
  const labelOf = labeller(run)
  const groups = groupByMetric(run, 'matrix')
  return [...groups.values()].map(({ key, jobs }) => {
    const order = run.targets.map((t) => t.label)
    const cells = new Map<string, MatrixCell>()
    const reversed = key.direction === 'peer->target'
    for (const { job, value } of jobs) {
      const client = job.side
      const server = labelOf(job.peer ?? '')
      const [from, to] = reversed ? [server, client] : [client, server]
      const id = `${from}\u0000${to}`
      const cell = cells.get(id) ?? { from, to, values: [] }
      cell.values.push(value)
      cells.set(id, cell)
    }
    const targets = order.filter((t) => [...cells.values()].some((c) => c.from === t || c.to === t))
    return { ...key, targets, cells: [...cells.values()].map((c) => withValue(c, key)) }
  })
}

/** The clients that ran at once against one peer, one table per test, metric and direction. */
export function simultaneousTables(run: RunDocument): SimultaneousTable[] {
  const labelOf = labeller(run)
  const groups = groupByMetric(run, 'simultaneous')
  return [...groups.values()].map(({ key, jobs }) => {
    const clients = new Map<string, SimultaneousClient>()
    const perGroup = new Map<string, number>()
    for (const { job, value } of jobs) {
      const client = clients.get(job.side) ?? { client: job.side, values: [] }
      client.values.push(value)
      clients.set(job.side, client)
      const group = job.group ?? job.id
      perGroup.set(group, (perGroup.get(group) ?? 0) + value)
    }
    const peer = labelOf(jobs[0]?.job.peer ?? '')
    const table: SimultaneousTable = { ...key, peer, clients: [...clients.values()].map((c) => withValue(c, key)) }
    if (key.unit === 'bit/s' || key.unit === 'B/s') table.total = withValue({ values: [...perGroup.values()] }, key)
    return table
  })
}

function withValue<T extends { values: number[] }>(entry: T, key: MetricKey): T & { value?: number } {
  const value = aggregateOf(entry.values, key.aggregate, key.better)
  return value === undefined ? entry : { ...entry, value }
}

function labeller(run: RunDocument): (name: string) => string {
  const byName = new Map(run.targets.map((t) => [t.name.toLowerCase(), t.label]))
  return (name) => byName.get(name.toLowerCase()) ?? name
}

/** Totals only: samples of one stream or one job of several are parts of a total. */
function isTotal(sample: Sample): boolean {
  return sample.labels.job === undefined && sample.labels.stream === undefined && sample.labels.machine === undefined
}

function groupByMetric(run: RunDocument, kind: Job['kind']): Map<string, { key: MetricKey; jobs: { job: Job; value: number }[] }> {
  const groups = new Map<string, { key: MetricKey; jobs: { job: Job; value: number }[] }>()
  for (const job of run.jobs) {
    if (job.kind !== kind || job.status !== 'succeeded') continue
    const test = run.tests.find((t) => t.id === job.testId)
    for (const sample of job.samples) {
      if (!TABLE_METRICS.test(sample.metric) || !isTotal(sample) || !Number.isFinite(sample.value)) continue
      const direction = sample.labels.direction
      const id = [job.testId, sample.metric, direction ?? ''].join('\u0000')
      let group = groups.get(id)
      if (!group) {
        const key: MetricKey = {
          testId: job.testId,
          testTitle: job.title,
          metric: sample.metric,
          unit: sample.unit,
          better: sample.better,
          aggregate: test?.aggregate ?? 'median',
          ...(direction !== undefined ? { direction } : {})
        }
        group = { key, jobs: [] }
        groups.set(id, group)
      }
      group.jobs.push({ job, value: sample.value })
    }
  }
  return groups
}
