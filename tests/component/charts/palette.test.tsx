import { describe, expect, it } from 'vitest'
import {
  colourOf,
  dashOf,
  HEAT_STEPS,
  heatColours,
  heatStep,
  markerGlyph,
  markerOf,
  patternOf,
  relativeColour,
  relativeTone,
  SERIES_COLOURS,
  SERIES_DASHES,
  SERIES_MARKERS,
  SERIES_PATTERNS,
  seriesColour
} from '../../../src/renderer/src/features/charts/palette'

describe('series colours', () => {
  it('starts with the neutral baseline, then the Okabe-Ito hues', () => {
    expect(SERIES_COLOURS.map((c) => c.name)).toEqual(['grey-blue', 'blue', 'vermillion', 'bluish green', 'reddish purple', 'orange', 'sky blue', 'yellow'])
    // Okabe-Ito's published values for the light theme
    expect(SERIES_COLOURS.slice(1, 7).map((c) => c.light)).toEqual(['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9'])
    expect(colourOf(0)).toBe('var(--chart-series-0, #4a5a70)')
    expect(colourOf(1)).toBe('var(--chart-series-1, #0072b2)')
  })

  it('cycles the variant colours, never giving a variant the baseline grey', () => {
    expect(seriesColour(8).name).toBe('blue')
    expect(seriesColour(14).name).toBe('yellow')
    expect(seriesColour(15).name).toBe('blue')
    for (let i = 1; i < 40; i++) expect(seriesColour(i).name).not.toBe('grey-blue')
  })

  it('gives every series a marker, a dash and a pattern, so colour is never the only cue', () => {
    expect(new Set(SERIES_MARKERS).size).toBe(SERIES_MARKERS.length)
    expect(new Set(SERIES_DASHES).size).toBe(SERIES_DASHES.length)
    expect(new Set(SERIES_PATTERNS).size).toBe(SERIES_PATTERNS.length)
    expect([markerOf(0), markerOf(1), markerOf(7)]).toEqual(['circle', 'square', 'circle'])
    expect(dashOf(0)).toBe('0')
    expect(patternOf(0)).toBe('solid')
    expect(patternOf(2)).toBe('dots')
    expect(markerGlyph(2)).toBe('▲')
  })
})

describe('relative % scale', () => {
  it('is blue above 105 %, vermillion below 95 %, neutral between, and neutral for a verdict that is no finding', () => {
    expect(relativeTone(126)).toBe('much-better')
    expect(relativeTone(125)).toBe('better')
    expect(relativeTone(105.5)).toBe('better')
    expect(relativeTone(105)).toBe('neutral')
    expect(relativeTone(95)).toBe('neutral')
    expect(relativeTone(94.9)).toBe('worse')
    expect(relativeTone(75)).toBe('worse')
    expect(relativeTone(43)).toBe('much-worse')
    // a slower or faster verdict keeps the figure's tone; the same, or "can't tell", is never coloured
    expect(relativeTone(43, 'slower')).toBe('much-worse')
    expect(relativeTone(126, 'faster')).toBe('much-better')
    expect(relativeTone(43, 'inconclusive')).toBe('neutral')
    expect(relativeTone(126, 'inconclusive')).toBe('neutral')
    expect(relativeTone(97, 'same')).toBe('neutral')
    expect(relativeTone(undefined, 'slower')).toBeUndefined()
    expect(relativeTone(undefined)).toBeUndefined()
    expect(relativeTone(Number.NaN)).toBeUndefined()
  })

  it('pairs each colour with a sign and words', () => {
    expect(relativeColour(126)).toEqual({
      tone: 'much-better',
      colour: 'var(--chart-rel-much-better, #005a8c)',
      background: 'var(--chart-rel-much-better-bg, #cfe6f5)',
      symbol: '▲▲',
      words: 'much better than the baseline'
    })
    expect(relativeColour(43)?.symbol).toBe('▼▼')
    expect(relativeColour(99)?.symbol).toBe('≈')
    expect(relativeColour(43, 'slower')?.symbol).toBe('▼▼')
    expect([relativeColour(43, 'inconclusive')?.tone, relativeColour(43, 'inconclusive')?.colour]).toEqual(['neutral', 'var(--chart-rel-neutral, #5b6575)'])
    expect(relativeColour(undefined)).toBeUndefined()
  })
})

describe('heat scale', () => {
  it('maps a value to one of the steps between min and max', () => {
    expect(heatStep(0, 0, 100)).toBe(0)
    expect(heatStep(16.7, 0, 100)).toBe(1)
    expect(heatStep(50, 0, 100)).toBe(3)
    expect(heatStep(100, 0, 100)).toBe(HEAT_STEPS - 1)
    expect(heatStep(7, 7, 7)).toBe(3)
    expect(heatColours(9)).toEqual({ background: 'var(--chart-heat-5)', text: 'var(--chart-heat-text-5)' })
  })
})
