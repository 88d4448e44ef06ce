import type { MetricDef } from '../../../shared/model/metric-def'

const PRINTED = { category: 'memory', source: 'tool', comparison: 'ratio' } as const

const HOW =
  "From the `AVG` line's `Copy: … MiB/s` x 1048576. mbw computes it as array MiB / mean elapsed time of the runs (so it is not the mean of the runs' rates) from unrounded times; the printed Elapsed has only 5 decimals, so VirtBench takes the printed rate and checks it against MiB / Elapsed. Samples with `labels.iteration` are the single runs (0, 1, …). Bandwidth counts the bytes copied once (not read plus written)."

const OLD_LABELS = 'mbw before 1.4 (Debian 12, Ubuntu 24.04 ship 1.2.2) swaps the labels MEMCPY and DUMB; VirtBench warns when it sees such a version.'

export const mbwMetrics: readonly MetricDef[] = [
  {
    name: 'mbw.memcpy.bandwidth',
    unit: 'B/s',
    better: 'higher',
    ...PRINTED,
    description: `Memory copy bandwidth with libc memcpy() of the whole array (mbw -t0, lines \`Method: MEMCPY\`; study 001's "MEMCPY AVG"). ${HOW} ${OLD_LABELS}`,
    labels: ['iteration']
  },
  {
    name: 'mbw.dumb.bandwidth',
    unit: 'B/s',
    better: 'higher',
    ...PRINTED,
    description: `Memory copy bandwidth of a plain b[i] = a[i] loop over longs (mbw -t1, lines \`Method: DUMB\`). ${HOW} ${OLD_LABELS}`,
    labels: ['iteration']
  },
  {
    name: 'mbw.mcblock.bandwidth',
    unit: 'B/s',
    better: 'higher',
    ...PRINTED,
    description: `Memory copy bandwidth of memcpy() in fixed blocks (mbw -t2 -b, 256 KiB by default; lines \`Method: MCBLOCK\`). ${HOW}`,
    labels: ['iteration']
  }
]
