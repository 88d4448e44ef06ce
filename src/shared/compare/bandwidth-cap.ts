import type { MetricCategory, Unit } from '../model/sample'

const MBIT = 1e6
const GBIT = 1e9

/**
 * Round bandwidth limits that clouds and virtual switches apply (bit/s): 1, 2 and 5 Mbit/s,
 * every 10 Mbit/s up to 100 Mbit/s, every 100 Mbit/s up to 1 Gbit/s, then the usual link and
 * limit steps up to 100 Gbit/s. Finer steps above 100 Mbit/s would leave no gap between the 3 %
 * windows (from about 330 Mbit/s every figure would sit just below some multiple of 10 Mbit/s),
 * so the flag would fire on every healthy result.
 */
export const ROUND_CAPS_BITS: readonly number[] = [
  ...[1, 2, 5].map((m) => m * MBIT),
  ...Array.from({ length: 10 }, (_, i) => (i + 1) * 10 * MBIT),
  ...Array.from({ length: 9 }, (_, i) => (i + 2) * 100 * MBIT),
  ...[2.5, 5, 10, 25, 40, 100].map((g) => g * GBIT)
]

/** A result this close below a cap (as a fraction of the cap) looks like the cap. */
export const CAP_WINDOW = 0.03

/** Network bandwidth metrics are the ones a rate limit shows in. */
export function isNetworkBandwidth(unit: Unit, category: MetricCategory | undefined): boolean {
  if (category === 'network') return unit === 'bit/s' || unit === 'B/s'
  return category === undefined && unit === 'bit/s'
}

/**
 * The window for a TCP goodput figure measured across a path held by a shaper (study 001's EIP
 * cap, a tc tbf): the shaper counts whole frames, iperf3 reports the payload, 1448 of every 1514
 * bytes of a full-size Ethernet frame with TCP timestamps (95.6 %), and the slow start of a short
 * test costs a little more (measured through a 30 Mbit/s tc tbf: 28.7 to 28.8 Mbit/s, 96 %).
 */
export const GOODPUT_CAP_WINDOW = 0.06

/** The round cap just above a figure (within `window` of it, CAP_WINDOW unless told), in bit/s, if there is one. */
export function nearbyCapBits(value: number, unit: Unit, window = CAP_WINDOW): number | undefined {
  const bits = unit === 'B/s' ? value * 8 : value
  if (!Number.isFinite(bits) || bits <= 0) return undefined
  return ROUND_CAPS_BITS.find((cap) => bits <= cap && bits >= cap * (1 - window))
}
