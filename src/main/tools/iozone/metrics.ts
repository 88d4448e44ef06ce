import type { MetricDef } from '../../../shared/model/metric-def'
import { IOZONE_SUBTESTS } from './subtests'

const list = IOZONE_SUBTESTS.map((s) => `\`${s.id}\`: ${s.does}`).join('; ')

export const iozoneMetrics: readonly MetricDef[] = [
  {
    name: 'iozone.<subtest>',
    unit: 'B/s',
    better: 'higher',
    category: 'storage',
    source: 'tool',
    comparison: 'ratio',
    roles: ['surface'],
    description:
      'Throughput of one iozone sub-test for one file size and record size, in bytes per second (iozone reports kBytes/sec ' +
      `with kB = 1024 bytes; VirtBench multiplies by 1024). The sub-tests: ${list}. ` +
      '`labels.file_size` and `labels.record_size` are in bytes. Cells iozone did not measure (a record size larger than the file, ' +
      'or a small record size it skipped for a file over 16 MiB without -z) have no sample. Small files are mostly served from the page cache.',
    labels: ['file_size', 'record_size']
  }
]
