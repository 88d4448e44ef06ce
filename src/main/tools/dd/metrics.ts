import type { MetricDef } from '../../../shared/model/metric-def'

const PRINTED = { category: 'storage', source: 'tool', comparison: 'ratio' } as const

export const ddMetrics: readonly MetricDef[] = [
  {
    name: 'dd.bytes',
    unit: 'B',
    better: 'higher',
    ...PRINTED,
    description:
      "Bytes copied, from dd's own report (`16777216 bytes (17 MB, 16 MiB) copied`). For study 004's `cat file > /dev/null` read, the size of the file read, which the plan prints with `stat` before reading. For BusyBox dd builds that print only record counts: full records out x block size."
  },
  {
    name: 'dd.elapsed',
    unit: 's',
    better: 'lower',
    ...PRINTED,
    description:
      "Seconds the copy took, as dd prints them (6 significant digits; a decimal comma, as in de_DE locales, is read too). For the cat reader and for BusyBox dd without a transfer line: the wall-clock time measured by the `time` wrapper, which includes starting the shell."
  },
  {
    name: 'dd.bandwidth',
    unit: 'B/s',
    better: 'higher',
    ...PRINTED,
    description:
      "dd.bytes / dd.elapsed. Computed from the exact byte count, not taken from dd's rounded printed rate (`400 MB/s`); that rate is only checked against it, and a mismatch gives a warning."
  },
  {
    name: 'dd.lat.mean',
    unit: 's',
    better: 'lower',
    category: 'storage',
    source: 'derived',
    comparison: 'ratio',
    roles: ['latency'],
    description:
      "dd.elapsed / records out (full + partial): the mean time per block. With `bs=512 count=1000 oflag=direct` this is study 002's write latency. Not given for the cat reader, which has no records."
  },
  {
    name: 'dd.wall',
    unit: 's',
    better: 'lower',
    ...PRINTED,
    description:
      'Wall-clock seconds of the whole timed command (`time sh -c "…"`, study 004), from bash\'s time, `time -p`, GNU time (-v or not) or BusyBox time. Includes starting the shell; given only when the plan used a timer.'
  },
  {
    name: 'dd.cpu.user',
    unit: 's',
    better: 'lower',
    ...PRINTED,
    description: "CPU seconds the timed command spent in user mode, from the `time` wrapper's user line. Absent when it printed 0 (below the timer's resolution)."
  },
  {
    name: 'dd.cpu.system',
    unit: 's',
    better: 'lower',
    ...PRINTED,
    description:
      "CPU seconds the timed command spent in the kernel, from the `time` wrapper's sys line: the cost of the I/O path in this guest or host. Absent when it printed 0 (below the timer's resolution)."
  }
]
