/**
 * A small, strict XML reader for the subset libvirt writes (`virsh dumpxml`): elements,
 * attributes in ' or " quotes, the five named entities and numeric character references,
 * comments, CDATA, processing instructions and a DOCTYPE (skipped). Text content is not kept:
 * everything VirtBench reads from a domain lives in attributes.
 *
 * It never throws: bad input gives `{ ok: false, error }` naming what is wrong, where (line and
 * column) and quoting the offending part. No recursion, so hostile nesting cannot overflow the
 * stack; nesting deeper than MAX_DEPTH is refused.
 */

export interface XmlElement {
  name: string
  attributes: ReadonlyMap<string, string>
  children: XmlElement[]
  /** Offset of the element's `<` in the text. */
  at: number
}

export type XmlResult = { ok: true; root: XmlElement } | { ok: false; error: string }

const MAX_DEPTH = 256
const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"]
])
const NAME_START = /[A-Za-z_:\u00c0-\uffff]/
const NAME_CHAR = /[A-Za-z0-9_:.\u00b7\u00c0-\uffff-]/
const SPACE = /[ \t\r\n]/

class XmlError extends Error {}

/** "line 3, column 7" of an offset. */
export function position(text: string, at: number): string {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < at && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return `line ${line}, column ${at - lineStart + 1}`
}

/** A short single-line quote of the text at `at`, control characters escaped. */
export function quoteAt(text: string, at: number, max = 60): string {
  const part = text.slice(at, at + max).replace(/\s+/g, ' ')
  // eslint-disable-next-line no-control-regex
  const safe = part.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
  return `"${safe}${at + max < text.length ? '…' : ''}"`
}

function fail(text: string, at: number, what: string): never {
  throw new XmlError(`${what} at ${position(text, at)}: ${quoteAt(text, at)}`)
}

function decodeReference(text: string, ref: string, at: number, attribute: string): string {
  const named = NAMED_ENTITIES.get(ref)
  if (named !== undefined) return named
  const numeric = /^#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}))$/.exec(ref)
  if (numeric) {
    const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2] ?? '', 10)
    const allowed = code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) && code !== 0xfffe && code !== 0xffff)
    if (!allowed) fail(text, at, `character reference &${ref}; in attribute ${attribute} is not a character XML allows`)
    return String.fromCodePoint(code)
  }
  return fail(text, at, `unknown entity &${ref}; in attribute ${attribute} (XML knows &amp; &lt; &gt; &quot; &apos; and &#N;)`)
}

/** An attribute value as XML defines it: literal whitespace becomes spaces, references decoded. */
function attributeValue(text: string, raw: string, start: number, attribute: string): string {
  let out = ''
  let i = 0
  while (i < raw.length) {
    const c = raw[i] ?? ''
    if (c === '&') {
      const end = raw.indexOf(';', i + 1)
      if (end < 0 || end - i > 12) fail(text, start + i, `a bare "&" in attribute ${attribute} (write &amp;)`)
      out += decodeReference(text, raw.slice(i + 1, end), start + i, attribute)
      i = end + 1
    } else if (c === '<') {
      fail(text, start + i, `a "<" inside attribute ${attribute} (write &lt;)`)
    } else {
      out += c === '\t' || c === '\n' || c === '\r' ? ' ' : c
      i++
    }
  }
  return out
}

/** Reads a name starting at `i`; returns its end. */
function nameEnd(text: string, i: number): number {
  if (!NAME_START.test(text[i] ?? '')) return i
  let j = i + 1
  while (j < text.length && NAME_CHAR.test(text[j] ?? '')) j++
  return j
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && SPACE.test(text[i] ?? '')) i++
  return i
}

/** Skips `<!DOCTYPE ...>` with an internal subset in [ ]. */
function doctypeEnd(text: string, start: number): number {
  let depth = 0
  let quote = ''
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (quote) {
      if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === '[') depth++
    else if (c === ']') depth--
    else if (c === '>' && depth <= 0) return i + 1
  }
  return fail(text, start, 'a <!DOCTYPE ...> that never ends (the XML is cut off)')
}

interface OpenTag {
  element: XmlElement
  selfClosing: boolean
  end: number
}

function readStartTag(text: string, start: number): OpenTag {
  const nameStop = nameEnd(text, start + 1)
  if (nameStop === start + 1) fail(text, start, 'a "<" that starts no element name')
  const name = text.slice(start + 1, nameStop)
  const attributes = new Map<string, string>()
  let i = nameStop
  for (;;) {
    const before = i
    i = skipSpace(text, i)
    if (i >= text.length) fail(text, start, `element <${name}> is cut off before its ">"`)
    if (text.startsWith('/>', i)) return { element: { name, attributes, children: [], at: start }, selfClosing: true, end: i + 2 }
    if (text[i] === '>') return { element: { name, attributes, children: [], at: start }, selfClosing: false, end: i + 1 }
    if (i === before) fail(text, i, `attributes of <${name}> must be separated by spaces`)
    const attrStop = nameEnd(text, i)
    if (attrStop === i) fail(text, i, `an unexpected character in element <${name}>`)
    const attribute = text.slice(i, attrStop)
    i = skipSpace(text, attrStop)
    if (text[i] !== '=') fail(text, i, `attribute ${attribute} of <${name}> has no "=" and value`)
    i = skipSpace(text, i + 1)
    const quote = text[i]
    if (quote !== '"' && quote !== "'") fail(text, i, `the value of attribute ${attribute} of <${name}> is not in quotes`)
    const close = text.indexOf(quote, i + 1)
    if (close < 0) fail(text, i, `the value of attribute ${attribute} of <${name}> never ends (the XML is cut off)`)
    if (attributes.has(attribute)) fail(text, i, `attribute ${attribute} appears twice in <${name}>`)
    attributes.set(attribute, attributeValue(text, text.slice(i + 1, close), i + 1, attribute))
    i = close + 1
  }
}

function readDocument(text: string): XmlElement {
  const stack: XmlElement[] = []
  let root: XmlElement | undefined
  let i = 0
  while (i < text.length) {
    const lt = text.indexOf('<', i)
    if (stack.length === 0) {
      const outside = text.slice(i, lt < 0 ? text.length : lt).search(/\S/)
      if (outside >= 0) fail(text, i + outside, root ? 'text after the root element' : 'text before the first element')
    }
    if (lt < 0) break
    i = lt
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4)
      if (end < 0) fail(text, i, 'a comment that never ends (the XML is cut off)')
      i = end + 3
    } else if (text.startsWith('<![CDATA[', i)) {
      if (stack.length === 0) fail(text, i, 'CDATA outside the root element')
      const end = text.indexOf(']]>', i + 9)
      if (end < 0) fail(text, i, 'a CDATA section that never ends (the XML is cut off)')
      i = end + 3
    } else if (text.startsWith('<!DOCTYPE', i)) {
      if (root || stack.length > 0) fail(text, i, 'a DOCTYPE after the first element')
      i = doctypeEnd(text, i)
    } else if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2)
      if (end < 0) fail(text, i, 'a processing instruction that never ends (the XML is cut off)')
      i = end + 2
    } else if (text.startsWith('</', i)) {
      const stop = nameEnd(text, i + 2)
      const name = text.slice(i + 2, stop)
      const gt = skipSpace(text, stop)
      if (text[gt] !== '>') fail(text, i, name ? `closing tag </${name}> is cut off or malformed` : 'a "</" without an element name')
      const open = stack.pop()
      if (!open) fail(text, i, `closing tag </${name}> without an open element`)
      if (open.name !== name) fail(text, i, `closing tag </${name}> does not match <${open.name}> opened at ${position(text, open.at)}`)
      i = gt + 1
    } else {
      if (root && stack.length === 0) fail(text, i, `a second root element after <${root.name}>`)
      const tag = readStartTag(text, i)
      const parent = stack[stack.length - 1]
      if (parent) parent.children.push(tag.element)
      else root = tag.element
      if (!tag.selfClosing) {
        if (stack.length >= MAX_DEPTH) fail(text, i, `elements nested deeper than ${MAX_DEPTH} levels`)
        stack.push(tag.element)
      }
      i = tag.end
    }
  }
  const open = stack[stack.length - 1]
  if (open) {
    throw new XmlError(`the XML ends inside <${open.name}> opened at ${position(text, open.at)} (it was cut off): ${quoteAt(text, Math.max(0, text.length - 60))}`)
  }
  if (!root) throw new XmlError('no XML element found')
  return root
}

/** Parses XML text into elements and attributes; never throws. */
export function parseXml(text: string): XmlResult {
  try {
    return { ok: true, root: readDocument(text) }
  } catch (err) {
    if (err instanceof XmlError) return { ok: false, error: err.message }
    return { ok: false, error: `the XML could not be read: ${String(err)}` }
  }
}

/** The element's first child with that name. */
export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name)
}

export function children(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name)
}
