import type { MetricDef } from '../../../shared/model/metric-def'

/** A round-trip time ping printed, compared as a ratio. */
const TIME = { category: 'network', source: 'tool', comparison: 'ratio' } as const
/** A count or share that can be 0 on both sides, compared as a difference. */
const COUNT = { category: 'network', source: 'tool', comparison: 'difference' } as const

const RTT_SOURCE =
  "from ping's summary: iputils `rtt min/avg/max/mdev = …`, BSD and macOS `round-trip min/avg/max/stddev = …` (ping6: `std-dev`), BusyBox `round-trip min/avg/max = …` or Windows `Minimum = 0ms, Maximum = 1ms, Average = 0ms`, in seconds. Absent when no reply came back."

export const pingMetrics: readonly MetricDef[] = [
  { name: 'ping.rtt.min', unit: 's', better: 'lower', ...TIME, description: `Shortest round-trip time, ${RTT_SOURCE} Windows prints whole milliseconds: its 0 ms (a reply under 1 ms) is not recorded.` },
  { name: 'ping.rtt.avg', unit: 's', better: 'lower', ...TIME, roles: ['latency', 'network-table'], description: `Mean round-trip time, ${RTT_SOURCE} Windows prints whole milliseconds: its 0 ms is not recorded.` },
  { name: 'ping.rtt.max', unit: 's', better: 'lower', ...TIME, description: `Longest round-trip time, ${RTT_SOURCE}` },
  {
    name: 'ping.rtt.mdev',
    unit: 's',
    better: 'lower',
    ...TIME,
    description:
      "Spread of the round-trip times (iputils' mdev, the standard deviation of the replies' times; BSD and macOS ping's stddev, their ping6's std-dev). BusyBox and Windows ping do not print it."
  },
  {
    name: 'ping.loss',
    unit: '%',
    better: 'lower',
    ...COUNT,
    description:
      "Packet loss as ping prints it (`57.1429% packet loss`). 100 % loss is a result, not a failure. When Windows counts `Destination host unreachable` answers as received, VirtBench counts only real echo replies and says so in a warning."
  },
  { name: 'ping.transmitted', unit: 'count', better: 'higher', ...COUNT, description: 'Echo requests sent (`10 packets transmitted`, Windows `Sent = 10`).' },
  { name: 'ping.received', unit: 'count', better: 'higher', ...COUNT, description: 'Echo replies received (`10 received`, Windows `Received = 10`).' },
  {
    name: 'ping.errors',
    unit: 'count',
    better: 'lower',
    ...COUNT,
    description: 'ICMP errors iputils counted instead of replies (`+6 errors`, e.g. Destination Host Unreachable). Given only when ping printed it.'
  },
  {
    name: 'ping.duplicates',
    unit: 'count',
    better: 'lower',
    ...COUNT,
    description: 'Duplicate replies iputils counted (`+1 duplicates`): a sign of a network loop or a misbehaving bridge. Given only when ping printed it.'
  }
]
