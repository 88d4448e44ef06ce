/**
 * The metrics a summary shows first (the terminal table, the report's summary): throughput,
 * operations, mean and tail latency, loss; the others stay one click (or --all-metrics) away.
 */
const HEADLINE = [
  /^fio\.[a-z]+\.(iops|bandwidth|lat\.mean|clat\.p99)$/,
  /^dd\.(bandwidth|lat\.mean)$/,
  /^bonnie\.(put_block|get_block|rewrite|seeks|seq_create|ran_create)$/,
  /^iperf3\.(received\.bandwidth|bandwidth|jitter|loss|retransmits)$/,
  /^iperf\.(bandwidth|jitter|loss)$/,
  /^ping\.(rtt\.avg|rtt\.max|loss)$/,
  /^mbw\.[a-z]+\.bandwidth$/,
  /^sysbench\.(cpu\.events|memory\.bandwidth|fileio\.(read|write)\.bandwidth)$/,
  /^unixbench\.(index|dhry2reg|whetstone-double|fsdisk|fstime|fsbuffer|syscall|pipe|context1|spawn|execl|shell1|shell8)$/
]

export function isHeadlineMetric(metric: string): boolean {
  return HEADLINE.some((re) => re.test(metric))
}
