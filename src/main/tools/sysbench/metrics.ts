import type { MetricDef } from '../../../shared/model/metric-def'
import type { MetricCategory } from '../../../shared/model/sample'
import { SYSBENCH_TESTS, type SysbenchTest } from './params'

/** What each sysbench test measures. */
const CATEGORY: Readonly<Record<SysbenchTest, MetricCategory>> = { cpu: 'cpu', memory: 'memory', fileio: 'storage' }

const printed = (test: SysbenchTest) => ({ category: CATEGORY[test], source: 'tool', comparison: 'ratio' }) as const

const ZERO_NOTE = 'A value sysbench prints as 0.00 (below its print precision) is not recorded.'
const LAT = `From the "Latency (ms):" section sysbench prints after every test, in seconds. One event is one prime search (cpu), one block (memory) or one file operation (fileio). ${ZERO_NOTE}`

export const sysbenchMetrics: readonly MetricDef[] = [
  {
    name: 'sysbench.cpu.events',
    unit: 'op/s',
    better: 'higher',
    ...printed('cpu'),
    description:
      'CPU test events per second (`events per second:`): prime-number searches up to cpu-max-prime, over all threads. sysbench before 1.0.8 does not print it; VirtBench then divides total events by total time and says so in a warning.'
  },
  {
    name: 'sysbench.memory.bandwidth',
    unit: 'B/s',
    better: 'higher',
    ...printed('memory'),
    description: 'Memory test transfer rate, from `… MiB transferred (X MiB/sec)` x 1048576. Absent with --memory-oper=none, which moves no data.'
  },
  {
    name: 'sysbench.memory.operations',
    unit: 'op/s',
    better: 'higher',
    ...printed('memory'),
    description: 'Memory test block operations per second (`Total operations: N (X per second)`).'
  },
  {
    name: 'sysbench.fileio.reads',
    unit: 'op/s',
    better: 'higher',
    ...printed('fileio'),
    description: `File reads per second (\`reads/s:\`). Only for test modes that read (seqrd, rndrd, rndrw). ${ZERO_NOTE}`
  },
  {
    name: 'sysbench.fileio.writes',
    unit: 'op/s',
    better: 'higher',
    ...printed('fileio'),
    description: `File writes per second (\`writes/s:\`). Only for test modes that write (seqwr, seqrewr, rndwr, rndrw). ${ZERO_NOTE}`
  },
  {
    name: 'sysbench.fileio.fsyncs',
    unit: 'op/s',
    better: 'higher',
    ...printed('fileio'),
    description: `fsync() calls per second (\`fsyncs/s:\`), from the periodic and final fsyncs of writing modes. ${ZERO_NOTE}`
  },
  {
    name: 'sysbench.fileio.read.bandwidth',
    unit: 'B/s',
    better: 'higher',
    ...printed('fileio'),
    description: `File read throughput (\`read, MiB/s:\` x 1048576). Only for test modes that read. ${ZERO_NOTE}`
  },
  {
    name: 'sysbench.fileio.write.bandwidth',
    unit: 'B/s',
    better: 'higher',
    ...printed('fileio'),
    description: `File write throughput (\`written, MiB/s:\` x 1048576). Only for test modes that write. ${ZERO_NOTE}`
  },
  ...SYSBENCH_TESTS.flatMap(latencyDefs)
]

/** The latency summary every test prints, one set of definitions per test (each in its test's category). */
function latencyDefs(test: SysbenchTest): MetricDef[] {
  const base = { unit: 's', better: 'lower', ...printed(test) } as const
  return [
    { name: `sysbench.${test}.lat.min`, ...base, description: `Shortest event latency. ${LAT}` },
    { name: `sysbench.${test}.lat.avg`, ...base, description: `Mean event latency. ${LAT}` },
    { name: `sysbench.${test}.lat.max`, ...base, description: `Longest event latency. ${LAT}` },
    {
      name: `sysbench.${test}.lat.p<percentile>`,
      ...base,
      description: `Event latency percentile (\`95th percentile:\`; sysbench's --percentile, 95 by default, names it: sysbench.${test}.lat.p95). Absent with --percentile=0. ${LAT}`
    }
  ]
}
