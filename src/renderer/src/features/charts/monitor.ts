import type { DiskActivity, Job, RunDocument } from '../../../../shared/model/run'
import type { Unit } from '../../../../shared/model/sample'

/**
 * The host monitor (/proc/diskstats sampled every second during storage jobs) of one job: what
 * the measured machine's block layer saw and, for a guest whose physical host the run could
 * reach, what the host's disks saw at the same time. Per-second series when the engine recorded
 * them, else the job's summary.
 */

export const MONITOR_MEASURES = [
  { key: 'readBytesPerSecond', label: 'Read throughput', unit: 'B/s' },
  { key: 'writeBytesPerSecond', label: 'Write throughput', unit: 'B/s' },
  { key: 'readIops', label: 'Read IOPS', unit: 'op/s' },
  { key: 'writeIops', label: 'Write IOPS', unit: 'op/s' },
  { key: 'busyPct', label: 'Busy', unit: '%' }
] as const satisfies readonly { key: keyof DiskActivity; label: string; unit: Unit }[]

export type MonitorMeasure = (typeof MONITOR_MEASURES)[number]['key']

export interface MonitorJobChoice {
  key: string
  label: string
  job: Job
}

/** Jobs with monitor data, in run order: "4 KiB random read · guest (cache=none) · repetition 1". */
export function monitorJobs(run: RunDocument): MonitorJobChoice[] {
  return run.jobs
    .filter((j) => (j.monitor?.length ?? 0) > 0)
    .map((job) => ({ key: job.id, label: `${job.title} · ${job.side} · repetition ${job.repetition}`, job }))
}

/** The guest's jobs first (their host-visible I/O is the point), else the first job with data. */
export function defaultMonitorJob(run: RunDocument, choices: readonly MonitorJobChoice[]): string | undefined {
  const baseline = run.targets.find((t) => t.role === 'baseline')?.name
  const withHost = choices.find((c) => c.job.monitor!.some((m) => m.target !== c.job.target))
  return (withHost ?? choices.find((c) => c.job.target !== baseline) ?? choices[0])?.key
}

export interface MonitorSource {
  /** Key of its values in the rows given to recharts: m0, m1... */
  key: string
  index: number
  /** "guest (cache=none) · vda, as the guest sees it" */
  name: string
  /** The measured machine's own view, or its physical host's. */
  view: 'measured' | 'physical-host'
  activity: DiskActivity
}

export function monitorSources(run: RunDocument, job: Job): MonitorSource[] {
  const labelOf = (name: string): string => run.targets.find((t) => t.name.toLowerCase() === name.toLowerCase())?.label ?? name
  const baseline = run.targets.find((t) => t.role === 'baseline')?.name
  return (job.monitor ?? []).map((activity, index) => {
    const measured = activity.target.toLowerCase() === job.target.toLowerCase()
    const who = measured ? (job.target === baseline ? 'as the physical host sees it' : 'as the guest sees it') : 'as its physical host sees it'
    return {
      key: `m${index}`,
      index,
      name: `${labelOf(activity.target)} · ${activity.device}, ${who}`,
      view: measured ? 'measured' : 'physical-host',
      activity
    }
  })
}

export type MonitorView =
  | { mode: 'series'; sources: MonitorSource[]; rows: Record<string, number>[] }
  | {
      mode: 'summary'
      /** Why there is no line: no per-second series was recorded, or it holds a single second (a line needs two). */
      why: 'no-series' | 'one-interval'
      sources: MonitorSource[]
      bars: { name: string; value: number; seconds: number }[]
    }

/**
 * Lines over time when every source has its per-second series (rows keyed by `at`, a source's
 * value absent at seconds it has no sample) when one of them spans two intervals or more, else one
 * bar per source from the summary: a job monitored for one interval is a point per device, not a
 * line on an axis of milliseconds.
 */
export function monitorView(sources: readonly MonitorSource[], measure: MonitorMeasure): MonitorView {
  const everySeries = sources.length > 0 && sources.every((s) => (s.activity.series?.length ?? 0) > 0)
  const bars = (why: 'no-series' | 'one-interval'): MonitorView => ({
    mode: 'summary',
    why,
    sources: [...sources],
    bars: sources.map((s) => ({ name: s.name, value: s.activity[measure], seconds: s.activity.seconds }))
  })
  if (!everySeries) return bars('no-series')
  // each device a single interval (its point at the interval's end, not at 0): no line to draw
  if (sources.every((s) => s.activity.series!.length < 2)) return bars('one-interval')
  const byAt = new Map<number, Record<string, number>>()
  for (const source of sources) {
    for (const point of source.activity.series!) {
      const row = byAt.get(point.at) ?? { at: point.at }
      row[source.key] = point[measure]
      byAt.set(point.at, row)
    }
  }
  return { mode: 'series', sources: [...sources], rows: [...byAt.values()].sort((a, b) => a.at! - b.at!) }
}

/** The direction that moved more bytes in this job (read or write throughput), to show first. */
export function defaultMeasure(sources: readonly MonitorSource[]): MonitorMeasure {
  const read = sources.reduce((sum, s) => sum + s.activity.readBytesPerSecond, 0)
  const write = sources.reduce((sum, s) => sum + s.activity.writeBytesPerSecond, 0)
  return write > read ? 'writeBytesPerSecond' : 'readBytesPerSecond'
}
