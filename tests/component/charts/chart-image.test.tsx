import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRef, type ReactElement, type ReactNode } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { compare } from '../../../src/shared/compare'
import { comparisonInputOf } from '../../../src/shared/run-comparison'
import { ChartsSection, GroupedBarsChart, GroupedBarsGrid, NetworkMatrixHeatmap, RelativeChart } from '../../../src/renderer/src/features/charts'
import { chartFileName, chartPng, chartSvg, parseColour, resolveCss, slug } from '../../../src/renderer/src/features/charts/chart-image'
import { ChartImageMenu } from '../../../src/renderer/src/features/charts/chart-image-menu'
import { RELATIVE_LAYOUT } from '../../../src/renderer/src/features/charts/relative-plot'
import { ChartFileStemContext, chartSourceLine, ChartSourceContext } from '../../../src/renderer/src/features/charts/chart-parts'
import { reportFileStem } from '../../../src/shared/report'
import { groupedLoopbackRun, loopbackRun } from '../run-fixture'
import { iozoneRun, monitoredRun } from './chart-fixtures'

const run = loopbackRun()
const comparison = compare(comparisonInputOf(run))
const GUEST = 'guest (cache=none)'
const SVG_NS = 'http://www.w3.org/2000/svg'

// vitest does not load CSS: the app's stylesheets are added so the theme variables resolve as in the app.
const SHEETS = ['src/renderer/src/styles.css', 'src/renderer/src/features/charts/palette.css', 'src/renderer/src/features/charts/charts.css']
const added: HTMLStyleElement[] = []
beforeAll(() => {
  for (const file of SHEETS) {
    const style = document.createElement('style')
    style.textContent = readFileSync(join(__dirname, '../../..', file), 'utf8')
    document.head.append(style)
    added.push(style)
  }
})
afterAll(() => added.forEach((s) => s.remove()))
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

function card(title: string): HTMLElement {
  return screen.getByRole('region', { name: title })
}

/** The SVG parsed as XML, checked to be a standalone, well-formed document with nothing external. */
function standalone(svg: string): XMLDocument {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml')
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0)
  const root = doc.documentElement
  expect(root.localName).toBe('svg')
  expect(root.namespaceURI).toBe(SVG_NS)
  const width = Number(root.getAttribute('width'))
  const height = Number(root.getAttribute('height'))
  expect(width).toBeGreaterThan(0)
  expect(height).toBeGreaterThan(0)
  expect(root.getAttribute('viewBox')).toBe(`0 0 ${width} ${height}`)
  const background = root.querySelector(':scope > rect')!
  expect([background.getAttribute('width'), background.getAttribute('height'), background.getAttribute('fill')]).toEqual([String(width), String(height), '#ffffff'])
  expect(svg).not.toMatch(/var\(|light-dark\(|<script|foreignObject|href|\sclass=|\sstyle=|\son[a-z]+=/i)
  // every reference is to an element of this document
  const ids = new Set([...doc.querySelectorAll('[id]')].map((e) => e.id))
  const refs = [...svg.matchAll(/url\(([^)]*)\)/g)].map((m) => m[1]!)
  for (const ref of refs) {
    expect(ref.startsWith('#')).toBe(true)
    expect(ids).toContain(ref.slice(1))
  }
  return doc
}

const texts = (doc: XMLDocument): string[] => [...doc.querySelectorAll('text')].map((t) => t.textContent ?? '')

describe('chartSvg on a grouped bars chart', () => {
  it('draws the bars with literal colours, the hatch pattern they use, the title, the metric and the legend', () => {
    render(<GroupedBarsChart comparison={comparison} />)
    const section = card('Baseline and variants side by side')
    const svg = chartSvg(section, { title: 'Baseline and variants side by side' })
    const doc = standalone(svg)
    const all = texts(doc)
    expect(all.slice(0, 2)).toEqual(['Baseline and variants side by side', '4 KiB random read · Read IOPS'])
    expect(all).toEqual(expect.arrayContaining(['Read IOPS', '0', '10k op/s', '25k op/s', 'host', GUEST]))
    // legend drawn after the plot: the names in plan order
    expect(all.slice(-2)).toEqual(['host', GUEST])

    // the plot at its own size, under the title: its box's width (800 px here) and the figure's height
    const plot = doc.documentElement.querySelector(':scope > svg')!
    expect([plot.getAttribute('viewBox'), plot.getAttribute('width'), plot.getAttribute('height')]).toEqual(['0 0 800 300', '800', '300'])
    expect(doc.documentElement.getAttribute('width')).toBe('832')

    // the baseline solid grey-blue, the guest hatched blue through a pattern copied into the document
    const bars = [...plot.querySelectorAll('path')]
    expect(bars.map((b) => b.getAttribute('fill'))).toEqual(['#4a5a70', expect.stringMatching(/^url\(#vbc.*-p1\)$/)])
    for (const bar of bars) expect([bar.getAttribute('stroke'), bar.getAttribute('stroke-opacity')]).toEqual(['#1b2330', '0.55'])
    const patternId = /url\(#(.*)\)/.exec(bars[1]!.getAttribute('fill')!)![1]!
    const pattern = doc.getElementById(patternId)!
    expect(pattern.localName).toBe('pattern')
    expect(pattern.parentElement!.localName).toBe('defs')
    expect(pattern.querySelector('rect')!.getAttribute('fill')).toBe('#0072b2')
    const hatch = pattern.querySelector('path')!
    expect([hatch.getAttribute('stroke'), hatch.getAttribute('stroke-opacity'), hatch.getAttribute('stroke-width')]).toEqual(['#ffffff', '0.75', '1.6'])

    // theme variables resolved through their chain (--chart-axis -> --muted -> light-dark())
    const tick = [...plot.querySelectorAll('text')].find((t) => t.textContent === '25k op/s')!
    expect([tick.getAttribute('fill'), tick.getAttribute('font-size'), tick.getAttribute('text-anchor')]).toEqual(['#5b6575', '12', 'end'])
    const grid = plot.querySelector('line')!
    expect([grid.getAttribute('stroke'), grid.getAttribute('stroke-dasharray')]).toEqual(['#d9dee6', '3 3'])
    // the error bars' stroke is written once on their group and inherited by the lines
    const whiskers = [...plot.querySelectorAll('g[stroke="#1b2330"]')]
    expect(whiskers).toHaveLength(2)
    for (const g of whiskers) {
      expect(g.getAttribute('stroke-width')).toBe('1.5')
      expect([...g.querySelectorAll('line')].map((l) => l.getAttribute('stroke'))).toEqual([null, null, null])
    }

    // legend swatches: the series' own icons, the guest's with its hatch
    const swatches = [...doc.documentElement.querySelectorAll(':scope > svg[viewBox="0 0 32 32"] path')]
    expect(swatches.map((s) => s.getAttribute('fill'))).toEqual(['#4a5a70', `url(#${patternId})`])
  })

  it('says the metric the user picked, and leaves the card as it was', async () => {
    const user = userEvent.setup()
    render(<GroupedBarsChart comparison={comparison} />)
    const section = card('Baseline and variants side by side')
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Metric' }), 'mbw|mbw.memcpy.bandwidth|B/s|higher')
    const doc = standalone(chartSvg(section, { title: 'Baseline and variants side by side' }))
    expect(texts(doc).slice(0, 2)).toEqual(['Baseline and variants side by side', 'mbw mbw · Memcpy bandwidth'])
    expect(texts(doc)).toEqual(expect.arrayContaining(['iteration=0', 'iteration=1', 'overall']))
    expect(doc.documentElement.querySelector(':scope > svg')!.querySelectorAll('path')).toHaveLength(6)
    expect(section.getAttribute('style')).toBeNull()
  })

  it('takes the words of what is shown when given, and escapes every text', () => {
    render(<GroupedBarsChart comparison={comparison} />)
    const title = `<b>"Tom" & 'Jerry'</b>`
    const svg = chartSvg(card('Baseline and variants side by side'), { title, subtitle: 'a < b & c > d\u0007' })
    const doc = standalone(svg)
    expect(texts(doc).slice(0, 2)).toEqual([title, 'a < b & c > d'])
    expect(doc.querySelector('title')!.textContent).toBe(`${title}: a < b & c > d`)
    expect(doc.getElementsByTagName('b')).toHaveLength(0)
  })
})

/** The bars of a relative chart's image (outlined in the text colour) and the verdicts of its card's table, in order. */
function barsAndVerdicts(image: XMLDocument, section: HTMLElement): { bars: Element[]; verdicts: (string | null | undefined)[] } {
  return {
    bars: [...image.querySelectorAll('rect')].filter((p) => p.getAttribute('stroke') === '#1b2330'),
    verdicts: within(section)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.querySelectorAll('td')[2]?.textContent)
  }
}

/** A bar's fill and its opacity: pale grey (#5b6575 at 0.45) for no finding, blue (#0072b2) for 105..125 % faster. */
const fillOf = (bar: Element): (string | null)[] => [bar.getAttribute('fill'), bar.getAttribute('fill-opacity')]
const GREY = ['#5b6575', '0.45']

describe('chartSvg on the relative chart', () => {
  it('keeps the 100 % line, the intervals, the labels and the tone of each bar', () => {
    render(<RelativeChart comparison={comparison} />)
    const section = card('Relative to the baseline')
    const doc = standalone(chartSvg(section, { title: 'Relative to the baseline' }))
    const shown = within(section).getByRole('combobox', { name: 'Show' }) as HTMLSelectElement
    expect(texts(doc).slice(0, 2)).toEqual(['Relative to the baseline', shown.selectedOptions[0]!.textContent])
    expect(texts(doc)).toEqual(expect.arrayContaining(['100 %', "103 % ≈ can't tell", "110 % ≈ can't tell", '0 %', '4 KiB random read · Read IOPS']))

    const line = doc.querySelector('line[stroke-dasharray="4 3"]')!
    expect([line.getAttribute('stroke'), line.getAttribute('stroke-width')]).toEqual(['#1b2330', '1.5'])

    // the eight primary figures: none a finding, every bar pale grey as on screen
    const primary = barsAndVerdicts(doc, section)
    expect(primary.bars).toHaveLength(8)
    expect(primary.verdicts).toEqual(Array<string>(8).fill("can't tell"))
    expect(primary.bars.map(fillOf)).toEqual(Array<string[]>(8).fill(GREY))
    // an interval reaching past the axis' end stops at it: no whisker runs into the labels' column
    const plot = doc.documentElement.querySelector(':scope > svg')!
    const plotEnd = Number(plot.getAttribute('width')) - RELATIVE_LAYOUT.right
    const ends = [...plot.querySelectorAll('line')].flatMap((l) => [Number(l.getAttribute('x1')), Number(l.getAttribute('x2'))])
    expect(ends.length).toBeGreaterThan(8)
    expect(Math.max(...ends)).toBeLessThanOrEqual(plotEnd + 0.5)
  })

  it.each([
    // the recorded run, its repetitions compared pair by pair (they ran interleaved): no finding, every bar grey
    { schedule: 'interleaved', of: comparison, verdicts: ["can't tell", "can't tell", "can't tell"], fills: [GREY, GREY, GREY], label: "114 % ≈ can't tell" },
    // the same figures run grouped (Welch): the second iteration faster, blue (105..125 %), the others grey
    {
      schedule: 'grouped',
      of: compare(comparisonInputOf(groupedLoopbackRun())),
      verdicts: ["can't tell", 'faster', "can't tell"],
      fills: [GREY, ['#0072b2', null], GREY],
      label: '114 % ▲ faster'
    }
  ])("keeps the tone and the label of mbw's mcblock in each label set ($schedule)", async ({ of, verdicts, fills, label }) => {
    render(<RelativeChart comparison={of} />)
    const section = card('Relative to the baseline')
    await userEvent.setup().selectOptions(within(section).getByRole('combobox', { name: 'Show' }), 'metric:mbw|mbw.mcblock.bandwidth|B/s|higher')
    const mcblock = standalone(chartSvg(section, { title: 'Relative to the baseline' }))
    const { bars, verdicts: shown } = barsAndVerdicts(mcblock, section)
    expect(shown).toEqual(verdicts)
    expect(bars.map(fillOf)).toEqual(fills)
    // the bar labels' centring survives
    const at = texts(mcblock).indexOf(label)
    expect(at).toBeGreaterThan(0)
    expect(mcblock.querySelectorAll('text')[at]!.getAttribute('dominant-baseline')).toBe('central')
  })
})

describe('chartSvg on a heat table', () => {
  it('draws the network matrix as a grid with every cell text, in order, on the cells’ colours', async () => {
    render(<NetworkMatrixHeatmap run={run} />)
    await userEvent.setup().selectOptions(within(card('Network matrix')).getByRole('combobox', { name: 'Figure' }), 'iperf3|iperf3.received.bandwidth|target->peer')
    const svg = chartSvg(card('Network matrix'), { title: 'Network matrix' })
    const doc = standalone(svg)
    expect(texts(doc)).toEqual([
      'Network matrix',
      'iperf3 iperf3 · Received bandwidth (target->peer)',
      'iperf3 iperf3 · Received bandwidth (target->peer): source (rows) to destination (columns)',
      'from ↓ to →',
      'host',
      GUEST,
      'host',
      '—',
      '29.1 Gbit/s',
      GUEST,
      '30.2 Gbit/s',
      '—',
      '0',
      '30.2 Gbit/s (highest)'
    ])
    expect(svg).toContain('(target-&gt;peer)')
    expect(svg).not.toContain('the same machine')
    // both measured pairs are in the darkest step, white text on it; the empty cells have no fill
    const cells = [...doc.querySelectorAll('rect[fill="#0b4f80"]')].filter((r) => r.getAttribute('height') === '32')
    expect(cells).toHaveLength(2)
    for (const value of ['29.1 Gbit/s', '30.2 Gbit/s']) {
      expect([...doc.querySelectorAll('text')].find((t) => t.textContent === value)!.getAttribute('fill')).toBe('#ffffff')
    }
    // the scale: six steps from the palette, light to dark, each with its border
    const steps = [...doc.querySelectorAll('rect[stroke="#d9dee6"]')]
    expect(steps.map((s) => s.getAttribute('fill'))).toEqual(['#f2f7fb', '#d4e6f3', '#a9cfe9', '#6fb0dc', '#1f72ad', '#0b4f80'])
  })

  it('follows the figure the user picked', async () => {
    const user = userEvent.setup()
    render(<NetworkMatrixHeatmap run={run} />)
    const section = card('Network matrix')
    // bandwidth leads: iperf3's received bandwidth first, then ping's round trip when picked
    expect(texts(standalone(chartSvg(section, { title: 'Network matrix' }))).slice(0, 2)).toEqual(['Network matrix', 'iperf3 iperf3 · Received bandwidth (target->peer)'])
    await user.selectOptions(within(section).getByRole('combobox', { name: 'Figure' }), 'ping|ping.rtt.avg|')
    const doc = standalone(chartSvg(section, { title: 'Network matrix' }))
    const cells = within(section)
      .getAllByRole('cell')
      .map((c) => c.firstChild?.textContent ?? '')
    expect(cells).toEqual(['—', '17.0 µs', '29.0 µs', '—'])
    expect(texts(doc).slice(0, 3)).toEqual(['Network matrix', 'ping ping · Average round trip', 'ping ping · Average round trip: source (rows) to destination (columns)'])
    for (const text of cells) expect(texts(doc)).toContain(text.trim())
  })
})

describe('chartSvg on the small multiples', () => {
  it('draws the one legend above every small chart, side by side', () => {
    render(<GroupedBarsGrid comparison={comparison} />)
    const section = card('Baseline and variants side by side')
    const doc = standalone(chartSvg(section, { title: 'Baseline and variants side by side', subtitle: 'Storage: primary metrics' }))
    const all = texts(doc)
    expect(all.slice(0, 4)).toEqual(['Baseline and variants side by side', 'Storage: primary metrics', 'host', GUEST])
    // three small charts, each a plot of its own with its own ticks
    const plots = [...doc.documentElement.children].filter((c) => c.localName === 'svg' && c.querySelector('rect'))
    expect(plots.length).toBeGreaterThanOrEqual(3)
    expect(all).toEqual(expect.arrayContaining(['30k op/s', '40 GiB/s']))
    expect(chartSourceLine({ name: 'Twenty guests', createdAt: '2026-11-20T10:00:00Z', baseline: 'host', variants: Array.from({ length: 20 }, (_, i) => `guest-${i}`) })).toBe(
      'Twenty guests · 20 Nov 2026 · host vs 20 variants'
    )
  })
})

describe('chartSvg on every chart of a run', () => {
  it.each([
    // iozone's grid is a chart of its own only when the comparison has no iozone rows (else the study section draws it)
    ['iozone: file size × record size', iozoneRun(), comparison],
    ['Host monitor: guest-visible and host-visible I/O', monitoredRun(), compare(comparisonInputOf(monitoredRun()))]
    // every card of a run, small multiples included: slow to draw in jsdom, so a longer timeout
  ])('gives a standalone SVG of each card, its title first, with "%s" among them', { timeout: 20_000 }, (expected, doc, against) => {
    const { container } = render(<ChartsSection run={doc} comparison={against} />)
    const cards = [...container.querySelectorAll<HTMLElement>('section.charts-card')]
    const titles = cards.map((c) => c.querySelector('h3')!.textContent!)
    expect(titles).toContain(expected)
    for (const [i, section] of cards.entries()) {
      const image = standalone(chartSvg(section, { title: titles[i]! }))
      expect(texts(image)[0]).toBe(titles[i])
      // every figure a heat table shows is in the image
      for (const cell of section.querySelectorAll('table.charts-heat td')) {
        expect(texts(image)).toContain(cell.firstChild!.textContent!.trim())
      }
    }
  })
})

describe('chartSvg without a chart', () => {
  it('says there is nothing to save', () => {
    render(
      <section aria-label="Empty">
        <h3>Empty</h3>
        <p className="charts-empty">No results yet</p>
      </section>
    )
    expect(() => chartSvg(card('Empty'), { title: 'Empty' })).toThrow('"Empty" has no chart drawn yet, so there is nothing to save.')
  })
})

describe('CSS values', () => {
  const vars: Record<string, string> = { '--a': 'light-dark(#010203, #040506)', '--b': 'var(--a)', '--c': 'var(--missing)' }
  const lookup = (name: string) => vars[name]

  it('resolves var() chains, fallbacks and light-dark() to the light value', () => {
    expect(resolveCss('var(--b)', lookup)).toBe('#010203')
    expect(resolveCss('var(--missing, rgb(27 35 48 / 55%))', lookup)).toBe('rgb(27 35 48 / 55%)')
    expect(resolveCss('var(--c, var(--a))', lookup)).toBe('#010203')
    expect(resolveCss('var(--missing)', lookup)).toBeUndefined()
    expect(resolveCss('1px solid var(--a)', lookup)).toBe('1px solid #010203')
  })

  it('writes colours as hex with their alpha apart', () => {
    expect(parseColour('rgb(27 35 48 / 55%)')).toEqual({ value: '#1b2330', alpha: 0.55 })
    expect(parseColour('rgba(0, 114, 178, 0.5)')).toEqual({ value: '#0072b2', alpha: 0.5 })
    expect(parseColour('rgb(0, 114, 178)')).toEqual({ value: '#0072b2', alpha: 1 })
    expect(parseColour('#abc')).toEqual({ value: '#aabbcc', alpha: 1 })
    expect(parseColour('rgba(0, 0, 0, 0)')).toEqual({ value: 'none', alpha: 1 })
    expect(parseColour('transparent')).toEqual({ value: 'none', alpha: 1 })
    expect(parseColour('url(#x)')).toBeUndefined()
  })

  it('names files after the run and the chart', () => {
    expect(chartFileName('loopback-quick', 'iozone: file size × record size', 'png')).toBe('loopback-quick-iozone-file-size-record-size.png')
    expect(chartFileName('a/b: c', 'Réseau', 'svg')).toBe('a-b-c-reseau.svg')
    expect(slug('≈')).toBe('chart')
  })
})

// ---------------------------------------------------------------------------------------------
// PNG: jsdom cannot load or rasterise images, so the image and the canvas are stand-ins that
// record what chartPng asks of them (the real rendering is checked in Chromium).

interface Drawn {
  src: string
  args: unknown[]
}

function fakeRaster(options: { imageFails?: boolean; noCanvas?: boolean } = {}): Drawn[] {
  const drawn: Drawn[] = []
  class FakeImage {
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    private url = ''
    get src(): string {
      return this.url
    }
    set src(url: string) {
      this.url = url
      setTimeout(() => (options.imageFails ? this.onerror?.() : this.onload?.()), 0)
    }
  }
  vi.stubGlobal('Image', FakeImage)
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    () => (options.noCanvas ? null : { drawImage: (image: FakeImage, ...args: unknown[]) => drawn.push({ src: image.src, args }) }) as unknown as RenderingContext
  )
  vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (this: HTMLCanvasElement, callback: BlobCallback, type?: string) {
    callback(new Blob([`${this.width}x${this.height}`], { type }))
  })
  return drawn
}

describe('chartPng', () => {
  it('draws the SVG from a data: URL onto a canvas at twice its size', async () => {
    render(<NetworkMatrixHeatmap run={run} />)
    const svg = chartSvg(card('Network matrix'), { title: 'Network matrix' })
    const root = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement
    const [width, height] = [Number(root.getAttribute('width')), Number(root.getAttribute('height'))]
    const drawn = fakeRaster()
    const png = await chartPng(svg)
    expect(png.type).toBe('image/png')
    expect(await png.text()).toBe(`${width * 2}x${height * 2}`)
    expect(drawn).toHaveLength(1)
    expect(drawn[0]!.args).toEqual([0, 0, width * 2, height * 2])
    const prefix = 'data:image/svg+xml;charset=utf-8,'
    expect(drawn[0]!.src.startsWith(prefix)).toBe(true)
    expect(decodeURIComponent(drawn[0]!.src.slice(prefix.length))).toBe(svg)
  })

  it('says why when there is no image to make', async () => {
    fakeRaster({ imageFails: true })
    await expect(chartPng('<svg')).rejects.toThrow('The chart image is not a well-formed SVG document, so no PNG can be made from it.')
    await expect(chartPng(`<svg xmlns="${SVG_NS}" width="10" height="10"/>`)).rejects.toThrow('The browser could not draw the chart image, so no PNG was made; save the SVG instead.')
    await expect(chartPng(`<svg xmlns="${SVG_NS}"/>`)).rejects.toThrow('The chart image has no width and height, so no PNG can be made from it.')
  })
})

// ---------------------------------------------------------------------------------------------
// The menu

interface Download {
  fileName: string
  blob: Blob
}

/** Downloads through <a download> and an object URL, recorded (jsdom has no object URLs). */
function recordDownloads(): Download[] {
  const downloads: Download[] = []
  const blobs = new Map<string, Blob>()
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:chart-${blobs.size}`
      blobs.set(url, blob)
      return url
    },
    revokeObjectURL: () => undefined
  })
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ fileName: this.download, blob: blobs.get(this.href)! })
  })
  return downloads
}

/** A chart with the menu its ChartCard draws (file names start with the run's stem), or the menu alone over nothing. */
function Card({ title, children }: { title: string; children?: ReactNode }): ReactElement {
  const ref = useRef<HTMLDivElement>(null)
  if (children) return <ChartFileStemContext value="loopback-quick">{children}</ChartFileStemContext>
  return (
    <div ref={ref}>
      <ChartImageMenu cardRef={ref} title={title} fileStem="loopback-quick" />
    </div>
  )
}

describe('ChartImageMenu', () => {
  it('saves the chart as SVG from the keyboard, named after the run and the chart', async () => {
    const downloads = recordDownloads()
    const user = userEvent.setup()
    render(
      <Card title="Baseline and variants side by side">
        <GroupedBarsChart comparison={comparison} />
      </Card>
    )
    const svgButton = screen.getByRole('button', { name: 'Save Baseline and variants side by side as SVG' })
    const pngButton = screen.getByRole('button', { name: 'Save Baseline and variants side by side as PNG' })
    expect([svgButton.textContent, pngButton.textContent]).toEqual(['SVG', 'PNG'])
    await user.tab()
    expect(document.activeElement).toBe(svgButton)
    await user.keyboard('{Enter}')
    expect(downloads.map((d) => d.fileName)).toEqual(['loopback-quick-baseline-and-variants-side-by-side.svg'])
    expect(downloads[0]!.blob.type).toBe('image/svg+xml')
    const doc = standalone(await downloads[0]!.blob.text())
    expect(texts(doc)).toEqual(expect.arrayContaining(['Baseline and variants side by side', '4 KiB random read · Read IOPS', 'host', GUEST]))
    expect(screen.getByRole('status').textContent).toBe('')
    await user.tab()
    expect(document.activeElement).toBe(pngButton)
  })

  it('carries the run’s name, date and targets in the image, and a file name that tells two runs of a day apart', async () => {
    const downloads = recordDownloads()
    const user = userEvent.setup()
    const source = chartSourceLine({ name: run.name, createdAt: run.createdAt, baseline: comparison.baseline, variants: comparison.variants })
    expect(source).toBe(`Loopback quick comparison · 21 Nov 2026 · host vs ${GUEST}`)
    render(
      <ChartFileStemContext value={reportFileStem(run)}>
        <ChartSourceContext value={source}>
          <GroupedBarsChart comparison={comparison} />
        </ChartSourceContext>
      </ChartFileStemContext>
    )
    await user.click(screen.getByRole('button', { name: 'Save Baseline and variants side by side as SVG' }))
    expect(downloads.map((d) => d.fileName)).toEqual([`virtbench-Loopback-quick-comparison-${run.id}-baseline-and-variants-side-by-side.svg`])
    const lines = texts(standalone(await downloads[0]!.blob.text()))
    expect(lines.slice(0, 3)).toEqual(['Baseline and variants side by side', '4 KiB random read · Read IOPS', source])
    // a second run of that day, even of the same name, saves under another name
    const later = { ...run, id: '20261121-131500-a1b2c3', createdAt: '2026-11-21T13:15:00.000Z' }
    expect(reportFileStem(later)).not.toBe(reportFileStem(run))
    expect(reportFileStem({ name: 'Example', createdAt: '2026-11-21T10:00:00Z', id: 'example-study-001' })).toBe('virtbench-Example-2026-11-21-example-study-001')
  })

  it('saves the chart as PNG', async () => {
    const downloads = recordDownloads()
    fakeRaster()
    const user = userEvent.setup()
    render(
      <Card title="Network matrix">
        <NetworkMatrixHeatmap run={run} />
      </Card>
    )
    await user.click(screen.getByRole('button', { name: 'Save Network matrix as PNG' }))
    await waitFor(() => expect(downloads).toHaveLength(1))
    expect(downloads[0]!.fileName).toBe('loopback-quick-network-matrix.png')
    expect(downloads[0]!.blob.type).toBe('image/png')
    expect(screen.getByRole('status').textContent).toBe('')
  })

  it('says beside the buttons why nothing was saved', async () => {
    const downloads = recordDownloads()
    fakeRaster({ noCanvas: true })
    const user = userEvent.setup()
    render(<Card title="Empty" />)
    await user.click(screen.getByRole('button', { name: 'Save Empty as SVG' }))
    expect(screen.getByRole('status').textContent).toBe('Could not save Empty as SVG: "Empty" has no chart drawn yet, so there is nothing to save.')
    render(
      <Card title="Network matrix">
        <NetworkMatrixHeatmap run={run} />
      </Card>
    )
    await user.click(screen.getByRole('button', { name: 'Save Network matrix as PNG' }))
    await waitFor(() =>
      expect(screen.getAllByRole('status')[1]!.textContent).toBe('Could not save Network matrix as PNG: This window cannot draw on a canvas, so no PNG can be made; save the SVG instead.')
    )
    expect(downloads).toHaveLength(0)
  })
})
