import type { Verdict } from '../../../../shared/model/comparison'
import './palette.css'

/**
 * The charts' colours and marks. Series use the Okabe-Ito palette (safe for the common kinds of
 * colour blindness), the baseline first in a neutral grey-blue. Colour never carries meaning
 * alone: every series also has its own marker, dash and fill pattern, and relative figures carry
 * a sign and a word.
 *
 * Values are CSS variables (palette.css, one light-dark() pair each), so they follow the theme;
 * they work in `style={{}}` props and in SVG attributes (fill="var(--chart-series-1)").
 */

/** One series colour: its CSS value and the two hex values behind it (light, dark theme). */
export interface SeriesColour {
  /** What people call it, for a legend read aloud or a test. */
  name: string
  /** The CSS value to use: a variable that follows the theme. */
  css: string
  light: string
  dark: string
}

const series = (index: number, name: string, light: string, dark: string): SeriesColour => ({
  name,
  css: `var(--chart-series-${index}, ${light})`,
  light,
  dark
})

/** Baseline first, then the variants in plan order; more variants than colours cycle through 1..7. */
export const SERIES_COLOURS: readonly SeriesColour[] = [
  series(0, 'grey-blue', '#4a5a70', '#aab7c9'),
  series(1, 'blue', '#0072b2', '#56b4e9'),
  series(2, 'vermillion', '#d55e00', '#f0804a'),
  series(3, 'bluish green', '#009e73', '#2fc79b'),
  series(4, 'reddish purple', '#cc79a7', '#e09cc4'),
  series(5, 'orange', '#e69f00', '#f0b43a'),
  series(6, 'sky blue', '#56b4e9', '#8fd0f5'),
  series(7, 'yellow', '#8a7e00', '#f0e442')
]

/** The entry of series `index` (0 = the baseline). Variants beyond the palette reuse 1..7. */
export function seriesColour(index: number): SeriesColour {
  const i = Math.max(0, Math.trunc(index))
  if (i < SERIES_COLOURS.length) return SERIES_COLOURS[i]!
  return SERIES_COLOURS[1 + ((i - 1) % (SERIES_COLOURS.length - 1))]!
}

/** The CSS colour of series `index` (0 = the baseline). */
export function colourOf(index: number): string {
  return seriesColour(index).css
}

/** Outline for filled marks (bars, cells), so light hues keep an edge on both backgrounds. */
export const MARK_STROKE = 'var(--chart-mark-stroke, rgb(27 35 48 / 55%))'
/** Axis lines and tick text, grid lines, the reference line: theme variables. */
export const AXIS_COLOUR = 'var(--chart-axis, #5b6575)'
export const GRID_COLOUR = 'var(--chart-grid, #d9dee6)'
export const TEXT_COLOUR = 'var(--chart-text, #1b2330)'
export const REFERENCE_COLOUR = 'var(--chart-reference, #1b2330)'

// ---------------------------------------------------------------------------------------------
// Telling series apart without colour

/** recharts' symbol types, in the order series use them. */
export const SERIES_MARKERS = ['circle', 'square', 'triangle', 'diamond', 'cross', 'star', 'wye'] as const
export type SeriesMarker = (typeof SERIES_MARKERS)[number]

/** Line dashes (SVG stroke-dasharray); the baseline solid. */
export const SERIES_DASHES: readonly string[] = ['0', '6 3', '2 3', '8 3 2 3', '12 4', '2 6', '6 2 2 2 2 2']

/** Bar fills: the baseline solid, then hatchings (see SeriesPatterns in series-patterns.tsx). */
export const SERIES_PATTERNS = ['solid', 'diagonal', 'dots', 'crosshatch', 'horizontal', 'vertical', 'antidiagonal'] as const
export type SeriesPattern = (typeof SERIES_PATTERNS)[number]

const cycle = <T>(list: readonly T[], index: number): T => list[Math.max(0, Math.trunc(index)) % list.length]!

export function markerOf(index: number): SeriesMarker {
  return cycle(SERIES_MARKERS, index)
}

export function dashOf(index: number): string {
  return cycle(SERIES_DASHES, index)
}

export function patternOf(index: number): SeriesPattern {
  return cycle(SERIES_PATTERNS, index)
}

/** A character for the series' marker, for legends and tables in text. */
export function markerGlyph(index: number): string {
  const glyphs: Record<SeriesMarker, string> = {
    circle: '●',
    square: '■',
    triangle: '▲',
    diamond: '◆',
    cross: '✚',
    star: '★',
    wye: 'Y'
  }
  return glyphs[markerOf(index)]
}

// ---------------------------------------------------------------------------------------------
// Relative %: a diverging scale around 100 % (more is always better, docs/comparison.md)

export type RelativeTone = 'much-better' | 'better' | 'neutral' | 'worse' | 'much-worse'

/** Where the steps of the scale change, in relative %. */
export const RELATIVE_STEPS = { muchWorseBelow: 75, worseBelow: 95, betterAbove: 105, muchBetterAbove: 125 } as const

/**
 * The tone of a relative %: neutral within 95..105 %, and whenever the verdict is not a finding
 * (same, or the data cannot tell); undefined when there is no figure (shown as absence, never as a
 * colour). Without a verdict the figure alone decides (a chart of figures that were not compared).
 */
export function relativeTone(pct: number | undefined, verdict?: Verdict): RelativeTone | undefined {
  if (pct === undefined || !Number.isFinite(pct)) return undefined
  if (verdict !== undefined && verdict !== 'slower' && verdict !== 'faster') return 'neutral'
  if (pct > RELATIVE_STEPS.muchBetterAbove) return 'much-better'
  if (pct > RELATIVE_STEPS.betterAbove) return 'better'
  if (pct < RELATIVE_STEPS.muchWorseBelow) return 'much-worse'
  if (pct < RELATIVE_STEPS.worseBelow) return 'worse'
  return 'neutral'
}

export interface RelativeColour {
  tone: RelativeTone
  /** Text or mark colour (readable on the panel background in both themes). */
  colour: string
  /** A soft tint for a cell's background (the text keeps `colour` or the normal text colour). */
  background: string
  /** A sign that says the same without colour. */
  symbol: string
  /** The same in words, for a title or a screen reader. */
  words: string
}

const TONES: Record<RelativeTone, { light: string; bgLight: string; symbol: string; words: string }> = {
  'much-better': { light: '#005a8c', bgLight: '#cfe6f5', symbol: '▲▲', words: 'much better than the baseline' },
  better: { light: '#0072b2', bgLight: '#e6f2fa', symbol: '▲', words: 'better than the baseline' },
  neutral: { light: '#5b6575', bgLight: '#f1f3f6', symbol: '≈', words: 'about the same as the baseline' },
  worse: { light: '#b34f00', bgLight: '#fcebdc', symbol: '▼', words: 'worse than the baseline' },
  'much-worse': { light: '#8f3a00', bgLight: '#f7d3b5', symbol: '▼▼', words: 'much worse than the baseline' }
}

/** The colour, tint, sign and words of a tone. */
export function toneColour(tone: RelativeTone): RelativeColour {
  const t = TONES[tone]
  return {
    tone,
    colour: `var(--chart-rel-${tone}, ${t.light})`,
    background: `var(--chart-rel-${tone}-bg, ${t.bgLight})`,
    symbol: t.symbol,
    words: t.words
  }
}

/**
 * Blue for better than the baseline, vermillion for worse, grey near 100 % or when the verdict is
 * not a finding. Undefined without a figure.
 */
export function relativeColour(pct: number | undefined, verdict?: Verdict): RelativeColour | undefined {
  const tone = relativeTone(pct, verdict)
  return tone === undefined ? undefined : toneColour(tone)
}

// ---------------------------------------------------------------------------------------------
// Heatmaps: a sequential single-hue scale with a text colour per step

export const HEAT_STEPS = 6

/** The step (0..HEAT_STEPS-1) of `value` between `min` and `max`; the middle step when they are equal. */
export function heatStep(value: number, min: number, max: number): number {
  if (!(max > min)) return Math.floor(HEAT_STEPS / 2)
  const t = (value - min) / (max - min)
  return Math.min(HEAT_STEPS - 1, Math.max(0, Math.floor(t * HEAT_STEPS)))
}

/** Background and text colour of a heatmap cell at `step`. */
export function heatColours(step: number): { background: string; text: string } {
  const s = Math.min(HEAT_STEPS - 1, Math.max(0, Math.trunc(step)))
  return { background: `var(--chart-heat-${s})`, text: `var(--chart-heat-text-${s})` }
}
