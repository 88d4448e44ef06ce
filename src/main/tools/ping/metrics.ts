import type { MetricDef } from '../../../shared/model/sample'

const RTT_SOURCE =
  "from ping's summary: iputils `rtt min/avg/max/mdev = …`, BusyBox `round-trip min/avg/max = …` or Windows `Minimum = 0ms, Maximum = 1ms, Average = 0ms`, in seconds. Absent when no reply came back."

export const pingMetrics: readonly MetricDef[] = [
  { name: 'ping.rtt.min', unit: 's', better: 'lower', description: `Shortest round-trip time, ${RTT_SOURCE} Windows prints whole milliseconds: its 0 ms (a reply under 1 ms) is not recorded.` },
  { name: 'ping.rtt.avg', unit: 's', better: 'lower', description: `Mean round-trip time, ${RTT_SOURCE} Windows prints whole milliseconds: its 0 ms is not recorded.` },
  { name: 'ping.rtt.max', unit: 's', better: 'lower', description: `Longest round-trip time, ${RTT_SOURCE}` },
  {
    name: 'ping.rtt.mdev',
    unit: 's',
    better: 'lower',
    description:
      "Spread of the round-trip times (iputils' mdev, the standard deviation of the replies' times; BSD's stddev). BusyBox and Windows ping do not print it."
  },
  {
    name: 'ping.loss',
    unit: '%',
    better: 'lower',
    description:
      "Packet loss as ping prints it (`57.1429% packet loss`). 100 % loss is a result, not a failure. When Windows counts `Destination host unreachable` answers as received, VirtBench counts only real echo replies and says so in a warning."
  },
  { name: 'ping.transmitted', unit: 'count', better: 'higher', description: 'Echo requests sent (`10 packets transmitted`, Windows `Sent = 10`).' },
  { name: 'ping.received', unit: 'count', better: 'higher', description: 'Echo replies received (`10 received`, Windows `Received = 10`).' },
  {
    name: 'ping.errors',
    unit: 'count',
    better: 'lower',
    description: 'ICMP errors iputils counted instead of replies (`+6 errors`, e.g. Destination Host Unreachable). Given only when ping printed it.'
  },
  {
    name: 'ping.duplicates',
    unit: 'count',
    better: 'lower',
    description: 'Duplicate replies iputils counted (`+1 duplicates`): a sign of a network loop or a misbehaving bridge. Given only when ping printed it.'
  }
]
