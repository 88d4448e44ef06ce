/**
 * iperf 2's units, as its source defines them and as a run confirms (tests/fixtures/tools/iperf/README.md):
 * sizes use 1024 (`-n 100M` sends 104857600 bytes, printed `100 MBytes`), rates in bits use 1000
 * (`941 Mbits/sec` is 941 000 000 bit/s), and rates in bytes (-f K/M/G) use 1024 again.
 */

const BINARY_POWER: Record<string, number> = { '': 0, K: 1, M: 2, G: 3, T: 4 }
const DECIMAL_EXPONENT: Record<string, number> = { '': 0, K: 3, M: 6, G: 9, T: 12 }

const SIZE_UNIT = /^([KMGT]?)Bytes$/
const RATE_UNIT = /^([KMGT]?)(bits|Bytes)\/sec$/

/** `1.10` `GBytes` → bytes, or undefined for a unit iperf 2 does not print. */
export function bytesOf(value: string, unit: string): number | undefined {
  const m = SIZE_UNIT.exec(unit)
  if (!m) return undefined
  return Number(value) * 1024 ** BINARY_POWER[m[1]!]!
}

/** `941` `Mbits/sec` → bit/s (converted in decimal, so 941 Mbits/sec is exactly 941000000), or undefined. */
export function bitsPerSecondOf(value: string, unit: string): number | undefined {
  const m = RATE_UNIT.exec(unit)
  if (!m) return undefined
  if (m[2] === 'bits') return Number(`${value}e${DECIMAL_EXPONENT[m[1]!]!}`)
  return Number(value) * 1024 ** BINARY_POWER[m[1]!]! * 8
}

/** `0.002` (ms) → seconds, converted in decimal: 0.002 ms is exactly 0.000002 s. */
export function secondsOfMilliseconds(value: string): number {
  return Number(`${value}e-3`)
}
