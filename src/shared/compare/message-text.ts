/** Numbers as the flags' sentences show them (the UI formats tables itself). */

/** 126 %, 99.7 %, 14.2 %: whole numbers from 100 up, one decimal below. */
export function pctText(pct: number): string {
  const digits = Math.abs(pct) >= 100 ? 0 : 1
  return `${Number(pct.toFixed(digits))} %`
}

/** 29.4 Mbit/s, 8.35 Gbit/s: three significant digits in the largest unit that keeps 1 or more. */
export function bitRateText(bitsPerSecond: number): string {
  const units: [number, string][] = [
    [1e9, 'Gbit/s'],
    [1e6, 'Mbit/s'],
    [1e3, 'kbit/s']
  ]
  const [scale, unit] = units.find(([s]) => Math.abs(bitsPerSecond) >= s) ?? [1, 'bit/s']
  return `${Number((bitsPerSecond / scale).toPrecision(3))} ${unit}`
}
