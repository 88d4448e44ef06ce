import type { Unit } from '../../../../shared/model/sample'

/**
 * Axis ticks people can read: steps of 1, 2, 2.5 or 5 x 10^n in the unit the axis is written in
 * (MiB/s for a bandwidth axis, so 250 MiB/s rather than 238 MiB/s, which is 250 MB/s in bytes),
 * one unit per axis; log axes at 1-2-5 steps of each decade, or at the decades alone when those
 * are too many. Pure functions: recharts gets the ticks and the domain's end.
 */

export interface AxisScale {
  /** What one unit of the axis is worth in base units (1048576 for MiB/s). */
  factor: number
  /** Written after each tick: "MiB/s", "k op/s", "µs". */
  suffix: string
}

const BYTE_RATE = ['B/s', 'KiB/s', 'MiB/s', 'GiB/s', 'TiB/s']
const BYTES = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
const BIT_RATE = ['bit/s', 'kbit/s', 'Mbit/s', 'Gbit/s', 'Tbit/s']
/** Written without a space, as formatValue writes IOPS: "20k op/s". */
const OP_RATE = ['op/s', 'k op/s', 'M op/s', 'G op/s']

function prefixed(top: number, base: number, names: readonly string[]): AxisScale {
  let factor = 1
  let i = 0
  while (Math.abs(top) >= factor * base && i < names.length - 1) {
    factor *= base
    i++
  }
  return { factor, suffix: names[i]! }
}

/** The unit an axis reaching `top` (base units) is written in. */
export function axisScale(unit: Unit, top: number): AxisScale {
  switch (unit) {
    case 'B/s':
      return prefixed(top, 1024, BYTE_RATE)
    case 'B':
      return prefixed(top, 1024, BYTES)
    case 'bit/s':
      return prefixed(top, 1000, BIT_RATE)
    case 'op/s':
      return prefixed(top, 1000, OP_RATE)
    case 's': {
      const abs = Math.abs(top)
      if (abs === 0 || abs >= 1) return { factor: 1, suffix: 's' }
      if (abs >= 1e-3) return { factor: 1e-3, suffix: 'ms' }
      if (abs >= 1e-6) return { factor: 1e-6, suffix: 'µs' }
      return { factor: 1e-9, suffix: 'ns' }
    }
    case 'count':
      return { factor: 1, suffix: '' }
    default:
      return { factor: 1, suffix: unit }
  }
}

/** The nice step (1, 2, 2.5 or 5 x 10^n) that cuts 0..`span` into about `count` parts. */
export function niceStep(span: number, count = 5): number {
  if (!(span > 0) || !Number.isFinite(span)) return 1
  const raw = span / count
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= raw * 0.999) ?? 10
  return step * power
}

/** A number as an axis writes it: no trailing zeros, at most the step's decimals. */
function tickNumber(value: number, step: number): string {
  const mantissa = step / 10 ** Math.floor(Math.log10(step))
  const decimals = Math.min(6, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9) + (Math.abs(mantissa - 2.5) < 1e-9 ? 1 : 0)))
  return String(Number(value.toFixed(decimals)))
}

export interface LinearAxis {
  /** The ticks, in base units, from 0. */
  ticks: number[]
  /** The domain's end: the last tick. */
  top: number
  format: (value: number) => string
}

/** A linear axis from 0 past `max` (base units) with nice ticks in one unit. */
export function linearAxis(unit: Unit, max: number, count = 5): LinearAxis {
  const top = max > 0 && Number.isFinite(max) ? max : 1
  const scale = axisScale(unit, top)
  const step = niceStep(top / scale.factor, count)
  const ticks: number[] = []
  const last = Math.ceil(top / scale.factor / step - 1e-9)
  for (let i = 0; i <= last; i++) ticks.push(i * step * scale.factor)
  const format = (value: number): string => {
    // the axis' origin needs no unit; every other tick says it
    if (value === 0) return '0'
    const text = tickNumber(value / scale.factor, step)
    if (!scale.suffix) return text
    return unit === 'op/s' && scale.factor > 1 ? `${text}${scale.suffix}` : `${text} ${scale.suffix}`
  }
  return { ticks, top: ticks[ticks.length - 1]!, format }
}

export interface LogAxis {
  ticks: number[]
  domain: [number, number]
}

/**
 * A log axis over [min, max] (both > 0): ticks at 1, 2 and 5 of each decade, or at the decades
 * alone past `most` ticks; the domain runs from the tick at or below `min` to the one at or above
 * `max`, so the axis starts and ends on a labelled tick.
 */
export function logAxis(min: number, max: number, most = 9): LogAxis {
  const low = Math.floor(Math.log10(min))
  const high = Math.ceil(Math.log10(max))
  const build = (steps: readonly number[]): number[] => {
    const all: number[] = []
    for (let d = low; d <= high; d++) for (const m of steps) all.push(Number((m * 10 ** d).toPrecision(6)))
    const start = all.filter((t) => t <= min * (1 + 1e-9)).pop() ?? all[0]!
    const end = all.find((t) => t >= max * (1 - 1e-9)) ?? all[all.length - 1]!
    return all.filter((t) => t >= start && t <= end)
  }
  let ticks = build([1, 2, 5])
  if (ticks.length > most) ticks = build([1])
  return { ticks, domain: [ticks[0]!, ticks[ticks.length - 1]!] }
}

/** A log axis' tick in the unit its own size calls for, without trailing zeros: "20 µs", "1 ms". */
export function logTickFormat(unit: Unit): (value: number) => string {
  return (value) => {
    if (value === 0) return '0'
    const scale = axisScale(unit, value)
    const text = String(Number((value / scale.factor).toPrecision(3)))
    if (!scale.suffix) return text
    return unit === 'op/s' && scale.factor > 1 ? `${text}${scale.suffix}` : `${text} ${scale.suffix}`
  }
}
