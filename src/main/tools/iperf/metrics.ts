import type { MetricDef } from '../../../shared/model/metric-def'

/** A rate or time iperf printed, compared as a ratio. */
const RATE = { category: 'network', source: 'tool', comparison: 'ratio' } as const
/** A count or share that can be 0 on both sides, compared as a difference. */
const COUNT = { category: 'network', source: 'tool', comparison: 'difference' } as const

const LABELS =
  "`labels.direction` names the flow from the target's point of view, whichever machine ran the server: `target->peer` is data the target sent, `peer->target` data it received (the second half of -r, or -R). `labels.measured_by` says which end counted: `sender` or `receiver` (iperf 2 reports each half of -r from one end only; a UDP test from the target adds the peer's Server Report as `receiver`)."
const STREAMS =
  'With parallel streams (-P) each stream has a sample with `labels.stream` (1, 2, … in the order iperf reported them) and the sample without it is the total: iperf\'s [SUM] line for a one-way test, otherwise (dual tests, -y C) the streams added up.'
const UDP_RECEIVER = 'UDP, from the receiving end only (the peer\'s Server Report for target->peer, the target\'s own report for peer->target).'

export const iperfMetrics: readonly MetricDef[] = [
  {
    name: 'iperf.bandwidth',
    unit: 'bit/s',
    better: 'higher',
    ...RATE,
    roles: ['network-table'],
    description: `Throughput of one direction as iperf 2 reported it, in bit/s: the \`Bandwidth\` column (\`941 Mbits/sec\`; iperf's Mbits are 10^6 bits) or the bits/s field of -y C, which is exact where the text keeps three digits. ${LABELS} ${STREAMS}`,
    labels: ['direction', 'measured_by', 'stream']
  },
  {
    name: 'iperf.bytes',
    unit: 'B',
    better: 'higher',
    ...RATE,
    description: `Data moved in one direction during the test: the \`Transfer\` column (\`1.10 GBytes\`; iperf's KBytes, MBytes and GBytes are 1024-based, so this is 1.10 × 2^30 B as printed) or the bytes field of -y C. ${LABELS}`,
    labels: ['direction', 'measured_by', 'stream']
  },
  {
    name: 'iperf.jitter',
    unit: 's',
    better: 'lower',
    ...RATE,
    description: `Primary in UDP mode, beside the bandwidth. Variation of the datagrams' transit time (\`0.002 ms\`), in seconds. ${UDP_RECEIVER} Absent when no datagram arrived; not added up over streams. ${LABELS}`,
    labels: ['direction', 'measured_by', 'stream']
  },
  {
    name: 'iperf.loss',
    unit: '%',
    better: 'lower',
    ...COUNT,
    description: `Primary in UDP mode, beside the bandwidth. Datagrams lost in % of those sent (\`0/ 893 (0%)\`). ${UDP_RECEIVER} Over several streams, the lost datagrams in % of all of them. ${LABELS}`,
    labels: ['direction', 'measured_by', 'stream']
  },
  {
    name: 'iperf.packets.lost',
    unit: 'count',
    better: 'lower',
    ...COUNT,
    description: `Datagrams that did not arrive (the first number of \`Lost/Total\`). ${UDP_RECEIVER} ${LABELS}`,
    labels: ['direction', 'measured_by', 'stream']
  },
  {
    name: 'iperf.packets.total',
    unit: 'count',
    better: 'higher',
    ...COUNT,
    description: `Datagrams the receiver expected (the second number of \`Lost/Total\`). ${UDP_RECEIVER} ${LABELS}`,
    labels: ['direction', 'measured_by', 'stream']
  },
  {
    name: 'iperf.packets.out_of_order',
    unit: 'count',
    better: 'lower',
    ...COUNT,
    description: `Datagrams that arrived out of order: the last field of -y C, or the text's \`datagrams received out-of-order\` line (printed only when there were some, so absent otherwise). ${UDP_RECEIVER} ${LABELS}`,
    labels: ['direction', 'measured_by', 'stream']
  }
]
