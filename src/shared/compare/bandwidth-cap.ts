import type { MetricCategory, Unit } from '../model/sample'
import { bitRateText } from './message-text'
import { mean, stddev } from './stats'

const MBIT = 1e6
const GBIT = 1e9

/**
 * Round bandwidth limits that clouds and virtual switches apply (bit/s): 1, 2 and 5 Mbit/s,
 * every 10 Mbit/s up to 100 Mbit/s, every 100 Mbit/s up to 1 Gbit/s, then the usual link and
 * limit steps up to 100 Gbit/s. Finer steps above 100 Mbit/s would leave no gap between the
 * windows (from about 330 Mbit/s every figure would sit just below some multiple of 10 Mbit/s),
 * so the check would fire on every healthy result.
 */
export const ROUND_CAPS_BITS: readonly number[] = [
  ...[1, 2, 5].map((m) => m * MBIT),
  ...Array.from({ length: 10 }, (_, i) => (i + 1) * 10 * MBIT),
  ...Array.from({ length: 9 }, (_, i) => (i + 2) * 100 * MBIT),
  ...[2.5, 5, 10, 25, 40, 100].map((g) => g * GBIT)
]

/**
 * The window of a bandwidth of unknown origin (a bit/s without a category, in a document built by
 * hand): a figure counted on the wire reads within a point or two of the limit that holds it.
 */
export const CAP_WINDOW = 0.03

/**
 * The window of a network tool's figure (iperf, iperf3): they count the payload, which a shaper
 * does not. With TCP, 1448 of every 1514 bytes of a full-size frame the shaper counts (95.6 %;
 * 1460 of 1514 without TCP timestamps, 96.4 %), and the slow start of a short test costs a little
 * more: a 30 Mbit/s tc tbf read 28.7 to 28.8 Mbit/s (95.7 to 96 %), 28.5 at worst in the lab
 * (95 %). The window stops there, because a saturated Ethernet link, which is no limit to lift,
 * reads just below it: its wire also carries preamble, gap and checksum, 1448 of 1538 bytes, so
 * 1 GbE reads 941 Mbit/s (94.1 %), 10 GbE 9.41 Gbit/s, and 949 Mbit/s without timestamps (94.9 %).
 */
export const GOODPUT_CAP_WINDOW = 0.05

/** A cap is named from this many figures or more (repetitions, pairs of machines, directions). */
export const MIN_CAP_FIGURES = 2

/**
 * Figures are as steady as a limit holds them when their coefficient of variation is below this
 * many %: a 30 Mbit/s tbf held 4 figures (two pairs, two repetitions) at 28.73 to 28.81 Mbit/s, 0.14 %
 * (the known-truth test, at a load of 10); the lab's widest pair through such a cap, 28.5 and 28.9 Mbit/s,
 * is 0.99 %. A free path wanders with load: a guest-to-guest path under TCG read 2.41, 2.44, 2.47 Gbit/s, 1.2 %.
 */
export const CAP_MAX_CV_PCT = 1

/** Network bandwidth metrics are the ones a rate limit shows in. */
export function isNetworkBandwidth(unit: Unit, category: MetricCategory | undefined): boolean {
  if (category === 'network') return unit === 'bit/s' || unit === 'B/s'
  return category === undefined && unit === 'bit/s'
}

/** The window of a metric: a network tool's payload figure, or a bandwidth of unknown origin. */
export function capWindowOf(category: MetricCategory | undefined): number {
  return category === 'network' ? GOODPUT_CAP_WINDOW : CAP_WINDOW
}

/** The round cap just above a figure (within `window` of it, CAP_WINDOW unless told), in bit/s, if there is one. */
export function nearbyCapBits(value: number, unit: Unit, window = CAP_WINDOW): number | undefined {
  const bits = unit === 'B/s' ? value * 8 : value
  if (!Number.isFinite(bits) || bits <= 0) return undefined
  return ROUND_CAPS_BITS.find((cap) => bits <= cap && bits >= cap * (1 - window))
}

/** What a bandwidth's figures say of a rate limit (readCap). */
export interface CapReading {
  /** `held`: a cap to name; `single`: one figure just below a limit, which cannot tell a limit from a coincidence. */
  kind: 'held' | 'single'
  /** The round limit (bit/s) the figures sit just below. */
  capBits: number
  /** The figures read (the finite ones, in their unit). */
  values: number[]
}

/**
 * The one rule of the bandwidth-cap check, for the comparison's flag and the network study's
 * tables alike. A limit is a ceiling: it holds every figure that crosses it at the same place,
 * repetition after repetition, in each direction, while a free path's figure wanders with load and
 * sits just below a round number only by chance. So a cap is `held` (named) only when the figures
 * are a network bandwidth, every one lies within the window of their category (capWindowOf) below
 * one round limit, there are at least MIN_CAP_FIGURES of them, and their
 * coefficient of variation is below CAP_MAX_CV_PCT. A lone figure within the window is `single`:
 * it is never named. Otherwise undefined: a figure outside the window, figures near different
 * limits, or figures that wander.
 */
export function readCap(values: readonly number[], unit: Unit, category: MetricCategory | undefined): CapReading | undefined {
  if (!isNetworkBandwidth(unit, category)) return undefined
  const kept = values.filter(Number.isFinite)
  const window = capWindowOf(category)
  const caps = new Set(kept.map((v) => nearbyCapBits(v, unit, window)))
  const [capBits] = caps
  if (caps.size !== 1 || capBits === undefined) return undefined
  if (kept.length < MIN_CAP_FIGURES) return { kind: 'single', capBits, values: kept }
  const sd = stddev(kept)
  const avg = mean(kept)
  const steady = sd !== undefined && avg !== undefined && (sd / avg) * 100 < CAP_MAX_CV_PCT
  return steady ? { kind: 'held', capBits, values: kept } : undefined
}

/**
 * A test whose sender sets the pace (UDP, iperf and iperf3 -u): it sends at the rate -b asks for,
 * so its bandwidth is that rate, steady and often round, whether or not the path has a limit
 * (iperf3 -u -b 100M on loopback: 99.99 Mbit/s received). The cap check leaves such figures out.
 */
export function sendsAtSetRate(test: { tool: string; params: Record<string, unknown> }): boolean {
  return (test.tool === 'iperf3' || test.tool === 'iperf') && test.params.protocol === 'udp'
}

/** "its 4 figures all read 28.7 to 28.8 Mbit/s": the evidence of a held cap, for its sentence. */
export function capEvidenceText(reading: CapReading, unit: Unit, what: string): string {
  const bits = reading.values.map((v) => (unit === 'B/s' ? v * 8 : v))
  const [low, lowUnit] = bitRateText(Math.min(...bits)).split(' ')
  const high = bitRateText(Math.max(...bits))
  const range = high === `${low} ${lowUnit}` ? high : high.endsWith(` ${lowUnit}`) ? `${low} to ${high}` : `${low} ${lowUnit} to ${high}`
  return `its ${bits.length} ${what} all read ${range}`
}
