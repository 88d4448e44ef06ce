/**
 * Byte-exact edits of an XML text read with the engine's XML reader: an attribute set or
 * removed inside one start tag, an element's text replaced, a child inserted, an element
 * removed. Everything the edits do not touch (unknown elements, spacing, quotes, comments)
 * stays byte-identical. Pure.
 */
import type { XmlElement } from '../engine/environment/xml'

export interface TextEdit {
  start: number
  end: number
  text: string
}

/** The offset just after the `>` of the element's start tag (quotes respected). */
export function startTagEnd(text: string, element: XmlElement): number {
  let quote = ''
  for (let i = element.at + 1; i < text.length; i++) {
    const c = text[i]
    if (quote) {
      if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === '>') return i + 1
  }
  return text.length
}

function selfClosing(text: string, element: XmlElement): boolean {
  return text[startTagEnd(text, element) - 2] === '/'
}

/** Where the element's closing tag `</name>` starts (its start tag's end for `<x/>`). */
export function closeTagStart(text: string, element: XmlElement): number {
  const afterStart = startTagEnd(text, element)
  if (selfClosing(text, element)) return afterStart
  const last = element.children[element.children.length - 1]
  let i = last ? elementEnd(text, last) : afterStart
  for (;;) {
    const lt = text.indexOf('<', i)
    if (lt < 0) return text.length
    if (text.startsWith('<!--', lt)) i = text.indexOf('-->', lt) + 3
    else if (text.startsWith('<![CDATA[', lt)) i = text.indexOf(']]>', lt) + 3
    else return lt
    if (i < 3) return text.length
  }
}

/** The offset just after the element (after `/>` or its closing tag). */
export function elementEnd(text: string, element: XmlElement): number {
  if (selfClosing(text, element)) return startTagEnd(text, element)
  const close = closeTagStart(text, element)
  const gt = text.indexOf('>', close)
  return gt < 0 ? text.length : gt + 1
}

/** Escapes a value for a single-quoted attribute or element text. */
export function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;').replace(/"/g, '&quot;')
}

const ATTRIBUTE = (name: string): RegExp => new RegExp(`(\\s+)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=\\s*(['"])([^'"]*)\\2`)

/** Sets `name` in the element's start tag: the value replaced in place, or ` name='value'` added last. */
export function setAttribute(text: string, element: XmlElement, name: string, value: string): TextEdit {
  const end = startTagEnd(text, element)
  const tag = text.slice(element.at, end)
  const found = ATTRIBUTE(name).exec(tag.slice(1 + element.name.length))
  if (found) {
    const valueStart = element.at + 1 + element.name.length + found.index + found[0].length - 1 - (found[3] ?? '').length
    return { start: valueStart, end: valueStart + (found[3] ?? '').length, text: escapeXml(value) }
  }
  const at = end - (tag.endsWith('/>') ? 2 : 1)
  return { start: at, end: at, text: ` ${name}='${escapeXml(value)}'` }
}

/** Removes `name` from the element's start tag; undefined when it is not there. */
export function removeAttribute(text: string, element: XmlElement, name: string): TextEdit | undefined {
  const end = startTagEnd(text, element)
  const offset = element.at + 1 + element.name.length
  const found = ATTRIBUTE(name).exec(text.slice(offset, end))
  if (!found) return undefined
  return { start: offset + found.index, end: offset + found.index + found[0].length, text: '' }
}

/** Replaces the text between the element's start and closing tags (for elements without children). */
export function setText(text: string, element: XmlElement, value: string): TextEdit {
  if (selfClosing(text, element)) {
    const end = startTagEnd(text, element)
    return { start: end - 2, end, text: `>${escapeXml(value)}</${element.name}>` }
  }
  return { start: startTagEnd(text, element), end: closeTagStart(text, element), text: escapeXml(value) }
}

/** The element's text (for elements without children). */
export function textOf(text: string, element: XmlElement): string {
  if (selfClosing(text, element)) return ''
  return text.slice(startTagEnd(text, element), closeTagStart(text, element)).trim()
}

function indentOf(text: string, at: number): string {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1
  const before = text.slice(lineStart, at)
  return /^[ \t]*$/.test(before) ? before : ''
}

/** Inserts `markup` (one element) as the parent's last child, on a line of its own, indented like its siblings. */
export function appendChild(text: string, parent: XmlElement, markup: string): TextEdit {
  const parentIndent = indentOf(text, parent.at)
  const sibling = parent.children[0]
  const indent = (sibling ? indentOf(text, sibling.at) : '') || `${parentIndent}  `
  if (selfClosing(text, parent)) {
    const end = startTagEnd(text, parent)
    return { start: end - 2, end, text: `>\n${indent}${markup}\n${parentIndent}</${parent.name}>` }
  }
  const close = closeTagStart(text, parent)
  const lineStart = text.lastIndexOf('\n', close - 1) + 1
  if (/^[ \t]*$/.test(text.slice(lineStart, close))) return { start: lineStart, end: lineStart, text: `${indent}${markup}\n` }
  return { start: close, end: close, text: `\n${indent}${markup}\n${parentIndent}` }
}

/** Inserts `markup` as the first child of `parent`, on its own line when its first child has one (libvirt writes a disk's <driver> first). */
export function prependChild(text: string, parent: XmlElement, markup: string): TextEdit {
  const first = parent.children[0]
  if (!first) return appendChild(text, parent, markup)
  const lineStart = text.lastIndexOf('\n', first.at - 1) + 1
  if (/^[ \t]*$/.test(text.slice(lineStart, first.at))) return { start: lineStart, end: lineStart, text: `${indentOf(text, first.at)}${markup}\n` }
  return { start: first.at, end: first.at, text: markup }
}

/** Removes the element, with its line when it stands on a line of its own. */
export function removeElement(text: string, element: XmlElement): TextEdit {
  let start = element.at
  let end = elementEnd(text, element)
  const lineStart = text.lastIndexOf('\n', start - 1) + 1
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && text[end] === '\n') {
    start = lineStart
    end++
  }
  return { start, end, text: '' }
}

/** Applies edits that do not overlap (any order). Throws on an overlap: that is a bug of the caller. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end)
  let out = text
  let limit = Infinity
  for (const e of sorted) {
    if (e.end > limit) throw new Error(`overlapping XML edits at offset ${e.start}`)
    out = out.slice(0, e.start) + e.text + out.slice(e.end)
    limit = e.start
  }
  return out
}
