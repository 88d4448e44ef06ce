/**
 * A metric's name for people, from its id: `fio.read.iops` is "Read IOPS", `fio.write.clat.p99`
 * "Write completion latency p99", `ping.rtt.avg` "Average round trip". The id stays the key (the
 * tables show it on demand); this only words it. Unknown parts are kept as they are, with
 * dashes and underscores as spaces, so a new metric is never hidden behind a wrong name.
 */

/** One id part in words. */
const WORDS: Record<string, string> = {
  iops: 'IOPS',
  bandwidth: 'bandwidth',
  bytes: 'bytes',
  ios: 'I/Os',
  runtime: 'run time',
  slat: 'submission latency',
  clat: 'completion latency',
  lat: 'latency',
  latency: 'latency',
  mean: 'mean',
  avg: 'average',
  min: 'minimum',
  max: 'maximum',
  stddev: 'std. deviation',
  mdev: 'mean deviation',
  rtt: 'round trip',
  elapsed: 'elapsed time',
  wall: 'wall time',
  cpu: 'CPU',
  user: 'user',
  system: 'system',
  sent: 'sent',
  received: 'received',
  retransmits: 'retransmits',
  jitter: 'jitter',
  loss: 'loss',
  packets: 'packets',
  lost: 'lost',
  total: 'total',
  out_of_order: 'out of order',
  transmitted: 'transmitted',
  errors: 'errors',
  duplicates: 'duplicates',
  events: 'events',
  operations: 'operations',
  ops: 'operations',
  'ops-per-second': 'operations/s',
  'ops-per-cpu-second': 'operations per CPU second',
  'cpu-usage': 'CPU usage',
  memory: 'memory',
  fileio: 'file I/O',
  reads: 'reads',
  writes: 'writes',
  fsyncs: 'fsyncs',
  read: 'read',
  write: 'write',
  trim: 'trim',
  mixed: 'mixed',
  index: 'index',
  vm: 'VM',
  memcpy: 'memcpy',
  dumb: 'plain loop copy',
  mcblock: 'block memcpy',
  putc: 'per-char write',
  put_block: 'block write',
  rewrite: 'rewrite',
  getc: 'per-char read',
  get_block: 'block read',
  seeks: 'random seeks',
  seq_create: 'sequential create',
  seq_stat: 'sequential stat',
  seq_del: 'sequential delete',
  ran_create: 'random create',
  ran_stat: 'random stat',
  ran_del: 'random delete'
}

/** Stats that read better before what they qualify: "mean latency", "average round trip". */
const LEADING = new Set(['mean', 'avg', 'min', 'max'])

function wordOf(part: string): string {
  if (/^p\d+(\.\d+)?$/.test(part)) return part
  return WORDS[part] ?? part.replace(/[-_]/g, ' ')
}

/** "Read IOPS" for `fio.read.iops`; the tool's prefix is left out (the test names the tool). */
export function metricName(metric: string): string {
  const parts = metric.split('.')
  // sysbench.cpu.lat.p99.9 and fio.read.clat.p99.9: a percentile with decimals is one part
  const joined: string[] = []
  for (const part of parts.slice(parts.length > 1 ? 1 : 0)) {
    const last = joined[joined.length - 1]
    if (last !== undefined && /^p\d+$/.test(last) && /^\d+$/.test(part)) joined[joined.length - 1] = `${last}.${part}`
    else joined.push(part)
  }
  // a trailing statistic moves to the front: lat.mean is "mean latency"
  const tail = joined[joined.length - 1]
  if (joined.length > 1 && tail !== undefined && LEADING.has(tail)) joined.unshift(joined.pop()!)
  const text = joined.map(wordOf).join(' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}
