import type { MetricDef, MetricRole } from '../../../shared/model/metric-def'

/** I/O directions fio reports; `mixed` replaces read and write under unified_rw_reporting. */
export const DIRECTIONS = ['read', 'write', 'trim', 'mixed'] as const
export type Direction = (typeof DIRECTIONS)[number]

/** The latency kinds fio measures: submission, completion, and total (submission + completion). */
export const LATENCY_KINDS = ['slat', 'clat', 'lat'] as const
export type LatencyKind = (typeof LATENCY_KINDS)[number]

export const LATENCY_STATS = ['mean', 'min', 'max', 'stddev'] as const
export type LatencyStat = (typeof LATENCY_STATS)[number]

/** Percentiles VirtBench keeps from fio's list (fio's default list includes all of them). */
export const PERCENTILES = [
  { percent: 50, suffix: 'p50' },
  { percent: 90, suffix: 'p90' },
  { percent: 95, suffix: 'p95' },
  { percent: 99, suffix: 'p99' },
  { percent: 99.9, suffix: 'p99.9' },
  { percent: 99.99, suffix: 'p99.99' }
] as const

const LABELS = ['job'] as const

const DIR_NOTE =
  '`<dir>` is read, write or trim (mixed when fio ran with unified_rw_reporting); only directions that did I/O appear.'

const KIND_NAMES: Record<LatencyKind, string> = {
  slat: 'Submission latency (time to hand the I/O to the kernel)',
  clat: 'Completion latency (from submission until the I/O completed)',
  lat: 'Total latency (submission plus completion)'
}

const STAT_TEXT: Record<LatencyStat, string> = {
  mean: 'mean over all I/Os, in seconds. The total over several jobs is the mean weighted by each job\'s I/O count (total_ios); not given for fio before 2.1.14, which does not report it.',
  min: 'minimum, in seconds. The total over several jobs is the smallest of the jobs\' minimums.',
  max: 'maximum, in seconds. The total over several jobs is the largest of the jobs\' maximums.',
  stddev: 'standard deviation, in seconds. Given for a single job (or group_reporting) only: fio does not report it for separate jobs combined.'
}

/** Every fio figure is printed by fio (totals over jobs are sums or I/O-weighted means of what it printed) and compared as a ratio. */
const STORAGE_FIGURE = { category: 'storage', source: 'tool', comparison: 'ratio' } as const

/** The latencies the latency chart draws: the median and tail completion latency, and the mean total latency. */
const CHARTED_LATENCIES = ['clat.p50', 'clat.p99', 'lat.mean']

function latencyRole(kindAndStat: string): { roles?: readonly MetricRole[] } {
  return CHARTED_LATENCIES.includes(kindAndStat) ? { roles: ['latency'] } : {}
}

function latencyDefs(): MetricDef[] {
  return LATENCY_KINDS.flatMap((kind) =>
    LATENCY_STATS.map((stat) => ({
      name: `fio.<dir>.${kind}.${stat}`,
      unit: 's' as const,
      better: 'lower' as const,
      ...STORAGE_FIGURE,
      ...latencyRole(`${kind}.${stat}`),
      description: `${KIND_NAMES[kind]}: ${STAT_TEXT[stat]} Absent when fio did not measure it (for example no submission latency with synchronous engines). ${DIR_NOTE}`,
      labels: LABELS
    }))
  )
}

function percentileDefs(): MetricDef[] {
  return (['clat', 'lat'] as const).flatMap((kind) =>
    PERCENTILES.map(({ percent, suffix }) => ({
      name: `fio.<dir>.${kind}.${suffix}`,
      unit: 's' as const,
      better: 'lower' as const,
      ...STORAGE_FIGURE,
      ...latencyRole(`${kind}.${suffix}`),
      description:
        `${KIND_NAMES[kind]}: ${percent}th percentile, in seconds, as fio computed it` +
        (kind === 'lat' ? ' (only when the job ran with lat_percentiles=1)' : '') +
        '. Percentiles of separate jobs cannot be combined, so without group_reporting they are given per job only (labels.job) and the total has none. ' +
        DIR_NOTE,
      labels: LABELS
    }))
  )
}

export const FIO_METRICS: readonly MetricDef[] = [
  {
    name: 'fio.<dir>.iops',
    unit: 'op/s',
    better: 'higher',
    ...STORAGE_FIGURE,
    description: `I/O operations per second, as fio reports it (iops). The total over several jobs is the sum of the jobs; when some jobs failed and others ran, only the jobs that ran are given, each with labels.job, and no total. ${DIR_NOTE}`,
    labels: LABELS
  },
  {
    name: 'fio.<dir>.bandwidth',
    unit: 'B/s',
    better: 'higher',
    ...STORAGE_FIGURE,
    description:
      `Bytes per second: fio's bw_bytes, or its bw (KiB/s) x 1024 where fio does not give bw_bytes (fio 2.x). The total over several jobs is the sum of the jobs; when some jobs failed and others ran, only the jobs that ran are given, each with labels.job, and no total. ${DIR_NOTE}`,
    labels: LABELS
  },
  {
    name: 'fio.<dir>.bytes',
    unit: 'B',
    better: 'higher',
    ...STORAGE_FIGURE,
    description: `Bytes moved during the measured time (io_bytes). The total over several jobs is the sum. ${DIR_NOTE}`,
    labels: LABELS
  },
  {
    name: 'fio.<dir>.ios',
    unit: 'count',
    better: 'higher',
    ...STORAGE_FIGURE,
    description: `Number of I/Os completed (total_ios). The total over several jobs is the sum. Absent for fio before 2.1.14, which does not report total_ios (a warning says so). ${DIR_NOTE}`,
    labels: LABELS
  },
  {
    name: 'fio.<dir>.runtime',
    unit: 's',
    better: 'lower',
    ...STORAGE_FIGURE,
    description: `How long the job did I/O in this direction, in seconds (fio reports milliseconds). With several jobs it is given per job only: jobs run side by side, so their runtimes do not add up. ${DIR_NOTE}`,
    labels: LABELS
  },
  ...latencyDefs(),
  ...percentileDefs()
]
