/**
 * A number as typed into a field: the number when the text is one (`3`, `-2.5`, `1e6`), else the
 * text as it is, so main's plan review names the problem at the field instead of the form
 * guessing. One rule for every number field of the app.
 */
export function typedNumber(text: string): number | string {
  const trimmed = text.trim()
  return /^-?[0-9]+(\.[0-9]+)?(e[+-]?[0-9]+)?$/i.test(trimmed) ? Number(trimmed) : trimmed
}
