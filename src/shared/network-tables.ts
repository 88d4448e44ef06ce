import { aggregateOf } from './compare/stats'
import type { Job, RunDocument } from './model/run'
import { isPartOfTotal, type Better, type Sample, type Unit } from './model/sample'
import type { NetworkPath } from './model/scenario'
import type { Aggregate } from './model/tool-ids'
import { runMetrics } from './run-metrics'

/**
 * The network tests that are tables of their own, not baseline-vs-variant rows: the matrix of
 * every ordered pair of targets (study 001's classic network table) and the clients run at once
 * against one peer (study 000's contention test). Both read only succeeded jobs' samples. A plan
 * that names network paths (network.paths) gets one matrix per path (`path`); study 001's tables
 * by kind of machine are built from these in studies/network-study.ts.
 */


/** What one metric of one network test measured, for one direction label. */
export interface MetricKey {
  testId: string
  testTitle: string
  metric: string
  /** The sample's direction label ('target->peer'), when the tool gives one. */
  direction?: string
  /** The network path the jobs dialled their peers over (the plan's network.paths), when the plan named paths. */
  path?: NetworkPath
  /** The end whose figures these are (`labels.measured_by`), when the tool says: a table never adds up both ends' figures of one flow. */
  measuredBy?: string
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
  return !isPartOfTotal(sample.labels)
}

/**
 * The figures these tables show are the metrics whose definition gives them the `network-table`
 * role: bandwidth (what studies 000 and 001 tabulate) and ping's mean round trip.
 */
function groupByMetric(run: RunDocument, kind: Job['kind']): Map<string, { key: MetricKey; jobs: { job: Job; value: number }[] }> {
  const metrics = runMetrics(run)
  const groups = new Map<string, { key: MetricKey; jobs: { job: Job; value: number }[] }>()
  for (const job of run.jobs) {
    if (job.kind !== kind || job.status !== 'succeeded') continue
    const test = run.tests.find((t) => t.id === job.testId)
    for (const sample of job.samples) {
      if (!metrics.hasRole(sample.metric, 'network-table') || !isTotal(sample) || !Number.isFinite(sample.value)) continue
      const direction = sample.labels.direction
      const measuredBy = sample.labels.measured_by
      const id = groupId(job.testId, sample.metric, direction, measuredBy, job.network)
      let group = groups.get(id)
      if (!group) {
        const key: MetricKey = {
          testId: job.testId,
          testTitle: job.title,
          metric: sample.metric,
          unit: sample.unit,
          better: sample.better,
          aggregate: test?.aggregate ?? 'median',
          ...(job.network !== undefined ? { path: job.network } : {}),
          ...(direction !== undefined ? { direction } : {}),
          ...(measuredBy !== undefined ? { measuredBy } : {})
        }
        group = { key, jobs: [] }
        groups.set(id, group)
      }
      group.jobs.push({ job, value: sample.value })
    }
  }
  // each flow counted once: where both ends measured it (iperf's UDP sender and its Server Report), what arrived
  for (const [id, { key }] of groups) {
    if (key.measuredBy === 'sender' && groups.has(groupId(key.testId, key.metric, key.direction, 'receiver', key.path))) groups.delete(id)
  }
  return groups
}

function groupId(testId: string, metric: string, direction: string | undefined, measuredBy: string | undefined, path: NetworkPath | undefined): string {
  return [testId, metric, direction ?? '', measuredBy ?? '', path ?? ''].join('\u0000')
}
