/** What stress-ng reports of one stressor, from its YAML report or from its log's metrics table. */
export interface StressorFigures {
  stressor: string
  /** Bogo operations of all workers. */
  ops: number
  /** Bogo ops per second of wall-clock time. */
  opsPerSecond: number
  /** Bogo ops per second of user plus system time. */
  opsPerCpuSecond: number
  /** Wall-clock seconds, averaged over the workers. */
  wallSeconds: number
  /** CPU used per worker, in % of the wall-clock time; absent where stress-ng does not print it. */
  cpuUsage?: number
  /** Half a unit of the last printed decimal: 0.0000005 in the YAML report, 0.005 in the log. */
  rounding: number
  /** The text the figures came from, for messages. */
  text: string
}

/** A number as stress-ng prints it: `1699`, `847.525615`, or with --sn `8.47526e+02`. */
const NUMBER = /^[0-9]{1,20}(?:\.[0-9]{1,12})?(?:e[+-][0-9]{1,3})?$/

export function numberOf(text: string): number | null {
  return NUMBER.test(text) ? Number(text) : null
}

/**
 * Whether the printed rate is bogo ops / wall-clock time, allowing for the rounding of both
 * (stress-ng computes it from the unrounded time). A wall-clock time of about 0 s is no measurement.
 */
export function rateAgrees(f: StressorFigures): boolean {
  if (f.wallSeconds - f.rounding <= 0) return false
  const fastest = f.ops / (f.wallSeconds - f.rounding)
  const slowest = f.ops / (f.wallSeconds + f.rounding)
  const slack = f.rounding + f.opsPerSecond * 1e-12
  return f.opsPerSecond >= slowest - slack && f.opsPerSecond <= fastest + slack
}
