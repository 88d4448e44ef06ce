const SIZE_UNITS: Record<string, number> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40, p: 2 ** 50 }
const SIZE_PATTERN = /^([1-9][0-9]{0,15})([kmgtp]?)(?:i?b)?$/i

/**
 * Bytes of a fio size such as `4k`, `64KiB`, `1g` or `512`. fio reads k/m/g as powers of
 * 1024 (its default kb_base), which is what this returns; null when it is not such a size.
 */
export function fioSizeBytes(text: string): number | null {
  const m = SIZE_PATTERN.exec(text)
  if (!m) return null
  const bytes = Number(m[1]) * SIZE_UNITS[m[2]!.toLowerCase()]!
  return Number.isSafeInteger(bytes) ? bytes : null
}
