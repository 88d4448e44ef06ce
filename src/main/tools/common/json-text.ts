/**
 * Finds the JSON document in a tool's output when the tool prints notes or
 * warnings before or after it (fio, iperf3). Returns the parsed value and where
 * the document starts and ends, or null when no complete object is there.
 *
 * Fast path: the text from the first line that starts with `{` to the last `}`
 * is parsed once (the usual case: one document, maybe notes around it). Only if
 * that fails is the end found by scanning strings and braces.
 */
export function findJsonObject(text: string): { value: unknown; start: number; end: number } | null {
  const start = firstObjectStart(text)
  if (start < 0) return null
  const last = text.lastIndexOf('}')
  if (last < start) return null
  try {
    return { value: JSON.parse(text.slice(start, last + 1)), start, end: last + 1 }
  } catch {
    // fall through: text after the document contains a '}' of its own, or the document is cut short
  }
  const end = matchingBrace(text, start)
  if (end < 0) return null
  try {
    return { value: JSON.parse(text.slice(start, end + 1)), start, end: end + 1 }
  } catch {
    return null
  }
}

function firstObjectStart(text: string): number {
  if (text.startsWith('{')) return 0
  const i = text.search(/(^|\n)\s*\{/)
  if (i < 0) return -1
  return text.indexOf('{', i)
}

function matchingBrace(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 /* { */) depth++
    else if (c === 125 /* } */) {
      depth--
      if (depth === 0) return i
    }
  }
  return -1
}
