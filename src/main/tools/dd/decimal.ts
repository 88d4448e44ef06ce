const DECIMAL = /^[0-9]+(?:[.,][0-9]+)?(?:[eE][+-]?[0-9]+)?$/

/**
 * A number as dd and time print it: `0.0419217`, `9.8226e-05`, or with a decimal comma in
 * locales such as de_DE (`0,0431555`). Null when the text is anything else.
 */
export function parseDecimal(text: string): number | null {
  if (!DECIMAL.test(text)) return null
  const value = Number(text.replace(',', '.'))
  return Number.isFinite(value) ? value : null
}

/** The value of one unit in the last printed digit: 0.01 for `0.07`, 1e-9 for `9.8226e-05`, 1 for `3`. */
export function lastDigitUnit(text: string): number {
  const m = /^[0-9]+(?:[.,]([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text)
  if (!m) return 1
  const decimals = m[1]?.length ?? 0
  const exponent = m[2] === undefined ? 0 : Number(m[2])
  return 10 ** (exponent - decimals)
}
