import type { MetricDef } from '../../../shared/model/metric-def'

/** A rate or time iperf3 printed, compared as a ratio. */
const RATE = { category: 'network', source: 'tool', comparison: 'ratio' } as const
/** A count or share that can be 0 on both sides, compared as a difference. */
const COUNT = { category: 'network', source: 'tool', comparison: 'difference' } as const

const DIRECTION =
  '`labels.direction` names the flow from the target\'s point of view, whichever machine ran the server: `target->peer` is data the target sent, `peer->target` data it received (iperf3 -R, or the server\'s half of --bidir).'
const STREAMS = 'With parallel streams (-P) the sample without `labels.stream` is the total iperf3 printed, and each stream also has its own sample (`labels.stream` = 1, 2, … in the order iperf3 lists them).'

export const iperf3Metrics: readonly MetricDef[] = [
  {
    name: 'iperf3.sent.bandwidth',
    unit: 'bit/s',
    better: 'higher',
    ...RATE,
    description: `TCP: the rate the sender wrote data at over the test (\`end.sum_sent.bits_per_second\`; the reverse half of --bidir is \`sum_sent_bidir_reverse\`). ${DIRECTION} ${STREAMS}`,
    labels: ['direction', 'stream']
  },
  {
    name: 'iperf3.received.bandwidth',
    unit: 'bit/s',
    better: 'higher',
    ...RATE,
    roles: ['network-table'],
    description: `The rate the receiver read data at (\`end.sum_received.bits_per_second\`, \`sum_received_bidir_reverse\`): the figure iperf3 prints on its \`receiver\` line and usually the one to compare. For UDP, what arrived, next to the rate offered in iperf3.bandwidth. ${DIRECTION} ${STREAMS}`,
    labels: ['direction', 'stream']
  },
  {
    name: 'iperf3.sent.bytes',
    unit: 'B',
    better: 'higher',
    ...RATE,
    description: `TCP: bytes the sender wrote during the test, leaving out the -O seconds (\`end.sum_sent.bytes\`). ${DIRECTION}`,
    labels: ['direction', 'stream']
  },
  {
    name: 'iperf3.received.bytes',
    unit: 'B',
    better: 'higher',
    ...RATE,
    description: `TCP: bytes the receiver read during the test (\`end.sum_received.bytes\`). ${DIRECTION}`,
    labels: ['direction', 'stream']
  },
  {
    name: 'iperf3.retransmits',
    unit: 'count',
    better: 'lower',
    ...COUNT,
    description: `TCP segments the sender retransmitted (\`end.sum_sent.retransmits\`, from the sender's TCP_INFO). Absent when the sending machine does not report them (iperf3 on Windows, macOS). ${DIRECTION}`,
    labels: ['direction', 'stream']
  },
  {
    name: 'iperf3.bandwidth',
    unit: 'bit/s',
    better: 'higher',
    ...RATE,
    roles: ['network-table'],
    description: `UDP: the bandwidth of the test as iperf3 sums it up (\`end.sum.bits_per_second\`; \`sum_bidir_reverse\` for the reverse half of --bidir), which is the rate the sender sent at: near the -b target unless the sender could not keep up. What arrived is iperf3.received.bandwidth; what was lost, iperf3.loss. ${DIRECTION} ${STREAMS}`,
    labels: ['direction', 'stream']
  },
  {
    name: 'iperf3.jitter',
    unit: 's',
    better: 'lower',
    ...RATE,
    description: `Primary in UDP mode, beside the bandwidth. UDP: variation of the datagrams' transit time as the receiver measured it (\`end.sum.jitter_ms\`, in seconds). Absent when no datagram arrived. ${DIRECTION}`,
    labels: ['direction', 'stream']
  },
  {
    name: 'iperf3.loss',
    unit: '%',
    better: 'lower',
    ...COUNT,
    description: `Primary in UDP mode, beside the bandwidth. UDP: datagrams lost, in % of those sent (\`end.sum.lost_percent\`). Absent when no datagram was counted. ${DIRECTION}`,
    labels: ['direction', 'stream']
  },
  {
    name: 'iperf3.packets.lost',
    unit: 'count',
    better: 'lower',
    ...COUNT,
    description: `UDP: datagrams that did not arrive (\`end.sum.lost_packets\`). ${DIRECTION}`,
    labels: ['direction', 'stream']
  },
  {
    name: 'iperf3.packets.total',
    unit: 'count',
    better: 'higher',
    ...COUNT,
    description: `UDP: datagrams sent (\`end.sum.packets\`). ${DIRECTION}`,
    labels: ['direction', 'stream']
  },
  {
    name: 'iperf3.cpu',
    unit: '%',
    better: 'lower',
    ...COUNT,
    description:
      "CPU time the iperf3 process used during the test (user + system), in % of the test's wall-clock time, as iperf3 measured it on each end (`end.cpu_utilization_percent.host_total` on the client, `remote_total` on the server); above 100 % when it ran on several cores. `labels.machine` says which machine: `target` or `peer`. A guest that spends more CPU for the same bandwidth shows the cost of its virtual network.",
    labels: ['machine']
  }
]
