import type { Verdict } from './model/comparison'
import type { Unit } from './model/sample'

/**
 * Values for people: base units scaled to a readable prefix, three significant digits. Binary
 * prefixes for bytes (MiB/s, as fio and dd print them), decimal for bits (Mbit/s, as iperf does).
 */

function sig3(n: number): string {
  const abs = Math.abs(n)
  if (abs === 0) return '0'
  if (abs >= 100) return n.toFixed(0)
  if (abs >= 10) return n.toFixed(1)
  return n.toFixed(2)
}

function scaled(value: number, base: number, units: readonly string[]): string {
  let v = value
  let i = 0
  while (Math.abs(v) >= base * 0.9995 && i < units.length - 1) {
    v /= base
    i++
  }
  return `${sig3(v)} ${units[i]}`
}

export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return '–'
  switch (unit) {
    case 'B/s':
      return scaled(value, 1024, ['B/s', 'KiB/s', 'MiB/s', 'GiB/s', 'TiB/s'])
    case 'B':
      return scaled(value, 1024, ['B', 'KiB', 'MiB', 'GiB', 'TiB'])
    case 'bit/s':
      return scaled(value, 1000, ['bit/s', 'kbit/s', 'Mbit/s', 'Gbit/s', 'Tbit/s'])
    case 'op/s': {
      // "22.1k op/s", as the studies write IOPS
      const [number, prefix] = scaled(value, 1000, ['', 'k', 'M', 'G']).split(' ')
      return `${number}${prefix ?? ''} op/s`
    }
    case 's': {
      const abs = Math.abs(value)
      if (abs === 0) return '0 s'
      if (abs < 1e-6) return `${sig3(value * 1e9)} ns`
      if (abs < 1e-3) return `${sig3(value * 1e6)} µs`
      if (abs < 1) return `${sig3(value * 1e3)} ms`
      return `${sig3(value)} s`
    }
    case '%':
      return `${sig3(value)} %`
    case 'count':
      return Number.isInteger(value) ? String(value) : sig3(value)
    default:
      return `${sig3(value)} ${unit}`
  }
}

/** A relative figure as the studies print it: "126 %". */
export function formatPct(value: number, digits = 0): string {
  return Number.isFinite(value) ? `${value.toFixed(digits)} %` : '–'
}

/**
 * A relative % read as a multiple, as study 003 writes its findings ("11 times faster", "3 times
 * slower"): 1120 % is "11.2x faster", 9 % is "11.1x slower", the 95 % interval turned the same
 * way ("11.2x slower than host [10.8–11.6]" with `than`). Only a slower or faster verdict is a
 * finding to read so: for any other (same, can't tell) there is no multiple, and undefined is returned.
 */
export function formatMultiple(relativePct: number, ci95: readonly [number, number] | undefined, verdict: Verdict, than?: string): string | undefined {
  if ((verdict !== 'faster' && verdict !== 'slower') || !(relativePct > 0) || !Number.isFinite(relativePct)) return undefined
  const times = (pct: number): number => (verdict === 'faster' ? pct / 100 : 100 / pct)
  const bounds = ci95 && ci95[0] > 0 && Number.isFinite(ci95[1]) ? [times(ci95[0]), times(ci95[1])].sort((a, b) => a - b) : undefined
  const interval = bounds ? ` [${sig3(bounds[0]!)}–${sig3(bounds[1]!)}]` : ''
  return `${sig3(times(relativePct))}x ${verdict}${than === undefined ? '' : ` than ${than}`}${interval}`
}

/** An estimate of how long something takes: "about 14 min", "about 18 h 23 min", "about 40 s". */
export function formatAbout(seconds: number): string {
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 90) return `about ${minutes} min`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return `about ${hours} h${rest ? ` ${rest} min` : ''}`
}
