/**
 * fio's json+ format adds, to every latency object, a `"bins"` member holding the whole latency
 * histogram: one `"<latency ns>" : <count>` entry per non-empty bucket. That is most of the
 * bytes of a json+ report, and VirtBench uses none of it (fio's own percentiles are kept).
 *
 * `withoutHistogramBins` cuts those members out of the text before it is parsed, so the parser
 * neither reads nor allocates thousands of bucket entries per job. A member is cut only when it
 * is exactly what fio writes (a key `"bins"`, then a flat object of quoted whole numbers mapped to
 * whole numbers); anything else is left in place, and JSON.parse judges the result.
 */

const KEY = '"bins"'
const BACKSLASH = 92
const COLON = 58
const COMMA = 44
const OPEN_BRACE = 123
/** The body of a bins object: `"123" : 4, "456" : 7` with any whitespace. */
const BINS_BODY = /^\s*(?:"\d+"\s*:\s*\d+\s*(?:,\s*"\d+"\s*:\s*\d+\s*)*)?$/

export function withoutHistogramBins(text: string): string {
  let at = text.indexOf(KEY)
  if (at < 0) return text
  const kept: string[] = []
  let from = 0
  while (at >= 0) {
    const cut = binsMember(text, at)
    if (cut && cut.start >= from) {
      kept.push(text.slice(from, cut.start))
      from = cut.end
      at = text.indexOf(KEY, cut.end)
    } else {
      at = text.indexOf(KEY, at + KEY.length)
    }
  }
  if (kept.length === 0) return text
  kept.push(text.slice(from))
  return kept.join('')
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++
  return i
}

function skipSpaceBack(text: string, i: number): number {
  while (i >= 0 && isSpace(text.charCodeAt(i))) i--
  return i
}

/** The span to remove for the `"bins" : {...}` member at `keyAt`, with one adjacent comma; null if it is not one. */
function binsMember(text: string, keyAt: number): { start: number; end: number } | null {
  // A quote right after an escaped character would be inside a longer string.
  if (keyAt > 0 && text.charCodeAt(keyAt - 1) === BACKSLASH) return null
  let i = skipSpace(text, keyAt + KEY.length)
  if (text.charCodeAt(i) !== COLON) return null
  i = skipSpace(text, i + 1)
  if (text.charCodeAt(i) !== OPEN_BRACE) return null
  const close = text.indexOf('}', i + 1)
  if (close < 0 || !BINS_BODY.test(text.slice(i + 1, close))) return null
  const before = skipSpaceBack(text, keyAt - 1)
  if (before >= 0 && text.charCodeAt(before) === COMMA) return { start: before, end: close + 1 }
  const after = skipSpace(text, close + 1)
  if (text.charCodeAt(after) === COMMA) return { start: keyAt, end: after + 1 }
  return { start: keyAt, end: close + 1 }
}
