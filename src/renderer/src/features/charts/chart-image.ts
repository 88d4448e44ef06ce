/**
 * A chart card as a file for a slide or a ticket: one standalone SVG document that looks
 * the same in any viewer (every colour, dash and font written as a literal attribute, the title
 * and the legend drawn in it, the hatch patterns copied in), and a PNG rendered from that SVG.
 *
 * Reads the live card: recharts' <svg class="recharts-surface"> with its HTML legend, a plot drawn
 * as plain SVG with its figures' names in HTML beside it (latency-plot.tsx) and the card's legend
 * list, or the HTML heat table of the network matrix and iozone charts. Colours come from getComputedStyle with the
 * card switched to the light scheme while it is read, so a dark screen still gives a light image.
 */

const SVG_NS = 'http://www.w3.org/2000/svg'
const PAD = 16
const GAP = 12
const BACKGROUND = '#ffffff'
const DEFAULT_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Ubuntu, 'Helvetica Neue', sans-serif"
/** The theme's colours with the light values as fallbacks (styles.css, palette.css). */
const TEXT_COLOUR = 'var(--chart-text, var(--text, #1b2330))'
const MUTED_COLOUR = 'var(--muted, #5b6575)'
const BORDER_COLOUR = 'var(--border, #d9dee6)'

export interface ChartSvgOptions {
  /** The card's title: the first line of the image. */
  title: string
  /** What the card's controls have chosen, in words; by default the selected option of each select. */
  subtitle?: string
  /** Where it comes from (run name, date, targets): a muted line under the subtitle. */
  source?: string
  /** The colours of the image: light (on white) whatever the screen shows. */
  theme?: 'light'
}

/**
 * The chart shown in `card` as one standalone SVG document: a white background, the title (and
 * the selected metric), the plot with every style resolved to attributes, the legend drawn as SVG,
 * and the hatch patterns it uses. No class, no style attribute, no script, no foreignObject, no
 * reference outside the document. Throws when the card has nothing drawn.
 */
export function chartSvg(card: HTMLElement, options: ChartSvgOptions): string {
  return withLightScheme(card, () => buildSvg(card, options))
}

/** The PNG of `svgText` at `scale` (2 = twice the SVG's pixel size, sharp on slides). */
export async function chartPng(svgText: string, scale = 2): Promise<Blob> {
  const { width, height } = svgSize(svgText)
  if (!(scale > 0)) throw new Error(`The PNG scale must be above 0, not ${scale}.`)
  // A data: URL: the page's Content-Security-Policy allows `img-src 'self' data:`, not blob:.
  const image = await loadImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`)
  const canvas = document.createElement('canvas')
  canvas.width = Math.ceil(width * scale)
  canvas.height = Math.ceil(height * scale)
  const context = canvas.getContext('2d')
  if (!context) throw new Error('This window cannot draw on a canvas, so no PNG can be made; save the SVG instead.')
  context.drawImage(image, 0, 0, canvas.width, canvas.height)
  return await new Promise<Blob>((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The canvas gave no PNG (the image may be too large); save the SVG instead.'))), 'image/png')
  })
}

/** `<stem>-<slug of title>.<ext>`, safe as a file name on every system. */
export function chartFileName(fileStem: string, title: string, ext: 'svg' | 'png'): string {
  const stem = fileStem.replace(/[\\/:*?"<>|\s]+/g, '-').replace(/^-+|-+$/g, '') || 'virtbench'
  return `${stem}-${slug(title)}.${ext}`
}

/** "Baseline and variants side by side" -> "baseline-and-variants-side-by-side". */
export function slug(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '')
  return s || 'chart'
}

// ---------------------------------------------------------------------------------------------
// The document

interface Block {
  width: number
  height: number
  draw(x: number, y: number): string
}

function buildSvg(card: HTMLElement, options: ChartSvgOptions): string {
  const ctx = readingContext(card)
  const multiples = card.querySelector<HTMLElement>('.charts-multiples')
  const blocks = multiples ? multiplesBlocks(card, multiples, ctx) : plotBlocks(card, ctx)
  const drawn = blocks.filter((b): b is Block => b !== undefined)
  if (drawn.length === 0) throw new Error(`"${options.title}" has no chart drawn yet, so there is nothing to save.`)

  const contentWidth = Math.max(320, ...drawn.map((b) => b.width))
  const text = ctx.colour(card, TEXT_COLOUR)
  const muted = ctx.colour(card, MUTED_COLOUR)
  const parts: string[] = []
  let y = PAD
  for (const line of wrapText(options.title, contentWidth, 16, 600, ctx.measure)) {
    parts.push(textEl(line, PAD, y + 16, { size: 16, weight: 600, colour: text }))
    y += 22
  }
  const subtitle = options.subtitle ?? selectedChoices(card)
  if (subtitle) {
    for (const line of wrapText(subtitle, contentWidth, 13, 400, ctx.measure)) {
      parts.push(textEl(line, PAD, y + 14, { size: 13, colour: muted }))
      y += 18
    }
  }
  if (options.source) {
    for (const line of wrapText(options.source, contentWidth, 12, 400, ctx.measure)) {
      parts.push(textEl(line, PAD, y + 13, { size: 12, colour: muted }))
      y += 16
    }
  }
  y += 8
  for (const block of drawn) {
    parts.push(block.draw(PAD, y))
    y += block.height + GAP
  }
  const width = Math.ceil(contentWidth + 2 * PAD)
  const height = Math.ceil(y - GAP + PAD)
  const defs = referencedDefs(ctx)
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${attr(ctx.base.font)}" font-size="${ctx.base.size}">`,
    `<title>${escapeXml(subtitle ? `${options.title}: ${subtitle}` : options.title)}</title>`,
    defs ? `<defs>${defs}</defs>` : '',
    `<rect width="${width}" height="${height}" fill="${BACKGROUND}"/>`,
    ...parts,
    '</svg>',
    ''
  ]
    .filter((line) => line !== '')
    .join('\n')
}

/** The selected option of each of the card's selects: "4 KiB random read · fio.read.iops". */
function selectedChoices(card: HTMLElement): string {
  return [...card.querySelectorAll('select')]
    .map((select) => select.selectedOptions[0]?.textContent?.trim() ?? '')
    .filter(Boolean)
    .join(' · ')
}

/** Reads `card` with light-dark() resolving to its light values, then puts the card back as it was. */
function withLightScheme<T>(card: HTMLElement, read: () => T): T {
  const hadStyle = card.hasAttribute('style')
  const previous = card.style.getPropertyValue('color-scheme')
  const priority = card.style.getPropertyPriority('color-scheme')
  card.style.setProperty('color-scheme', 'light', 'important')
  try {
    return read()
  } finally {
    if (previous) card.style.setProperty('color-scheme', previous, priority)
    else card.style.removeProperty('color-scheme')
    if (!hadStyle && card.style.length === 0) card.removeAttribute('style')
  }
}

// ---------------------------------------------------------------------------------------------
// Reading styles

/** The inherited properties written as attributes, and those that belong to one element only. */
const INHERITED = ['fill', 'fill-opacity', 'stroke', 'stroke-opacity', 'stroke-width', 'stroke-dasharray', 'stroke-linecap', 'stroke-linejoin', 'font-family', 'font-size', 'font-weight', 'text-anchor'] as const
const OWN = ['opacity', 'dominant-baseline'] as const
type StyleProp = (typeof INHERITED)[number] | (typeof OWN)[number]
type Style = Record<StyleProp, string>

/** What a property is when nothing sets it (and the placeholders an engine without layout gives). */
const INITIAL: Record<string, readonly string[]> = {
  fill: ['rgb(0, 0, 0)', 'black', '#000000'],
  'fill-opacity': ['1'],
  stroke: ['none', 'rgba(0, 0, 0, 0)'],
  'stroke-opacity': ['1'],
  'stroke-width': ['1px', '1'],
  'stroke-dasharray': ['none'],
  'stroke-linecap': ['butt'],
  'stroke-linejoin': ['miter'],
  'font-family': ['depends on user agent'],
  'font-size': ['medium'],
  'font-weight': ['normal', '400'],
  'text-anchor': ['start'],
  opacity: ['1'],
  'dominant-baseline': ['auto'],
  color: ['canvastext', 'rgb(0, 0, 0)'],
  'background-color': ['rgba(0, 0, 0, 0)', 'transparent'],
  'text-align': ['start']
}

interface ReadingContext {
  /** The root's font and size: what every element inherits unless it says otherwise. */
  base: { font: string; size: string; style: Style; out: Style }
  /** The resolved value of `prop` set on `el` (by a rule, its style or an attribute), if any. */
  own(el: Element, prop: string): string | undefined
  /** The value of `prop` on `el` or the nearest ancestor that sets it. */
  inherited(el: Element, prop: string): string | undefined
  /** A CSS colour value (possibly with var()) resolved against `el`, as an SVG colour. */
  colour(el: Element, value: string): Colour
  /** The width of a text in the root font. */
  measure(text: string, fontSize: number, weight?: number): number
  /** Paint servers and clip paths of the card by id: what url(#id) may point at. */
  targets: Map<string, Element>
  written: Set<string>
  referenced: Set<string>
}

function readingContext(card: HTMLElement): ReadingContext {
  const mapsAttributes = computesPresentationAttributes(card)
  // getComputedStyle's answer is live: one per element is enough
  const styles = new WeakMap<Element, CSSStyleDeclaration>()
  const computedOf = (el: Element): CSSStyleDeclaration => {
    let style = styles.get(el)
    if (!style) styles.set(el, (style = getComputedStyle(el)))
    return style
  }
  const lookup = (el: Element) => (name: string) => computedOf(el).getPropertyValue(name).trim() || undefined
  const own = (el: Element, prop: string): string | undefined => {
    const computed = computedOf(el).getPropertyValue(prop).trim()
    let raw = computed
    if (!mapsAttributes) {
      // An engine without SVG presentation attributes in its computed style (and no var()
      // substitution): the element's own style, then its attribute, then a rule's value (what
      // differs from the initial value and from the parent's, so not a default or inherited one).
      const style = (el as HTMLElement | SVGElement).style
      const inline = style?.getPropertyValue(prop).trim() || (prop === 'background-color' ? style?.getPropertyValue('background').trim() : '')
      const parent = el.parentElement ? computedOf(el.parentElement).getPropertyValue(prop).trim() : undefined
      const ruled = INITIAL[prop]?.includes(computed) || computed === parent ? '' : computed
      raw = inline || el.getAttribute(prop)?.trim() || ruled
    }
    return raw ? resolveCss(raw, lookup(el)) : undefined
  }
  const inherited = (el: Element, prop: string): string | undefined => {
    for (let node: Element | null = el; node; node = node.parentElement) {
      const value = own(node, prop)
      if (value !== undefined) return value
    }
    return undefined
  }
  const font = quoteFamily(inherited(card, 'font-family') ?? DEFAULT_FONT)
  const size = lengthOf(inherited(card, 'font-size') ?? '14px') ?? '14'
  const style: Style = {
    fill: '#000000',
    'fill-opacity': '1',
    stroke: 'none',
    'stroke-opacity': '1',
    'stroke-width': '1',
    'stroke-dasharray': 'none',
    'stroke-linecap': 'butt',
    'stroke-linejoin': 'miter',
    'font-family': font,
    'font-size': size,
    'font-weight': '400',
    'text-anchor': 'start',
    opacity: '1',
    'dominant-baseline': 'auto'
  }
  const targets = new Map<string, Element>()
  for (const el of card.querySelectorAll('pattern[id], linearGradient[id], radialGradient[id], clipPath[id]')) targets.set(el.id, el)
  const ctx: ReadingContext = {
    base: { font, size, style, out: style },
    own,
    inherited,
    colour: (el, value) => parseColour(resolveCss(value, lookup(el)) ?? '') ?? { value: 'none', alpha: 1 },
    measure: textMeasurer(card, font),
    targets,
    written: new Set(),
    referenced: new Set()
  }
  ctx.base.out = outputStyle(style, card, ctx)
  return ctx
}

/** Whether getComputedStyle reflects an SVG element's fill attribute (browsers do, jsdom does not). */
function computesPresentationAttributes(card: HTMLElement): boolean {
  const svg = document.createElementNS(SVG_NS, 'svg')
  svg.setAttribute('width', '0')
  svg.setAttribute('height', '0')
  const rect = document.createElementNS(SVG_NS, 'rect')
  rect.setAttribute('fill', '#010203')
  svg.append(rect)
  card.append(svg)
  try {
    return parseColour(getComputedStyle(rect).getPropertyValue('fill'))?.value === '#010203'
  } finally {
    svg.remove()
  }
}

/** The style of `el`: its own values over what it inherits from `parent`. */
function styleOf(el: Element, parent: Style, ctx: ReadingContext): Style {
  const style: Style = { ...parent, opacity: '1', 'dominant-baseline': 'auto' }
  for (const prop of [...INHERITED, ...OWN]) {
    const value = ctx.own(el, prop)
    if (value !== undefined) style[prop] = value
  }
  return style
}

/** A style as SVG attribute values: colours as hex with their alpha folded into the opacities. */
function outputStyle(style: Style, el: Element, ctx: ReadingContext): Style {
  const fill = paintOf(style.fill, el, ctx)
  const stroke = paintOf(style.stroke, el, ctx)
  return {
    fill: fill.value,
    'fill-opacity': num(opacityOf(style['fill-opacity']) * fill.alpha),
    stroke: stroke.value,
    'stroke-opacity': num(opacityOf(style['stroke-opacity']) * stroke.alpha),
    'stroke-width': lengthOf(style['stroke-width']) ?? '1',
    'stroke-dasharray': dashesOf(style['stroke-dasharray']),
    'stroke-linecap': style['stroke-linecap'],
    'stroke-linejoin': style['stroke-linejoin'],
    'font-family': quoteFamily(style['font-family']),
    'font-size': lengthOf(style['font-size']) ?? ctx.base.size,
    'font-weight': weightOf(style['font-weight']),
    'text-anchor': style['text-anchor'],
    opacity: num(opacityOf(style.opacity)),
    'dominant-baseline': style['dominant-baseline']
  }
}

/** The attributes `out` needs beside what it inherits from `parentOut`. */
function styleAttributes(out: Style, parentOut: Style, initial: Style): string {
  const changed = [...INHERITED.filter((p) => out[p] !== parentOut[p]), ...OWN.filter((p) => out[p] !== initial[p])]
  return changed.map((p) => ` ${p}="${attr(out[p])}"`).join('')
}

interface Colour {
  /** An SVG paint: #rrggbb, a colour keyword, none, or url(#id) of a pattern in the document. */
  value: string
  alpha: number
}

function paintOf(value: string, el: Element, ctx: ReadingContext): Colour {
  const v = value.trim()
  const url = /^url\(\s*["']?[^"')]*#([^"')]+)["']?\s*\)\s*(.*)$/i.exec(v)
  if (url) {
    const id = url[1]!
    if (ctx.targets.has(id)) {
      ctx.referenced.add(id)
      return { value: `url(#${id})`, alpha: 1 }
    }
    return url[2] ? paintOf(url[2], el, ctx) : { value: 'none', alpha: 1 }
  }
  if (/^currentcolou?r$/i.test(v)) return parseColour(ctx.inherited(el, 'color') ?? '') ?? { value: '#000000', alpha: 1 }
  return parseColour(v) ?? { value: 'none', alpha: 1 }
}

// ---------------------------------------------------------------------------------------------
// CSS values

/**
 * `value` with every var() replaced by the custom property `lookup` gives (or its fallback) and
 * every light-dark() by its light value; undefined when a var() has neither (invalid, as in CSS).
 */
export function resolveCss(value: string, lookup: (name: string) => string | undefined, depth = 0): string | undefined {
  if (depth > 16) return undefined
  const fn = /\b(var|light-dark)\(/i.exec(value)
  if (!fn) return value.trim()
  const open = fn.index + fn[0].length
  const close = matchingParen(value, open)
  if (close < 0) return undefined
  const args = splitArgs(value.slice(open, close))
  let replacement: string | undefined
  if (fn[1]!.toLowerCase() === 'var') {
    const name = args[0]?.trim() ?? ''
    const found = lookup(name)
    const fallback = args.length > 1 ? args.slice(1).join(',') : undefined
    replacement = found !== undefined ? resolveCss(found, lookup, depth + 1) : undefined
    if (replacement === undefined && fallback !== undefined) replacement = resolveCss(fallback, lookup, depth + 1)
  } else {
    replacement = args[0] === undefined ? undefined : resolveCss(args[0], lookup, depth + 1)
  }
  if (replacement === undefined) return undefined
  return resolveCss(value.slice(0, fn.index) + replacement + value.slice(close + 1), lookup, depth + 1)
}

function matchingParen(text: string, from: number): number {
  let depth = 1
  for (let i = from; i < text.length; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0) return i
  }
  return -1
}

function splitArgs(text: string): string[] {
  const args: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '(') depth++
    else if (ch === ')') depth--
    else if (ch === ',' && depth === 0) {
      args.push(text.slice(start, i))
      start = i + 1
    }
  }
  args.push(text.slice(start))
  return args
}

/** A CSS colour as an SVG one: #rrggbb and an alpha; keywords kept; undefined if not a colour. */
export function parseColour(value: string): Colour | undefined {
  const v = value.trim().toLowerCase()
  if (!v) return undefined
  if (v === 'none' || v === 'transparent') return { value: 'none', alpha: 1 }
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v)
  if (hex) {
    const h = hex[1]!.length <= 4 ? [...hex[1]!].map((c) => c + c).join('') : hex[1]!
    const alpha = h.length === 8 ? parseInt(h.slice(6), 16) / 255 : 1
    return visible(`#${h.slice(0, 6)}`, alpha)
  }
  const rgb = /^rgba?\((.*)\)$/.exec(v)
  if (rgb) {
    const parts = rgb[1]!.split(/[\s,/]+/).filter(Boolean)
    if (parts.length < 3) return undefined
    const channel = (p: string) => Math.round(Math.min(255, Math.max(0, p.endsWith('%') ? (parseFloat(p) * 255) / 100 : parseFloat(p))))
    const channels = parts.slice(0, 3).map(channel)
    if (channels.some((c) => Number.isNaN(c))) return undefined
    return visible(`#${channels.map((c) => c.toString(16).padStart(2, '0')).join('')}`, parts[3] === undefined ? 1 : opacityOf(parts[3]))
  }
  const srgb = /^color\(srgb\s+([^)]*)\)$/.exec(v)
  if (srgb) {
    const parts = srgb[1]!.split(/[\s/]+/).filter(Boolean)
    const channels = parts.slice(0, 3).map((p) => Math.round(Math.min(1, Math.max(0, p.endsWith('%') ? parseFloat(p) / 100 : parseFloat(p))) * 255))
    if (channels.length < 3 || channels.some((c) => Number.isNaN(c))) return undefined
    return visible(`#${channels.map((c) => c.toString(16).padStart(2, '0')).join('')}`, parts[3] === undefined ? 1 : opacityOf(parts[3]))
  }
  if (/^[a-z]+$/.test(v)) return { value: v, alpha: 1 }
  // Other colour functions (oklch(), color-mix() …) as the engine gave them.
  if (/^(?:hsla?|hwb|lab|lch|oklab|oklch|color|color-mix)\([^<>"]*\)$/.test(v)) return { value: v, alpha: 1 }
  return undefined
}

function visible(hex: string, alpha: number): Colour {
  return alpha <= 0 ? { value: 'none', alpha: 1 } : { value: hex, alpha }
}

function opacityOf(value: string): number {
  const n = parseFloat(value)
  if (Number.isNaN(n)) return 1
  return Math.min(1, Math.max(0, value.trim().endsWith('%') ? n / 100 : n))
}

/** "12px" -> "12"; undefined for what is not a plain length. */
function lengthOf(value: string): string | undefined {
  const m = /^(-?[\d.]+(?:e-?\d+)?)(px)?$/i.exec(value.trim())
  return m ? num(parseFloat(m[1]!)) : undefined
}

/** "3px, 3px" -> "3 3"; "none" when the dashes add up to nothing (a solid line). */
function dashesOf(value: string): string {
  const parts = value.trim().split(/[\s,]+/).filter(Boolean)
  if (parts.length === 0 || parts[0] === 'none') return 'none'
  const lengths = parts.map((p) => lengthOf(p))
  if (lengths.some((l) => l === undefined)) return 'none'
  return lengths.every((l) => Number(l) === 0) ? 'none' : lengths.join(' ')
}

function weightOf(value: string): string {
  const v = value.trim().toLowerCase()
  if (v === 'normal') return '400'
  if (v === 'bold') return '700'
  return /^\d+$/.test(v) ? v : '400'
}

/** A font list with single quotes (attribute-friendly), without what a viewer cannot use. */
function quoteFamily(value: string): string {
  const v = value.replace(/"/g, "'").trim()
  return v && v !== 'depends on user agent' ? v : DEFAULT_FONT
}

function num(n: number): string {
  return String(Math.round(n * 10000) / 10000)
}

// ---------------------------------------------------------------------------------------------
// SVG elements of the live drawing, converted

/** The SVG elements written, and the geometry attributes each keeps (styles are resolved apart). */
const GEOMETRY: Record<string, readonly string[]> = {
  svg: ['x', 'y', 'width', 'height', 'viewBox', 'preserveAspectRatio'],
  g: ['transform'],
  defs: [],
  path: ['d', 'transform'],
  rect: ['x', 'y', 'width', 'height', 'rx', 'ry', 'transform'],
  circle: ['cx', 'cy', 'r', 'transform'],
  ellipse: ['cx', 'cy', 'rx', 'ry', 'transform'],
  line: ['x1', 'y1', 'x2', 'y2', 'transform'],
  polyline: ['points', 'transform'],
  polygon: ['points', 'transform'],
  text: ['x', 'y', 'dx', 'dy', 'rotate', 'textLength', 'lengthAdjust', 'transform'],
  tspan: ['x', 'y', 'dx', 'dy', 'rotate', 'textLength', 'lengthAdjust'],
  pattern: ['x', 'y', 'width', 'height', 'patternUnits', 'patternContentUnits', 'patternTransform', 'viewBox', 'preserveAspectRatio'],
  clipPath: ['clipPathUnits', 'transform'],
  linearGradient: ['x1', 'y1', 'x2', 'y2', 'gradientUnits', 'gradientTransform', 'spreadMethod'],
  radialGradient: ['cx', 'cy', 'r', 'fx', 'fy', 'fr', 'gradientUnits', 'gradientTransform', 'spreadMethod'],
  stop: ['offset']
}
const COMMON = ['fill-rule', 'clip-rule', 'stroke-miterlimit', 'stroke-dashoffset'] as const
/** recharts' marks of the pointer (hover cursor, active dot): not part of the chart. */
const SKIPPED_CLASSES = ['recharts-tooltip-cursor', 'recharts-active-dot']
const SAFE_VALUE = /^[-\w\s.,#%()+]*$/

function convert(el: Element, parent: Style, parentOut: Style, ctx: ReadingContext, placement?: { x: number; y: number; width: number; height: number }): string {
  const tag = el.localName
  const geometry = GEOMETRY[tag]
  if (!geometry || SKIPPED_CLASSES.some((c) => el.classList.contains(c))) return ''
  const computed = getComputedStyle(el)
  if (computed.display === 'none' || computed.visibility === 'hidden' || computed.visibility === 'collapse') return ''
  const style = styleOf(el, parent, ctx)
  const out = outputStyle(style, el, ctx)
  let attrs = ''
  if (ctx.targets.get(el.id) === el) {
    attrs += ` id="${attr(el.id)}"`
    ctx.written.add(el.id)
  }
  for (const name of [...geometry, ...COMMON]) {
    if (placement && ['x', 'y', 'width', 'height'].includes(name)) continue
    // recharts animates with a CSS transform (identity once drawn); a CSS transform replaces the attribute
    if (name === 'transform' && (el as SVGElement).style?.transform) {
      const css = cssTransform(ctx.own(el, 'transform') ?? (el as SVGElement).style.transform)
      if (css !== undefined) {
        if (css) attrs += ` transform="${attr(css)}"`
        continue
      }
    }
    const value = el.getAttribute(name)
    if (value !== null && SAFE_VALUE.test(value)) attrs += ` ${name}="${attr(value)}"`
  }
  if (placement) attrs += ` x="${num(placement.x)}" y="${num(placement.y)}" width="${num(placement.width)}" height="${num(placement.height)}"`
  if (tag === 'stop') {
    const stop = ctx.colour(el, ctx.own(el, 'stop-color') ?? '#000000')
    attrs += ` stop-color="${attr(stop.value)}" stop-opacity="${num(opacityOf(ctx.own(el, 'stop-opacity') ?? '1') * stop.alpha)}"`
  }
  const clip = el.getAttribute('clip-path')
  if (clip) {
    const id = /^url\(\s*["']?[^"')]*#([^"')]+)["']?\s*\)$/.exec(clip.trim())?.[1]
    if (id && ctx.targets.has(id)) {
      ctx.referenced.add(id)
      attrs += ` clip-path="url(#${attr(id)})"`
    }
  }
  attrs += styleAttributes(out, parentOut, ctx.base.out)
  let inner = ''
  for (const node of el.childNodes) {
    if (node.nodeType === Node.TEXT_NODE && (tag === 'text' || tag === 'tspan')) inner += escapeXml((node as Text).data)
    else if (node instanceof Element) inner += convert(node, style, out, ctx)
  }
  // recharts' empty layers say nothing in a file
  if (!inner && (tag === 'g' || tag === 'defs')) return ''
  return `<${tag}${attrs}>${inner}</${tag}>`
}

/** A CSS transform as an SVG one: "" for none or the identity, undefined when it cannot say. */
function cssTransform(value: string): string | undefined {
  const v = value.trim()
  if (!v || v === 'none') return ''
  const parts: string[] = []
  for (const m of v.matchAll(/([a-zA-Z]+)\(([^)]*)\)/g)) {
    const fn = m[1]!
    const args = m[2]!.split(/[\s,]+/).filter(Boolean)
    const n = args.map((a) => parseFloat(a))
    if (n.some((x) => Number.isNaN(x))) return undefined
    if (fn === 'matrix' && n.length === 6) {
      if (n.join() !== '1,0,0,1,0,0') parts.push(`matrix(${n.map(num).join(' ')})`)
    } else if (fn === 'translate' || fn === 'translateX' || fn === 'translateY') {
      const [x, y] = fn === 'translateY' ? [0, n[0] ?? 0] : [n[0] ?? 0, fn === 'translate' ? (n[1] ?? 0) : 0]
      if (x !== 0 || y !== 0) parts.push(`translate(${num(x)} ${num(y)})`)
    } else if (fn === 'scale' || fn === 'scaleX' || fn === 'scaleY') {
      const [x, y] = fn === 'scaleX' ? [n[0] ?? 1, 1] : fn === 'scaleY' ? [1, n[0] ?? 1] : [n[0] ?? 1, n[1] ?? n[0] ?? 1]
      if (x !== 1 || y !== 1) parts.push(`scale(${num(x)} ${num(y)})`)
    } else if (fn === 'rotate' && /deg$|^0$/.test(args[0] ?? '')) {
      if (n[0] !== 0) parts.push(`rotate(${num(n[0]!)})`)
    } else return undefined
  }
  return parts.join(' ')
}

/** Paint servers referenced by what was written but living outside it (the hatch patterns). */
function referencedDefs(ctx: ReadingContext): string {
  let defs = ''
  for (;;) {
    const pending = [...ctx.referenced].filter((id) => !ctx.written.has(id))
    if (pending.length === 0) return defs
    for (const id of pending) {
      const el = ctx.targets.get(id)!
      const converted = convert(el, ctx.base.style, ctx.base.out, ctx)
      ctx.written.add(id)
      defs += converted
    }
  }
}

/** The card's plots in order (recharts charts, plain SVG plots, heat tables), under the card's own legend list when it has one. */
function plotBlocks(card: HTMLElement, ctx: ReadingContext): (Block | undefined)[] {
  const plots = [...card.querySelectorAll<HTMLElement>('.recharts-wrapper, .charts-static, table.charts-heat')].map((el) =>
    el.localName === 'table' ? heatTableBlock(el as HTMLTableElement, ctx) : el.classList.contains('charts-static') ? staticBlock(el, ctx) : rechartsBlock(el, ctx)
  )
  const legendList = card.querySelector<HTMLElement>('.charts-static-legend')
  const width = Math.max(0, ...plots.map((b) => b?.width ?? 0))
  return legendList && width > 0 ? [legendBlock(legendList, width, ctx), ...plots] : plots
}

// ---------------------------------------------------------------------------------------------
// A plot drawn as plain SVG: its marks, and the figures' names beside them

function staticBlock(plot: HTMLElement, ctx: ReadingContext): Block | undefined {
  const surface = plot.querySelector<SVGSVGElement>(':scope > svg.charts-static-svg')
  const box = surface ? viewBoxOf(surface) : undefined
  if (!surface || !box) return undefined
  const labels = [...plot.querySelectorAll<HTMLElement>(':scope > .charts-static-label')]
  return {
    width: box.width,
    height: box.height,
    draw(x, y) {
      const marks = convert(surface, ctx.base.style, ctx.base.out, ctx, { x, y, width: box.width, height: box.height })
      return marks + labels.map((label) => staticLabel(label, x, y, ctx)).join('')
    }
  }
}

/** A name in its box beside the plot (placed by its style), right-aligned and wrapped as on screen, centred on its row. */
function staticLabel(label: HTMLElement, x0: number, y0: number, ctx: ReadingContext): string {
  const at = (prop: 'left' | 'top' | 'width' | 'height'): number => parseFloat(label.style[prop]) || 0
  const size = Number(lengthOf(ctx.inherited(label, 'font-size') ?? '12px') ?? 12)
  const colour = ctx.colour(label, ctx.inherited(label, 'color') ?? MUTED_COLOUR)
  const lines = wrapText(visibleText(label), at('width'), size, 400, ctx.measure)
  const lineHeight = size * 1.2
  const first = y0 + at('top') + at('height') / 2 - ((lines.length - 1) * lineHeight) / 2 + size * 0.35
  return lines.map((line, i) => textEl(line, x0 + at('left') + at('width'), first + i * lineHeight, { size, colour, anchor: 'end' })).join('')
}

// ---------------------------------------------------------------------------------------------
// A recharts chart: its surface and its legend

interface LegendItem {
  icon?: SVGSVGElement
  text: string
  colour: Colour
  size: number
}

function rechartsBlock(wrapper: HTMLElement, ctx: ReadingContext): Block | undefined {
  const surface = [...wrapper.children].find((c): c is SVGSVGElement => c.localName === 'svg' && c.classList.contains('recharts-surface'))
  if (!surface) return undefined
  const box = viewBoxOf(surface)
  if (!box) return undefined
  const legendWrapper = wrapper.querySelector<HTMLElement>('.recharts-legend-wrapper')
  const items = legendWrapper ? legendItems(legendWrapper, ctx) : []
  const legend = layoutLegend(items, box.width, ctx)
  let legendTop = box.height + 8
  if (legendWrapper) {
    // Where recharts put the legend on screen (the room it kept under the plot), when there is layout.
    const s = surface.getBoundingClientRect()
    const l = legendWrapper.getBoundingClientRect()
    if (s.height > 0 && l.height > 0) {
      const scale = box.height / s.height
      // never over the drawing (the axis labels), should recharts not have kept the room
      const drawn = Math.max(0, ...[...surface.children].map((c) => c.getBoundingClientRect()).filter((r) => r.height > 0).map((r) => (r.bottom - s.top) * scale + 4))
      const top = Math.max((l.top - s.top) * scale, drawn)
      if (top >= 0 && top <= box.height) legendTop = top
    }
  }
  const height = items.length > 0 ? Math.max(box.height, legendTop + legend.height) : box.height
  return {
    width: box.width,
    height,
    draw(x, y) {
      const plot = convert(surface, ctx.base.style, ctx.base.out, ctx, { x, y, width: box.width, height: box.height })
      return plot + (items.length > 0 ? legend.draw(x, y + legendTop) : '')
    }
  }
}

function viewBoxOf(svg: SVGSVGElement): { width: number; height: number } | undefined {
  const viewBox = svg.getAttribute('viewBox')?.trim().split(/[\s,]+/).map(Number)
  if (viewBox && viewBox.length === 4 && viewBox[2]! > 0 && viewBox[3]! > 0) return { width: viewBox[2]!, height: viewBox[3]! }
  const width = parseFloat(svg.getAttribute('width') ?? '') || svg.getBoundingClientRect().width
  const height = parseFloat(svg.getAttribute('height') ?? '') || svg.getBoundingClientRect().height
  return width > 0 && height > 0 ? { width, height } : undefined
}

function legendItems(wrapper: HTMLElement, ctx: ReadingContext): LegendItem[] {
  return [...wrapper.querySelectorAll<HTMLElement>('li')].flatMap((li) => {
    const text = visibleText(li)
    if (!text) return []
    const holder = li.querySelector<HTMLElement>('.charts-legend-text') ?? li.querySelector<HTMLElement>('.recharts-legend-item-text') ?? li
    const icon = li.querySelector('svg') ?? undefined
    return [
      {
        icon,
        text,
        colour: ctx.colour(holder, ctx.inherited(holder, 'color') ?? TEXT_COLOUR),
        size: Number(lengthOf(ctx.inherited(holder, 'font-size') ?? '13px') ?? 13)
      }
    ]
  })
}

/** The legend in centred rows: swatch (the series' own icon) and name, as on screen. */
function layoutLegend(items: LegendItem[], width: number, ctx: ReadingContext): { height: number; draw(x: number, y: number): string } {
  const ICON = 14
  const ROW = 20
  const rows: { item: LegendItem; width: number }[][] = [[]]
  let used = 0
  for (const item of items) {
    const w = ICON + 4 + ctx.measure(item.text, item.size) + 10
    if (used > 0 && used + w > width) {
      rows.push([])
      used = 0
    }
    rows[rows.length - 1]!.push({ item, width: w })
    used += w
  }
  return {
    height: items.length > 0 ? rows.length * ROW : 0,
    draw(x0, y0) {
      return rows
        .map((row, r) => {
          const total = row.reduce((sum, i) => sum + i.width, 0) - 10
          let x = x0 + Math.max(0, (width - total) / 2)
          const middle = y0 + r * ROW + ROW / 2
          return row
            .map(({ item, width: w }) => {
              const swatch = item.icon ? iconSvg(item.icon, x, middle - ICON / 2, ICON, ctx) : ''
              const label = textEl(item.text, x + ICON + 4, middle + item.size * 0.35, { size: item.size, colour: item.colour })
              x += w
              return swatch + label
            })
            .join('')
        })
        .join('\n')
    }
  }
}

/** A legend item's own icon (its 32-unit drawing at 14 px), as a nested svg. */
function iconSvg(icon: SVGSVGElement, x: number, y: number, size: number, ctx: ReadingContext): string {
  const width = parseFloat(icon.getAttribute('width') ?? '') || size
  const height = parseFloat(icon.getAttribute('height') ?? '') || size
  return convert(icon, ctx.base.style, ctx.base.out, ctx, { x, y: y + (size - height) / 2, width, height })
}

// ---------------------------------------------------------------------------------------------
// Small multiples: the card's one legend above its small charts, in a grid of up to three columns

const MULTIPLES_COLUMNS = 3

function multiplesBlocks(card: HTMLElement, grid: HTMLElement, ctx: ReadingContext): (Block | undefined)[] {
  const charts = [...grid.querySelectorAll<HTMLElement>('.recharts-wrapper, .charts-static')]
    .map((el) => (el.classList.contains('charts-static') ? staticBlock(el, ctx) : rechartsBlock(el, ctx)))
    .filter((b): b is Block => b !== undefined)
  if (charts.length === 0) return []
  const columns = Math.min(MULTIPLES_COLUMNS, charts.length)
  const cell = Math.max(...charts.map((b) => b.width))
  const width = columns * cell + (columns - 1) * GAP
  const rows: Block[][] = []
  charts.forEach((b, i) => (i % columns === 0 ? rows.push([b]) : rows[rows.length - 1]!.push(b)))
  const heights = rows.map((row) => Math.max(...row.map((b) => b.height)))
  const gridBlock: Block = {
    width,
    height: heights.reduce((a, h) => a + h, 0) + (rows.length - 1) * GAP,
    draw(x, y) {
      let top = y
      return rows
        .map((row, r) => {
          const out = row.map((b, c) => b.draw(x + c * (cell + GAP), top)).join('\n')
          top += heights[r]! + GAP
          return out
        })
        .join('\n')
    }
  }
  const legendList = card.querySelector<HTMLElement>('.charts-multiples-legend')
  return legendList ? [legendBlock(legendList, width, ctx), gridBlock] : [gridBlock]
}

/** A card's legend list (one for all its charts) in rows `width` wide; nothing when it names nothing. */
function legendBlock(list: HTMLElement, width: number, ctx: ReadingContext): Block | undefined {
  const items = legendItems(list, ctx)
  if (items.length === 0) return undefined
  const legend = layoutLegend(items, width, ctx)
  return { width, height: legend.height, draw: (x, y) => legend.draw(x, y) }
}

// ---------------------------------------------------------------------------------------------
// A heat table (network matrix, iozone): drawn as a grid of rects with the cells' colours

interface HeatCellImage {
  text: string
  header: boolean
  size: number
  background: Colour
  colour: Colour
  weight: number
  anchor: 'start' | 'middle' | 'end'
}

function heatTableBlock(table: HTMLTableElement, ctx: ReadingContext): Block | undefined {
  const fontSize = Number(lengthOf(ctx.inherited(table, 'font-size') ?? '13px') ?? 13)
  const text = ctx.colour(table, TEXT_COLOUR)
  const muted = ctx.colour(table, MUTED_COLOUR)
  const rows = [...table.rows].map((tr) => {
    const inHead = tr.parentElement?.localName === 'thead'
    return {
      height: inHead ? 28 : 34,
      cells: [...tr.cells].map((cell): HeatCellImage => {
        const header = cell.localName === 'th'
        const align = ctx.own(cell, 'text-align')
        const size = Number(lengthOf(ctx.inherited(cell, 'font-size') ?? '') ?? fontSize)
        return {
          text: visibleText(cell),
          header,
          size,
          background: ctx.colour(cell, ctx.own(cell, 'background-color') ?? 'transparent'),
          colour: (() => {
            const own = ctx.inherited(cell, 'color')
            return own ? ctx.colour(cell, own) : header || cell.classList.contains('charts-heat-empty') ? muted : text
          })(),
          weight: Number(weightOf(ctx.own(cell, 'font-weight') ?? (header ? '600' : '400'))),
          anchor: align === 'left' ? 'start' : align === 'right' || align === 'end' ? 'end' : align === 'center' || align === '-webkit-center' ? 'middle' : header && !inHead ? 'end' : 'middle'
        }
      })
    }
  })
  if (rows.length === 0) return undefined
  const columns = Math.max(...rows.map((r) => r.cells.length))
  const widths = Array.from({ length: columns }, (_, c) =>
    Math.max(...rows.map((r) => r.cells[c]).map((cell) => (cell ? Math.max(ctx.measure(cell.text, cell.size, cell.weight) + 16, cell.header ? 0 : 76) : 0)))
  )
  const gridWidth = widths.reduce((a, b) => a + b, 0)
  const gridHeight = rows.reduce((a, r) => a + r.height, 0)
  const caption = table.caption ? visibleText(table.caption) : ''
  const captionHeight = caption ? 20 : 0
  const scroll = table.closest('.charts-scroll')
  const legendEl = scroll?.nextElementSibling?.matches('.charts-legend') ? (scroll.nextElementSibling as HTMLElement) : undefined
  const legend = legendEl ? heatLegend(legendEl, ctx, muted) : undefined
  const width = Math.max(gridWidth, caption ? ctx.measure(caption, 12) : 0, legend?.width ?? 0)
  return {
    width,
    height: captionHeight + gridHeight + (legend ? 8 + legend.height : 0),
    draw(x0, y0) {
      const parts: string[] = []
      if (caption) parts.push(textEl(caption, x0, y0 + 13, { size: 12, colour: muted }))
      let y = y0 + captionHeight
      for (const row of rows) {
        let x = x0
        row.cells.forEach((cell, c) => {
          const w = widths[c]!
          if (cell.background.value !== 'none') parts.push(`<rect x="${num(x + 1)}" y="${num(y + 1)}" width="${num(w - 2)}" height="${num(row.height - 2)}"${paintAttrs('fill', cell.background)}/>`)
          const tx = cell.anchor === 'start' ? x + 8 : cell.anchor === 'end' ? x + w - 8 : x + w / 2
          if (cell.text) parts.push(textEl(cell.text, tx, y + row.height / 2 + cell.size * 0.35, { size: cell.size, weight: cell.weight, colour: cell.colour, anchor: cell.anchor }))
          x += w
        })
        y += row.height
      }
      if (legend) parts.push(legend.draw(x0, y + 8))
      return `<g>${parts.join('')}</g>`
    }
  }
}

/** The scale under a heat table: "0", the colour steps, "30.2 Gbit/s (highest)". */
function heatLegend(p: HTMLElement, ctx: ReadingContext, muted: Colour): { width: number; height: number; draw(x: number, y: number): string } {
  const border = ctx.colour(p, BORDER_COLOUR)
  const pieces = [...p.children].map((child) =>
    child.classList.contains('charts-legend-steps')
      ? { steps: [...child.children].map((s) => ctx.colour(s, ctx.own(s, 'background-color') ?? 'transparent')), text: '' }
      : { steps: [] as Colour[], text: visibleText(child) }
  )
  const widthOf = (piece: (typeof pieces)[number]) => (piece.steps.length > 0 ? piece.steps.length * 22 : ctx.measure(piece.text, 12))
  const width = pieces.reduce((sum, piece) => sum + widthOf(piece) + 6, 0)
  return {
    width,
    height: 16,
    draw(x0, y0) {
      let x = x0
      return pieces
        .map((piece) => {
          let out = ''
          if (piece.steps.length > 0) {
            out = piece.steps
              .map((c, i) => `<rect x="${num(x + i * 22 + 0.5)}" y="${num(y0 + 2.5)}" width="21" height="11"${paintAttrs('fill', c)}${paintAttrs('stroke', border)}/>`)
              .join('')
          } else if (piece.text) out = textEl(piece.text, x, y0 + 12, { size: 12, colour: muted })
          x += widthOf(piece) + 6
          return out
        })
        .join('')
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Text

function textEl(text: string, x: number, y: number, o: { size: number; colour: Colour; weight?: number; anchor?: 'start' | 'middle' | 'end' }): string {
  const weight = o.weight && o.weight !== 400 ? ` font-weight="${o.weight}"` : ''
  const anchor = o.anchor && o.anchor !== 'start' ? ` text-anchor="${o.anchor}"` : ''
  return `<text x="${num(x)}" y="${num(y)}" font-size="${num(o.size)}"${weight}${anchor}${paintAttrs('fill', o.colour)}>${escapeXml(text)}</text>`
}

function paintAttrs(kind: 'fill' | 'stroke', colour: Colour): string {
  return ` ${kind}="${attr(colour.value)}"${colour.alpha < 1 ? ` ${kind}-opacity="${num(colour.alpha)}"` : ''}`
}

/** The text a sighted reader sees: not the visually hidden parts for screen readers, nor an icon's svg. */
function visibleText(el: Element): string {
  let text = ''
  for (const node of el.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) text += (node as Text).data
    else if (node instanceof HTMLElement && !node.classList.contains('visually-hidden') && getComputedStyle(node).display !== 'none') text += visibleText(node)
  }
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * How wide text is, for wrapping, legend rows and column widths: measured on a canvas where the
 * page has layout (a browser), else estimated from its characters.
 */
function textMeasurer(card: HTMLElement, font: string): (text: string, fontSize: number, weight?: number) => number {
  const context = card.getBoundingClientRect().width > 0 ? document.createElement('canvas').getContext('2d') : null
  if (!context) return estimatedWidth
  return (text, fontSize, weight = 400) => {
    context.font = `${weight} ${fontSize}px ${font}`
    return context.measureText(text).width
  }
}

/** A text's width in a sans-serif font from its characters (wide enough for the common fonts). */
export function estimatedWidth(text: string, fontSize: number, weight = 400): number {
  let em = 0
  for (const ch of text) {
    if (" .,:;!|'ilIjtf()[]".includes(ch)) em += 0.34
    else if (/[0-9]/.test(ch)) em += 0.64
    else if ('mwMW%@—'.includes(ch)) em += 0.95
    else if (/[A-Z]/.test(ch)) em += 0.74
    else em += 0.62
  }
  return em * fontSize * (weight >= 600 ? 1.1 : 1)
}

function wrapText(text: string, width: number, fontSize: number, weight: number, measure: ReadingContext['measure']): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word
    if (line && measure(next, fontSize, weight) > width) {
      lines.push(line)
      line = word
    } else line = next
  }
  if (line) lines.push(line)
  return lines
}

/** Text for an XML text node or attribute: markup characters escaped, characters XML forbids dropped. */
export function escapeXml(text: string): string {
  return [...text]
    .filter((ch) => xmlChar(ch.codePointAt(0)!))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

/** The characters XML 1.0 allows (no other control characters, no lone surrogates). */
function xmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || cp >= 0x10000
}

const attr = escapeXml

// ---------------------------------------------------------------------------------------------
// PNG

function svgSize(svgText: string): { width: number; height: number } {
  const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml')
  const root = doc.documentElement
  if (doc.querySelector('parsererror') || root.localName !== 'svg') throw new Error('The chart image is not a well-formed SVG document, so no PNG can be made from it.')
  const width = parseFloat(root.getAttribute('width') ?? '')
  const height = parseFloat(root.getAttribute('height') ?? '')
  if (!(width > 0 && height > 0)) throw new Error('The chart image has no width and height, so no PNG can be made from it.')
  return { width, height }
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image()
    image.onload = () => resolve(image)
    image.onerror = () => reject(new Error('The browser could not draw the chart image, so no PNG was made; save the SVG instead.'))
    image.src = url
  })
}
